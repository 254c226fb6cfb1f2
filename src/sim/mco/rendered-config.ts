/**
 * Rendered MachineConfigs as the MCO's render controller names and labels them
 * (docs/design/cluster-model.md#rendered-configs): `rendered-<pool>-<md5 hex>`, one per release and
 * pool, with the controller-version and release-version annotations and the pool as controlling
 * owner. The contents are not merged from real Ignition; what an operator reads (names, sources,
 * annotations, osImageURL) is.
 */
import { createHash } from 'node:crypto';
import type { ObjectReference } from 'kubernetes-types/core/v1.js';
import {
  LABEL_MACHINE_CONFIG_ROLE,
  RenderedMachineConfigAnnotation,
  type MachineConfig,
} from '../../api/openshift/machineconfiguration-v1/machine-config.js';
import type {
  MachineConfigPool,
  MachineConfigPoolStatusConfiguration,
} from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { MASTER_POOL, WORKER_POOL } from './node-state.js';

const MC_API_VERSION = 'machineconfiguration.openshift.io/v1';
/** Ignition spec version of the configs the MCO renders in 4.14–4.16. */
const IGNITION_VERSION = '3.4.0';

/** `rendered-<pool>-<md5 of release and pool>`: stable per release and pool, new on every release. */
export function renderedConfigName(pool: string, version: string): string {
  return `rendered-${pool}-${createHash('md5').update(`${version}/${pool}`).digest('hex')}`;
}

/**
 * The MCO commit that rendered configs carry in `generated-by-controller-version`: the
 * `io.openshift.build.commit.id` the release payload model gives the machine-config-operator image.
 */
export function controllerVersionFor(version: string): string {
  return createHash('sha1').update(`${version}/machine-config-operator`).digest('hex');
}

/**
 * The pull spec of a component image of a release, by the same rule as the payload model's
 * image-references (`src/sim/releases/payload.ts`), so the two agree.
 */
export function componentImageFor(version: string, image: string): string {
  return `quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:${createHash('sha256').update(`${version}/${image}`).digest('hex')}`;
}

/** The RHCOS image of a release (`rhel-coreos` in image-references). */
export function osImageUrlFor(version: string): string {
  return componentImageFor(version, 'rhel-coreos');
}

/** The role whose base MachineConfigs a pool merges: its own for master, worker's for every other pool. */
export function baseRoleOf(pool: string): string {
  return pool === MASTER_POOL ? MASTER_POOL : WORKER_POOL;
}

/** Names of the base MachineConfigs of a role, in merge order, as on a 4.14 cluster. */
export function baseConfigNames(role: string): string[] {
  return [
    `00-${role}`,
    `01-${role}-container-runtime`,
    `01-${role}-kubelet`,
    `97-${role}-generated-kubelet`,
    `98-${role}-generated-kubelet`,
    `99-${role}-generated-registries`,
    `99-${role}-ssh`,
  ];
}

/** `spec.configuration` of a pool at a release: the rendered name and its sources. */
export function poolConfiguration(pool: string, version: string): MachineConfigPoolStatusConfiguration {
  const source: ObjectReference[] = baseConfigNames(baseRoleOf(pool)).map((name) => ({
    apiVersion: MC_API_VERSION,
    kind: 'MachineConfig',
    name,
  }));
  return { name: renderedConfigName(pool, version), source };
}

/** A base MachineConfig (`00-worker` …) of a role, as the template controller writes it. */
export function baseMachineConfig(name: string, role: string, version: string): MachineConfig {
  const spec: MachineConfig['spec'] = { config: { ignition: { version: IGNITION_VERSION } } };
  if (name.startsWith('00-')) spec.osImageURL = osImageUrlFor(version);
  return {
    apiVersion: MC_API_VERSION,
    kind: 'MachineConfig',
    metadata: {
      name,
      labels: { [LABEL_MACHINE_CONFIG_ROLE]: role },
      annotations: { [RenderedMachineConfigAnnotation.GeneratedByControllerVersion]: controllerVersionFor(version) },
    },
    spec,
  };
}

/** The rendered MachineConfig of a pool at a release, owned by the pool. */
export function renderedMachineConfig(pool: MachineConfigPool, version: string): MachineConfig {
  const poolName = pool.metadata?.name ?? '';
  const ownerRef = {
    apiVersion: MC_API_VERSION,
    kind: 'MachineConfigPool',
    name: poolName,
    uid: pool.metadata?.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
  return {
    apiVersion: MC_API_VERSION,
    kind: 'MachineConfig',
    metadata: {
      name: renderedConfigName(poolName, version),
      annotations: {
        [RenderedMachineConfigAnnotation.GeneratedByControllerVersion]: controllerVersionFor(version),
        [RenderedMachineConfigAnnotation.ReleaseImageVersion]: version,
      },
      ownerReferences: [ownerRef],
    },
    spec: {
      config: { ignition: { version: IGNITION_VERSION } },
      osImageURL: osImageUrlFor(version),
      kernelArguments: [],
      extensions: [],
      fips: false,
      kernelType: 'default',
    },
  };
}
