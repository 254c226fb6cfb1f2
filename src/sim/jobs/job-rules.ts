/**
 * How a simulated Job ends: scenario rules (first match wins) decide success or failure and
 * after how long; without a matching rule a Job succeeds after a triangular (0.5, 1, 2) virtual
 * minutes. Pure functions.
 */
import type { Job, JobCondition } from 'kubernetes-types/batch/v1.js';
import type { SeededRandom } from '../../lib/random.js';
import { drawMs, minutesMs, type Triangle } from '../durations.js';
import { hasLabels } from '../workloads/label-selector.js';
import type { GoRegexp } from '../../lib/go-regexp.js';

/** A scenario rule for Jobs. */
export interface JobRule {
  /** `name`: the Job's name, or a Go regular expression it matches (unanchored). */
  match: { namespace?: string; name?: string | GoRegexp; labels?: Record<string, string> };
  outcome: 'succeed' | 'fail';
  /** Virtual minutes from the start (default: the controller's run duration draw). */
  after?: number;
}

/** The outcome of one Job. */
export interface JobPlan {
  outcome: 'succeed' | 'fail';
  /** Milliseconds from startTime until the Job ends (unless its deadline comes first). */
  afterMs: number;
}

export const DEFAULT_JOB_RUN: Triangle = [0.5, 1, 2];

/** The rule matching the Job, if any. */
export function matchingRule(job: Job, rules: readonly JobRule[]): JobRule | undefined {
  const name = job.metadata?.name ?? '';
  return rules.find((jobRule) => {
    const m = jobRule.match;
    if (m.namespace !== undefined && m.namespace !== job.metadata?.namespace) return false;
    if (typeof m.name === 'string' && m.name !== name) return false;
    if (m.name !== undefined && typeof m.name !== 'string' && !m.name.test(name)) return false;
    return hasLabels(m.labels, job.metadata?.labels);
  });
}

/** The plan of a Job; `random` is the Job's own stream, so a Job always gets the same plan. */
export function planFor(
  job: Job,
  rules: readonly JobRule[],
  random: SeededRandom,
  run: Triangle,
  timeScale: number,
): JobPlan {
  const rule = matchingRule(job, rules);
  const afterMs = rule?.after !== undefined ? minutesMs(rule.after, timeScale) : drawMs(random, run, timeScale);
  return { outcome: rule?.outcome ?? 'succeed', afterMs };
}

/** What happens next to a started Job: nothing until `at`, or its end. */
export type JobStep =
  | { kind: 'wait'; at: number }
  | { kind: 'complete' }
  | { kind: 'fail'; reason: 'BackoffLimitExceeded' | 'DeadlineExceeded'; message: string };

/** The step of a Job started at `startMs` (pure): the deadline wins a tie with the end. */
export function nextStep(job: Job, plan: JobPlan, startMs: number, now: number): JobStep {
  const deadline = job.spec?.activeDeadlineSeconds;
  const deadlineAt = deadline === undefined ? Infinity : startMs + deadline * 1000;
  const endAt = startMs + plan.afterMs;
  if (now >= deadlineAt && deadlineAt <= endAt)
    return { kind: 'fail', reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' };
  if (now >= endAt) {
    return plan.outcome === 'succeed'
      ? { kind: 'complete' }
      : { kind: 'fail', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' };
  }
  return { kind: 'wait', at: Math.min(deadlineAt, endAt) };
}

/** True once the Job has a Complete or Failed condition that is True. */
export function isJobFinished(job: Job): boolean {
  return (job.status?.conditions ?? []).some(
    (c: JobCondition) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
  );
}
