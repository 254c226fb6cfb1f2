/**
 * The simulated Deployment controller for workload Deployments (those without the
 * `release.openshift.io/version` annotation, which belong to the simulated operators). It keeps
 * `spec.replicas` pods owned by the Deployment (no ReplicaSet objects: the pods' controller is
 * the Deployment, whose scale the API server's disruption controller reads), named
 * `<deployment>-<pod-template-hash>-<5 random>`, places them with the simplified scheduler, and
 * acts as the kubelet: a pod bound to a Ready node turns Running and Ready after a drawn start
 * delay (pods on NotReady nodes are left alone). Pods bound to a Node that no longer exists are
 * removed (the pod garbage collector). A pod evicted or deleted is replaced at once by a new
 * Pending pod, which starts after its delay. Deployment status and its Available/Progressing
 * conditions are kept as the real controller words them.
 */
import type { Node, Pod } from 'kubernetes-types/core/v1.js';
import type { Deployment, DeploymentCondition, DeploymentStatus } from 'kubernetes-types/apps/v1.js';
import { DeploymentResource, NodeResource, PodResource } from '../../api/builtin.js';
import type { ReconcileResult } from '../../kube/controller.js';
import { splitKey } from '../../kube/indexer.js';
import { ignoreNotFound, ignoreNotFoundOrConflict, isConflict, isNotFound } from '../../kube/status-error.js';
import { formatTime } from '../../lib/clock.js';
import { jsonEqual, type JsonValue } from '../../lib/json.js';
import { type SimComponent, type SimContext, simController } from '../context.js';
import { drawMs, type Triangle } from '../durations.js';
import { randomSuffix, templateHash } from './names.js';
import { POD_BY_CONTROLLER_UID, POD_INDEXERS } from './pod-indexes.js';
import { runningPodStatus } from './pod-status.js';
import { isNodeReady, isPodActive, isPodReady, pickNode } from './scheduling.js';
import { RELEASE_VERSION_ANNOTATION } from '../releases/operator-deployment.js';

export interface WorkloadDurations {
  /** Pod creation → Running and Ready (default (0.1, 0.25, 1) minutes). */
  podStart: Triangle;
}

export const DEFAULT_WORKLOAD_DURATIONS: WorkloadDurations = { podStart: [0.1, 0.25, 1] };

export interface WorkloadsOptions {
  durations?: Partial<WorkloadDurations>;
  /** Divides every duration (default 1). */
  timeScale?: number;
  workers?: number;
}

/**
 * Marks a Deployment whose pod is a process of the simulation itself (this project's operator,
 * running in the simulating process): no workload, so no controller makes or moves its pods.
 */
export const SIMULATED_PROCESS_ANNOTATION = 'simulation.upgrade-operator.io/process';

/** A workload Deployment (not one of a simulated operator, nor the simulation's own process). */
export function isWorkloadDeployment(deployment: Deployment): boolean {
  const annotations = deployment.metadata?.annotations;
  return (
    annotations?.[RELEASE_VERSION_ANNOTATION] === undefined && annotations?.[SIMULATED_PROCESS_ANNOTATION] === undefined
  );
}

/** RollingUpdate maxUnavailable resolved against `replicas` (default 25%, rounded down). */
export function maxUnavailableOf(deployment: Deployment, replicas: number): number {
  if (deployment.spec?.strategy?.type === 'Recreate') return replicas;
  const v = deployment.spec?.strategy?.rollingUpdate?.maxUnavailable ?? '25%';
  if (typeof v === 'number') return v;
  const pct = Number.parseInt(v, 10);
  return Number.isFinite(pct) ? Math.floor((pct * replicas) / 100) : 0;
}

/** The Deployment status the real controller would report for these pods (pure). */
export function deploymentStatus(
  deployment: Deployment,
  pods: readonly Pod[],
  rsName: string,
  now: number,
): DeploymentStatus {
  const want = deployment.spec?.replicas ?? 1;
  const active = pods.filter(isPodActive);
  const ready = active.filter(isPodReady).length;
  const available = ready;
  const minAvailable = want - maxUnavailableOf(deployment, want);
  const at = formatTime(now);
  const old = deployment.status?.conditions ?? [];
  const cond = (type: string, status: 'True' | 'False', reason: string, message: string): DeploymentCondition => {
    const prev = old.find((c) => c.type === type);
    const same = prev?.status === status && prev.reason === reason && prev.message === message;
    return {
      type,
      status,
      lastUpdateTime: same ? (prev.lastUpdateTime ?? at) : at,
      lastTransitionTime: prev?.status === status ? (prev.lastTransitionTime ?? at) : at,
      reason,
      message,
    };
  };
  const availableCond =
    available >= minAvailable
      ? cond('Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.')
      : cond('Available', 'False', 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.');
  const progressingCond =
    active.length === want && available === want
      ? cond('Progressing', 'True', 'NewReplicaSetAvailable', `ReplicaSet "${rsName}" has successfully progressed.`)
      : cond('Progressing', 'True', 'ReplicaSetUpdated', `ReplicaSet "${rsName}" is progressing.`);
  const status: DeploymentStatus = {
    observedGeneration: deployment.metadata?.generation ?? 1,
    replicas: active.length,
    updatedReplicas: active.length,
    readyReplicas: ready,
    availableReplicas: available,
    conditions: [availableCond, progressingCond],
  };
  if (want - available > 0) status.unavailableReplicas = want - available;
  if (ready === 0) delete status.readyReplicas;
  if (available === 0) delete status.availableReplicas;
  if (active.length === 0) {
    delete status.replicas;
    delete status.updatedReplicas;
  }
  return status;
}

/** Creates the workloads component (one Controller over workload Deployments). */
export function createWorkloads(ctx: SimContext, options: WorkloadsOptions = {}): SimComponent {
  const durations: WorkloadDurations = { ...DEFAULT_WORKLOAD_DURATIONS, ...options.durations };
  const timeScale = options.timeScale ?? 1;
  const random = ctx.random.fork('workloads');
  const log = ctx.logger.child({ component: 'sim-workloads' });
  const deployments = ctx.informers.informerFor(DeploymentResource);
  const pods = ctx.informers.informerFor(PodResource, { indexers: POD_INDEXERS });
  const nodes = ctx.informers.informerFor(NodeResource);
  /** Pods created but not yet in the cache, per Deployment key (the controller's "expectations"). */
  const expected = new Map<string, Map<string, Pod>>();
  /** Pods deleted whose deletion is not yet in the cache, per Deployment key. */
  const deletions = new Map<string, Set<string>>();

  const startDue = (pod: Pod): number => {
    const created = Date.parse(pod.metadata?.creationTimestamp ?? '') || ctx.clock.now();
    return (
      created +
      drawMs(random.fork(`pod/${pod.metadata?.namespace}/${pod.metadata?.name}`), durations.podStart, timeScale)
    );
  };

  const reconcile = async (key: string): Promise<ReconcileResult | void> => {
    const d = deployments.getByKey(key);
    if (!d || !isWorkloadDeployment(d) || d.metadata?.deletionTimestamp !== undefined) {
      expected.delete(key);
      deletions.delete(key);
      return;
    }
    const { namespace } = splitKey(key);
    const uid = d.metadata?.uid ?? '';
    const now = ctx.clock.now();
    const allNodes = nodes.list();
    const nodeByName = new Map(allNodes.map((n) => [n.metadata?.name ?? '', n]));
    const cached = pods.byIndex(POD_BY_CONTROLLER_UID, uid);
    const deleting = deletions.get(key) ?? new Set<string>();
    deletions.set(key, deleting);
    const live = new Set(cached.filter((p) => p.metadata?.deletionTimestamp === undefined).map(podKey));
    for (const k of deleting) if (!live.has(k)) deleting.delete(k);
    const inFlight = expected.get(key) ?? new Map<string, Pod>();
    for (const p of cached) inFlight.delete(p.metadata?.name ?? '');
    const own = [...cached, ...inFlight.values()];

    // The pod garbage collector: pods bound to a Node that is gone.
    for (const p of cached) {
      const n = p.spec?.nodeName;
      if (n !== undefined && !nodeByName.has(n) && p.metadata?.deletionTimestamp === undefined)
        await deletePod(deleting, p, 0);
    }
    const hash = templateHash(d.spec?.template);
    const rsName = `${d.metadata?.name}-${hash}`;
    const want = d.spec?.replicas ?? 1;
    const active = own.filter(
      (p) =>
        isPodActive(p) &&
        !deleting.has(podKey(p)) &&
        (p.spec?.nodeName === undefined || nodeByName.has(p.spec.nodeName)),
    );

    if (active.length > want) {
      const victims = [...active].sort(deletionOrder).slice(0, active.length - want);
      for (const v of victims) await deletePod(deleting, v, undefined);
    }
    let unscheduled = 0;
    for (let i = active.length; i < want; i++) {
      const everyPod = [...pods.list(), ...inFlight.values()];
      const node = pickNode(d.spec?.template.spec, allNodes, everyPod, uid);
      if (!node) {
        unscheduled = want - i;
        break;
      }
      const pod = newPod(d, hash, node.metadata?.name ?? '', randomSuffix(random));
      const created = await ctx.client.create(PodResource, pod);
      inFlight.set(created.metadata?.name ?? '', created);
    }
    if (inFlight.size > 0) expected.set(key, inFlight);
    else expected.delete(key);

    // The kubelet: start pending pods on Ready nodes once their delay is over.
    let wake: number | undefined;
    for (const p of cached) {
      if (!isPodActive(p) || p.status?.phase === 'Running' || p.spec?.nodeName === undefined) continue;
      const node = nodeByName.get(p.spec.nodeName);
      if (!node || !isNodeReady(node)) continue;
      const due = startDue(p);
      if (due <= now) {
        await ignoreNotFoundOrConflict(
          ctx.client.updateStatus(PodResource, {
            ...p,
            status: runningPodStatus(p, node, now, random.fork(`pod/${namespace}/${p.metadata?.name}/status`)),
          }),
        );
      } else {
        wake = Math.min(wake ?? due, due);
      }
    }

    const status = deploymentStatus(
      d,
      cached.filter((p) => !deleting.has(podKey(p))),
      rsName,
      now,
    );
    if (!jsonEqual(withoutTimes(status), withoutTimes(d.status ?? {}))) {
      try {
        await ctx.client.updateStatus(DeploymentResource, { ...d, status });
      } catch (err) {
        if (!isConflict(err) && !isNotFound(err)) throw err;
        return { requeue: true };
      }
    }
    if (unscheduled > 0)
      log.debug({ deployment: key, unscheduled }, 'no schedulable node for some replicas; waiting for nodes');
    return wake === undefined ? undefined : { requeueAfter: Math.max(1, wake - now) };
  };

  const deletePod = async (deleting: Set<string>, pod: Pod, gracePeriodSeconds: number | undefined): Promise<void> => {
    deleting.add(podKey(pod));
    await ignoreNotFound(
      ctx.client.delete(
        PodResource,
        pod.metadata?.namespace,
        pod.metadata?.name ?? '',
        gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds },
      ),
    );
  };

  const controller = simController(ctx, {
    name: 'sim-workloads-deployment',
    reconcile,
    logger: log,
    workers: options.workers ?? 4,
  });
  controller
    .for(DeploymentResource, {
      predicates: [{ create: isWorkloadDeployment, update: (_o, n) => isWorkloadDeployment(n) }],
    })
    .owns(PodResource)
    // Node changes (a node Ready again, cordoned, added or gone) concern every workload.
    .watches(
      NodeResource,
      () =>
        deployments
          .list()
          .filter(isWorkloadDeployment)
          .map((x) => `${x.metadata?.namespace}/${x.metadata?.name}`),
      {
        predicates: [{ update: (o: Node, n: Node) => nodeSchedulingChanged(o, n) }],
      },
    );

  return {
    name: 'workloads',
    async start(signal: AbortSignal): Promise<void> {
      const run = controller.start(signal);
      run.catch((err: unknown) =>
        log.error({ err: err instanceof Error ? err.message : String(err) }, 'workloads controller stopped'),
      );
      await Promise.all([deployments.waitForSync(signal), pods.waitForSync(signal), nodes.waitForSync(signal)]);
    },
  };
}

function podKey(pod: Pod): string {
  return `${pod.metadata?.namespace}/${pod.metadata?.name}`;
}

/** Which pods go first on scale-down: unscheduled, then not running, then not ready, then the newest. */
function deletionOrder(left: Pod, right: Pod): number {
  const rank = (p: Pod): number =>
    p.spec?.nodeName === undefined ? 0 : p.status?.phase !== 'Running' ? 1 : !isPodReady(p) ? 2 : 3;
  if (rank(left) !== rank(right)) return rank(left) - rank(right);
  const ta = left.metadata?.creationTimestamp ?? '';
  const tb = right.metadata?.creationTimestamp ?? '';
  if (ta !== tb) return ta < tb ? 1 : -1;
  return (left.metadata?.name ?? '') < (right.metadata?.name ?? '') ? 1 : -1;
}

function nodeSchedulingChanged(node: Node, previous: Node): boolean {
  return (
    isNodeReady(node) !== isNodeReady(previous) ||
    node.spec?.unschedulable !== previous.spec?.unschedulable ||
    !jsonEqual(
      (node.spec?.taints ?? []) as unknown as JsonValue,
      (previous.spec?.taints ?? []) as unknown as JsonValue,
    ) ||
    !jsonEqual(node.metadata?.labels ?? {}, previous.metadata?.labels ?? {})
  );
}

function withoutTimes(deploymentStatus: DeploymentStatus): JsonValue {
  return {
    ...deploymentStatus,
    conditions: (deploymentStatus.conditions ?? []).map((c) => ({
      ...c,
      lastUpdateTime: null,
      lastTransitionTime: null,
    })),
  };
}

/** The pod the controller creates for a Deployment, bound to `nodeName`. */
export function newPod(deployment: Deployment, hash: string, nodeName: string, suffix: string): Pod {
  const template = deployment.spec?.template;
  const name = `${deployment.metadata?.name}-${hash}-${suffix}`;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: deployment.metadata?.namespace ?? 'default',
      labels: { ...template?.metadata?.labels, 'pod-template-hash': hash },
      ...(template?.metadata?.annotations ? { annotations: { ...template.metadata.annotations } } : {}),
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: deployment.metadata?.name ?? '',
          uid: deployment.metadata?.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: { ...template?.spec, containers: template?.spec?.containers ?? [], nodeName },
  };
}
