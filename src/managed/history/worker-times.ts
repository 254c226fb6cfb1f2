/**
 * The worker start and complete times of a managed upgrade
 * (docs/design/managed-flow.md#worker-start-and-complete-times): the MachineConfigPool controller
 * stamps `workerStartTime` when the `worker` pool starts rolling and `workerCompleteTime` when
 * every machine of it is updated, while the upgrade is Upgrading.
 *
 * Difference from MUO (docs/compatibility.md): MUO stamps the start only when it sees
 * `updatedMachineCount == 0`; an operator restarted after that instant (or a pool whose first
 * node updated before the event was seen) never gets a start, and then never a completion.
 * Here the start is stamped as soon as the pool is seen rolling (fewer updated machines than
 * machines), which includes MUO's instant.
 */
import type { UpgradeHistory } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';

/** The counters of a pool that matter here. */
export interface PoolCounts {
  machineCount: number;
  updatedMachineCount: number;
}

/**
 * The history fields to set, or undefined when nothing changes.
 *
 * The upgrade reaches Upgraded in the very pass that sees the last worker updated (the worker
 * step reads the same pool), so that pass may win the race with this controller's stamp; MUO
 * has the same race and then never records the completion. Here an Upgraded entry that has a
 * start and no completion gets it, at its `completeTime` at the latest (the workers cannot have
 * finished after the upgrade did, e.g. when stamped only after a restart).
 */
export function workerTimesUpdate(
  entry: UpgradeHistory | undefined,
  pool: PoolCounts,
  now: string,
): Pick<UpgradeHistory, 'workerStartTime' | 'workerCompleteTime'> | undefined {
  const rolling = pool.updatedMachineCount < pool.machineCount;
  if (
    entry?.phase === 'Upgraded' &&
    entry.workerStartTime &&
    !entry.workerCompleteTime &&
    pool.machineCount > 0 &&
    !rolling
  ) {
    const end = entry.completeTime;
    return { workerCompleteTime: end !== undefined && Date.parse(end) < Date.parse(now) ? end : now };
  }
  if (entry?.phase !== 'Upgrading') return undefined;
  if (!entry.workerStartTime) return rolling ? { workerStartTime: now } : undefined;
  if (!entry.workerCompleteTime && pool.machineCount > 0 && !rolling) return { workerCompleteTime: now };
  return undefined;
}
