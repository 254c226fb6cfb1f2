/**
 * Progressing and Failing from a sync worker report, in the CVO's exact formats
 * (`pkg/cvo/status.go: updateClusterVersionStatus`,
 * docs/design/cluster-model.md#progressing-and-failing). Pure.
 */
import semver from 'semver';
import type { ConditionInput } from './conditions.js';
import { errorSummary, type SyncError } from './errors.js';

/** What the sync worker last reported. */
export interface WorkerReport {
  /** The payload version being applied (`status.Actual.Version`). */
  version: string;
  done: number;
  total: number;
  /** true: reconciling a payload that completed; false: updating towards it. */
  reconciling: boolean;
  failure?: SyncError | undefined;
}

export interface ProgressInput {
  report: WorkerReport;
  now: number;
  /** When the CVO first reached each ClusterOperator in this update (epoch ms). */
  operatorStart: ReadonlyMap<string, number>;
  /** The spec is invalid (condition Invalid is set). */
  invalid?: boolean;
}

const MINUTE = 60_000;
/** A Degraded ClusterOperator fails the update after this long. */
export const DEGRADED_FAIL_AFTER_MS = 40 * MINUTE;
/** [4.16+] A ClusterOperator slower than this is reported as slow (machine-config: 90 min). */
export const SLOW_OPERATOR_MS = 30 * MINUTE;
export const SLOW_MACHINE_CONFIG_MS = 90 * MINUTE;

/** `Working towards 4.15.3: 512 of 883 done (57% complete)` — the percentage is truncated. */
export function progressText(version: string, done: number, total: number): string {
  if (done <= 0 || total <= 0) return `Working towards ${version}`;
  const percent = Math.floor((100 * done) / total);
  return `Working towards ${version}: ${done} of ${total} done (${percent}% complete)`;
}

interface Skip {
  /** The text appended to the progress message. */
  text: string;
  /** Failing=Unknown (SlowClusterOperator) rather than False. */
  slow: boolean;
}

/** Whether an error lets the update go on, and how progress mentions it; undefined: blocking. */
function skipFailure(err: SyncError, input: ProgressInput): Skip | undefined {
  const { now, operatorStart } = input;
  if (err.effect === 'None') {
    const names = err.names.join(', ');
    if (semver.valid(input.report.version) && semver.minor(input.report.version) >= 16) {
      const slow = err.names.filter((name) => {
        const start = operatorStart.get(name);
        return (
          start !== undefined && now - start > (name === 'machine-config' ? SLOW_MACHINE_CONFIG_MS : SLOW_OPERATOR_MS)
        );
      });
      if (slow.length > 0) {
        const others = slow.filter((n) => n !== 'machine-config');
        const mco = slow.includes('machine-config');
        let text: string;
        if (others.length > 0 && mco)
          text = `waiting on ${others.join(', ')} over 30 minutes and machine-config over 90 minutes which is longer than expected`;
        else if (mco) text = 'waiting on machine-config over 90 minutes which is longer than expected';
        else text = `waiting on ${others.join(', ')} over 30 minutes which is longer than expected`;
        return { text, slow: true };
      }
    }
    return { text: `waiting on ${names}`, slow: false };
  }
  if (err.effect === 'FailAfterInterval') {
    const exceeded = err.names.filter((name) => {
      const start = operatorStart.get(name);
      return start !== undefined && now - start > DEGRADED_FAIL_AFTER_MS;
    });
    if (exceeded.length > 0) return undefined;
    return { text: `waiting up to 40 minutes on ${err.names.join(', ')}`, slow: false };
  }
  return undefined;
}

/** The Progressing and Failing conditions for a report. */
export function progressConditions(input: ProgressInput): { progressing: ConditionInput; failing: ConditionInput } {
  const { report } = input;
  const v = report.version;
  const failure = report.failure;
  if (!failure) {
    if (report.reconciling) {
      return {
        progressing: {
          type: 'Progressing',
          status: 'False',
          message: input.invalid ? `Stopped at ${v}: the cluster version is invalid` : `Cluster version is ${v}`,
        },
        failing: { type: 'Failing', status: 'False' },
      };
    }
    return {
      progressing: {
        type: 'Progressing',
        status: 'True',
        message: input.invalid
          ? `Reconciling ${v}: the cluster version is invalid`
          : progressText(v, report.done, report.total),
      },
      failing: { type: 'Failing', status: 'False' },
    };
  }
  const skip = skipFailure(failure, input);
  if (skip) {
    const failing: ConditionInput = skip.slow
      ? { type: 'Failing', status: 'Unknown', reason: 'SlowClusterOperator', message: skip.text }
      : { type: 'Failing', status: 'False' };
    if (report.reconciling) {
      return { progressing: { type: 'Progressing', status: 'False', message: `Cluster version is ${v}` }, failing };
    }
    const message =
      report.done > 0 && report.total > 0
        ? `${progressText(v, report.done, report.total)}, ${skip.text}`
        : `Working towards ${v}: ${skip.text}`;
    return { progressing: { type: 'Progressing', status: 'True', reason: failure.reason, message }, failing };
  }
  let summary = errorSummary(failure);
  if (failure.effect === 'FailAfterInterval') {
    const exceeded = failure.names.filter((name) => {
      const start = input.operatorStart.get(name);
      return start !== undefined && input.now - start > DEGRADED_FAIL_AFTER_MS;
    });
    summary = `wait has exceeded 40 minutes for these operators: ${exceeded.join(', ')}`;
  }
  const failing: ConditionInput = { type: 'Failing', status: 'True', reason: failure.reason, message: failure.message };
  if (report.reconciling) {
    return {
      progressing: {
        type: 'Progressing',
        status: 'False',
        reason: failure.reason,
        message: `Error while reconciling ${v}: ${summary}`,
      },
      failing,
    };
  }
  return {
    progressing: {
      type: 'Progressing',
      status: 'True',
      reason: failure.reason,
      message: `Unable to apply ${v}: ${summary}`,
    },
    failing,
  };
}
