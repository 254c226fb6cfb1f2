/**
 * The scheduled flow's UpgradeJob lifecycle as engine steps
 * (docs/design/scheduled-flow.md#pass-order, docs/design/scheduled-flow.md#the-started-path,
 * docs/design/scheduled-flow.md#pool-delays):
 *
 *   Create hooks → start gate (startAfter / suspension window / startBefore) → Start hooks →
 *   timeout → ClusterVersion lock → pool delays → pre-upgrade health → desiredUpdate →
 *   completion → post-upgrade health → UpgradeComplete hooks → pools paused/updating → Succeeded
 *
 * The runner walks the list from the first step on every pass; each step answers done at once
 * when its work is done (a condition is True, the lock is ours, the update is set), so a pass
 * resumes where the job stands. `desiredUpdate` and completion are left out for a noop job (no
 * `desiredVersion`). A step ends the job through {@link endJob}; the recorder writes the final
 * condition. Final states are handled by `upgrade-job-final.ts`.
 *
 * Deliberate differences from the shipped controller (for docs/compatibility.md):
 * - Create and Start hooks that never finish no longer block forever: see `upgrade-job-gate.ts`;
 * - a ClusterVersion locked by another job is a wait (woken by ClusterVersion changes, bounded
 *   by `upgradeTimeout`), not a reconcile error retried with backoff; a lock held by an
 *   UpgradeJob that no longer exists is taken over (upstream: every later job blocked for good);
 * - a release matches on the fields the job sets (see `upgrade-job-cluster.ts`).
 */
import type { UpgradeEvent } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook-contract.js';
import {
  ANNOTATION_UPGRADE_JOB,
  UpgradeJobConditionType,
  UpgradeJobReason,
  UpgradeJobResource,
} from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import type { UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import { ClusterVersionResource, type ClusterVersion } from '../../api/openshift/config-v1/cluster-version.js';
import { outcome, type Step, type StepOutcome } from '../../engine/step.js';
import { isNotFound } from '../../kube/status-error.js';
import { formatTime } from '../../lib/clock.js';
import type { JsonObject } from '../../lib/json.js';
import { jobConditionTrue, UpgradeJobMessage } from './upgrade-job-conditions.js';
import { controlPlaneProgress, describeControlPlaneProgress } from '../../engine/cvo-progress.js';
import {
  desiredUpdateOf,
  isDesiredReleaseAvailable,
  isUpgradeCompleted,
  isVersionUpgradeCompleted,
  lockHolder,
  lockValue,
  parseLockValue,
  sameDesiredUpdate,
  updatingPools,
} from './upgrade-job-cluster.js';
import { WatchedKind, type StepContext } from './step-context.js';
import { hookWaitBound, isTimedOut, matchingSuspensionWindow, startDecision } from './upgrade-job-gate.js';
import { postUpgradeHealthCheckStep, preUpgradeHealthCheckStep } from './upgrade-job-health-step.js';
import { runHooks } from './upgrade-job-hooks.js';
import { pausedStep, poolDelayStep } from './upgrade-job-pool-steps.js';
import { endJob } from './upgrade-job-recorder.js';

type S = Step<StepContext>;

function started(ctx: StepContext): boolean {
  return jobConditionTrue(ctx.job, UpgradeJobConditionType.Started);
}

function windowNow(ctx: StepContext): ReturnType<typeof matchingSuspensionWindow> {
  return matchingSuspensionWindow(
    ctx.cluster.suspensionWindows(ctx.job.metadata?.namespace ?? ''),
    ctx.job,
    ctx.clock.now(),
  );
}

/**
 * A step running an outcome-influencing event's hooks: wait while they run, fail with HookFailed
 * on an `Abort` failure. `bounded` (Create, Start): the wait ends with the job's deadlines.
 */
function hookStep(name: string, event: UpgradeEvent, reason: string, bounded: boolean): S {
  return {
    name,
    condition: `${event}Hooks`,
    async run(ctx, signal): Promise<StepOutcome> {
      const o = await runHooks(ctx, event, { reason }, signal);
      if (o.kind === 'proceed') return outcome.done();
      if (o.kind === 'fail') return endJob.failed(o.reason, o.message);
      const why = `waiting for the ${event} hooks: ${o.active.join(', ')}`;
      const kinds = [WatchedKind.Job, WatchedKind.UpgradeJobHook];
      if (!bounded) return outcome.pending({ kinds }, why, 'WaitingForHooks');
      const now = ctx.clock.now();
      const isStarted = started(ctx);
      const bound = hookWaitBound(now, ctx.timing, isStarted, isStarted ? undefined : windowNow(ctx));
      switch (bound.kind) {
        case 'wait':
          return outcome.pending({ until: bound.until, kinds }, why, 'WaitingForHooks');
        case 'skip':
          return endJob.skipped(bound.window);
        case 'expire':
          return endJob.failed(UpgradeJobReason.Expired, UpgradeJobMessage.expired(ctx.timing.startBefore));
        case 'timeout':
          return endJob.failed(UpgradeJobReason.TimedOut, UpgradeJobMessage.timedOut(ctx.timing.timeoutMs));
      }
    },
  };
}

/** docs/design/scheduled-flow.md#pass-order steps 6–9: done once Started; else start, skip, expire or wait for startAfter. */
function startGateStep(): S {
  return {
    name: 'StartGate',
    condition: UpgradeJobConditionType.Started,
    async run(ctx): Promise<StepOutcome> {
      if (started(ctx)) return outcome.done();
      const d = startDecision(ctx.clock.now(), ctx.timing, windowNow(ctx));
      switch (d.kind) {
        case 'start':
          return outcome.done();
        case 'skip':
          return endJob.skipped(d.window);
        case 'expire':
          return endJob.failed(UpgradeJobReason.Expired, UpgradeJobMessage.expired(ctx.timing.startBefore));
        case 'wait':
          return outcome.pending(
            { until: d.until, kinds: [WatchedKind.UpgradeSuspensionWindow] },
            `the upgrade may start at ${formatTime(d.until)}`,
            'WaitingForStartAfter',
          );
      }
    },
  };
}

/** docs/design/scheduled-flow.md#the-started-path step 2. */
function timeoutStep(): S {
  return {
    name: 'UpgradeTimeout',
    condition: 'UpgradeTimeout',
    async run(ctx): Promise<StepOutcome> {
      if (isTimedOut(ctx.clock.now(), ctx.timing))
        return endJob.failed(UpgradeJobReason.TimedOut, UpgradeJobMessage.timedOut(ctx.timing.timeoutMs));
      return outcome.done();
    },
  };
}

function missingClusterVersion(): StepOutcome {
  return outcome.pending(
    { kinds: [WatchedKind.ClusterVersion] },
    'ClusterVersion "version" not found',
    'ClusterVersionMissing',
  );
}

/**
 * A lock held by an UpgradeJob that no longer exists (deleted before it released the lock; upstream
 * then blocked every later job for good). A value that names no job (not `<ns>/<name>`) is not stale.
 */
async function isStaleLock(ctx: StepContext, holder: string, signal: AbortSignal): Promise<boolean> {
  const ref = parseLockValue(holder);
  if (!ref) return false;
  try {
    await ctx.client.get(UpgradeJobResource, ref.namespace, ref.name, { signal });
    return false;
  } catch (err) {
    if (isNotFound(err)) return true;
    throw err;
  }
}

/**
 * docs/design/scheduled-flow.md#the-started-path step 3: take the ClusterVersion lock (also a stale
 * one), or wait while another job holds it.
 */
function lockStep(): S {
  return {
    name: 'ClusterVersionLock',
    condition: 'ClusterVersionLock',
    async run(ctx, signal): Promise<StepOutcome> {
      const cv = ctx.cluster.clusterVersion();
      if (!cv) return missingClusterVersion();
      const mine = lockValue(ctx.job);
      const holder = lockHolder(cv);
      if (holder === mine) return outcome.done();
      if (holder !== undefined && !(await isStaleLock(ctx, holder, signal))) {
        return outcome.pending(
          { kinds: [WatchedKind.ClusterVersion] },
          `the ClusterVersion is locked by UpgradeJob ${holder}`,
          'ClusterVersionLocked',
        );
      }
      if (holder !== undefined) {
        ctx.log.warn({ holder }, 'taking over the ClusterVersion lock of an UpgradeJob that no longer exists');
        ctx.event(
          'Warning',
          'StaleLockTakenOver',
          `the ClusterVersion was locked by UpgradeJob ${holder}, which no longer exists; taking the lock`,
        );
      }
      // Optimistic: a Conflict (someone locked it meanwhile) fails the pass, which is retried.
      const patch: JsonObject = {
        metadata: {
          resourceVersion: cv.metadata?.resourceVersion ?? null,
          annotations: { [ANNOTATION_UPGRADE_JOB]: mine },
        },
      };
      await ctx.client.patch(ClusterVersionResource, undefined, cv.metadata?.name ?? 'version', patch, {
        type: 'merge',
        signal,
      });
      ctx.log.info({ lock: mine }, 'locked the ClusterVersion');
      return outcome.done();
    },
  };
}

/** docs/design/scheduled-flow.md#the-started-path step 6, first half: withdrawal check, then write `desiredUpdate`. */
function desiredUpdateStep(): S {
  return {
    name: 'DesiredUpdate',
    condition: 'DesiredUpdate',
    async run(ctx, signal): Promise<StepOutcome> {
      const desired = desiredUpdateOf(ctx.job);
      if (!desired) return outcome.done();
      const cv = ctx.cluster.clusterVersion();
      if (!cv) return missingClusterVersion();
      if (sameDesiredUpdate(cv.spec.desiredUpdate, desired)) return outcome.done();
      if (ctx.job.spec?.desiredVersionCheckAvailability !== false && !isDesiredReleaseAvailable(cv, desired)) {
        return endJob.failed(UpgradeJobReason.UpgradeWithdrawn, UpgradeJobMessage.withdrawn(desired.version ?? ''));
      }
      const current = (cv.spec.desiredUpdate ?? {}) as Record<string, unknown>;
      const update: JsonObject = {};
      for (const k of Object.keys(current)) update[k] = null;
      Object.assign(update, {
        version: desired.version ?? '',
        image: desired.image ?? '',
        force: desired.force ?? false,
        architecture: desired.architecture ?? null,
      });
      await ctx.client.patch(
        ClusterVersionResource,
        undefined,
        cv.metadata?.name ?? 'version',
        { spec: { desiredUpdate: update } },
        { type: 'merge', signal },
      );
      const what = desired.version || desired.image || '';
      ctx.log.info({ version: desired.version, image: desired.image }, 'set ClusterVersion desiredUpdate');
      ctx.event('Normal', 'DesiredUpdateSet', `set the ClusterVersion's desiredUpdate to ${what}`);
      return outcome.pending(
        { kinds: [WatchedKind.ClusterVersion] },
        `set desiredUpdate to ${what}; waiting for the ClusterVersion to take it`,
        'DesiredUpdateSet',
      );
    },
  };
}

function completionWhy(cv: ClusterVersion, job: UpgradeJob, ctx: StepContext): string {
  const desired = desiredUpdateOf(job);
  const what = desired?.version || desired?.image || '';
  if (desired && !isVersionUpgradeCompleted(cv, desired)) {
    const words = describeControlPlaneProgress(controlPlaneProgress(cv, desired));
    return `the cluster is upgrading to ${what}${words === '' ? '' : `: ${words}`}`;
  }
  const pools = updatingPools(ctx.cluster.pools()).filter((p) => !p.paused);
  return `the cluster runs ${what}; MachineConfigPools still updating: ${pools.map((p) => p.name).join(', ')}`;
}

/**
 * docs/design/scheduled-flow.md#the-started-path step 6, second half: `UpgradeCompleted` once
 * history and unpaused pools are done.
 */
function completionStep(): S {
  return {
    name: 'UpgradeCompleted',
    condition: UpgradeJobConditionType.UpgradeCompleted,
    async run(ctx): Promise<StepOutcome> {
      if (jobConditionTrue(ctx.job, UpgradeJobConditionType.UpgradeCompleted)) return outcome.done();
      const desired = desiredUpdateOf(ctx.job);
      if (!desired) return outcome.done();
      const cv = ctx.cluster.clusterVersion();
      if (!cv) return missingClusterVersion();
      if (isUpgradeCompleted(cv, desired, ctx.cluster.pools())) return outcome.done();
      return outcome.pending(
        { kinds: [WatchedKind.ClusterVersion, WatchedKind.MachineConfigPool] },
        completionWhy(cv, ctx.job, ctx),
        'UpgradeInProgress',
      );
    },
  };
}

/** docs/design/scheduled-flow.md#the-started-path step 10. */
function succeededStep(): S {
  return { name: 'Succeeded', condition: UpgradeJobConditionType.Succeeded, run: async () => outcome.done() };
}

/** The steps of a job that is not final (the version steps only when it names a release). */
export function upgradeJobSteps(job: UpgradeJob): S[] {
  const withVersion = desiredUpdateOf(job) !== undefined;
  return [
    hookStep('CreateHooks', 'Create', '', true),
    startGateStep(),
    hookStep('StartHooks', 'Start', UpgradeJobReason.Started, true),
    timeoutStep(),
    lockStep(),
    poolDelayStep(),
    preUpgradeHealthCheckStep(),
    ...(withVersion ? [desiredUpdateStep(), completionStep()] : []),
    postUpgradeHealthCheckStep(),
    hookStep('UpgradeCompleteHooks', 'UpgradeComplete', UpgradeJobReason.Completed, false),
    pausedStep(),
    succeededStep(),
  ];
}
