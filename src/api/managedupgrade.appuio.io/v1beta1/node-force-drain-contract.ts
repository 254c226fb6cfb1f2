/**
 * Contract of APPUiO's NodeForceDrain (managedupgrade.appuio.io/v1beta1): descriptor and the Event
 * reasons emitted on Nodes (docs/design/scheduled-flow.md#nodeforcedrain,
 * docs/design/scheduled-flow.md#force-drain). No TypeBox here.
 */
import { resource } from '../../resource.js';
import { APPUIO_GROUP, APPUIO_VERSION } from './group.js';
import type { NodeForceDrain } from './node-force-drain.js';

/** Descriptor of NodeForceDrain (namespaced). */
export const NodeForceDrainResource = resource<NodeForceDrain>({
  group: APPUIO_GROUP,
  version: APPUIO_VERSION,
  kind: 'NodeForceDrain',
  plural: 'nodeforcedrains',
  namespaced: true,
});

/** Warning Event reasons the force drainer emits on a Node. */
export const NodeForceDrainEventReason = {
  DeletePod: 'NodeDrainDeletePod',
  ForcingPodTermination: 'NodeDrainForcingPodTermination',
} as const;

/** Grace period of the second, forcing delete (never 0: that would leave containers running). */
export const FORCE_DELETE_GRACE_PERIOD_SECONDS = 1;
