/**
 * Running UpgradeJobHooks for an UpgradeJob (docs/design/scheduled-flow.md#hooks), the I/O around
 * the pure decisions of `scheduled/hooks/`: track the job's hook Jobs into `status.hookTracker` and
 * release their finalizers; per event select the hooks, write `run: Next` claims, create each run's
 * Job once (the deterministic name makes a repeated create an AlreadyExists, which counts as
 * active), and decide wait / fail / proceed.
 */
import type { Job } from 'kubernetes-types/batch/v1.js';
import { JobResource } from '../../api/builtin.js';
import { UpgradeJobResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import type { UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import {
  HOOK_JOB_TRACKER_FINALIZER,
  UpgradeJobHookResource,
  type UpgradeEvent,
} from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook-contract.js';
import type { UpgradeJobHook } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook.js';
import type { KubeClient } from '../../kube/client.js';
import { ignoreNotFound, isAlreadyExists } from '../../kube/status-error.js';
import type { Logger } from '../../lib/log.js';
import { hookEnvironment } from '../hooks/hook-env.js';
import { buildHookJob } from '../hooks/hook-job.js';
import { matchesDisruptiveHooks, selectHooks } from '../hooks/hook-selection.js';
import {
  decideHookOutcome,
  finalizersToReleaseForDeletedJob,
  hookRunEntries,
  updateHookTracker,
  type HookOutcome,
  type HookRunResult,
} from '../hooks/hook-tracking.js';
import type { StepContext, ClusterReads } from './step-context.js';

/** What tracking needs. */
export interface HookTrackingDeps {
  client: KubeClient;
  cluster: Pick<ClusterReads, 'hookJobs'>;
  log: Logger;
}

async function releaseFinalizer(client: KubeClient, job: Job, signal: AbortSignal): Promise<void> {
  const finalizers = (job.metadata?.finalizers ?? []).filter((f) => f !== HOOK_JOB_TRACKER_FINALIZER);
  await ignoreNotFound(
    client.patch(
      JobResource,
      job.metadata?.namespace,
      job.metadata?.name ?? '',
      { metadata: { finalizers, resourceVersion: job.metadata?.resourceVersion ?? null } },
      { type: 'merge', signal },
    ),
  );
}

/**
 * docs/design/scheduled-flow.md#tracking for an existing UpgradeJob: records the outcomes of its
 * hook Jobs in `status.hookTracker` (written at once when it changed, so a Job released next is
 * never forgotten), then removes the tracker finalizer from the finished Jobs. Returns the job as
 * it now is (the written object).
 */
export async function trackHookJobs(deps: HookTrackingDeps, job: UpgradeJob, signal: AbortSignal): Promise<UpgradeJob> {
  const ns = job.metadata?.namespace ?? '';
  const jobs = deps.cluster.hookJobs(ns, job.metadata?.name ?? '');
  const update = updateHookTracker(job, jobs);
  let current = job;
  if (update.changed) {
    const next = structuredClone(job);
    (next.status ??= {}).hookTracker = update.tracker;
    current = await deps.client.updateStatus(UpgradeJobResource, next, { signal });
  }
  for (const name of update.releaseFinalizer) {
    const j = jobs.find((x) => x.metadata?.name === name);
    if (j) await releaseFinalizer(deps.client, j, signal);
  }
  return current;
}

/**
 * docs/design/scheduled-flow.md#tracking for a deleted UpgradeJob: every hook Job of it loses the
 * tracker finalizer (GC then removes them).
 */
export async function releaseHookJobsOfDeletedJob(
  deps: HookTrackingDeps,
  namespace: string,
  name: string,
  signal: AbortSignal,
): Promise<number> {
  const jobs = deps.cluster.hookJobs(namespace, name);
  const names = new Set(finalizersToReleaseForDeletedJob(jobs));
  for (const j of jobs) if (names.has(j.metadata?.name ?? '')) await releaseFinalizer(deps.client, j, signal);
  return names.size;
}

/** One event's hook run. */
export interface HookEventOptions {
  /** `EVENT.reason`. */
  reason: string;
  /** The tracking key and `EVENT.pool` (MachineConfigPoolUnpause only). */
  pool?: string;
}

async function claim(
  ctx: StepContext,
  hook: UpgradeJobHook,
  claimRef: NonNullable<UpgradeJobHook['status']>['claimedBy'],
  signal: AbortSignal,
): Promise<void> {
  const next: UpgradeJobHook = {
    ...structuredClone(hook),
    status: { ...hook.status, ...(claimRef ? { claimedBy: claimRef } : {}) },
  };
  // Optimistic: a Conflict (someone else claimed it meanwhile) fails the pass, which is retried.
  await ctx.client.updateStatus(UpgradeJobHookResource, next, { signal });
  ctx.log.info({ hook: hook.metadata?.name }, 'claimed run: Next hook');
}

/**
 * Runs `event`'s hooks for the job (docs/design/scheduled-flow.md#hooks): selects them, writes
 * claims, creates the Job of every run not seen yet, and decides. Failures that do not fail the job
 * are logged.
 */
export async function runHooks(
  ctx: StepContext,
  event: UpgradeEvent,
  options: HookEventOptions,
  signal: AbortSignal,
): Promise<HookOutcome> {
  const job = ctx.job;
  const ns = job.metadata?.namespace ?? '';
  const name = job.metadata?.name ?? '';
  const all = ctx.cluster.hooks(ns);
  const selection = selectHooks(job, all, event);
  for (const s of selection.skipped)
    if (s.reason === 'invalidSelector') ctx.log.warn({ hook: s.hook, event }, 'hook skipped: its selector is invalid');
  for (const hook of selection.toClaim) await claim(ctx, hook, selection.claim, signal);
  const trackingKey = options.pool ?? '';
  const jobs = ctx.cluster.hookJobs(ns, name);
  const tracker = job.status?.hookTracker ?? [];
  const runs: HookRunResult[] = [];
  for (const hook of selection.run) {
    const hookName = hook.metadata?.name ?? '';
    const entries = hookRunEntries({ upgradeJob: name, hook: hookName, event, trackingKey }, tracker, jobs);
    if (entries.length === 0) {
      const { env } = hookEnvironment({
        job,
        event,
        reason: options.reason,
        ...(options.pool !== undefined ? { pool: options.pool } : {}),
        now: ctx.clock.now(),
        matchesDisruptiveHooks: matchesDisruptiveHooks(job, all),
      });
      const hookJob = buildHookJob({ upgradeJob: job, hook, event, trackingKey, env });
      try {
        await ctx.client.create(JobResource, hookJob, { signal });
        ctx.log.info({ hook: hookName, event, job: hookJob.metadata?.name }, 'hook Job created');
        ctx.event(
          'Normal',
          'HookJobCreated',
          `created Job ${hookJob.metadata?.name ?? ''} for hook ${hookName} on ${event}${trackingKey ? ` (${trackingKey})` : ''}`,
        );
      } catch (err) {
        // The deterministic name: it exists already (made by an earlier pass or instance) and is active.
        if (!isAlreadyExists(err)) throw err;
      }
    }
    runs.push({ hook, entries });
  }
  const outcome = decideHookOutcome(job, event, runs);
  if (outcome.kind === 'proceed') {
    // Looked at again on every pass: debug, not to repeat a line per pass (the hook Job and the tracker keep the outcome).
    for (const f of outcome.abortFailures) ctx.log.debug({ event }, f);
    for (const f of outcome.ignoredFailures) ctx.log.debug({ event, failurePolicy: 'Ignore' }, f);
  }
  return outcome;
}
