/**
 * The CustomResourceDefinitions of the OpenShift kinds the simulated cluster serves (and the
 * simulator installs on an external API server): names, scope, short names, printer columns
 * and subresources as openshift/api declares them, schemas from the `*-schema.ts` files.
 * Loads TypeBox; the operator's runtime never imports it.
 */
import type { TObject } from 'typebox';
import type { JsonObject } from '../../lib/json.js';
import { crdFor, type PrinterColumn } from '../schema.js';
import { CLUSTER_VERSION_PRINTER_COLUMNS, ClusterVersionSchema } from './config-v1/cluster-version-schema.js';
import { CLUSTER_OPERATOR_PRINTER_COLUMNS, ClusterOperatorSchema } from './config-v1/cluster-operator-schema.js';
import { InfrastructureSchema } from './config-v1/infrastructure-schema.js';
import {
  MACHINE_CONFIG_POOL_PRINTER_COLUMNS,
  MachineConfigPoolSchema,
} from './machineconfiguration-v1/machine-config-pool-schema.js';
import {
  MACHINE_CONFIG_PRINTER_COLUMNS,
  MachineConfigSchema,
} from './machineconfiguration-v1/machine-config-schema.js';
import {
  MACHINE_SET_PRINTER_COLUMNS,
  MACHINE_SET_SCALE,
  MachineSetSchema,
} from './machine-v1beta1/machine-set-schema.js';
import { MACHINE_PRINTER_COLUMNS, MachineSchema } from './machine-v1beta1/machine-schema.js';
import { FileIntegritySchema } from './fileintegrity-v1alpha1/file-integrity-schema.js';

/** The `scale` subresource paths of a CRD version. */
export interface ScaleSubresource {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

interface KindCrd {
  group: string;
  version: string;
  kind: string;
  plural: string;
  scope: 'Namespaced' | 'Cluster';
  shortNames?: readonly string[];
  schema: TObject;
  printerColumns?: readonly PrinterColumn[];
  scale?: ScaleSubresource;
}

function crd(def: KindCrd): JsonObject {
  const out = crdFor({ ...def, singular: def.kind.toLowerCase(), statusSubresource: true });
  if (def.scale) {
    const version = (out['spec'] as { versions: JsonObject[] }).versions[0]!;
    const subresources = version['subresources'] as JsonObject;
    subresources['scale'] = { ...def.scale };
  }
  return out;
}

const CONFIG = 'config.openshift.io';
const MCO = 'machineconfiguration.openshift.io';
const MACHINE = 'machine.openshift.io';

/**
 * The CRDs of ClusterVersion, ClusterOperator, Infrastructure, MachineConfigPool,
 * MachineConfig, MachineSet, Machine and FileIntegrity, in that order; all with a status
 * subresource, MachineSet also with `scale`.
 */
export function openshiftCustomResourceDefinitions(): JsonObject[] {
  return [
    crd({
      group: CONFIG,
      version: 'v1',
      kind: 'ClusterVersion',
      plural: 'clusterversions',
      scope: 'Cluster',
      schema: ClusterVersionSchema,
      printerColumns: CLUSTER_VERSION_PRINTER_COLUMNS,
    }),
    crd({
      group: CONFIG,
      version: 'v1',
      kind: 'ClusterOperator',
      plural: 'clusteroperators',
      scope: 'Cluster',
      shortNames: ['co'],
      schema: ClusterOperatorSchema,
      printerColumns: CLUSTER_OPERATOR_PRINTER_COLUMNS,
    }),
    crd({
      group: CONFIG,
      version: 'v1',
      kind: 'Infrastructure',
      plural: 'infrastructures',
      scope: 'Cluster',
      schema: InfrastructureSchema,
    }),
    crd({
      group: MCO,
      version: 'v1',
      kind: 'MachineConfigPool',
      plural: 'machineconfigpools',
      scope: 'Cluster',
      shortNames: ['mcp'],
      schema: MachineConfigPoolSchema,
      printerColumns: MACHINE_CONFIG_POOL_PRINTER_COLUMNS,
    }),
    crd({
      group: MCO,
      version: 'v1',
      kind: 'MachineConfig',
      plural: 'machineconfigs',
      scope: 'Cluster',
      shortNames: ['mc'],
      schema: MachineConfigSchema,
      printerColumns: MACHINE_CONFIG_PRINTER_COLUMNS,
    }),
    crd({
      group: MACHINE,
      version: 'v1beta1',
      kind: 'MachineSet',
      plural: 'machinesets',
      scope: 'Namespaced',
      shortNames: ['ms'],
      schema: MachineSetSchema,
      printerColumns: MACHINE_SET_PRINTER_COLUMNS,
      scale: MACHINE_SET_SCALE,
    }),
    crd({
      group: MACHINE,
      version: 'v1beta1',
      kind: 'Machine',
      plural: 'machines',
      scope: 'Namespaced',
      schema: MachineSchema,
      printerColumns: MACHINE_PRINTER_COLUMNS,
    }),
    crd({
      group: 'fileintegrity.openshift.io',
      version: 'v1alpha1',
      kind: 'FileIntegrity',
      plural: 'fileintegrities',
      scope: 'Namespaced',
      schema: FileIntegritySchema,
    }),
  ];
}
