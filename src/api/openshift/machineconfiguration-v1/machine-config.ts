/**
 * The MCO's MachineConfig (machineconfiguration.openshift.io/v1, cluster-scoped, short name
 * `mc`). Rendered configs are named `rendered-<pool>-<hash>`. Plain JSON shapes.
 */
import type { JsonObject } from '../../../lib/json.js';
import { resource, type KubeObjectLike } from '../../resource.js';

/** `spec` of a MachineConfig. */
export interface MachineConfigSpec {
  /** An Ignition config, kept as JSON. */
  config?: JsonObject;
  kernelArguments?: string[];
  extensions?: string[];
  fips?: boolean;
  kernelType?: string;
  osImageURL?: string;
  baseOSExtensionsContainerImage?: string;
}

/** MachineConfig object. */
export interface MachineConfig extends KubeObjectLike {
  spec?: MachineConfigSpec;
}

/** Descriptor of machineconfiguration.openshift.io/v1 MachineConfig. */
export const MachineConfigResource = resource<MachineConfig>({
  group: 'machineconfiguration.openshift.io',
  version: 'v1',
  kind: 'MachineConfig',
  plural: 'machineconfigs',
  namespaced: false,
});

/** Label naming the role (pool) a MachineConfig belongs to. */
export const LABEL_MACHINE_CONFIG_ROLE = 'machineconfiguration.openshift.io/role';

/** Annotations on rendered MachineConfigs. */
export const RenderedMachineConfigAnnotation = {
  GeneratedByControllerVersion: 'machineconfiguration.openshift.io/generated-by-controller-version',
  ReleaseImageVersion: 'machineconfiguration.openshift.io/release-image-version',
} as const;

/** Prefix of rendered config names: `rendered-<pool>-<hash>`. */
export const RENDERED_CONFIG_PREFIX = 'rendered-';
