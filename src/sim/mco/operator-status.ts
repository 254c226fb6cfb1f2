/**
 * The machine-config ClusterOperator's status as the MCO writes it
 * (docs/design/cluster-model.md#upgradeable,
 * docs/design/cluster-model.md#the-machine-config-operator; `pkg/operator/status.go`,
 * `sync.go: syncRequiredMachineConfigPools`). Pure functions: the RequiredPools check, the
 * Upgradeable condition, and condition updates with library-go's `SetStatusCondition` semantics.
 */
import type { ClusterOperatorStatusCondition } from '../../api/openshift/config-v1/cluster-version.js';
import type { OperandVersion } from '../../api/openshift/config-v1/cluster-operator.js';
import {
  MachineConfigPoolConditionType as PoolCond,
  MachineConfigPoolLabel,
  type MachineConfigPool,
} from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { formatTime } from '../../lib/clock.js';
import { poolConditionTrue } from './pool-status.js';

/** The reason the MCO puts on conditions that are as they should be. */
export const AS_EXPECTED = 'AsExpected';

/** A condition without its transition time. */
export type CoCondition = Omit<ClusterOperatorStatusCondition, 'lastTransitionTime'>;

/**
 * library-go `SetStatusCondition`: a new type is appended; an existing one keeps its place and
 * its lastTransitionTime unless the status changes.
 */
export function setCoCondition(
  conditions: ClusterOperatorStatusCondition[],
  next: CoCondition,
  now: number,
): ClusterOperatorStatusCondition[] {
  const i = conditions.findIndex((c) => c.type === next.type);
  const clean = (statusCondition: ClusterOperatorStatusCondition): ClusterOperatorStatusCondition => {
    const out: ClusterOperatorStatusCondition = {
      type: statusCondition.type,
      status: statusCondition.status,
      lastTransitionTime: statusCondition.lastTransitionTime,
    };
    if (statusCondition.reason) out.reason = statusCondition.reason;
    if (statusCondition.message) out.message = statusCondition.message;
    return out;
  };
  if (i < 0) return [...conditions, clean({ ...next, lastTransitionTime: formatTime(now) })];
  const current = conditions[i]!;
  const updated = clean({
    ...next,
    lastTransitionTime: current.status === next.status ? current.lastTransitionTime : formatTime(now),
  });
  return conditions.map((c, j) => (j === i ? updated : c));
}

/** Go's `%v` of a `[]OperandVersion`: `[{operator 4.15.3} {operator-image quay.io/…}]`. */
export function formatVersions(versions: readonly OperandVersion[] | undefined): string {
  return `[${(versions ?? []).map((v) => `{${v.name} ${v.version}}`).join(' ')}]`;
}

/** The minor of a 4.y.z version (NaN when unparsable). */
export function minorOf(version: string): number {
  return Number(/^\d+\.(\d+)/.exec(version)?.[1] ?? NaN);
}

/**
 * The Upgradeable condition (`syncUpgradeableStatus`): False `DegradedPool` when a pool is
 * Degraded; on MCO releases before 4.16 also False `PoolUpdating` while a pool is Updating;
 * otherwise True `AsExpected`.
 */
export function upgradeableCondition(pools: readonly MachineConfigPool[], runningVersion: string): CoCondition {
  let updating = false;
  for (const pool of sortPools(pools)) {
    if (poolConditionTrue(pool, PoolCond.Updating)) updating = true;
    if (poolConditionTrue(pool, PoolCond.Degraded)) {
      return {
        type: 'Upgradeable',
        status: 'False',
        reason: 'DegradedPool',
        message:
          'One or more machine config pools are degraded, please see `oc get mcp` for further details and resolve before upgrading',
      };
    }
  }
  if (updating && minorOf(runningVersion) < 16) {
    return {
      type: 'Upgradeable',
      status: 'False',
      reason: 'PoolUpdating',
      message: 'One or more machine config pools are updating, please see `oc get mcp` for further details',
    };
  }
  return { type: 'Upgradeable', status: 'True', reason: AS_EXPECTED, message: '' };
}

/** Outcome of one RequiredPools poll. */
export type RequiredPoolsResult =
  | { kind: 'ok' }
  /** Not yet: keep polling until the timeout; `error` is the last error. */
  | { kind: 'waiting'; error: string }
  /** Fails the sync at once (a paused pool that cannot sync). */
  | { kind: 'failed'; error: string };

/**
 * One poll of `syncRequiredMachineConfigPools`: every pool must not be Degraded, and every pool
 * labelled required-for-upgrade must be at `expectedConfig(pool)`, Updated, with its status
 * observed. Messages in the running release's format (4.14/4.15 prefix `error `).
 */
export function checkRequiredPools(
  pools: readonly MachineConfigPool[],
  runningVersion: string,
  expectedConfig: (pool: MachineConfigPool) => string,
): RequiredPoolsResult {
  const legacy = minorOf(runningVersion) < 16;
  const prefix = legacy ? 'error ' : '';
  for (const pool of sortPools(pools)) {
    const name = pool.metadata?.name ?? '';
    const s = pool.status;
    const total = s?.machineCount ?? 0;
    const ready = s?.readyMachineCount ?? 0;
    const updated = s?.updatedMachineCount ?? 0;
    const unavailable = s?.unavailableMachineCount ?? 0;
    if (poolConditionTrue(pool, PoolCond.Degraded)) {
      const reason = legacy
        ? ''
        : `, reason: ${pool.status?.conditions?.find((c) => c.type === PoolCond.NodeDegraded && c.status === 'True')?.message ?? ''}`;
      const error = `${prefix}MachineConfigPool ${name} is not ready, retrying. Status: (pool degraded: true total: ${total}, ready ${ready}, updated: ${updated}, unavailable: ${unavailable}${reason})`;
      if (pool.spec.paused)
        return {
          kind: 'failed',
          error: `error required pool ${name} is paused and cannot sync until it is unpaused: ${error}`,
        };
      return { kind: 'waiting', error };
    }
    if (pool.metadata?.labels?.[MachineConfigPoolLabel.RequiredForUpgrade] === undefined) continue;
    const expected = expectedConfig(pool);
    const target = pool.spec.configuration?.name ?? '';
    if (target !== expected) {
      return {
        kind: 'waiting',
        error: `MachineConfigPool ${name} has not progressed to latest configuration: configuration spec for pool ${name} is ${JSON.stringify(target)}, expected ${JSON.stringify(expected)}, retrying`,
      };
    }
    const observed = (pool.metadata?.generation ?? 0) <= (s?.observedGeneration ?? 0);
    if (observed && poolConditionTrue(pool, PoolCond.Updated) && s?.configuration.name === expected) continue;
    if (pool.spec.paused)
      return {
        kind: 'failed',
        error: `${prefix}required MachineConfigPool ${name} is paused and cannot sync until it is unpaused`,
      };
    const error = `${prefix}required MachineConfigPool ${name} is not ready, retrying. Status: (total: ${total}, ready ${ready}, updated: ${updated}, unavailable: ${unavailable}, degraded: ${s?.degradedMachineCount ?? 0})`;
    return { kind: 'waiting', error };
  }
  return { kind: 'ok' };
}

function sortPools(pools: readonly MachineConfigPool[]): MachineConfigPool[] {
  return [...pools].sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1));
}
