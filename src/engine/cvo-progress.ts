/**
 * Reading the cluster-version operator's progress
 * (docs/design/cluster-model.md#progressing-and-failing,
 * docs/design/cluster-model.md#release-acceptance-and-preconditions,
 * docs/design/cluster-model.md#progress-counting,
 * docs/design/cluster-model.md#behaviour-6-reading-progress,
 * docs/design/cluster-model.md#behaviour-7-a-retarget-and-a-stale-status). `parseProgressMessage`
 * reads every form of the Progressing message; `controlPlaneProgress` decides what the
 * ClusterVersion says about one target, in the only safe order: the spec observed
 * (`observedGeneration`), the release accepted, then Progressing — and completion only from the
 * history head, never from a count or a percentage (counts go backwards after a CVO restart, and
 * with disabled capabilities `done` never reaches `total`). Pure.
 *
 * Hand-written: these are the CVO's own message templates; no library parses them.
 */
import type { ClusterVersion } from '../api/openshift/config-v1/cluster-version.js';

/** Counts as the CVO printed them (`done` of `total`, the truncated percentage). Informational only. */
export interface ProgressCounts {
  done: number;
  total: number;
  percent: number;
}

/** One Progressing message, read. */
export interface CvoProgress {
  /**
   * `working`: `Working towards V[: …]`; `unable`: `Unable to apply V: …` (a blocking error while
   * updating); `errorReconciling`: `Error while reconciling V: …`; `reconciled`: `Cluster version
   * is V`; `invalid`: the spec is invalid (`Stopped at`/`Reconciling V: the cluster version is
   * invalid`); `unknown`: none of these.
   */
  form: 'working' | 'unable' | 'errorReconciling' | 'reconciled' | 'invalid' | 'unknown';
  /** The version (or image pull spec) the message is about. */
  version: string | undefined;
  counts: ProgressCounts | undefined;
  /** What follows the counts or the version: `waiting on dns, network`, a failure summary, or ''. */
  detail: string;
  /** ClusterOperators the message names as waited on or failing, sorted. */
  operators: string[];
  /** `waiting up to 40 minutes on …`: a Degraded operator inside the CVO's 40-minute grace. */
  degradedGrace: boolean;
  /** [4.16+] `… which is longer than expected` (Failing=Unknown, SlowClusterOperator). */
  slow: boolean;
}

const WORKING = /^Working towards (\S+?)(?:: (.*))?$/s;
const COUNTS = /^(\d+) of (\d+) done \((\d+)% complete\)(?:, (.*))?$/s;
const UNABLE = /^Unable to apply (\S+?): (.*)$/s;
const ERROR_RECONCILING = /^Error while reconciling (\S+?): (.*)$/s;
const RECONCILED = /^Cluster version is (\S+)$/;
const INVALID = /^(?:Stopped at|Reconciling) (\S+?): the cluster version is invalid$/;

/** Operator names in a `, `-joined list (the CVO sorts and joins them so). */
function names(list: string): string[] {
  return list
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
}

/** The operators a detail or failure summary names. */
function operatorsIn(detail: string): { operators: string[]; degradedGrace: boolean; slow: boolean } {
  const slow = detail.endsWith('which is longer than expected');
  let m = /^waiting up to 40 minutes on (.+)$/s.exec(detail);
  if (m) return { operators: names(m[1]!).sort(), degradedGrace: true, slow };
  m = /^waiting on (.+?) over 30 minutes and machine-config over 90 minutes which is longer than expected$/s.exec(
    detail,
  );
  if (m) return { operators: [...names(m[1]!), 'machine-config'].sort(), degradedGrace: false, slow };
  m = /^waiting on (.+?) over (?:30|90) minutes which is longer than expected$/s.exec(detail);
  if (m) return { operators: names(m[1]!).sort(), degradedGrace: false, slow };
  m = /^waiting on (.+)$/s.exec(detail);
  if (m) return { operators: names(m[1]!).sort(), degradedGrace: false, slow };
  m = /^wait has exceeded 40 minutes for these operators: (.+)$/s.exec(detail);
  if (m) return { operators: names(m[1]!).sort(), degradedGrace: false, slow };
  m = /^the cluster operator (\S+) (?:is degraded|is not available|does not declare expected versions)$/.exec(detail);
  if (m) return { operators: [m[1]!], degradedGrace: false, slow };
  return { operators: [], degradedGrace: false, slow };
}

/** Reads a ClusterVersion Progressing message in any of the CVO's forms. */
export function parseProgressMessage(message: string): CvoProgress {
  const base = (
    form: CvoProgress['form'],
    version: string | undefined,
    detail: string,
    counts?: ProgressCounts,
  ): CvoProgress => ({ form, version, counts, detail, ...operatorsIn(detail) });
  let m = WORKING.exec(message);
  if (m) {
    const rest = m[2] ?? '';
    const c = COUNTS.exec(rest);
    if (c) return base('working', m[1], c[4] ?? '', { done: Number(c[1]), total: Number(c[2]), percent: Number(c[3]) });
    return base('working', m[1], rest);
  }
  m = UNABLE.exec(message);
  if (m) return base('unable', m[1], m[2]!);
  m = ERROR_RECONCILING.exec(message);
  if (m) return base('errorReconciling', m[1], m[2]!);
  m = INVALID.exec(message);
  if (m) return base('invalid', m[1], 'the cluster version is invalid');
  m = RECONCILED.exec(message);
  if (m) return base('reconciled', m[1], '');
  return base('unknown', undefined, message);
}

/** The release an operator asked for: every non-empty field must match. */
export interface ControlPlaneTarget {
  version?: string | undefined;
  image?: string | undefined;
}

/** A ClusterVersion condition, as read. */
export interface ConditionText {
  status: string;
  reason: string;
  message: string;
}

/** What the ClusterVersion says about one target, in the order it may be read. */
export type ControlPlaneProgress =
  /** The history head is the target and Completed, and the status reflects the current spec. */
  | { state: 'completed' }
  /** `observedGeneration < metadata.generation`: the status does not reflect the spec yet. */
  | { state: 'specNotObserved'; generation: number; observedGeneration: number }
  /** The CVO has not accepted the target's payload (ReleaseAccepted Unknown or False); Progressing is about the old one. */
  | { state: 'notAccepted'; releaseAccepted: ConditionText | undefined; desired: string }
  /** The CVO works towards the target; Failing as it is (never a verdict by itself). */
  | { state: 'progressing'; progress: CvoProgress; failing: ConditionText | undefined };

function matches(
  release: { version?: string | undefined; image?: string | undefined },
  target: ControlPlaneTarget,
): boolean {
  const v = target.version ?? '';
  const i = target.image ?? '';
  if (v === '' && i === '') return false;
  return (v === '' || release.version === v) && (i === '' || release.image === i);
}

function condition(cv: ClusterVersion, type: string): ConditionText | undefined {
  const c = cv.status?.conditions?.find((x) => x.type === type);
  return c ? { status: c.status, reason: c.reason ?? '', message: c.message ?? '' } : undefined;
}

/** True when the status reflects the current spec (`observedGeneration >= metadata.generation`). */
export function specObserved(cv: ClusterVersion): boolean {
  return (cv.status?.observedGeneration ?? 0) >= (cv.metadata?.generation ?? 0);
}

/**
 * True only when the CVO has observed the current spec and the history head is the target,
 * Completed. An older Completed entry for the same release (a rollback, a retarget back) does not
 * count: the CVO prepends a new entry for every new target.
 */
export function targetCompleted(cv: ClusterVersion, target: ControlPlaneTarget): boolean {
  const head = cv.status?.history?.[0];
  return specObserved(cv) && head !== undefined && head.state === 'Completed' && matches(head, target);
}

/**
 * What the ClusterVersion says about `target` (read in the order of
 * docs/design/cluster-model.md#behaviour-7-a-retarget-and-a-stale-status).
 */
export function controlPlaneProgress(cv: ClusterVersion, target: ControlPlaneTarget): ControlPlaneProgress {
  if (!specObserved(cv))
    return {
      state: 'specNotObserved',
      generation: cv.metadata?.generation ?? 0,
      observedGeneration: cv.status?.observedGeneration ?? 0,
    };
  if (targetCompleted(cv, target)) return { state: 'completed' };
  const accepted = condition(cv, 'ReleaseAccepted');
  const desired = cv.status?.desired;
  if (accepted?.status !== 'True' || !desired || !matches(desired, target)) {
    return { state: 'notAccepted', releaseAccepted: accepted, desired: desired?.version || desired?.image || '' };
  }
  const progress = parseProgressMessage(condition(cv, 'Progressing')?.message ?? '');
  const failing = condition(cv, 'Failing');
  return { state: 'progressing', progress, failing: failing && failing.status !== 'False' ? failing : undefined };
}

/**
 * The words for a Waiting message when the CVO's state is worth a reader's attention: the spec
 * not observed yet, the release not accepted, a Degraded operator inside the 40-minute grace, a
 * slow operator, `Unable to apply …`, Failing not False. '' while the update simply runs (`Working
 * towards …[, waiting on …]`): that changes every few minutes and would only churn the condition
 * and its Events. No counts either, for the same reason.
 */
export function describeControlPlaneProgress(controlPlaneProgress: ControlPlaneProgress): string {
  switch (controlPlaneProgress.state) {
    case 'completed':
      return '';
    case 'specNotObserved':
      return `the cluster version operator has not yet observed the new spec (observedGeneration ${controlPlaneProgress.observedGeneration}, generation ${controlPlaneProgress.generation})`;
    case 'notAccepted': {
      const a = controlPlaneProgress.releaseAccepted;
      const why = a
        ? `ReleaseAccepted=${a.status}${a.reason ? ` ${a.reason}` : ''}${a.message ? `: ${a.message}` : ''}`
        : 'no ReleaseAccepted condition yet';
      return `the release is not accepted yet, the cluster version operator still runs ${controlPlaneProgress.desired || 'the previous release'} (${why})`;
    }
    case 'progressing': {
      const { progress: g, failing } = controlPlaneProgress;
      const ops = g.operators.join(', ');
      const failingText = failing
        ? `; Failing=${failing.status}${failing.reason ? ` ${failing.reason}` : ''}: ${failing.message}`
        : '';
      if (g.form === 'unable' || g.form === 'errorReconciling')
        return `the cluster version operator is unable to apply ${g.version ?? ''}: ${g.detail}${failingText}; it keeps retrying`;
      if (g.form !== 'working')
        return `the cluster version operator reports "${g.detail || g.version || ''}"${failingText}`;
      if (g.degradedGrace)
        return `the cluster version operator waits up to 40 minutes on degraded ${ops}${failingText}`;
      if (g.slow) return `the cluster version operator has waited on ${ops} longer than expected${failingText}`;
      return failingText === ''
        ? ''
        : `the cluster version operator is working towards ${g.version ?? ''}${failingText}`;
    }
  }
}
