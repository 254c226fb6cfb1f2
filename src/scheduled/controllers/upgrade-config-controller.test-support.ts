/**
 * Test support for the scheduled UpgradeConfig controller: the embedded API server with the
 * APPUiO kinds installed, operator instances that can be stopped and started again (a restart
 * is a new controller on new informers), and helpers to create configs, ClusterVersion, jobs
 * and windows and to read what the controller wrote.
 */
import type { TestContext } from 'node:test';
import type { Condition } from 'kubernetes-types/meta/v1.js';
import { EventResource } from '../../api/builtin.js';
import {
  ClusterVersionResource,
  type ClusterVersion,
  type Release,
} from '../../api/openshift/config-v1/cluster-version.js';
import { ScheduledUpgradeConfigResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-config-contract.js';
import {
  scheduledUpgradeConfigCrd,
  type ScheduledUpgradeConfig,
} from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-config.js';
import { UpgradeJobResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import { upgradeJobCrd, type UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import { UpgradeSuspensionWindowResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-suspension-window-contract.js';
import {
  upgradeSuspensionWindowCrd,
  type UpgradeSuspensionWindowSpec,
} from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-suspension-window.js';
import type { KubeObjectLike } from '../../api/resource.js';
import { EventRecorder } from '../../kube/event-recorder.js';
import { formatTime } from '../../lib/clock.js';
import { silentLogger } from '../../lib/log.js';
import { installCustomResourceDefinitions } from '../../sim/install-crds.js';
import {
  startControllerInstance,
  startTestCluster,
  type TestCluster,
} from '../../sim/test-support/cluster.test-support.js';
import { createScheduledUpgradeConfigController } from './upgrade-config-controller.js';

export const NS = 'default';
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** A started operator instance. */
export interface Operator {
  stop(): Promise<void>;
}

export interface Harness {
  cluster: TestCluster;
  events: EventRecorder;
  /** Starts a new controller instance on its own informers (stop the previous one first). */
  startOperator(): Operator;
}

/** Starts the API server (virtual clock at `start`) with the APPUiO kinds installed. */
export async function harness(t: TestContext, start: number): Promise<Harness> {
  const cluster = await startTestCluster(t, { start });
  const { clock, ctx } = cluster;
  await installCustomResourceDefinitions(cluster.client, [
    scheduledUpgradeConfigCrd(),
    upgradeJobCrd(),
    upgradeSuspensionWindowCrd(),
  ] as KubeObjectLike[]);
  const logger = silentLogger();
  const events = new EventRecorder({
    client: ctx.client,
    clock,
    logger,
    activity: clock.activity,
    component: 'upgrade-operator',
  });
  const startOperator = (): Operator =>
    startControllerInstance(
      t,
      cluster,
      (informers) =>
        createScheduledUpgradeConfigController({
          client: ctx.client,
          informers,
          clock,
          logger,
          events,
          activity: clock.activity,
          localZoneId: () => 'UTC',
          namespace: NS,
        }).controller,
    );
  return { cluster, events, startOperator };
}

export interface ConfigOptions {
  cron: string;
  location?: string;
  isoWeek?: string;
  suspend?: boolean;
  pinVersionWindow?: string;
  maxSchedulingDelay?: string;
  maxUpgradeStartDelay?: string;
  successfulJobsHistoryLimit?: number;
  labels?: Record<string, string>;
}

/** Creates an UpgradeConfig in {@link NS}. */
export async function createConfig(h: Harness, name: string, o: ConfigOptions): Promise<ScheduledUpgradeConfig> {
  return h.cluster.client.create(ScheduledUpgradeConfigResource, {
    apiVersion: 'managedupgrade.appuio.io/v1beta1',
    kind: 'UpgradeConfig',
    metadata: { name, namespace: NS, ...(o.labels ? { labels: o.labels } : {}) },
    spec: {
      schedule: {
        cron: o.cron,
        location: o.location ?? 'Europe/Zurich',
        ...(o.isoWeek === undefined ? {} : { isoWeek: o.isoWeek }),
        ...(o.suspend === undefined ? {} : { suspend: o.suspend }),
      },
      ...(o.pinVersionWindow === undefined ? {} : { pinVersionWindow: o.pinVersionWindow }),
      maxSchedulingDelay: o.maxSchedulingDelay ?? '1h',
      maxUpgradeStartDelay: o.maxUpgradeStartDelay ?? '1h',
      ...(o.successfulJobsHistoryLimit === undefined
        ? {}
        : { successfulJobsHistoryLimit: o.successfulJobsHistoryLimit }),
      jobTemplate: {
        metadata: { labels: { 'upgrade-operator.io/test': name }, annotations: { note: 'from the template' } },
        spec: {
          config: {
            upgradeTimeout: '12h',
            preUpgradeHealthChecks: { timeout: '1h' },
            postUpgradeHealthChecks: { timeout: '1h' },
          },
        },
      },
    },
  });
}

/** A release of the test catalogue. */
export function release(version: string): Release {
  return {
    version,
    image: `quay.io/openshift-release-dev/ocp-release@sha256:${version.replace(/\D/g, '').padEnd(64, '0')}`,
  };
}

/** Creates ClusterVersion `version` at 4.14.20 with the given available updates. */
export async function createClusterVersion(h: Harness, available: Release[]): Promise<ClusterVersion> {
  const client = h.cluster.client;
  const cv = await client.create(ClusterVersionResource, {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: { name: 'version' },
    spec: { clusterID: '7b2c1e0a-1d3f-4a5b-9c8d-0e1f2a3b4c5d', channel: 'stable-4.15' },
  });
  return client.updateStatus(ClusterVersionResource, {
    ...cv,
    status: {
      desired: release('4.14.20'),
      observedGeneration: 1,
      versionHash: 'hash',
      availableUpdates: available.length > 0 ? available : null,
      history: [
        {
          state: 'Completed',
          version: '4.14.20',
          image: release('4.14.20').image,
          verified: false,
          startedTime: formatTime(h.cluster.clock.now()),
          completionTime: formatTime(h.cluster.clock.now()),
        },
      ],
    },
  });
}

/** The UpgradeJobs in {@link NS}, by name. */
export async function listJobs(h: Harness): Promise<UpgradeJob[]> {
  const list = await h.cluster.client.list(UpgradeJobResource, { namespace: NS });
  return list.items.sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1));
}

/** Marks a job final (`Succeeded` or `Failed`), as the UpgradeJob controller would. */
export async function finishJob(h: Harness, name: string, type: 'Succeeded' | 'Failed'): Promise<void> {
  const client = h.cluster.client;
  const job = await client.get(UpgradeJobResource, NS, name);
  const condition: Condition = {
    type,
    status: 'True',
    reason: type,
    message: `Upgrade ${type.toLowerCase()}`,
    lastTransitionTime: formatTime(h.cluster.clock.now()),
  };
  await client.updateStatus(UpgradeJobResource, { ...job, status: { ...job.status, conditions: [condition] } });
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

/** The config as stored, with its conditions. */
export async function getConfig(
  h: Harness,
  name: string,
): Promise<ScheduledUpgradeConfig & { status?: { conditions?: Condition[] } }> {
  return h.cluster.client.get(ScheduledUpgradeConfigResource, NS, name);
}

/** A condition of the stored config. */
export async function configCondition(h: Harness, name: string, type: string): Promise<Condition | undefined> {
  return (await getConfig(h, name)).status?.conditions?.find((c) => c.type === type);
}

/** Events about an object, oldest first: `type reason: message`. */
export async function eventsFor(h: Harness, name: string): Promise<string[]> {
  await h.events.flush();
  const list = await h.cluster.client.list(EventResource, { namespace: NS });
  return list.items
    .filter((e) => e.involvedObject.name === name)
    .sort(
      (a, b) =>
        (a.metadata?.creationTimestamp ?? '').localeCompare(b.metadata?.creationTimestamp ?? '') ||
        (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''),
    )
    .map((e) => `${e.type ?? ''} ${e.reason ?? ''}: ${e.message ?? ''}`);
}

/** Runs the virtual clock until `until` and lets everything due by then finish. */
export async function runUntil(h: Harness, until: number): Promise<void> {
  await h.cluster.clock.run({ until });
}

/** Whole Unix seconds. */
export function unix(ms: number): number {
  return Math.floor(ms / 1000);
}
