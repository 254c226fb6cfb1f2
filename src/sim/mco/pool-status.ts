/**
 * MachineConfigPool status exactly as the MCO node controller computes it
 * (docs/design/cluster-model.md#pools; `pkg/controller/node/status.go: calculateStatus`). Pure.
 */
import type { Node } from 'kubernetes-types/core/v1.js';
import {
  MachineConfigNodeAnnotation,
  MachineConfigPoolConditionType as Cond,
  type MachineConfigPool,
  type MachineConfigPoolCondition,
  type MachineConfigPoolStatus,
} from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { formatTime } from '../../lib/clock.js';
import { jsonEqual, type JsonValue } from '../../lib/json.js';
import { isNodeDegraded, isNodeDoneAt, isNodeReady, isNodeUnavailable, nodeAnnotation } from './node-state.js';

/** The five counters of a pool. */
export interface PoolCounts {
  machineCount: number;
  updatedMachineCount: number;
  readyMachineCount: number;
  unavailableMachineCount: number;
  degradedMachineCount: number;
}

/** Counts a pool's nodes (`nodes` = the nodes the pool manages) against its target config. */
export function countPoolNodes(target: string | undefined, nodes: readonly Node[]): PoolCounts {
  const updated = nodes.filter((n) => isNodeDoneAt(n, target));
  return {
    machineCount: nodes.length,
    updatedMachineCount: updated.length,
    readyMachineCount: updated.filter(isNodeReady).length,
    unavailableMachineCount: nodes.filter(isNodeUnavailable).length,
    degradedMachineCount: nodes.filter(isNodeDegraded).length,
  };
}

/** True when the counters mean "fully updated" (the Updated condition's rule). */
export function isAllUpdated(poolCounts: PoolCounts): boolean {
  return (
    poolCounts.updatedMachineCount === poolCounts.machineCount &&
    poolCounts.readyMachineCount === poolCounts.machineCount &&
    poolCounts.unavailableMachineCount === 0
  );
}

/**
 * Sets a condition as the MCO's `SetMachineConfigPoolCondition` does: an identical condition is
 * left alone; a changed one moves to the end of the list, keeping its lastTransitionTime when
 * only the reason or message changed.
 */
export function setPoolCondition(
  conditions: MachineConfigPoolCondition[],
  next: Omit<MachineConfigPoolCondition, 'lastTransitionTime'>,
  now: number,
): MachineConfigPoolCondition[] {
  const current = conditions.find((c) => c.type === next.type);
  if (current && current.status === next.status && current.reason === next.reason && current.message === next.message)
    return conditions;
  const lastTransitionTime = current && current.status === next.status ? current.lastTransitionTime : formatTime(now);
  return [...conditions.filter((c) => c.type !== next.type), { ...next, lastTransitionTime }];
}

/** True if the pool has the condition with status True. */
export function poolConditionTrue(pool: MachineConfigPool, type: string): boolean {
  return pool.status?.conditions?.some((c) => c.type === type && c.status === 'True') ?? false;
}

/**
 * The status the node controller writes for a pool, from the nodes it manages. Undefined when the
 * pool has no target yet (`spec.configuration.name` empty: the MCO skips such a pool).
 */
export function computePoolStatus(
  pool: MachineConfigPool,
  nodes: readonly Node[],
  now: number,
): MachineConfigPoolStatus | undefined {
  const target = pool.spec.configuration?.name;
  if (!target) return undefined;
  const counts = countPoolNodes(target, nodes);
  let configuration = pool.status?.configuration ?? { name: '' };
  let conditions = [...(pool.status?.conditions ?? [])];
  if (isAllUpdated(counts)) {
    conditions = setPoolCondition(
      conditions,
      { type: Cond.Updated, status: 'True', reason: '', message: `All nodes are updated with MachineConfig ${target}` },
      now,
    );
    const spec = pool.spec.configuration ?? { name: target };
    if (
      configuration.name !== spec.name ||
      !jsonEqual((configuration.source ?? null) as JsonValue, (spec.source ?? null) as JsonValue)
    )
      configuration = structuredClone(spec);
    conditions = setPoolCondition(conditions, { type: Cond.Updating, status: 'False', reason: '', message: '' }, now);
  } else {
    conditions = setPoolCondition(conditions, { type: Cond.Updated, status: 'False', reason: '', message: '' }, now);
    conditions = pool.spec.paused
      ? setPoolCondition(
          conditions,
          {
            type: Cond.Updating,
            status: 'False',
            reason: '',
            message: `Pool is paused; will not update to MachineConfig ${target}`,
          },
          now,
        )
      : setPoolCondition(
          conditions,
          {
            type: Cond.Updating,
            status: 'True',
            reason: '',
            message: `All nodes are updating to MachineConfig ${target}`,
          },
          now,
        );
  }
  const degraded = nodes.filter(isNodeDegraded);
  if (degraded.length > 0) {
    const reasons = degraded
      .map((n) => ({
        name: n.metadata?.name ?? '',
        reason: nodeAnnotation(n, MachineConfigNodeAnnotation.Reason) ?? '',
      }))
      .filter((r) => r.reason !== '')
      .map((r) => `Node ${r.name} is reporting: ${JSON.stringify(r.reason)}`);
    conditions = setPoolCondition(
      conditions,
      {
        type: Cond.NodeDegraded,
        status: 'True',
        reason: `${degraded.length} nodes are reporting degraded status on sync`,
        message: reasons.join(', '),
      },
      now,
    );
  } else {
    conditions = setPoolCondition(
      conditions,
      { type: Cond.NodeDegraded, status: 'False', reason: '', message: '' },
      now,
    );
  }
  const renderDegraded = conditions.some((c) => c.type === Cond.RenderDegraded && c.status === 'True');
  conditions = setPoolCondition(
    conditions,
    { type: Cond.Degraded, status: degraded.length > 0 || renderDegraded ? 'True' : 'False', reason: '', message: '' },
    now,
  );
  const status: MachineConfigPoolStatus = {
    observedGeneration: pool.metadata?.generation ?? 0,
    configuration,
    ...counts,
    conditions,
  };
  if (pool.status?.certExpirys) status.certExpirys = pool.status.certExpirys;
  return status;
}

/**
 * The Ignition config a new node of the pool gets from the machine-config-server
 * (docs/design/cluster-model.md#new-nodes-during-an-update): the target when at least one node of
 * the pool is already updated, else the config all nodes are on.
 */
export function joiningConfigFor(pool: MachineConfigPool): string | undefined {
  const target = pool.spec.configuration?.name;
  const current = pool.status?.configuration.name || undefined;
  return (pool.status?.updatedMachineCount ?? 0) > 0 ? target : (current ?? target);
}
