/**
 * The UpgradeJob controller of the scheduled flow
 * (docs/design/scheduled-flow.md#the-upgradejob-lifecycle,
 * docs/design/engine.md#one-engine-two-flows): one pass per reconcile (`upgrade-job-pass.ts`), the
 * job's steps on the shared engine. It wakes exactly when the stopping step said — a time
 * (startAfter, startBefore, the timeout, delayMin/delayMax, the health retry) or a change of a kind
 * it waits on (ClusterVersion, MachineConfigPool, ClusterOperator, UpgradeJobHook,
 * UpgradeSuspensionWindow) — and on every change of its own hook Jobs (owned). It never sleeps in a
 * reconcile. Every new wait or transient failure is explained with an Event on the UpgradeJob and a
 * log line (no extra condition: the status keeps exactly the shipped condition types).
 */
import type { Job } from 'kubernetes-types/batch/v1.js';
import { JobResource } from '../../api/builtin.js';
import { UpgradeJobResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import type { UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import {
  HookJobLabel,
  UpgradeJobHookResource,
} from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook-contract.js';
import { UpgradeSuspensionWindowResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-suspension-window-contract.js';
import { ClusterOperatorResource } from '../../api/openshift/config-v1/cluster-operator.js';
import { CLUSTER_VERSION_NAME, ClusterVersionResource } from '../../api/openshift/config-v1/cluster-version.js';
import { MachineConfigPoolResource } from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { WakeRegistry } from '../../engine/wake-registry.js';
import type { PrometheusApi } from '../../integrations/prometheus-api.js';
import { Controller } from '../../kube/controller.js';
import type { EventRecorder } from '../../kube/event-recorder.js';
import { splitKey } from '../../kube/indexer.js';
import { hookRunKeyOf } from '../hooks/hook-job.js';
import { WatchedKind, type ClusterReads } from '../steps/step-context.js';
import { upgradeJobPass, type Explanation } from './upgrade-job-pass.js';
import { runtimeOf, type ControllerDeps } from '../../engine/controller-deps.js';

/** What the controller needs. */
export interface UpgradeJobControllerOptions extends ControllerDeps {
  events: EventRecorder;
  /** The cluster's Prometheus (health checks with `checkCriticalAlerts` or `customQueries`); absent: those checks are unhealthy. */
  prometheus?: PrometheusApi;
  /** The namespace whose UpgradeJobs, hooks, windows and hook Jobs are watched; undefined or `""`: all. */
  namespace?: string;
  /** The upstream ClusterVersion's name (`--managed-upstream-cluster-version-name`, default `version`). */
  clusterVersionName?: string;
  /** Concurrent reconciles (default 1). */
  workers?: number;
}

/** The controller and what the wiring (metrics, tests) may read of it. */
export interface UpgradeJobController {
  controller: Controller;
  /** What each UpgradeJob (`namespace/name`) waits for. */
  wake: WakeRegistry;
  cluster: ClusterReads;
  /** The UpgradeJobs in the cache. */
  upgradeJobs(): UpgradeJob[];
}

/** The part of an UpgradeJob whose change is worth a pass (our own status writes are not). */
function withoutStatus(upgradeJob: UpgradeJob): string {
  const { resourceVersion: _rv, managedFields: _mf, ...metadata } = upgradeJob.metadata ?? {};
  return JSON.stringify({ ...upgradeJob, status: null, metadata });
}

/** Builds the controller (start it with `controller.start(signal)` or through a Manager). */
export function createUpgradeJobController(options: UpgradeJobControllerOptions): UpgradeJobController {
  const ns = options.namespace === '' ? undefined : options.namespace;
  const log = options.logger.child({ controller: 'upgradejob' });
  const wake = new WakeRegistry();
  const explained = new Map<string, string>();
  const cvName = options.clusterVersionName ?? CLUSTER_VERSION_NAME;
  const hookJobScope = { namespace: ns, labelSelector: HookJobLabel.UpgradeJob };
  const jobsInf = options.informers.informerFor(UpgradeJobResource, { namespace: ns });
  const cvs = options.informers.informerFor(ClusterVersionResource);
  const pools = options.informers.informerFor(MachineConfigPoolResource);
  const cos = options.informers.informerFor(ClusterOperatorResource);
  const hooks = options.informers.informerFor(UpgradeJobHookResource, { namespace: ns });
  const windows = options.informers.informerFor(UpgradeSuspensionWindowResource, { namespace: ns });
  const hookJobs = options.informers.informerFor(JobResource, hookJobScope);
  const reads: ClusterReads = {
    clusterVersion: () => cvs.get(undefined, cvName),
    pools: () => pools.list(),
    clusterOperators: () => cos.list(),
    hooks: (namespace) => hooks.list(namespace),
    hookJobs: (namespace, name): Job[] => hookJobs.list(namespace).filter((j) => hookRunKeyOf(j)?.upgradeJob === name),
    suspensionWindows: (namespace) => windows.list(namespace),
  };

  const explain = (
    key: string,
    explanation: Explanation | undefined,
    target: { namespace: string; name: string },
  ): void => {
    if (!explanation) {
      explained.delete(key);
      return;
    }
    const text = `${explanation.reason}\u0000${explanation.message}`;
    if (explained.get(key) === text) return;
    explained.set(key, text);
    const ref = jobsInf.get(target.namespace, target.name) ?? {
      apiVersion: 'managedupgrade.appuio.io/v1beta1',
      kind: 'UpgradeJob',
      metadata: { namespace: target.namespace, name: target.name },
    };
    options.events.event(ref, explanation.error ? 'Warning' : 'Normal', explanation.reason, explanation.message);
    (explanation.error ? log.warn.bind(log) : log.info.bind(log))(
      { upgradejob: key, reason: explanation.reason },
      explanation.message,
    );
  };

  const controller = new Controller({
    name: 'upgradejob',
    ...runtimeOf(options),
    ...(options.workers !== undefined ? { workers: options.workers } : {}),
    reconcile: async (key, signal) => {
      const target = splitKey(key);
      const since = wake.snapshot();
      const result = await upgradeJobPass(
        {
          client: options.client,
          clock: options.clock,
          log,
          events: options.events,
          cluster: reads,
          ...(options.prometheus ? { prometheus: options.prometheus } : {}),
        },
        target.namespace,
        target.name,
        signal,
      );
      if (result.gone) {
        wake.clear(key);
        explained.delete(key);
        return;
      }
      explain(key, result.explanation, target);
      const missed = wake.set(key, result.waitFor, since);
      if (result.requeue) return { requeue: true };
      if (missed) return { requeueAfter: 1 };
      const after = wake.requeueAfter(key, options.clock.now());
      return after === undefined ? undefined : { requeueAfter: after };
    },
  });
  controller.for(UpgradeJobResource, {
    namespace: ns,
    predicates: [{ update: (a, b) => withoutStatus(a) !== withoutStatus(b) }],
  });
  controller.owns(JobResource, hookJobScope);
  const waiting = (kind: string, namespace?: string): string[] => {
    return wake.changed(kind).filter((k) => namespace === undefined || k.startsWith(`${namespace}/`));
  };
  controller.watches(ClusterVersionResource, (cv) =>
    cv.metadata?.name === cvName ? waiting(WatchedKind.ClusterVersion) : [],
  );
  controller.watches(MachineConfigPoolResource, () => waiting(WatchedKind.MachineConfigPool));
  controller.watches(ClusterOperatorResource, () => waiting(WatchedKind.ClusterOperator));
  controller.watches(UpgradeJobHookResource, (h) => waiting(WatchedKind.UpgradeJobHook, h.metadata?.namespace ?? ''), {
    namespace: ns,
  });
  controller.watches(
    UpgradeSuspensionWindowResource,
    (w) => waiting(WatchedKind.UpgradeSuspensionWindow, w.metadata?.namespace ?? ''),
    { namespace: ns },
  );
  return { controller, wake, cluster: reads, upgradeJobs: () => jobsInf.list() };
}
