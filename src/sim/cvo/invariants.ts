/**
 * The ClusterVersion invariants of docs/design/cluster-model.md#invariants (with
 * docs/design/cluster-model.md#history and the sections after it), as pure checks a test or a
 * scenario run applies to every ClusterVersion it sees. Each returns human-readable violations
 * (empty when all hold).
 */
import { operatorVersion, type ClusterOperator } from '../../api/openshift/config-v1/cluster-operator.js';
import type { ClusterVersion, UpdateHistory } from '../../api/openshift/config-v1/cluster-version.js';
import {
  MachineConfigPoolLabel,
  type MachineConfigPool,
} from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';

/** The CVO keeps at most this many history entries (pruning may drop entries). */
const MAX_HISTORY = 100;

function condition(cv: ClusterVersion, type: string): { status: string; message?: string } | undefined {
  return cv.status?.conditions?.find((c) => c.type === type);
}

/**
 * What holds in every ClusterVersion status the CVO writes:
 * - only the head entry may have `completionTime: null`; a Partial head has it null, a Completed one not;
 * - `status.desired` is the head entry's release (both switch when a payload is accepted,
 *   docs/design/cluster-model.md#clusterversion-status, docs/design/cluster-model.md#history);
 * - Available names the last completed version (`Done applying <v>`), also while updating
 *   (docs/design/cluster-model.md#clusterversion-conditions);
 * - Progressing=True ⇔ the head entry is Partial: the sync worker updates towards the head's
 *   payload until it was applied once, and reconciles it from then on
 *   (docs/design/cluster-model.md#progressing-and-failing, "Progressing=True ⇔ the worker is not
 *   reconciling"; a failing update stays Progressing=True, a failing reconcile False).
 */
export function clusterVersionViolations(cv: ClusterVersion): string[] {
  const status = cv.status;
  if (!status) return [];
  const history = status.history ?? [];
  const out: string[] = [];
  history.forEach((updateHistory, index) => {
    if (index > 0 && updateHistory.completionTime === null)
      out.push(
        `clusterversion: history[${index}] (${updateHistory.state} ${updateHistory.version}) has completionTime null; only the head may`,
      );
  });
  const head = history[0];
  if (head?.state === 'Partial' && head.completionTime !== null)
    out.push(`clusterversion: the Partial head ${head.version} has a completionTime (${head.completionTime})`);
  if (head?.state === 'Completed' && head.completionTime === null)
    out.push(`clusterversion: the Completed head ${head.version} has completionTime null`);
  if (head && status.desired.version !== head.version)
    out.push(`clusterversion: desired ${status.desired.version} is not the head entry's version ${head.version}`);
  const lastCompleted = history.find((h) => h.state === 'Completed');
  const available = condition(cv, 'Available');
  if (lastCompleted && available && available.message !== `Done applying ${lastCompleted.version}`) {
    out.push(
      `clusterversion: Available says "${available.message ?? ''}" but the last completed version is ${lastCompleted.version}`,
    );
  }
  const progressing = condition(cv, 'Progressing');
  if (head && progressing) {
    const updating = head.state === 'Partial';
    if ((progressing.status === 'True') !== updating) {
      out.push(
        `clusterversion: Progressing=${progressing.status} while the head entry ${head.version} is ${head.state} ("${progressing.message ?? ''}")`,
      );
    }
  }
  return out;
}

function entryKey(updateHistory: UpdateHistory): string {
  return `${updateHistory.startedTime} ${updateHistory.image}`;
}

/**
 * What holds between two successive ClusterVersions: an entry is Partial from acceptance until
 * it completes, and only the head completes (Partial → Completed, never back); an abandoned
 * Partial entry stays Partial; a completionTime once set never changes; entries are not
 * dropped (unless the history is at its 100-entry limit).
 */
export function clusterVersionTransitionViolations(before: ClusterVersion, after: ClusterVersion): string[] {
  const was = before.status?.history ?? [];
  const now = after.status?.history ?? [];
  if (was.length === 0) return [];
  const index = new Map(now.map((h, i) => [entryKey(h), i]));
  const out: string[] = [];
  for (const old of was) {
    const i = index.get(entryKey(old));
    if (i === undefined) {
      if (now.length < MAX_HISTORY)
        out.push(`clusterversion: history entry ${old.state} ${old.version} (started ${old.startedTime}) disappeared`);
      continue;
    }
    const cur = now[i]!;
    if (old.state === 'Completed' && cur.state !== 'Completed')
      out.push(
        `clusterversion: history entry ${old.version} (started ${old.startedTime}) went from Completed back to ${cur.state}`,
      );
    if (old.state === 'Partial' && cur.state === 'Completed' && i !== 0)
      out.push(
        `clusterversion: history entry ${old.version} (started ${old.startedTime}) completed while not the head`,
      );
    if (old.completionTime !== null && cur.completionTime !== old.completionTime) {
      out.push(
        `clusterversion: completionTime of ${old.version} (started ${old.startedTime}) changed from ${old.completionTime} to ${cur.completionTime ?? 'null'}`,
      );
    }
  }
  return out;
}

/** The head entry of `after` turned Completed (it was Partial, or new) — the moment the update completed. */
export function headCompleted(before: ClusterVersion | undefined, after: ClusterVersion): UpdateHistory | undefined {
  const head = after.status?.history?.[0];
  if (!before || head?.state !== 'Completed') return undefined;
  const old = before.status?.history?.find((h) => entryKey(h) === entryKey(head));
  return old?.state === 'Completed' ? undefined : head;
}

/**
 * At the moment the head entry turns Completed: every ClusterOperator reports the head's version as
 * its `operator` version (the CVO's gates passed, docs/design/cluster-model.md#the-cvos-gate),
 * machine-config included, and every pool required for upgrade (master) finished its rollout
 * (`status.configuration` is the pool's target), which the MCO waits for before it reports its
 * version (docs/design/cluster-model.md#the-machine-config-operator).
 */
export function completionViolations(
  version: string,
  operators: readonly ClusterOperator[],
  pools: readonly MachineConfigPool[],
): string[] {
  const out: string[] = [];
  const behind = operators.filter((co) => operatorVersion(co) !== undefined && operatorVersion(co) !== version);
  if (behind.length > 0) {
    const names = behind.map((co) => `${co.metadata?.name ?? ''} at ${operatorVersion(co) ?? ''}`).sort();
    out.push(`clusterversion: ${version} completed while cluster operators had not reported it: ${names.join(', ')}`);
  }
  if (!operators.some((co) => co.metadata?.name === 'machine-config'))
    out.push(`clusterversion: ${version} completed without a machine-config cluster operator`);
  for (const pool of pools) {
    if (pool.metadata?.labels?.[MachineConfigPoolLabel.RequiredForUpgrade] === undefined) continue;
    const target = pool.spec.configuration?.name;
    const reached = pool.status?.configuration.name;
    if (!target || reached !== target)
      out.push(
        `clusterversion: ${version} completed while the required pool ${pool.metadata?.name ?? ''} is at ${reached ?? 'nothing'}, not at its target ${target ?? '(none)'}`,
      );
  }
  return out;
}
