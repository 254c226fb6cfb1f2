import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigMapResource, EventResource, NamespaceResource, SecretResource } from '../../api/builtin.js';
import { UpgradeJobResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import { upgradeJobCrd, type UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import {
  NOTIFICATIONS_CONFIG_KEY,
  NOTIFICATIONS_CONFIG_NAME,
  NOTIFICATIONS_STATE_NAME,
} from '../../api/notifications-contract.js';
import type { KubeObjectLike } from '../../api/resource.js';
import { EventRecorder } from '../../kube/event-recorder.js';
import { formatTime } from '../../lib/clock.js';
import { capturedLogger } from '../../lib/log.test-support.js';
import { SeededRandom } from '../../lib/random.js';
import { installCustomResourceDefinitions } from '../../sim/install-crds.js';
import {
  startControllerInstance,
  startTestCluster,
  type TestCluster,
} from '../../sim/test-support/cluster.test-support.js';
import { createNotificationController } from './notification-controller.js';
import { NotificationMetrics } from './notification-metrics.js';
import { startNotificationReceiver, type NotificationReceiver } from './notification-receiver.test-support.js';
import { subjectOf, type UpgradeProgress } from './upgrade-event.js';

const NS = 'upgrades';
const T0 = Date.UTC(2026, 2, 2);

/** A minimal reading of an UpgradeJob: scheduled at its creation, started once labelled so. */
function progress(job: UpgradeJob): UpgradeProgress {
  return {
    subject: subjectOf('scheduled', job),
    version: '4.14.31',
    scheduled: { at: job.metadata?.creationTimestamp ?? '', for: job.spec?.startAfter ?? '' },
    ...(job.metadata?.labels?.['started'] ? { started: { at: formatTime(T0 + 60_000), message: 'go' } } : {}),
    problems: [],
  };
}

interface Harness {
  cluster: TestCluster;
  receiver: NotificationReceiver;
  lines: Array<Record<string, unknown>>;
  metrics: NotificationMetrics;
  /** Starts a fresh operator process (its own informers, nothing in memory from an earlier one). */
  start(): { stop(): Promise<void> };
}

async function harness(t: TestContext, failFirst: number): Promise<Harness> {
  const cluster = await startTestCluster(t, { start: T0, openshiftCrds: false });
  await installCustomResourceDefinitions(cluster.client, [upgradeJobCrd()] as KubeObjectLike[]);
  await cluster.client.create(NamespaceResource, { metadata: { name: NS } });
  const receiver = await startNotificationReceiver({ failFirst });
  t.after(() => receiver.close());
  const { logger, lines } = capturedLogger<Record<string, unknown>>('debug');
  const metrics = new NotificationMetrics();
  const start = (): { stop(): Promise<void> } => {
    const events = new EventRecorder({
      client: cluster.ctx.client,
      clock: cluster.clock,
      logger,
      activity: cluster.clock.activity,
      component: 'upgrade-operator',
    });
    let close: () => Promise<void> = () => Promise.resolve();
    const instance = startControllerInstance(t, cluster, (informers) => {
      const built = createNotificationController({
        client: cluster.ctx.client,
        informers,
        clock: cluster.clock,
        logger,
        activity: cluster.clock.activity,
        name: 'scheduled-notifications',
        flow: 'scheduled',
        resource: UpgradeJobResource,
        namespace: NS,
        operatorNamespace: NS,
        progress,
        events,
        metrics,
        random: new SeededRandom(1),
      });
      close = () => built.close();
      return built.controller;
    });
    return {
      stop: async () => {
        await instance.stop();
        events.close();
        await close();
      },
    };
  };
  return { cluster, receiver, lines, metrics, start };
}

async function settle(h: Harness, ms = 60_000): Promise<void> {
  await h.cluster.clock.run({ until: h.cluster.clock.now() + ms });
}

async function configure(h: Harness, config: string, urls: Record<string, string>): Promise<void> {
  await h.cluster.client.create(ConfigMapResource, {
    metadata: { name: NOTIFICATIONS_CONFIG_NAME, namespace: NS },
    data: { [NOTIFICATIONS_CONFIG_KEY]: config },
  });
  await h.cluster.client.create(SecretResource, {
    metadata: { name: NOTIFICATIONS_CONFIG_NAME, namespace: NS },
    stringData: urls,
  });
}

async function createJob(h: Harness, name: string): Promise<void> {
  await h.cluster.client.create(UpgradeJobResource, {
    apiVersion: 'managedupgrade.appuio.io/v1beta1',
    kind: 'UpgradeJob',
    metadata: { name, namespace: NS },
    spec: {
      startAfter: formatTime(T0 + 3_600_000),
      startBefore: formatTime(T0 + 7_200_000),
      config: {
        upgradeTimeout: '12h',
        preUpgradeHealthChecks: { timeout: '1h' },
        postUpgradeHealthChecks: { timeout: '1h' },
      },
    },
  });
}

void test('a bad configuration is a Warning Event and a log line naming each problem; the good receiver still gets its events; no URL is ever shown', async (t) => {
  const h = await harness(t, 0);
  const secretUrl = `${h.receiver.url('sre')}?token=s3cr3t`;
  await configure(
    h,
    'receivers:\n  - {name: sre, type: webhook}\n  - {name: chat, type: slack}\n  - {name: teams, type: chat}\n',
    { sre: secretUrl },
  );
  await createJob(h, 'job-1');
  h.start();
  await settle(h);
  assert.equal(h.receiver.accepted('sre?token=s3cr3t').length, 1, 'the scheduled event reached the good receiver');
  const events = (await h.cluster.client.list(EventResource, { namespace: NS })).items.filter(
    (e) => e.reason === 'InvalidNotificationConfig',
  );
  assert.equal(events.length, 1);
  assert.equal(events[0]?.type, 'Warning');
  assert.equal(events[0]?.involvedObject.name, NOTIFICATIONS_CONFIG_NAME);
  assert.equal(
    events[0]?.message,
    'receivers[1]: receiver chat left out: the Secret upgrade-operator-notifications has no key chat; receivers[2].type: must be one of webhook, slack, teams; receiver teams left out',
  );
  assert.ok(
    h.lines.some(
      (l) => l['level'] === 'warn' && String(l['msg']).startsWith('notification configuration: receivers[1]'),
    ),
  );
  const everything = JSON.stringify(h.lines) + JSON.stringify(events);
  assert.ok(!everything.includes('s3cr3t') && !everything.includes(h.receiver.url('sre')), 'no URL in logs or Events');
});

void test('a failing receiver is retried with backoff, its URL never logged; a restarted operator sends nothing twice', async (t) => {
  const h = await harness(t, 5);
  const url = h.receiver.url('sre');
  await configure(h, 'receivers:\n  - {name: sre, type: webhook}\n', { sre: url });
  await createJob(h, 'job-1');
  const first = h.start();
  await settle(h);
  // 3 quick tries fail (one warning); the work queue's retry fails twice more and its third quick try is accepted.
  assert.deepEqual(
    h.receiver.requests.map((r) => r.status),
    [503, 503, 503, 503, 503, 200],
  );
  const warnings = h.lines.filter((l) => l['level'] === 'warn');
  assert.equal(warnings.length, 1, 'a delivery that failed all its quick tries is a warning');
  assert.equal(warnings[0]?.['msg'], 'notification not delivered to receiver sre: HTTP 503; retried with backoff');
  assert.ok(!JSON.stringify(h.lines).includes(url), 'the URL is never logged');
  const state = await h.cluster.client.get(ConfigMapResource, NS, NOTIFICATIONS_STATE_NAME);
  const record = JSON.parse(state.data?.[`scheduled.${NS}.job-1`] ?? '{}') as { delivered?: string[] };
  assert.equal(record.delivered?.length, 1);

  await first.stop();
  h.start();
  await settle(h);
  assert.equal(h.receiver.accepted('sre').length, 1, 'the restarted operator recognised the delivery');
  // A new event of the same upgrade goes out once.
  const job = await h.cluster.client.get(UpgradeJobResource, NS, 'job-1');
  await h.cluster.client.update(UpgradeJobResource, {
    ...job,
    metadata: { ...job.metadata, labels: { started: 'yes' } },
  });
  await settle(h, 600_000);
  const types = h.receiver.accepted('sre').map((r) => r.body['type']);
  assert.deepEqual(types, ['io.upgrade-operator.upgrade.scheduled', 'io.upgrade-operator.upgrade.started']);
  // A deleted upgrade's record is forgotten.
  await h.cluster.client.delete(UpgradeJobResource, NS, 'job-1');
  await settle(h);
  const after = await h.cluster.client.get(ConfigMapResource, NS, NOTIFICATIONS_STATE_NAME);
  assert.equal(after.data?.[`scheduled.${NS}.job-1`], undefined);
});

void test('without the ConfigMap nothing is read beyond it and nothing is written', async (t) => {
  const h = await harness(t, 0);
  await createJob(h, 'job-1');
  h.start();
  await settle(h);
  assert.equal(h.receiver.requests.length, 0);
  assert.equal(await h.cluster.client.getIfExists(ConfigMapResource, NS, NOTIFICATIONS_STATE_NAME), undefined);
});
