import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { EventResource, NamespaceResource } from '../../api/builtin.js';
import { ScheduledUpgradeConfigResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-config-contract.js';
import { scheduledUpgradeConfigCrd } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-config.js';
import { UpgradeJobResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import { upgradeJobCrd } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import { UpgradeSuspensionWindowResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-suspension-window-contract.js';
import {
  upgradeSuspensionWindowCrd,
  type UpgradeSuspensionWindowSpec,
  type UpgradeSuspensionWindowStatus,
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
import { createUpgradeSuspensionWindowController } from './upgrade-suspension-window-controller.js';

const NS = 'appuio-upgrade';
const OTHER = 'other-team';
const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 2, 2);
const START = T0 + 24 * HOUR;
const END = T0 + 48 * HOUR;
const INSIDE = T0 + 30 * HOUR;

interface Harness {
  cluster: TestCluster;
  events: EventRecorder;
  /** Status writes of windows the controller made. */
  statusWrites: () => number;
}

async function harness(t: TestContext): Promise<Harness> {
  const cluster = await startTestCluster(t, { start: T0, openshiftCrds: false });
  const { clock, ctx, client } = cluster;
  await installCustomResourceDefinitions(client, [
    scheduledUpgradeConfigCrd(),
    upgradeJobCrd(),
    upgradeSuspensionWindowCrd(),
  ] as KubeObjectLike[]);
  for (const name of [NS, OTHER]) await client.create(NamespaceResource, { metadata: { name } });
  const logger = silentLogger();
  const events = new EventRecorder({
    client: ctx.client,
    clock,
    logger,
    activity: clock.activity,
    component: 'upgrade-operator',
  });
  let writes = 0;
  const counting = new Proxy(ctx.client, {
    get(target, prop): unknown {
      const v: unknown = Reflect.get(target, prop);
      if (prop === 'updateStatus') writes++;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  startControllerInstance(
    t,
    cluster,
    (informers) =>
      createUpgradeSuspensionWindowController({
        client: counting,
        informers,
        clock,
        logger,
        events,
        activity: clock.activity,
      }).controller,
  );
  return { cluster, events, statusWrites: () => writes };
}

async function settle(h: Harness): Promise<void> {
  await h.cluster.clock.run({ until: h.cluster.clock.now() + 1000 });
}

async function createConfig(h: Harness, name: string, labels: Record<string, string>, namespace = NS): Promise<void> {
  await h.cluster.client.create(ScheduledUpgradeConfigResource, {
    apiVersion: 'managedupgrade.appuio.io/v1beta1',
    kind: 'UpgradeConfig',
    metadata: { name, namespace, labels },
    spec: {
      schedule: { cron: '0 22 * * 2', location: 'UTC' },
      maxSchedulingDelay: '1h',
      maxUpgradeStartDelay: '1h',
      jobTemplate: {
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

async function createJob(
  h: Harness,
  name: string,
  startAfter: number,
  labels: Record<string, string>,
  namespace = NS,
): Promise<void> {
  await h.cluster.client.create(UpgradeJobResource, {
    apiVersion: 'managedupgrade.appuio.io/v1beta1',
    kind: 'UpgradeJob',
    metadata: { name, namespace, labels },
    spec: {
      startAfter: formatTime(startAfter),
      startBefore: formatTime(startAfter + HOUR),
      config: {
        upgradeTimeout: '12h',
        preUpgradeHealthChecks: { timeout: '1h' },
        postUpgradeHealthChecks: { timeout: '1h' },
      },
    },
  });
}

async function relabelJob(h: Harness, name: string, labels: Record<string, string>): Promise<void> {
  const j = await h.cluster.client.get(UpgradeJobResource, NS, name);
  await h.cluster.client.update(UpgradeJobResource, { ...j, metadata: { ...j.metadata, labels } });
}

async function createWindow(
  h: Harness,
  name: string,
  sel: Partial<UpgradeSuspensionWindowSpec>,
  namespace = NS,
): Promise<void> {
  await h.cluster.client.create(UpgradeSuspensionWindowResource, {
    apiVersion: 'managedupgrade.appuio.io/v1beta1',
    kind: 'UpgradeSuspensionWindow',
    metadata: { name, namespace },
    spec: { start: formatTime(START), end: formatTime(END), reason: 'year-end freeze', ...sel },
  });
}

async function status(
  h: Harness,
  name: string,
  namespace = NS,
): Promise<{ configs: string[]; jobs: string[]; raw: UpgradeSuspensionWindowStatus | undefined }> {
  const w = await h.cluster.client.get(UpgradeSuspensionWindowResource, namespace, name);
  return {
    configs: (w.status?.matchingConfigs ?? []).map((c) => c.name),
    jobs: (w.status?.matchingJobs ?? []).map((j) => j.name),
    raw: w.status,
  };
}

void test('the window lists the matching configs and jobs of its own namespace, and follows jobs and configs as they change', async (t) => {
  const h = await harness(t);
  const prod = { tier: 'prod' };
  await createConfig(h, 'weekly-b', prod);
  await createConfig(h, 'weekly-a', prod);
  await createConfig(h, 'dev', { tier: 'dev' });
  await createConfig(h, 'foreign', prod, OTHER);
  await createJob(h, 'job-inside', INSIDE, prod);
  await createJob(h, 'job-at-end', END, prod);
  await createJob(h, 'job-outside', END + 1000, prod);
  await createJob(h, 'job-foreign', INSIDE, prod, OTHER);
  await createWindow(h, 'freeze', { configSelector: { matchLabels: prod }, jobSelector: { matchLabels: prod } });
  await createWindow(h, 'no-selectors', {});
  await settle(h);

  assert.deepEqual(await status(h, 'freeze'), {
    configs: ['weekly-a', 'weekly-b'],
    jobs: ['job-at-end', 'job-inside'],
    raw: {
      matchingConfigs: [{ name: 'weekly-a' }, { name: 'weekly-b' }],
      matchingJobs: [{ name: 'job-at-end' }, { name: 'job-inside' }],
    },
  });
  assert.deepEqual(await status(h, 'no-selectors'), {
    configs: [],
    jobs: [],
    raw: { matchingConfigs: [], matchingJobs: [] },
  });
  const writes = h.statusWrites();
  assert.equal(writes, 2, 'one status write per window');

  await createJob(h, 'job-new', START, prod);
  await settle(h);
  assert.deepEqual(
    (await status(h, 'freeze')).jobs,
    ['job-at-end', 'job-inside', 'job-new'],
    'a created job is listed',
  );

  await relabelJob(h, 'job-inside', { tier: 'dev' });
  await settle(h);
  assert.deepEqual((await status(h, 'freeze')).jobs, ['job-at-end', 'job-new'], 'a relabelled job is dropped');

  const cfg = await h.cluster.client.get(ScheduledUpgradeConfigResource, NS, 'dev');
  await h.cluster.client.update(ScheduledUpgradeConfigResource, {
    ...cfg,
    metadata: { ...cfg.metadata, labels: prod },
  });
  await settle(h);
  assert.deepEqual(
    (await status(h, 'freeze')).configs,
    ['dev', 'weekly-a', 'weekly-b'],
    'a relabelled config is listed',
  );

  await h.cluster.client.delete(UpgradeJobResource, NS, 'job-new');
  await settle(h);
  assert.deepEqual((await status(h, 'freeze')).jobs, ['job-at-end'], 'a deleted job is dropped');

  // Changes that match nothing new write nothing.
  const before = h.statusWrites();
  await createJob(h, 'job-late', END + 5 * HOUR, prod);
  await createConfig(h, 'foreign-2', prod, OTHER);
  await settle(h);
  assert.equal(h.statusWrites(), before);
});

void test('a window changing its selector or interval is recomputed; an invalid selector selects nothing and is reported', async (t) => {
  const h = await harness(t);
  await createJob(h, 'early', START - HOUR, { tier: 'prod' });
  await createWindow(h, 'freeze', { jobSelector: { matchLabels: { tier: 'prod' } } });
  await settle(h);
  assert.deepEqual((await status(h, 'freeze')).jobs, []);

  const w = await h.cluster.client.get(UpgradeSuspensionWindowResource, NS, 'freeze');
  await h.cluster.client.update(UpgradeSuspensionWindowResource, {
    ...w,
    spec: { ...w.spec!, start: formatTime(START - 2 * HOUR) },
  });
  await settle(h);
  assert.deepEqual((await status(h, 'freeze')).jobs, ['early']);

  await createWindow(h, 'broken', {
    configSelector: { matchExpressions: [{ key: 'tier', operator: 'In', values: [] }] },
    jobSelector: {},
  });
  await settle(h);
  assert.deepEqual((await status(h, 'broken')).jobs, []);
  await h.events.flush();
  const events = (await h.cluster.client.list(EventResource, { namespace: NS })).items.filter(
    (e) => e.involvedObject.name === 'broken',
  );
  assert.deepEqual(
    events.map((e) => `${e.type ?? ''} ${e.reason ?? ''}: ${e.message ?? ''}`),
    ['Warning InvalidUpgradeSuspensionWindow: spec.configSelector is invalid: it selects nothing'],
  );
});
