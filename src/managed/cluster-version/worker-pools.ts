/**
 * Worker rollout as the managed flow judges it (docs/design/managed-flow.md#maintenance-windows,
 * docs/design/managed-flow.md#worker-completion,
 * docs/design/managed-flow.md#worker-start-and-complete-times). MUO looks only at the `worker` pool
 * and compares counts; we wait for every unpaused pool other than `master` (custom worker pools
 * included), and a pool counts as updated only when the MCO has observed its latest spec, every
 * machine runs the target rendered config and it says Updated — so a pool whose new target was just
 * set is not mistaken for a finished one.
 */
import type { MachineConfigPool } from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';

/**
 * The workers' MachineConfigPool, the one pool MUO tracks. Not the Hive machine pool of the worker
 * MachineSets (`WORKER_MACHINE_POOL` in the UpgradeConfig contract), though both are named `worker`.
 */
export const WORKER_MACHINE_CONFIG_POOL = 'worker';

/** MUO's "upgrading": machineCount ≠ updatedMachineCount. */
export function poolUpgrading(pool: MachineConfigPool): boolean {
  return (pool.status?.machineCount ?? 0) !== (pool.status?.updatedMachineCount ?? 0);
}

/** Machines not yet on the target (MUO's "pending" for the worker window). */
export function poolPending(pool: MachineConfigPool): number {
  return Math.max(0, (pool.status?.machineCount ?? 0) - (pool.status?.updatedMachineCount ?? 0));
}

/** The pool has fully rolled out its current target. */
export function poolFullyUpdated(pool: MachineConfigPool): boolean {
  const s = pool.status;
  if (!s) return false;
  const observed =
    s.observedGeneration === undefined ||
    pool.metadata?.generation === undefined ||
    s.observedGeneration >= pool.metadata.generation;
  const onTarget = !pool.spec.configuration?.name || s.configuration.name === pool.spec.configuration.name;
  const updated = (s.conditions ?? []).some((c) => c.type === 'Updated' && c.status === 'True');
  return observed && onTarget && updated && s.updatedMachineCount === s.machineCount;
}

/** The pools whose rollout the worker step waits for: every pool but `master`, unless paused. */
export function workerPools(pools: readonly MachineConfigPool[]): MachineConfigPool[] {
  return pools.filter((p) => p.metadata?.name !== 'master' && p.spec.paused !== true);
}

/** Summary of the worker rollout: done, and the pending count over the pools waited for. */
export function workerRollout(pools: readonly MachineConfigPool[]): {
  done: boolean;
  pending: number;
  notUpdated: string[];
} {
  const waited = workerPools(pools);
  const notUpdated = waited.filter((p) => !poolFullyUpdated(p)).map((p) => p.metadata?.name ?? '');
  return { done: notUpdated.length === 0, pending: waited.reduce((n, p) => n + poolPending(p), 0), notUpdated };
}
