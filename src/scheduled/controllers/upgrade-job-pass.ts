/**
 * One reconcile pass of an UpgradeJob (docs/design/scheduled-flow.md#pass-order): track the hook
 * Jobs (release their finalizers; all of them once the UpgradeJob is gone), stop for a job being
 * deleted, run the final-state pass for a final job, else run the lifecycle steps on the shared
 * engine, write the status when it changed (optimistic concurrency: a conflict fails the pass,
 * which is retried) and, when the job just ended, run the final-state pass at once. Returns what
 * the job waits for (merged with its deadlines), so the controller wakes exactly then, and why.
 */
import { UpgradeJobResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import type { UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import { runSteps } from '../../engine/runner.js';
import { mergeWaitFor, type WaitFor } from '../../engine/step.js';
import type { PrometheusApi } from '../../integrations/prometheus-api.js';
import type { KubeClient } from '../../kube/client.js';
import type { EventRecorder } from '../../kube/event-recorder.js';
import type { Clock } from '../../lib/clock.js';
import { jsonEqual, type JsonValue } from '../../lib/json.js';
import type { Logger } from '../../lib/log.js';
import { isJobFinal, jobConditionTrue } from '../steps/upgrade-job-conditions.js';
import { WatchedKind, type StepContext, type ClusterReads } from '../steps/step-context.js';
import { finalStatePass } from '../steps/upgrade-job-final.js';
import { jobTiming, timedOutAt, type JobTiming } from '../steps/upgrade-job-gate.js';
import { releaseHookJobsOfDeletedJob, trackHookJobs } from '../steps/upgrade-job-hooks.js';
import { endsJob, UpgradeJobStepRecorder } from '../steps/upgrade-job-recorder.js';
import { upgradeJobSteps } from '../steps/upgrade-job-steps.js';
import { UpgradeJobConditionType } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';

/** What a pass needs. */
export interface UpgradeJobPassDeps {
  client: KubeClient;
  clock: Clock;
  log: Logger;
  events: EventRecorder;
  cluster: ClusterReads;
  prometheus?: PrometheusApi;
}

/** Why a job waits (or why a pass must be retried), for the Event and log line. */
export interface Explanation {
  reason: string;
  message: string;
  /** A transient failure (Warning Event, retried with backoff). */
  error?: boolean;
}

/** What one pass found. */
export interface UpgradeJobPassResult {
  /** What wakes the job next (undefined: only a change of the job or of its hook Jobs). */
  waitFor: WaitFor | undefined;
  /** Retry with rate-limited backoff (a transient failure). */
  requeue?: boolean;
  explanation?: Explanation;
  /** The UpgradeJob no longer exists. */
  gone?: boolean;
}

/** Runs one pass for `namespace/name`. */
export async function upgradeJobPass(
  deps: UpgradeJobPassDeps,
  namespace: string,
  name: string,
  signal: AbortSignal,
): Promise<UpgradeJobPassResult> {
  const log = deps.log.child({ namespace, upgradejob: name });
  const found = await deps.client.getIfExists(UpgradeJobResource, namespace, name, { signal });
  if (!found) {
    const released = await releaseHookJobsOfDeletedJob(
      { client: deps.client, cluster: deps.cluster, log },
      namespace,
      name,
      signal,
    );
    if (released > 0) log.info({ released }, 'UpgradeJob gone: released the finalizers of its hook Jobs');
    return { waitFor: undefined, gone: true };
  }
  const job = await trackHookJobs({ client: deps.client, cluster: deps.cluster, log }, found, signal);
  if (job.metadata?.deletionTimestamp) return { waitFor: undefined };

  const parsed = jobTiming(job);
  if (!parsed.ok) {
    return { waitFor: undefined, explanation: { reason: 'InvalidSpec', message: parsed.error, error: true } };
  }
  for (const p of parsed.timing.problems) log.warn(p);
  if (isJobFinal(job)) return finalPass(deps, job, parsed.timing, log, signal);

  const working = structuredClone(job);
  const wakes: number[] = [];
  const ctx = context(deps, working, parsed.timing, log, wakes);
  const result = await runSteps(upgradeJobSteps(working), ctx, {
    recorder: new UpgradeJobStepRecorder(working),
    clock: deps.clock,
    signal,
  });
  const written = await writeStatus(deps, job, working);
  recordTransitions(deps, job, written, log);
  if (isJobFinal(written)) return finalPass(deps, written, parsed.timing, log, signal);

  if (result.finished) return { waitFor: undefined };
  const o = result.outcome;
  if (o.status === 'failed' && o.reason === 'Stopping') return { waitFor: undefined };
  if (o.status === 'failed' && !endsJob(o)) {
    log.warn({ step: result.step.name, reason: o.reason }, o.error);
    return {
      waitFor: undefined,
      requeue: true,
      explanation: { reason: o.reason ?? 'StepFailed', message: `${result.step.name}: ${o.error}`, error: true },
    };
  }
  const now = deps.clock.now();
  const deadline = deadlineOf(parsed.timing, jobConditionTrue(written, UpgradeJobConditionType.Started));
  const times = [...wakes, deadline].filter((t) => t > now);
  let waitFor = mergeWaitFor(o.waitFor, { kinds: [WatchedKind.UpgradeJobHook] });
  if (times.length > 0) waitFor = mergeWaitFor(waitFor, { until: Math.min(...times) });
  const why = o.status === 'pending' ? (o.why ?? 'in progress') : o.error;
  return {
    waitFor,
    explanation: {
      reason: (o.status === 'pending' ? o.reason : undefined) ?? 'InProgress',
      message: `${result.step.name}: ${why}`,
    },
  };
}

/** The instant a waiting job must be looked at regardless: its timeout, or for an unstarted job also `startBefore`. */
export function deadlineOf(timing: JobTiming, started: boolean): number {
  return started ? timedOutAt(timing) : Math.min(timing.startBefore + 1, timedOutAt(timing));
}

function context(
  deps: UpgradeJobPassDeps,
  job: UpgradeJob,
  timing: JobTiming,
  log: Logger,
  wakes: number[],
): StepContext {
  return {
    job,
    timing,
    clock: deps.clock,
    client: deps.client,
    cluster: deps.cluster,
    ...(deps.prometheus ? { prometheus: deps.prometheus } : {}),
    log,
    event: (type, reason, message) => deps.events.event(job, type, reason, message),
    wakeAt: (at) => void wakes.push(at),
  };
}

async function writeStatus(deps: UpgradeJobPassDeps, original: UpgradeJob, working: UpgradeJob): Promise<UpgradeJob> {
  if (jsonEqual((original.status ?? null) as JsonValue, (working.status ?? null) as JsonValue)) return original;
  return deps.client.updateStatus(UpgradeJobResource, working);
}

async function finalPass(
  deps: UpgradeJobPassDeps,
  job: UpgradeJob,
  timing: JobTiming,
  log: Logger,
  signal: AbortSignal,
): Promise<UpgradeJobPassResult> {
  const working = structuredClone(job);
  const ctx = context(deps, working, timing, log, []);
  const r = await finalStatePass(ctx, signal);
  const written = await writeStatus(deps, job, working);
  recordTransitions(deps, job, written, log);
  return {
    waitFor: r.waitFor,
    ...(r.why !== undefined ? { explanation: { reason: 'CleaningUp', message: r.why } } : {}),
  };
}

/** An Event and a log line for every condition that changed status, reason or message. */
function recordTransitions(deps: UpgradeJobPassDeps, before: UpgradeJob, after: UpgradeJob, log: Logger): void {
  if (before === after) return;
  const old = new Map((before.status?.conditions ?? []).map((c) => [c.type, c]));
  for (const c of after.status?.conditions ?? []) {
    const p = old.get(c.type);
    if (p && p.status === c.status && p.reason === c.reason && p.message === c.message) continue;
    if (c.type === UpgradeJobConditionType.MachineConfigPoolsPaused || c.type === UpgradeJobConditionType.Paused) {
      if (p && p.status === c.status) continue;
    }
    const failed = c.type === UpgradeJobConditionType.Failed && c.status === 'True';
    const message = c.message !== '' ? c.message : `${c.type} is ${c.status}`;
    deps.events.event(after, failed ? 'Warning' : 'Normal', c.reason, message);
    (failed ? log.warn.bind(log) : log.info.bind(log))(
      { condition: c.type, status: c.status, reason: c.reason },
      message,
    );
  }
}
