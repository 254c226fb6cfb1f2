/**
 * Test support for the UpgradeJob controller: the embedded API server (event-driven virtual
 * clock) with the APPUiO kinds installed, a namespace with a node, the simulated Job controller
 * running hook Jobs (rules decide success, failure and duration), a ClusterVersion at 4.14.20 and
 * two MachineConfigPools, operator instances that can be stopped and started again (a restart is
 * a new controller on new informers), and helpers to create jobs, hooks and windows, to play the
 * CVO/MCO by hand, and to read what the controller wrote.
 */
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import type { Job } from 'kubernetes-types/batch/v1.js';
import type { Condition } from 'kubernetes-types/meta/v1.js';
import { EventResource, JobResource, NamespaceResource, NodeResource } from '../../api/builtin.js';
import { UpgradeJobResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import {
  upgradeJobCrd,
  type UpgradeJob,
  type UpgradeJobConfig,
} from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import {
  UpgradeJobHookResource,
  type UpgradeEvent,
} from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook-contract.js';
import {
  upgradeJobHookCrd,
  type UpgradeJobHookSpec,
} from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook.js';
import { UpgradeSuspensionWindowResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-suspension-window-contract.js';
import {
  upgradeSuspensionWindowCrd,
  type UpgradeSuspensionWindowSpec,
} from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-suspension-window.js';
import {
  ClusterVersionResource,
  type ClusterVersion,
  type ClusterVersionStatus,
  type Release,
} from '../../api/openshift/config-v1/cluster-version.js';
import {
  MachineConfigPoolResource,
  type MachineConfigPool,
} from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import type { KubeObjectLike } from '../../api/resource.js';
import { EventRecorder } from '../../kube/event-recorder.js';
import type { Informer } from '../../kube/informer.js';
import { formatTime } from '../../lib/clock.js';
import { silentLogger } from '../../lib/log.js';
import { installCustomResourceDefinitions } from '../../sim/install-crds.js';
import { createJobController } from '../../sim/jobs/job-controller.js';
import type { JobRule } from '../../sim/jobs/job-rules.js';
import {
  startControllerInstance,
  startTestCluster,
  type TestCluster,
} from '../../sim/test-support/cluster.test-support.js';
import type { PrometheusApi } from '../../integrations/prometheus-api.js';
import { createUpgradeJobController } from './upgrade-job-controller.js';

export const NS = 'appuio-upgrade';
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
/** Virtual start of every test: Monday 2026-03-02 00:00 UTC. */
export const T0 = Date.UTC(2026, 2, 2);
const HOOK_LABEL = 'upgradejobs.managedupgrade.appuio.io/upgradejobhook';

/** A release of the test cluster. */
export function release(version: string): Release {
  return {
    version,
    image: `quay.io/openshift-release-dev/ocp-release@sha256:${version.replace(/\D/g, '').padEnd(64, '0')}`,
  };
}

/** A started operator instance. */
export interface Operator {
  stop(): Promise<void>;
}

export interface Harness {
  cluster: TestCluster;
  events: EventRecorder;
  jobs: Informer<UpgradeJob>;
  hookJobs: Informer<Job>;
  cvs: Informer<ClusterVersion>;
  pools: Informer<MachineConfigPool>;
  /** Starts a new controller instance on its own informers (stop the previous one first). */
  startOperator(options?: { prometheus?: PrometheusApi }): Operator;
}

/** Everything of {@link Harness}; `jobRules` decide how the hook Jobs end (default: succeed after 1 virtual minute). */
export async function harness(t: TestContext, options: { jobRules?: JobRule[] } = {}): Promise<Harness> {
  const cluster = await startTestCluster(t, { start: T0 });
  const { clock, ctx, client } = cluster;
  await installCustomResourceDefinitions(client, [
    upgradeJobCrd(),
    upgradeJobHookCrd(),
    upgradeSuspensionWindowCrd(),
  ] as KubeObjectLike[]);
  await client.create(NamespaceResource, { metadata: { name: NS } });
  await client.create(NodeResource, {
    metadata: { name: 'worker-a', labels: { 'node-role.kubernetes.io/worker': '' } },
    status: { conditions: [{ type: 'Ready', status: 'True' }] },
  });
  await createJobController(ctx, {
    rules: [...(options.jobRules ?? []), { match: {}, outcome: 'succeed', after: 1 }],
  }).start(cluster.signal);
  const cv = await client.create(ClusterVersionResource, {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: { name: 'version' },
    spec: { clusterID: '7b2c1e0a-1d3f-4a5b-9c8d-0e1f2a3b4c5d', channel: 'stable-4.15' },
  });
  await client.updateStatus(ClusterVersionResource, {
    ...cv,
    status: {
      desired: release('4.14.20'),
      observedGeneration: 1,
      versionHash: 'hash',
      availableUpdates: [release('4.15.3')],
      history: [
        {
          state: 'Completed',
          ...release('4.14.20'),
          verified: false,
          startedTime: formatTime(T0 - 86_400_000),
          completionTime: formatTime(T0 - 86_000_000),
        },
      ],
      conditions: [
        { type: 'Available', status: 'True', lastTransitionTime: formatTime(T0) },
        { type: 'Failing', status: 'False', lastTransitionTime: formatTime(T0) },
      ],
    },
  });
  for (const name of ['master', 'worker']) {
    const pool = await client.create(MachineConfigPoolResource, {
      apiVersion: 'machineconfiguration.openshift.io/v1',
      kind: 'MachineConfigPool',
      metadata: { name, labels: { [`pools.operator.machineconfiguration.openshift.io/${name}`]: '' } },
      spec: { paused: false },
    });
    await client.updateStatus(MachineConfigPoolResource, {
      ...pool,
      status: {
        configuration: { name: `rendered-${name}-1` },
        machineCount: 3,
        updatedMachineCount: 3,
        readyMachineCount: 3,
        unavailableMachineCount: 0,
        degradedMachineCount: 0,
      },
    });
  }
  const logger = silentLogger();
  const events = new EventRecorder({
    client: ctx.client,
    clock,
    logger,
    activity: clock.activity,
    component: 'upgrade-operator',
  });
  const inf = ctx.informers;
  const h: Harness = {
    cluster,
    events,
    jobs: inf.informerFor(UpgradeJobResource, { namespace: NS }),
    hookJobs: inf.informerFor(JobResource, { namespace: NS }),
    cvs: inf.informerFor(ClusterVersionResource),
    pools: inf.informerFor(MachineConfigPoolResource),
    startOperator: (o = {}) =>
      startControllerInstance(
        t,
        cluster,
        (informers) =>
          createUpgradeJobController({
            client: ctx.client,
            informers,
            clock,
            logger,
            events,
            activity: clock.activity,
            namespace: NS,
            ...(o.prometheus ? { prometheus: o.prometheus } : {}),
          }).controller,
      ),
  };
  await Promise.all([h.jobs.waitForSync(), h.hookJobs.waitForSync(), h.cvs.waitForSync(), h.pools.waitForSync()]);
  return h;
}

/** A job config with short health-check timeouts. */
export function jobConfig(extra: Partial<UpgradeJobConfig> = {}): UpgradeJobConfig {
  return {
    upgradeTimeout: '12h',
    preUpgradeHealthChecks: { timeout: '10m' },
    postUpgradeHealthChecks: { timeout: '10m' },
    ...extra,
  };
}

export interface JobOptions {
  startAfter: number;
  startBefore?: number;
  version?: string;
  config?: Partial<UpgradeJobConfig>;
  labels?: Record<string, string>;
  checkAvailability?: boolean;
}

/** Creates an UpgradeJob in {@link NS} (startBefore defaults to startAfter + 1 h). */
export async function createUpgradeJob(h: Harness, name: string, o: JobOptions): Promise<UpgradeJob> {
  return h.cluster.client.create(UpgradeJobResource, {
    apiVersion: 'managedupgrade.appuio.io/v1beta1',
    kind: 'UpgradeJob',
    metadata: { name, namespace: NS, ...(o.labels ? { labels: o.labels } : {}) },
    spec: {
      startAfter: formatTime(o.startAfter),
      startBefore: formatTime(o.startBefore ?? o.startAfter + HOUR),
      ...(o.version ? { desiredVersion: release(o.version) } : {}),
      ...(o.checkAvailability !== undefined ? { desiredVersionCheckAvailability: o.checkAvailability } : {}),
      config: jobConfig(o.config),
    },
  });
}

/** Creates an UpgradeJobHook in {@link NS} running a one-container Job. */
export async function createHook(
  h: Harness,
  name: string,
  events: UpgradeEvent[],
  spec: Partial<UpgradeJobHookSpec> = {},
): Promise<void> {
  await h.cluster.client.create(UpgradeJobHookResource, {
    apiVersion: 'managedupgrade.appuio.io/v1beta1',
    kind: 'UpgradeJobHook',
    metadata: { name, namespace: NS },
    spec: {
      events,
      template: {
        spec: {
          template: {
            spec: { restartPolicy: 'Never', containers: [{ name: 'hook', image: 'registry.example.com/hook:1' }] },
          },
        },
      },
      ...spec,
    },
  });
}

/** A job rule for the hook Jobs of one UpgradeJobHook. */
export function hookRule(hook: string, outcome: 'succeed' | 'fail', afterMinutes: number): JobRule {
  return { match: { labels: { [HOOK_LABEL]: hook } }, outcome, after: afterMinutes };
}

/** Creates an UpgradeSuspensionWindow in {@link NS}. */
export async function createWindow(h: Harness, name: string, spec: UpgradeSuspensionWindowSpec): Promise<void> {
  await h.cluster.client.create(UpgradeSuspensionWindowResource, {
    apiVersion: 'managedupgrade.appuio.io/v1beta1',
    kind: 'UpgradeSuspensionWindow',
    metadata: { name, namespace: NS },
    spec,
  });
}

/** Changes the ClusterVersion's status (read fresh). */
export async function patchCvStatus(h: Harness, change: (s: ClusterVersionStatus) => void): Promise<void> {
  const cv = await h.cluster.client.get(ClusterVersionResource, undefined, 'version');
  const status = structuredClone(cv.status!);
  change(status);
  await h.cluster.client.updateStatus(ClusterVersionResource, { ...cv, status });
}

/** Plays the CVO finishing an update: the spec observed, history Completed for `version` first. */
export async function completeVersion(h: Harness, version: string): Promise<void> {
  const now = formatTime(h.cluster.clock.now());
  const generation = (await h.cluster.client.get(ClusterVersionResource, undefined, 'version')).metadata?.generation;
  await patchCvStatus(h, (s) => {
    if (generation !== undefined) s.observedGeneration = generation;
    s.desired = release(version);
    s.history = [
      { state: 'Completed', ...release(version), verified: true, startedTime: now, completionTime: now },
      ...(s.history ?? []),
    ];
  });
}

/** Plays the MCO: sets a pool's machine counts. */
export async function setPoolCounts(h: Harness, name: string, updated: number, total = 3): Promise<void> {
  const pool = await h.cluster.client.get(MachineConfigPoolResource, undefined, name);
  await h.cluster.client.updateStatus(MachineConfigPoolResource, {
    ...pool,
    status: { ...pool.status!, machineCount: total, updatedMachineCount: updated },
  });
}

/** A condition of a cached job. */
export function cond(h: Harness, name: string, type: string): Condition | undefined {
  return h.jobs.get(NS, name)?.status?.conditions?.find((c) => c.type === type);
}

/** `<status>/<reason>` of a condition, or `absent`. */
export function state(h: Harness, name: string, type: string): string {
  const c = cond(h, name, type);
  return c ? `${c.status}/${c.reason}` : 'absent';
}

/** The hook Jobs of an UpgradeJob, by name. */
export function hookJobNames(h: Harness, upgradeJob: string): string[] {
  return h.hookJobs
    .list(NS)
    .filter((j) => j.metadata?.labels?.['upgradejobs.managedupgrade.appuio.io/upgradejobk'] === upgradeJob)
    .map((j) => j.metadata?.name ?? '')
    .sort();
}

/** Runs the virtual clock until `f` holds, failing after `maxMs` of virtual time. */
export async function until(h: Harness, f: () => boolean, maxMs: number, what: string): Promise<void> {
  const deadline = h.cluster.clock.now() + maxMs;
  await h.cluster.clock.run({ until: () => f() || h.cluster.clock.now() >= deadline });
  assert.ok(
    f(),
    `${what}: not reached within ${maxMs / MINUTE} virtual minutes (now ${formatTime(h.cluster.clock.now())})`,
  );
}

/** Runs the virtual clock to `at`. */
export async function runTo(h: Harness, at: number): Promise<void> {
  await h.cluster.clock.run({ until: at });
}

/** Events about an UpgradeJob, oldest first: `type reason: message`. */
export async function eventsFor(h: Harness, name: string): Promise<string[]> {
  await h.events.flush();
  const list = await h.cluster.client.list(EventResource, { namespace: NS });
  return list.items
    .filter((e) => e.involvedObject.name === name)
    .sort(
      (a, b) =>
        (a.firstTimestamp ?? '').localeCompare(b.firstTimestamp ?? '') ||
        (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''),
    )
    .map((e) => `${e.type ?? ''} ${e.reason ?? ''}: ${e.message ?? ''}`);
}
