/**
 * The control plane's part of `upgrade-operator status`
 * (docs/configuration.md#upgrade-operator-status): the ClusterVersion and the ClusterOperators,
 * after `oc adm upgrade status` (docs/design/cluster-model.md#clusterversion,
 * docs/design/cluster-model.md#the-cvos-gate). Pure: time is an argument.
 */
import { operatorVersion, type ClusterOperator } from '../api/openshift/config-v1/cluster-operator.js';
import type { UpdateHistory } from '../api/openshift/config-v1/cluster-version.js';
import { parseProgressMessage } from '../engine/cvo-progress.js';
import {
  byName,
  cond,
  oneLine,
  partProblem,
  partValue,
  time,
  type ControlPlaneStatus,
  type Estimate,
  type OperatorHealth,
  type OperatorProgress,
  type OperatorRow,
  type UpgradeStatusSnapshot,
} from './upgrade-status-model.js';

/** Earlier completed updates whose durations make the estimate (at most this many, newest first). */
export const ESTIMATE_HISTORY = 3;
/** The CVO keeps at most this many history entries; below it, the oldest entry is the install. */
const MAX_HISTORY = 100;

/**
 * The ETA rule: the mean duration (completionTime − startedTime) of the last
 * {@link ESTIMATE_HISTORY} Completed entries of ClusterVersion history before the head. The
 * oldest entry is the installation, not an update, and is left out (unless history is full,
 * MaxHistory 100, when it was pruned). Partial entries (abandoned by a retarget) are left out.
 */
export function estimateFromHistory(
  history: readonly UpdateHistory[],
  elapsedMs: number,
): { estimate: Estimate } | { unknown: string } {
  const earlier = history.slice(1, history.length < MAX_HISTORY ? -1 : undefined);
  const durations = earlier
    .filter((h) => h.state === 'Completed')
    .map((h) => (time(h.completionTime) ?? Number.NaN) - (time(h.startedTime) ?? Number.NaN))
    .filter((d) => Number.isFinite(d) && d > 0)
    .slice(0, ESTIMATE_HISTORY);
  if (durations.length === 0) return { unknown: 'no earlier completed update in ClusterVersion history' };
  const totalMs = Math.round(durations.reduce((a, b) => a + b, 0) / durations.length);
  return {
    estimate: {
      totalMs,
      remainingMs: Math.max(0, totalMs - elapsedMs),
      overdue: elapsedMs > totalMs,
      basedOn: durations.length,
    },
  };
}

/**
 * Operators against the target: updated when their `operator` version is the target (the CVO gate,
 * docs/design/cluster-model.md#the-cvos-gate); updating when not updated and Progressing=True or
 * named in the CVO's `waiting on` list; waiting otherwise (the CVO has not reached them). Percent =
 * floor(100 × updated / total).
 */
export function operatorProgress(
  operators: readonly ClusterOperator[],
  target: string,
  waitedOn: readonly string[],
): OperatorProgress {
  const names: string[] = [];
  let updated = 0;
  for (const co of operators) {
    const name = co.metadata?.name ?? '';
    if (operatorVersion(co) === target) updated++;
    else if (cond(co.status?.conditions, 'Progressing')?.status === 'True' || waitedOn.includes(name)) names.push(name);
  }
  const total = operators.length;
  return {
    total,
    updated,
    updating: names.length,
    waiting: total - updated - names.length,
    percent: total > 0 ? Math.floor((100 * updated) / total) : null,
    updatingNames: names.sort(byName),
  };
}

/** Health buckets: unavailable (Available≠True), degraded (Degraded=True), unknown (a condition missing), healthy. */
export function operatorHealth(operators: readonly ClusterOperator[]): OperatorHealth {
  const h: OperatorHealth = { total: operators.length, healthy: 0, degraded: 0, unavailable: 0, unknown: 0 };
  for (const co of operators) {
    const available = cond(co.status?.conditions, 'Available');
    const degraded = cond(co.status?.conditions, 'Degraded');
    if (available && available.status !== 'True') h.unavailable++;
    else if (degraded?.status === 'True') h.degraded++;
    else if (!available || !degraded) h.unknown++;
    else h.healthy++;
  }
  return h;
}

function operatorRows(operators: readonly ClusterOperator[], target: string | null): OperatorRow[] {
  return operators
    .map((co): OperatorRow => {
      const c = co.status?.conditions;
      const status = (type: string): string => cond(c, type)?.status ?? 'Unknown';
      const degraded = cond(c, 'Degraded');
      const unavailable = cond(c, 'Available');
      const progressing = cond(c, 'Progressing');
      const why = unavailable?.status !== 'True' ? unavailable : degraded?.status === 'True' ? degraded : progressing;
      return {
        name: co.metadata?.name ?? '',
        version: operatorVersion(co) ?? null,
        available: status('Available'),
        progressing: status('Progressing'),
        degraded: status('Degraded'),
        since: progressing?.lastTransitionTime ?? null,
        message: oneLine(why?.message ?? ''),
      };
    })
    .filter((r) => r.version !== target || r.available !== 'True' || r.degraded !== 'False' || r.progressing === 'True')
    .sort((a, b) => byName(a.name, b.name));
}

function emptyControlPlane(message: string): ControlPlaneStatus {
  return {
    assessment: 'Unknown',
    message,
    currentVersion: null,
    targetVersion: null,
    previousVersion: null,
    startedAt: null,
    completedAt: null,
    durationMs: null,
    estimate: null,
    estimateUnknown: null,
    cvoMessage: '',
    cvoProgress: null,
    operators: null,
    operatorHealth: null,
    operatorRows: [],
  };
}

/**
 * The control plane's assessment, in this order:
 * - `Unknown`: the ClusterVersion cannot be read, has no status, or no history.
 * - The head of `status.history` is the update (docs/design/cluster-model.md#history). `Completed`
 *   when it is Completed and Progressing is not True (a Completed head means every ClusterOperator
 *   reached the version; worker pools may still roll,
 *   docs/design/cluster-model.md#the-machine-config-operator).
 * - Otherwise it is updating: `Stalled` when Failing=True (the CVO's verdict: a blocking error, or
 *   a Degraded operator past its 40 minutes, docs/design/cluster-model.md#progressing-and-failing)
 *   or when Progressing reads `Unable to apply` / `Error while reconciling`; also when
 *   `spec.desiredUpdate` names a release the CVO refused (ReleaseAccepted=False,
 *   docs/design/cluster-model.md#release-acceptance-and-preconditions). `Slow` when the CVO says an
 *   operator takes longer than expected (its stall thresholds, 30 min and 90 min for
 *   machine-config: the message `… which is longer than expected`, Failing=Unknown
 *   `SlowClusterOperator`). A snapshot cannot see that progress did not change; the CVO's
 *   thresholds stand for it. Else `Progressing`.
 */
export function assessControlPlane(snapshot: UpgradeStatusSnapshot, nowMs: number): ControlPlaneStatus {
  const cvPart = snapshot.clusterVersion;
  if (cvPart.state !== 'ok') return emptyControlPlane(`ClusterVersion unknown: ${partProblem(cvPart)}`);
  const cv = cvPart.value;
  const history = cv.status?.history ?? [];
  const head = history[0];
  if (!cv.status || !head)
    return emptyControlPlane(
      'ClusterVersion has no update history yet (the cluster version operator has not reported; installing?)',
    );
  const conditions = cv.status.conditions;
  const progressing = cond(conditions, 'Progressing');
  const failing = cond(conditions, 'Failing');
  const accepted = cond(conditions, 'ReleaseAccepted');
  const progress = parseProgressMessage(progressing?.message ?? '');
  const target = head.version;
  const previous = history.slice(1).find((h) => h.state === 'Completed');
  const current = history.find((h) => h.state === 'Completed');
  const started = time(head.startedTime);
  const completed = time(head.completionTime);
  const done = head.state === 'Completed' && progressing?.status !== 'True';
  const elapsed = started === undefined ? null : (done && completed !== undefined ? completed : nowMs) - started;
  const cos = partValue(snapshot.clusterOperators);
  const eta = elapsed === null || done ? undefined : estimateFromHistory(history, elapsed);
  const base: ControlPlaneStatus = {
    ...emptyControlPlane(''),
    currentVersion: current?.version ?? null,
    targetVersion: target,
    previousVersion: previous?.version ?? null,
    startedAt: head.startedTime,
    completedAt: done ? head.completionTime : null,
    durationMs: elapsed,
    estimate: eta && 'estimate' in eta ? eta.estimate : null,
    estimateUnknown: eta && 'unknown' in eta ? eta.unknown : null,
    cvoMessage: progressing?.message ?? '',
    cvoProgress: progress.counts ?? null,
    operators: cos ? operatorProgress(cos, target, done ? [] : progress.operators) : null,
    operatorHealth: cos ? operatorHealth(cos) : null,
    operatorRows: cos ? operatorRows(cos, target) : [],
  };
  const wanted = cv.spec.desiredUpdate;
  const refused =
    accepted?.status === 'False' &&
    wanted !== undefined &&
    (wanted.version ? wanted.version !== cv.status.desired.version : (wanted.image ?? '') !== cv.status.desired.image);
  if (refused) {
    return {
      ...base,
      assessment: 'Stalled',
      message: `the cluster version operator does not accept release ${wanted.version || wanted.image || ''}: ReleaseAccepted=False ${accepted.reason ?? ''}: ${oneLine(accepted.message ?? '')}`,
    };
  }
  if (done) {
    const when = head.completionTime ? ` at ${head.completionTime}` : '';
    return { ...base, assessment: 'Completed', message: `Update to ${target} successfully completed${when}` };
  }
  if (failing?.status === 'True')
    return {
      ...base,
      assessment: 'Stalled',
      message: `Failing=True ${failing.reason ?? ''}: ${oneLine(failing.message ?? '')}`,
    };
  if (progress.form === 'unable' || progress.form === 'errorReconciling')
    return { ...base, assessment: 'Stalled', message: oneLine(progressing?.message ?? '') };
  if (progress.slow || (failing?.status === 'Unknown' && failing.reason === 'SlowClusterOperator')) {
    return {
      ...base,
      assessment: 'Slow',
      message: oneLine(progress.slow ? (progressing?.message ?? '') : (failing?.message ?? '')),
    };
  }
  if (accepted?.status === 'Unknown')
    return {
      ...base,
      assessment: 'Progressing',
      message: `retrieving the release payload: ${oneLine(accepted.message ?? '')}`,
    };
  return { ...base, assessment: 'Progressing', message: oneLine(progressing?.message ?? `Working towards ${target}`) };
}
