/**
 * APPUiO's NodeForceDrain (managedupgrade.appuio.io/v1beta1): schema, TS types and CRD
 * (docs/design/scheduled-flow.md#nodeforcedrain). Its durations are plain strings (no `duration`
 * format), as upstream's. Runtime constants live in `node-force-drain-contract.ts`.
 */
import { Type, type Static } from 'typebox';
import { crdFor, dateTime, labelSelector, typeMeta } from '../../schema.js';
import type { JsonObject } from '../../../lib/json.js';
import { APPUIO_GROUP, APPUIO_VERSION } from './group.js';

/** `spec` of a NodeForceDrain. */
export const NodeForceDrainSpecSchema = Type.Object(
  {
    nodeSelector: labelSelector('Nodes to watch for drains; empty selects all nodes.'),
    namespaceSelector: Type.Optional(labelSelector('Namespaces whose pods may be deleted; empty selects all.')),
    podJQSelector: Type.Optional(
      Type.String({ description: 'A jq program run on each pod; the pod is a candidate if the program emits true.' }),
    ),
    nodeDrainGracePeriod: Type.String({
      description:
        'How long after a drain was first observed pods on the node are deleted (bypassing PodDisruptionBudgets); 0 disables (Go duration).',
    }),
    podForceDeleteGracePeriod: Type.String({
      description:
        'How long after a pod’s deletion it is deleted again with a 1 s grace period; 0 disables (Go duration).',
    }),
  },
  { description: 'Which drains to force, and after how long.' },
);

/** `status.lastObservedNodeDrain[]`. */
export const ObservedNodeDrainSchema = Type.Object(
  {
    nodeName: Type.String({ description: 'Name of the draining node.' }),
    drainID: Type.String({
      description: 'The node’s machineconfiguration.openshift.io/lastAppliedDrain annotation when the drain was seen.',
    }),
    observedTime: dateTime('When the drain was first observed.'),
  },
  { description: 'A node drain the controller observed.' },
);

/** `status` of a NodeForceDrain. */
export const NodeForceDrainStatusSchema = Type.Object(
  {
    lastObservedNodeDrain: Type.Optional(
      Type.Array(ObservedNodeDrainSchema, { description: 'The last drain observed per node.' }),
    ),
  },
  { description: 'Observed drains.' },
);

/** A whole NodeForceDrain object. */
export const NodeForceDrainSchema = Type.Object(
  { ...typeMeta(), spec: Type.Optional(NodeForceDrainSpecSchema), status: Type.Optional(NodeForceDrainStatusSchema) },
  { description: 'NodeForceDrain deletes the pods that keep a draining node from finishing its drain.' },
);

/** `spec` of a NodeForceDrain. */
export type NodeForceDrainSpec = Static<typeof NodeForceDrainSpecSchema>;
/** One observed drain. */
export type ObservedNodeDrain = Static<typeof ObservedNodeDrainSchema>;
/** `status` of a NodeForceDrain. */
export type NodeForceDrainStatus = Static<typeof NodeForceDrainStatusSchema>;
/** A NodeForceDrain object. */
export type NodeForceDrain = Static<typeof NodeForceDrainSchema>;

/** Printer columns (the anchor has none). */
export const NODE_FORCE_DRAIN_PRINTER_COLUMNS = [
  { name: 'Drain Grace', type: 'string', jsonPath: '.spec.nodeDrainGracePeriod' },
  { name: 'Force Delete Grace', type: 'string', jsonPath: '.spec.podForceDeleteGracePeriod' },
  { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
] as const;

/** The CustomResourceDefinition of NodeForceDrain. */
export function nodeForceDrainCrd(): JsonObject {
  return crdFor({
    group: APPUIO_GROUP,
    version: APPUIO_VERSION,
    kind: 'NodeForceDrain',
    plural: 'nodeforcedrains',
    singular: 'nodeforcedrain',
    scope: 'Namespaced',
    shortNames: ['nfdrain'],
    schema: NodeForceDrainSchema,
    printerColumns: NODE_FORCE_DRAIN_PRINTER_COLUMNS,
    statusSubresource: true,
  });
}
