/**
 * The worker start and complete times of a managed upgrade (muo.md §7): the MachineConfigPool
 * controller stamps `workerStartTime` when the `worker` pool starts rolling and
 * `workerCompleteTime` when every machine of it is updated, while the upgrade is Upgrading.
 *
 * Difference from MUO (docs/compatibility.md): MUO stamps the start only when it sees
 * `updatedMachineCount == 0`; an operator restarted after that instant (or a pool whose first
 * node updated before the event was seen) never gets a start, and then never a completion.
 * Here the start is stamped as soon as the pool is seen rolling (fewer updated machines than
 * machines), which includes MUO's instant.
 */
import type { UpgradeHistory } from '../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';

/** The counters of a pool that matter here. */
export interface PoolCounts {
  machineCount: number;
  updatedMachineCount: number;
}

/** The history fields to set, or undefined when nothing changes. */
export function workerTimesUpdate(entry: UpgradeHistory | undefined, pool: PoolCounts, now: string): Pick<UpgradeHistory, 'workerStartTime' | 'workerCompleteTime'> | undefined {
  if (entry?.phase !== 'Upgrading') return undefined;
  const rolling = pool.updatedMachineCount < pool.machineCount;
  if (!entry.workerStartTime) return rolling ? { workerStartTime: now } : undefined;
  if (!entry.workerCompleteTime && pool.machineCount > 0 && !rolling) return { workerCompleteTime: now };
  return undefined;
}
