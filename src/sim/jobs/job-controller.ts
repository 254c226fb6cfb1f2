/**
 * The simulated Job controller (kube-controller-manager's, simplified to one pod per Job):
 * a `batch/v1` Job starts at once (`startTime`, `active: 1`, a Pod owned by the Job, bound to a
 * schedulable node when there is one, Running and `ready: 1` once seen), then ends as its plan
 * says (job-rules.ts): `Complete` with `succeeded` and `completionTime`, `Failed` with reason
 * `BackoffLimitExceeded` (`failed` = backoffLimit + 1, as after the real retries), or, when
 * `activeDeadlineSeconds` passes first, `Failed` with reason `DeadlineExceeded` (the active pod
 * deleted). `suspend: true` deletes the active pod and sets `Suspended` (startTime cleared, as
 * kube does); resuming starts the Job again. `uncountedTerminatedPods: {}` is always written.
 */
import type { Job, JobCondition, JobStatus } from 'kubernetes-types/batch/v1.js';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { JobResource, NodeResource, PodResource } from '../../api/builtin.js';
import type { ReconcileResult } from '../../kube/controller.js';
import { ignoreNotFound, ignoreNotFoundOrConflict, isConflict, isNotFound } from '../../kube/status-error.js';
import { formatTime } from '../../lib/clock.js';
import { jsonEqual, type JsonValue } from '../../lib/json.js';
import { type SimComponent, type SimContext, simController } from '../context.js';
import type { Triangle } from '../durations.js';
import { randomSuffix } from '../workloads/names.js';
import { POD_BY_CONTROLLER_UID, POD_INDEXERS } from '../workloads/pod-indexes.js';
import { runningPodStatus, terminatedPodStatus } from '../workloads/pod-status.js';
import { isPodActive, pickNode } from '../workloads/scheduling.js';
import { DEFAULT_JOB_RUN, isJobFinished, nextStep, planFor, type JobRule } from './job-rules.js';

export interface JobControllerOptions {
  rules?: JobRule[];
  /** Default run time of a Job no rule times (virtual minutes; default (0.5, 1, 2)). */
  run?: Triangle;
  /** Divides every duration, rule times included (default 1). */
  timeScale?: number;
  workers?: number;
}

/** Sets a Job condition, keeping lastTransitionTime when the status does not change. */
function withCondition(
  conditions: readonly JobCondition[],
  type: string,
  status: 'True' | 'False',
  reason: string,
  message: string,
  at: string,
): JobCondition[] {
  const prev = conditions.find((c) => c.type === type);
  const next: JobCondition = {
    type,
    status,
    ...(reason !== '' ? { reason } : {}),
    ...(message !== '' ? { message } : {}),
    lastProbeTime: at,
    lastTransitionTime: prev?.status === status ? (prev.lastTransitionTime ?? at) : at,
  };
  return prev ? conditions.map((c) => (c.type === type ? next : c)) : [...conditions, next];
}

/** The pod of a Job (one per run). */
export function newJobPod(job: Job, suffix: string, nodeName: string | undefined): Pod {
  const name = job.metadata?.name ?? '';
  const uid = job.metadata?.uid ?? '';
  const tpl = job.spec?.template;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${name}-${suffix}`,
      namespace: job.metadata?.namespace ?? 'default',
      labels: {
        ...tpl?.metadata?.labels,
        'batch.kubernetes.io/controller-uid': uid,
        'batch.kubernetes.io/job-name': name,
        'controller-uid': uid,
        'job-name': name,
      },
      ...(tpl?.metadata?.annotations ? { annotations: { ...tpl.metadata.annotations } } : {}),
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name, uid, controller: true, blockOwnerDeletion: true }],
    },
    spec: { ...tpl?.spec, containers: tpl?.spec?.containers ?? [], ...(nodeName !== undefined ? { nodeName } : {}) },
  };
}

/** Creates the Job controller component. */
export function createJobController(ctx: SimContext, options: JobControllerOptions = {}): SimComponent {
  const rules = options.rules ?? [];
  const run = options.run ?? DEFAULT_JOB_RUN;
  const timeScale = options.timeScale ?? 1;
  const random = ctx.random.fork('jobs');
  const log = ctx.logger.child({ component: 'sim-job-controller' });
  const jobs = ctx.informers.informerFor(JobResource);
  const pods = ctx.informers.informerFor(PodResource, { indexers: POD_INDEXERS });
  const nodes = ctx.informers.informerFor(NodeResource);
  /** Pods created but not yet cached, per Job uid. */
  const created = new Map<string, Pod>();

  const writeStatus = async (job: Job, status: JobStatus): Promise<ReconcileResult | void> => {
    if (jsonEqual(status as unknown as JsonValue, (job.status ?? {}) as unknown as JsonValue)) return;
    try {
      await ctx.client.updateStatus(JobResource, { ...job, status });
    } catch (err) {
      if (isConflict(err)) return { requeue: true };
      if (!isNotFound(err)) throw err;
    }
  };

  const setPodStatus = async (pod: Pod, status: Pod['status']): Promise<void> => {
    await ignoreNotFoundOrConflict(ctx.client.updateStatus(PodResource, { ...pod, ...(status ? { status } : {}) }));
  };

  const deletePod = async (pod: Pod): Promise<void> => {
    await ignoreNotFound(ctx.client.delete(PodResource, pod.metadata?.namespace, pod.metadata?.name ?? ''));
  };

  const reconcile = async (key: string): Promise<ReconcileResult | void> => {
    const job = jobs.getByKey(key);
    if (!job || job.metadata?.deletionTimestamp !== undefined || isJobFinished(job)) return;
    const uid = job.metadata?.uid ?? '';
    const now = ctx.clock.now();
    const at = formatTime(now);
    const cached = pods.byIndex(POD_BY_CONTROLLER_UID, uid);
    const inFlight = created.get(uid);
    if (inFlight && cached.some((p) => p.metadata?.name === inFlight.metadata?.name)) created.delete(uid);
    const active = [...cached.filter(isPodActive), ...(created.has(uid) && inFlight ? [inFlight] : [])];
    const conditions = job.status?.conditions ?? [];
    const base: JobStatus = { ...job.status, uncountedTerminatedPods: {} };

    if (job.spec?.suspend === true) {
      for (const p of active) await deletePod(p);
      created.delete(uid);
      const status: JobStatus = {
        ...base,
        conditions: withCondition(conditions, 'Suspended', 'True', 'JobSuspended', 'Job suspended', at),
        ready: 0,
      };
      delete status.active;
      delete status.startTime;
      return writeStatus(job, status);
    }
    const resumed = conditions.some((c) => c.type === 'Suspended' && c.status === 'True')
      ? withCondition(conditions, 'Suspended', 'False', 'JobResumed', 'Job resumed', at)
      : conditions;

    if (job.status?.startTime === undefined || active.length === 0) {
      const node = pickNode(job.spec?.template.spec, nodes.list(), pods.list(), uid);
      const pod = await ctx.client.create(PodResource, newJobPod(job, randomSuffix(random), node?.metadata?.name));
      created.set(uid, pod);
      return writeStatus(job, {
        ...base,
        conditions: resumed,
        startTime: job.status?.startTime ?? at,
        active: 1,
        ready: 0,
      });
    }
    const startMs = Date.parse(job.status.startTime);
    const plan = planFor(
      job,
      rules,
      random.fork(`job/${job.metadata?.namespace}/${job.metadata?.name}/${uid}`),
      run,
      timeScale,
    );
    const step = nextStep(job, plan, startMs, now);
    switch (step.kind) {
      case 'wait': {
        let ready = job.status.ready ?? 0;
        for (const p of cached.filter(isPodActive)) {
          if (p.status?.phase === 'Running') continue;
          const node = p.spec?.nodeName === undefined ? undefined : nodes.get(undefined, p.spec.nodeName);
          await setPodStatus(p, runningPodStatus(p, node, now, random.fork(`pod/${p.metadata?.name}`)));
          ready = 1;
        }
        const status: JobStatus = { ...base, conditions: resumed, active: active.length, ready };
        if (status.conditions?.length === 0) delete status.conditions;
        const r = await writeStatus(job, status);
        return r ?? { requeueAfter: Math.max(1, step.at - now) };
      }
      case 'complete': {
        for (const p of active) if (cached.includes(p)) await setPodStatus(p, terminatedPodStatus(p, 'Succeeded', now));
        const status: JobStatus = {
          ...base,
          conditions: withCondition(resumed, 'Complete', 'True', '', '', at),
          succeeded: job.spec?.completions ?? 1,
          ready: 0,
          completionTime: at,
        };
        delete status.active;
        log.info({ job: key }, 'job complete');
        return writeStatus(job, status);
      }
      case 'fail': {
        const deadline = step.reason === 'DeadlineExceeded';
        for (const p of active) {
          if (!cached.includes(p)) continue;
          if (deadline) await deletePod(p);
          else await setPodStatus(p, terminatedPodStatus(p, 'Failed', now));
        }
        const failed = deadline ? (job.status.failed ?? 0) + active.length : (job.spec?.backoffLimit ?? 6) + 1;
        const status: JobStatus = {
          ...base,
          conditions: withCondition(resumed, 'Failed', 'True', step.reason, step.message, at),
          failed,
          ready: 0,
        };
        delete status.active;
        log.info({ job: key, reason: step.reason }, 'job failed');
        return writeStatus(job, status);
      }
    }
  };

  const controller = simController(ctx, {
    name: 'sim-job-controller',
    reconcile,
    logger: log,
    workers: options.workers ?? 4,
  });
  controller.for(JobResource).owns(PodResource);

  return {
    name: 'jobs',
    async start(signal: AbortSignal): Promise<void> {
      controller
        .start(signal)
        .catch((err: unknown) =>
          log.error({ err: err instanceof Error ? err.message : String(err) }, 'job controller stopped'),
        );
      await Promise.all([jobs.waitForSync(signal), pods.waitForSync(signal), nodes.waitForSync(signal)]);
    },
  };
}
