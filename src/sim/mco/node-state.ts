/**
 * How the MCO reads a Node (docs/design/cluster-model.md#pools,
 * docs/design/cluster-model.md#node-annotations; `pkg/controller/node/status.go`): its per-node
 * annotations, readiness as the MCO defines it, and which pool a node belongs to. Pure functions
 * over plain objects.
 */
import type { Node } from 'kubernetes-types/core/v1.js';
import {
  MachineConfigDaemonState,
  MachineConfigNodeAnnotation,
  type MachineConfigPool,
} from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { matchesLabelSelector } from '../workloads/label-selector.js';

/** Names of the built-in pools. */
export const MASTER_POOL = 'master';
export const WORKER_POOL = 'worker';

/** The taint the node controller puts on nodes it targets, removed once they are done. */
export const UPDATE_IN_PROGRESS_TAINT = { key: 'UpdateInProgress', effect: 'PreferNoSchedule' } as const;

/** A node annotation ('' and missing are different: the MCO treats a missing currentConfig as not done). */
export function nodeAnnotation(node: Node, key: string): string | undefined {
  return node.metadata?.annotations?.[key];
}

/** The daemon state (`machineconfiguration.openshift.io/state`). */
export function nodeState(node: Node): string | undefined {
  return nodeAnnotation(node, MachineConfigNodeAnnotation.State);
}

/**
 * Ready as the MCO counts it (`isNodeReady`): NodeReady not other than True, DiskPressure and
 * NetworkUnavailable not other than False, and not cordoned. Missing conditions do not count against.
 */
export function isNodeReady(node: Node): boolean {
  for (const c of node.status?.conditions ?? []) {
    if (c.type === 'Ready' && c.status !== 'True') return false;
    if (c.type === 'DiskPressure' && c.status !== 'False') return false;
    if (c.type === 'NetworkUnavailable' && c.status !== 'False') return false;
  }
  return node.spec?.unschedulable !== true;
}

/** currentConfig == desiredConfig (both set) and state Done (`isNodeDone`). */
export function isNodeDone(node: Node): boolean {
  const current = nodeAnnotation(node, MachineConfigNodeAnnotation.CurrentConfig);
  const desired = nodeAnnotation(node, MachineConfigNodeAnnotation.DesiredConfig);
  if (!current || desired === undefined) return false;
  return current === desired && nodeState(node) === MachineConfigDaemonState.Done;
}

/** Done, and at the pool's target config: counted in `updatedMachineCount`. */
export function isNodeDoneAt(node: Node, target: string | undefined): boolean {
  return (
    isNodeDone(node) &&
    target !== undefined &&
    nodeAnnotation(node, MachineConfigNodeAnnotation.DesiredConfig) === target
  );
}

/** The daemon failed on a config it has not reached yet (Degraded or Unreconcilable while current ≠ desired). */
export function isNodeMCDFailing(node: Node): boolean {
  if (
    nodeAnnotation(node, MachineConfigNodeAnnotation.CurrentConfig) ===
    nodeAnnotation(node, MachineConfigNodeAnnotation.DesiredConfig)
  )
    return false;
  return isNodeDegraded(node);
}

/** Daemon state Degraded or Unreconcilable: counted in `degradedMachineCount`. */
export function isNodeDegraded(node: Node): boolean {
  const s = nodeState(node);
  return s === MachineConfigDaemonState.Degraded || s === MachineConfigDaemonState.Unreconcilable;
}

/**
 * Unavailable as the MCO counts it (`isNodeUnavailable`): not ready; or not done while the
 * daemon is working toward a config (a failing daemon can be retargeted, so it does not count).
 */
export function isNodeUnavailable(node: Node): boolean {
  if (!isNodeReady(node)) return true;
  if (isNodeDone(node)) return false;
  return !isNodeMCDFailing(node);
}

/**
 * The one pool that manages a node (`getPoolsForNode`): a single matching custom pool wins over
 * `worker`; `master` wins over `worker` (compact clusters); a node matching several custom pools,
 * or `master` and a custom pool, is managed by none (the MCO reports an error for it).
 */
export function primaryPoolName(node: Node, pools: readonly MachineConfigPool[]): string | undefined {
  const labels = node.metadata?.labels ?? {};
  const matching = pools.filter(
    (p) => p.metadata?.deletionTimestamp === undefined && matchesLabelSelector(p.spec.nodeSelector, labels),
  );
  let master = false;
  let worker = false;
  const custom: string[] = [];
  for (const p of matching) {
    const name = p.metadata?.name ?? '';
    if (name === MASTER_POOL) master = true;
    else if (name === WORKER_POOL) worker = true;
    else custom.push(name);
  }
  if (custom.length > 1) return undefined;
  if (custom.length === 1) return master ? undefined : custom[0];
  if (master) return MASTER_POOL;
  return worker ? WORKER_POOL : undefined;
}

/** The nodes a pool manages, sorted by name. */
export function nodesForPool(
  pool: MachineConfigPool,
  nodes: readonly Node[],
  pools: readonly MachineConfigPool[],
): Node[] {
  const name = pool.metadata?.name;
  return nodes
    .filter((n) => primaryPoolName(n, pools) === name)
    .sort((a, b) => cmp(a.metadata?.name ?? '', b.metadata?.name ?? ''));
}

function cmp(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
