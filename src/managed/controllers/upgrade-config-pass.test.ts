import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NamespaceResource } from '../../api/builtin.js';
import { ClusterVersionResource, type ClusterVersion } from '../../api/openshift/config-v1/cluster-version.js';
import { MachineSetResource } from '../../api/openshift/machine-v1beta1/machine-set.js';
import type { KubeObjectLike } from '../../api/resource.js';
import {
  FeatureGate,
  MANAGED_UPGRADE_OPERATOR_NAMESPACE,
  ManagedUpgradeConfigResource,
} from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import {
  managedUpgradeConfigCrd,
  type ManagedUpgradeConfig,
  type ManagedUpgradeConfigSpec,
  type UpgradeHistory,
} from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import type { WaitFor } from '../../engine/step.js';
import type { EventRecorder } from '../../kube/event-recorder.js';
import { formatTime } from '../../lib/clock.js';
import { silentLogger } from '../../lib/log.js';
import { installCustomResourceDefinitions } from '../../sim/install-crds.js';
import { startTestCluster, type TestCluster } from '../../sim/test-support/cluster.test-support.js';
import { formatConfigProblems } from '../config/config-problem.js';
import {
  defaultManagedOperatorConfig,
  parseManagedOperatorConfig,
  type ParsedManagedOperatorConfig,
} from '../config/managed-operator-config.js';
import { controlPlaneComment } from '../maintenance/maintenance-window.js';
import type { Notification } from '../notifiers/notifier.js';
import type { PolicyProvider } from '../providers/policy-provider.js';
import { STRICT_SEMVER_EXPECTATION } from '../validation/strict-semver.js';
import {
  CHANNEL,
  CONFIG_NAME,
  DESIRED,
  FakeAlertmanager,
  FakePrometheus,
  HOUR,
  MINUTE,
  T0,
  clusterReads,
  clusterVersion,
  fakeCluster,
  silence,
  testMetrics,
  unreachable,
  type FakeCluster,
  type RecordedEvent,
} from '../steps/step-context.test-support.js';
import {
  earlyHealthCheckDue,
  NOTIFICATIONS_ANNOTATION,
  upgradeConfigPass,
  type UpgradeConfigPassDeps,
  type UpgradeConfigPassResult,
} from './upgrade-config-pass.js';

const signal = new AbortController().signal;
const VALIDATION_FAILED = 'upgradeoperator_upgradeconfig_validation_failed';
/** The version the cluster runs before the upgrade: a z-stream below {@link DESIRED}. */
const FROM = '4.15.37';
/** The ClusterVersion at rest on {@link FROM}, offering {@link DESIRED}; its CVO never told to update. */
const before = (): ClusterVersion =>
  clusterVersion({
    current: FROM,
    desiredUpdate: null,
    availableUpdates: [{ version: DESIRED, image: `quay.io/openshift-release-dev/ocp@${DESIRED}` }],
  });

interface FixtureOptions {
  type?: 'OSD' | 'ARO';
  upgradeAt?: number;
  version?: string;
  /** The entry already there (created with the UpgradeConfig). */
  history?: UpgradeHistory;
  /** The cached ClusterVersion (default: before the upgrade). */
  clusterVersion?: ClusterVersion;
  prometheus?: 'quiet' | 'unreachable';
  preHealthCheckGate?: boolean;
}

/** The embedded API server holding one UpgradeConfig, and a pass over it with recording fakes. */
interface Fixture {
  cluster: TestCluster;
  /** What the pass's cached reads answer. */
  reads: FakeCluster;
  alertmanager: FakeAlertmanager;
  prometheusQueries: string[];
  notifications: Notification[];
  /** Events on the UpgradeConfig, in order. */
  events: RecordedEvent[];
  metric: (name: string, labels: Record<string, string>) => Promise<number | undefined>;
  /** What `deps.config()` answers. */
  operatorConfig: ParsedManagedOperatorConfig;
  /** What `deps.provider()` answers. */
  provider: PolicyProvider | undefined;
  /** Runs one pass on the UpgradeConfig as stored (or on `edit` of it); returns what it waits for. */
  pass(edit?: (cr: ManagedUpgradeConfig) => void): Promise<WaitFor | undefined>;
  /** The same, returning the whole result (what it waits for, and whether it backs off). */
  passResult(): Promise<UpgradeConfigPassResult>;
  /** When set, every notification fails with it (as when the OCM or API call behind it fails). */
  notifyError: Error | undefined;
  stored(): Promise<ManagedUpgradeConfig>;
  /** Moves the clock to `at`. */
  at(at: number): Promise<void>;
}

function spec(options: FixtureOptions): ManagedUpgradeConfigSpec {
  return {
    type: options.type ?? 'OSD',
    upgradeAt: formatTime(options.upgradeAt ?? T0),
    PDBForceDrainTimeout: 60,
    desired: { version: options.version ?? DESIRED, channel: CHANNEL },
  };
}

async function fixture(t: TestContext, options: FixtureOptions = {}): Promise<Fixture> {
  const cluster = await startTestCluster(t, { start: T0 });
  const { client, clock } = cluster;
  await installCustomResourceDefinitions(client, [managedUpgradeConfigCrd()]);
  for (const name of [MANAGED_UPGRADE_OPERATOR_NAMESPACE, 'openshift-machine-api'])
    await client.create(NamespaceResource, { metadata: { name } });
  // What CommenceUpgrade reads: the channel, and no update offered yet.
  await client.create(ClusterVersionResource, {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: { name: 'version' },
    spec: { clusterID: '6b7a9c2e-3f4d-4e5a-8b6c-7d8e9f0a1b2c', channel: CHANNEL },
  });
  const created = await client.create(ManagedUpgradeConfigResource, {
    apiVersion: 'upgrade.managed.openshift.io/v1alpha1',
    kind: 'UpgradeConfig',
    metadata: { name: CONFIG_NAME, namespace: MANAGED_UPGRADE_OPERATOR_NAMESPACE },
    spec: spec(options),
  });
  if (options.history)
    await client.updateStatus(ManagedUpgradeConfigResource, { ...created, status: { history: [options.history] } });

  const reads = fakeCluster({ clusterVersion: options.clusterVersion ?? before() });
  const alertmanager = new FakeAlertmanager(clock);
  const prometheus = new FakePrometheus();
  if (options.prometheus === 'unreachable') prometheus.failWith(unreachable('prometheus'));
  const notifications: Notification[] = [];
  const events: RecordedEvent[] = [];
  const recorder = {
    event: (_involved: KubeObjectLike, type: 'Normal' | 'Warning', reason: string, message: string) =>
      void events.push({ type, reason, message }),
  } as unknown as EventRecorder;
  const { metrics, value } = testMetrics();
  const defaults = defaultManagedOperatorConfig();
  const fx: Fixture = {
    cluster,
    reads,
    alertmanager,
    prometheusQueries: prometheus.queries,
    notifications,
    events,
    metric: value,
    operatorConfig: {
      config: {
        ...defaults,
        featureGate: { enabled: options.preHealthCheckGate ? [FeatureGate.PreHealthCheck] : [] },
      },
      problems: [],
    },
    provider: undefined,
    pass: async (edit) => {
      const cr = await client.get(ManagedUpgradeConfigResource, MANAGED_UPGRADE_OPERATOR_NAMESPACE, CONFIG_NAME);
      edit?.(cr);
      return (await upgradeConfigPass(deps, cr, signal)).waitFor;
    },
    passResult: async () =>
      upgradeConfigPass(
        deps,
        await client.get(ManagedUpgradeConfigResource, MANAGED_UPGRADE_OPERATOR_NAMESPACE, CONFIG_NAME),
        signal,
      ),
    notifyError: undefined,
    stored: () => client.get(ManagedUpgradeConfigResource, MANAGED_UPGRADE_OPERATOR_NAMESPACE, CONFIG_NAME),
    at: async (at) => {
      await clock.run({ until: at });
    },
  };
  const deps: UpgradeConfigPassDeps = {
    client,
    clock,
    log: silentLogger(),
    events: recorder,
    metrics,
    prometheus,
    alertmanager,
    dvo: 'not-installed',
    notifier: {
      kind: 'test',
      notify: async (notification) => {
        if (fx.notifyError) throw fx.notifyError;
        notifications.push(notification);
      },
    },
    provider: () => fx.provider,
    validation: {
      fetchGraph: () => Promise.reject(new Error('the update service is not asked in these tests')),
      releaseVersionOfImage: () => Promise.reject(new Error('no registry is asked in these tests')),
    },
    urlProbe: () => Promise.resolve(undefined),
    drainNode: () => Promise.reject(new Error('no node is drained in these tests')),
    cluster: clusterReads(reads),
    config: () => fx.operatorConfig,
  };
  return fx;
}

/** The newest history entry and the Waiting condition, as stored. */
async function status(fx: Fixture): Promise<{
  entry: UpgradeHistory | undefined;
  waiting: { status: string; reason: string | undefined; message: string | undefined } | undefined;
}> {
  const stored = await fx.stored();
  const waiting = stored.status?.conditions?.find((c) => c.type === 'Waiting');
  return {
    entry: stored.status?.history?.[0],
    waiting: waiting ? { status: waiting.status, reason: waiting.reason, message: waiting.message } : undefined,
  };
}

const conditionStates = (entry: UpgradeHistory | undefined): string[] =>
  (entry?.conditions ?? []).map((c) => `${c.type}=${c.status}`);

const upgrading = (startedAt: number, conditions: UpgradeHistory['conditions'] = []): UpgradeHistory => ({
  version: DESIRED,
  precedingVersion: FROM,
  phase: 'Upgrading',
  startTime: formatTime(startedAt),
  conditions,
});

void test('a new entry at upgradeAt goes New → Pending → Upgrading in one pass, and the steps run until one fails', async (t) => {
  const fx = await fixture(t, { upgradeAt: T0, prometheus: 'unreachable' });

  const waitFor = await fx.pass();

  // The pre-upgrade health check fails (Prometheus is down): retried in a minute, or on a change of what it reads.
  assert.deepEqual(waitFor, { until: T0 + MINUTE, kinds: ['ClusterOperator', 'Node', 'PodDisruptionBudget'] });
  const { entry, waiting } = await status(fx);
  assert.deepEqual(
    { version: entry?.version, precedingVersion: entry?.precedingVersion, phase: entry?.phase, at: entry?.startTime },
    { version: DESIRED, precedingVersion: FROM, phase: 'Upgrading', at: formatTime(T0) },
  );
  assert.deepEqual(conditionStates(entry), [
    'ClusterHealthyBeforeUpgrade=False',
    'IsClusterUpgradable=True',
    'StartedNotificationSent=True',
  ]);
  const why =
    'ClusterHealthyBeforeUpgrade: unable to query critical alerts: prometheus: connect ECONNREFUSED 127.0.0.1:9090';
  assert.deepEqual(waiting, { status: 'True', reason: 'HealthCheckFailed', message: why });
  assert.deepEqual(fx.events, [
    { type: 'Normal', reason: 'UpgradeStarted', message: `upgrading to ${DESIRED} (OSD)` },
    { type: 'Warning', reason: 'HealthCheckFailed', message: why },
  ]);
  assert.deepEqual(
    fx.notifications.map((n) => n.state),
    ['StateStarted'],
  );
  assert.equal(
    (await fx.stored()).metadata?.annotations?.[NOTIFICATIONS_ANNOTATION],
    JSON.stringify([`StateStarted@${DESIRED}`]),
  );
  assert.equal(await fx.metric(VALIDATION_FAILED, { upgradeconfig_name: CONFIG_NAME }), 0);
});

void test('earlyHealthCheckDue: more than 120 whole minutes ahead, as MUO counts them', () => {
  assert.equal(earlyHealthCheckDue(2 * HOUR + MINUTE), true);
  assert.equal(earlyHealthCheckDue(2 * HOUR + MINUTE - 1), false, '120 min 59.999 s is 120 whole minutes');
  assert.equal(earlyHealthCheckDue(2 * HOUR + 30_000), false, '120 min 30 s');
  assert.equal(earlyHealthCheckDue(2 * HOUR), false);
  assert.equal(earlyHealthCheckDue(-3 * HOUR), false);
});

void test('the early pre-upgrade health check of a New entry runs only when the upgrade is more than 2 h ahead', async (t) => {
  const upgradeAt = T0 + 2 * HOUR + MINUTE;
  const ahead = await fixture(t, { upgradeAt, prometheus: 'unreachable', preHealthCheckGate: true });
  assert.deepEqual(await ahead.pass(), { until: upgradeAt, kinds: ['ClusterVersion'] });
  assert.notEqual(ahead.prometheusQueries.length, 0);
  assert.deepEqual(
    ahead.notifications.map((n) => n.state),
    ['StatePreHealthCheckSL'],
  );
  assert.deepEqual(ahead.events[0], {
    type: 'Warning',
    reason: 'PreHealthCheckFailed',
    message: `the upgrade at ${formatTime(upgradeAt)} may be affected: 1 health check failing: unable to query critical alerts: prometheus: connect ECONNREFUSED 127.0.0.1:9090`,
  });
  assert.equal((await status(ahead)).entry?.phase, 'Pending');

  // 120 min 30 s ahead is 120 whole minutes: not more than two hours for MUO, so no check.
  for (const at of [T0 + 2 * HOUR, T0 + 2 * HOUR + 30_000]) {
    const near = await fixture(t, { upgradeAt: at, prometheus: 'unreachable', preHealthCheckGate: true });
    assert.deepEqual(await near.pass(), { until: at, kinds: ['ClusterVersion'] });
    assert.deepEqual(near.prometheusQueries, []);
    assert.deepEqual(near.notifications, []);
    assert.deepEqual(
      near.events.map((e) => e.reason),
      ['WaitingForUpgradeTime'],
    );
    assert.equal((await status(near)).entry?.phase, 'Pending');
  }
});

void test('a validation refusal waits Pending with its reason and message; an answer that may change is asked again in 5 min', async (t) => {
  const cases = [
    {
      version: 'banana',
      reason: 'InvalidVersion',
      message: `validation failed: failed to parse upgrade config desired version banana as semver: ${STRICT_SEMVER_EXPECTATION}`,
      waitFor: { kinds: ['ClusterVersion'] },
      invalid: 1,
    },
    {
      version: '4.15.39',
      reason: 'NotInAvailableUpdates',
      message: 'validation failed: version 4.15.39 not found in clusterversion available or conditional updates',
      waitFor: { until: T0 + 5 * MINUTE, kinds: ['ClusterVersion'] },
      invalid: 1,
    },
    // MUO counts a same-version or downgrade target as failing validation (its validator answers with an error).
    {
      version: FROM,
      reason: 'SameVersion',
      message: `desired version ${FROM} matches the current version ${FROM}`,
      waitFor: { kinds: ['ClusterVersion'] },
      invalid: 1,
    },
    {
      version: '4.14.1',
      reason: 'Downgrade',
      message: `downgrades to desired version 4.14.1 from ${FROM} are unsupported`,
      waitFor: { kinds: ['ClusterVersion'] },
      invalid: 1,
    },
  ];
  for (const c of cases) {
    const fx = await fixture(t, { version: c.version, upgradeAt: T0 });
    assert.deepEqual(await fx.pass(), c.waitFor, c.version);
    const { entry, waiting } = await status(fx);
    assert.equal(entry?.phase, 'Pending', c.version);
    assert.deepEqual(waiting, { status: 'True', reason: c.reason, message: c.message }, c.version);
    assert.deepEqual(fx.events, [{ type: 'Normal', reason: c.reason, message: c.message }], c.version);
    assert.equal(await fx.metric(VALIDATION_FAILED, { upgradeconfig_name: CONFIG_NAME }), c.invalid);
    assert.deepEqual(fx.notifications, []);
  }
});

void test('a condition a step set (UpdateRecommended) is kept by later passes, and dropped when a new target starts its history entry', async (t) => {
  const fx = await fixture(t, {
    upgradeAt: T0 + HOUR,
    history: { version: DESIRED, phase: 'Pending', conditions: [] },
  });
  const risk = {
    type: 'UpdateRecommended',
    status: 'False',
    reason: 'UpdateNotRecommended',
    message: `commenced the update to ${DESIRED}, which the cluster version operator does not recommend for this cluster`,
    lastTransitionTime: formatTime(T0 - HOUR),
    observedGeneration: 1,
  };
  await fx.pass((cr) => {
    cr.status = { ...cr.status, conditions: [risk] };
  });
  assert.deepEqual(
    (await fx.stored()).status?.conditions?.map((c) => c.type),
    ['Waiting', 'ConfigurationValid', 'UpdateRecommended'],
  );
  await fx.pass();
  assert.deepEqual(
    (await fx.stored()).status?.conditions?.find((c) => c.type === 'UpdateRecommended'),
    risk,
    'kept as it was',
  );
  await fx.pass((cr) => {
    if (cr.spec) cr.spec.desired.version = '4.15.39';
  });
  const stored = await fx.stored();
  assert.equal(stored.status?.history?.[0]?.version, '4.15.39');
  assert.deepEqual(
    stored.status?.conditions?.map((c) => c.type),
    ['Waiting', 'ConfigurationValid'],
  );
});

void test('waiting for upgradeAt: woken then; the status is written and the Event emitted only when the wait changes', async (t) => {
  const upgradeAt = T0 + HOUR;
  const fx = await fixture(t, { upgradeAt });
  const waitFor = { until: upgradeAt, kinds: ['ClusterVersion'] };
  const why = `the upgrade to ${DESIRED} is scheduled for ${formatTime(upgradeAt)}`;

  assert.deepEqual(await fx.pass(), waitFor);
  const first = await fx.stored();
  assert.equal(first.status?.history?.[0]?.phase, 'Pending');
  assert.deepEqual((await status(fx)).waiting, { status: 'True', reason: 'WaitingForUpgradeTime', message: why });
  assert.deepEqual(fx.events, [{ type: 'Normal', reason: 'WaitingForUpgradeTime', message: why }]);

  assert.deepEqual(await fx.pass(), waitFor);
  await fx.at(T0 + 30 * MINUTE);
  assert.deepEqual(await fx.pass(), waitFor);
  const later = await fx.stored();
  assert.equal(later.metadata?.resourceVersion, first.metadata?.resourceVersion, 'nothing changed: nothing written');
  assert.equal(fx.events.length, 1);
});

void test('a changed policy sends the entry back to New instead of starting it, and writes the new spec', async (t) => {
  const withdrawn = await fixture(t, { upgradeAt: T0 });
  withdrawn.provider = { source: 'OCM', specs: () => Promise.resolve([]) };
  assert.deepEqual(await withdrawn.pass(), {});
  const gone = 'the OCM policy no longer asks for an upgrade';
  const { entry, waiting } = await status(withdrawn);
  assert.equal(entry?.phase, 'New');
  assert.deepEqual(waiting, { status: 'True', reason: 'PolicyChanged', message: gone });
  assert.equal((await withdrawn.stored()).spec?.upgradeAt, formatTime(T0), 'no spec to write');
  assert.deepEqual(withdrawn.events, [
    { type: 'Warning', reason: 'PolicyChanged', message: `not starting: ${gone}` },
    { type: 'Normal', reason: 'PolicyChanged', message: gone },
  ]);
  assert.deepEqual(withdrawn.notifications, [], 'nothing was started');

  const fx = await fixture(t, { upgradeAt: T0 });
  const rescheduled = { ...spec({}), upgradeAt: formatTime(T0 + 24 * HOUR) };
  fx.provider = { source: 'OCM', specs: () => Promise.resolve([rescheduled]) };
  // As the pass is: the spec patch moves the resourceVersion that the status write then
  // presents, so the write conflicts and the pass fails; the controller's retry explains the wait.
  await assert.rejects(fx.pass(), { code: 409 });
  assert.equal((await fx.stored()).spec?.upgradeAt, rescheduled.upgradeAt);
  const changed = 'the OCM policy changed since the UpgradeConfig was written';
  assert.deepEqual(fx.events, [
    { type: 'Warning', reason: 'PolicyChanged', message: `not starting: ${changed}` },
    { type: 'Normal', reason: 'PolicyChanged', message: changed },
  ]);
  assert.deepEqual(await fx.pass(), { until: T0 + 24 * HOUR, kinds: ['ClusterVersion'] });
  assert.equal((await status(fx)).entry?.phase, 'Pending');
  assert.deepEqual(fx.notifications, [], 'nothing was started');
});

void test('the OSD window passes before commencement: the failure is retried until done, then the entry is Failed', async (t) => {
  const upgradeAt = T0 - 3 * HOUR;
  const fx = await fixture(t, {
    upgradeAt,
    history: upgrading(upgradeAt, [
      { type: 'ControlPlaneMaintenanceWindowCreated', status: 'True' },
      { type: 'StartedNotificationSent', status: 'True' },
    ]),
  });
  const { client } = fx.cluster;
  await client.create(MachineSetResource, {
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'MachineSet',
    metadata: {
      name: 'w-a-upgrade',
      namespace: 'openshift-machine-api',
      labels: { 'upgrade.managed.openshift.io': 'true' },
    },
    spec: { replicas: 1, selector: { matchLabels: { 'machine.openshift.io/cluster-api-machineset': 'w-a-upgrade' } } },
  });
  fx.alertmanager.silences.push(
    silence('cp', controlPlaneComment(DESIRED), { startsAt: upgradeAt, endsAt: T0 + HOUR }),
  );
  fx.alertmanager.failWith(unreachable('alertmanager'));

  const part = 'failed to end the maintenance silences: alertmanager: connect ECONNREFUSED 127.0.0.1:9093';
  assert.deepEqual(await fx.pass(), { until: T0 + 30_000 });
  let { entry, waiting } = await status(fx);
  assert.equal(entry?.phase, 'Upgrading');
  assert.deepEqual(waiting, {
    status: 'True',
    reason: 'FailingUpgrade',
    message: `the upgrade window passed; cleaning up: ${part}`,
  });
  assert.equal(entry?.conditions?.find((c) => c.type === 'FailedUpgrade')?.message, part);
  assert.deepEqual((await client.list(MachineSetResource, { namespace: 'openshift-machine-api' })).items, []);
  assert.equal(fx.notifications.length, 0, 'not failed yet: no notification');

  fx.alertmanager.failWith(undefined);
  await fx.at(T0 + 30_000);
  assert.equal(await fx.pass(), undefined, 'Failed: nothing to wait for');
  ({ entry, waiting } = await status(fx));
  assert.equal(entry?.phase, 'Failed');
  assert.equal(entry?.conditions?.find((c) => c.type === 'FailedUpgrade')?.status, 'True');
  assert.deepEqual(waiting, {
    status: 'False',
    reason: 'Failed',
    message: 'the upgrade window passed before the upgrade could start',
  });
  assert.deepEqual(
    fx.alertmanager.silences.map((s) => s.status.state),
    ['expired'],
  );
  assert.deepEqual(
    fx.notifications.map((n) => [n.state, n.description]),
    [
      [
        'StateFailed',
        `Cluster upgrade to version ${DESIRED} was cancelled as the cluster did not pass its pre-upgrade verification checks. Automated upgrades will be retried on their next scheduling cycle.`,
      ],
    ],
  );
  assert.deepEqual(fx.events, [
    { type: 'Normal', reason: 'FailingUpgrade', message: `the upgrade window passed; cleaning up: ${part}` },
    {
      type: 'Warning',
      reason: 'UpgradeFailed',
      message: `the upgrade did not start within the upgrade window (120 min after ${formatTime(upgradeAt)})`,
    },
  ]);
  assert.equal(await fx.metric('upgradeoperator_upgrade_window_breached', { upgradeconfig_name: CONFIG_NAME }), 1);
});

void test('a step that waits is explained by its reason and message; OSD adds its wake-ups to the wait, ARO has none', async (t) => {
  const notOffered = `UpgradeCommenced: version ${DESIRED} is not yet offered by the cluster version operator on channel ${CHANNEL} (neither an available nor a conditional update)`;
  for (const type of ['OSD', 'ARO'] as const) {
    const fx = await fixture(t, { type, upgradeAt: T0, history: upgrading(T0) });
    await fx.at(T0 + 5 * MINUTE);
    const waitFor = await fx.pass();
    // OSD: the step waits for a ClusterVersion change, and is woken when the delayed notification falls due.
    assert.deepEqual(
      waitFor,
      type === 'OSD' ? { until: T0 + 30 * MINUTE + 1, kinds: ['ClusterVersion'] } : { kinds: ['ClusterVersion'] },
      type,
    );
    const { entry, waiting } = await status(fx);
    assert.equal(entry?.phase, 'Upgrading');
    assert.equal(conditionStates(entry)[0], 'UpgradeCommenced=False');
    assert.deepEqual(waiting, { status: 'True', reason: 'VersionNotAvailable', message: notOffered }, type);
    assert.deepEqual(fx.events.at(-1), { type: 'Normal', reason: 'VersionNotAvailable', message: notOffered });
  }
});

void test('an error in a step before commencement is retried with backoff, the window kept as a wake-up; a Warning Event', async (t) => {
  const fx = await fixture(t, { upgradeAt: T0, history: upgrading(T0) });
  await fx.at(T0 + 5 * MINUTE);
  fx.notifyError = new Error('the server is currently unable to handle the request');
  const result = await fx.passResult();
  // Backoff, as controller-runtime retries an error; the delayed notification's time stays a wake-up
  // (it comes before the window closes) instead of replacing the retry.
  assert.deepEqual(result, { waitFor: { until: T0 + 30 * MINUTE + 1 }, requeue: true });
  const { waiting } = await status(fx);
  const why = 'StartedNotificationSent: the server is currently unable to handle the request';
  assert.deepEqual(waiting, { status: 'True', reason: 'StepError', message: why });
  assert.deepEqual(fx.events.at(-1), { type: 'Warning', reason: 'StepError', message: why });
  // A wait that is nobody's fault (the version not offered yet) is still a plain wait and a Normal Event.
  fx.notifyError = undefined;
  const waits = await fx.passResult();
  assert.equal(waits.requeue, undefined);
  assert.equal(fx.events.at(-1)?.type, 'Normal');
});

void test('all steps done: Upgraded with completeTime, UpgradeCompleted and the upgrade-result metric; the next pass writes nothing', async (t) => {
  const startedAt = T0 - HOUR;
  const fx = await fixture(t, {
    upgradeAt: startedAt,
    history: upgrading(startedAt),
    clusterVersion: clusterVersion({ current: DESIRED, desiredUpdate: { version: DESIRED } }),
  });

  assert.equal(await fx.pass(), undefined);
  const { entry, waiting } = await status(fx);
  assert.deepEqual(
    { phase: entry?.phase, startTime: entry?.startTime, completeTime: entry?.completeTime },
    { phase: 'Upgraded', startTime: formatTime(startedAt), completeTime: formatTime(T0) },
  );
  assert.equal(entry?.conditions?.length, 16, 'one condition per step but the delayed check (it shares one)');
  assert.ok(entry?.conditions?.every((c) => c.status === 'True'));
  assert.deepEqual(waiting, { status: 'False', reason: 'Upgraded', message: `upgraded to ${DESIRED}` });
  assert.deepEqual(fx.events.at(-1), { type: 'Normal', reason: 'UpgradeCompleted', message: `upgraded to ${DESIRED}` });
  assert.deepEqual(
    fx.notifications.map((n) => n.state),
    ['StateControlPlaneFinishedSL', 'StateWorkerPlaneFinishedSL', 'StateCompleted'],
  );
  const result = {
    alerts: '',
    preceding_version: FROM,
    stream: 'z',
    upgradeconfig_name: CONFIG_NAME,
    version: DESIRED,
  };
  assert.equal(await fx.metric('upgradeoperator_upgrade_result', result), 1);

  const written = (await fx.stored()).metadata?.resourceVersion;
  const events = fx.events.length;
  assert.equal(await fx.pass(), undefined);
  assert.equal((await fx.stored()).metadata?.resourceVersion, written);
  assert.equal(fx.events.length, events);
});

void test('no spec, or no ClusterVersion: the wait is explained and no history entry is made', async (t) => {
  const fx = await fixture(t);
  assert.equal(
    await fx.pass((cr) => {
      delete (cr as { spec?: unknown }).spec;
    }),
    undefined,
  );
  let stored = await fx.stored();
  assert.equal(stored.status?.history, undefined);
  assert.deepEqual((await status(fx)).waiting, {
    status: 'True',
    reason: 'InvalidSpec',
    message: 'the UpgradeConfig has no spec',
  });

  fx.reads.clusterVersion = undefined;
  assert.deepEqual(await fx.pass(), { kinds: ['ClusterVersion'] });
  stored = await fx.stored();
  assert.equal(stored.status?.history, undefined);
  assert.deepEqual((await status(fx)).waiting, {
    status: 'True',
    reason: 'ClusterVersionMissing',
    message: 'ClusterVersion "version" not found; is this an OpenShift cluster?',
  });
  assert.deepEqual(
    fx.events.map((e) => e.reason),
    ['InvalidSpec', 'ClusterVersionMissing'],
  );
});

void test('operator-config problems: ConfigurationValid False naming them, one Warning Event; True again once fixed', async (t) => {
  const fx = await fixture(t, { upgradeAt: T0 + HOUR });
  fx.operatorConfig = parseManagedOperatorConfig('upgradeWindow:\n  timeOut: -5\n');
  const problems = formatConfigProblems(fx.operatorConfig.problems);
  assert.notEqual(problems, '');
  const configurationValid = async (): Promise<unknown> => {
    const c = (await fx.stored()).status?.conditions?.find((x) => x.type === 'ConfigurationValid');
    return { status: c?.status, reason: c?.reason, message: c?.message };
  };

  await fx.pass();
  assert.deepEqual(await configurationValid(), {
    status: 'False',
    reason: 'InvalidOperatorConfig',
    message: `defaults used instead: ${problems}`,
  });
  await fx.pass();
  assert.deepEqual(
    fx.events.filter((e) => e.type === 'Warning'),
    [{ type: 'Warning', reason: 'InvalidOperatorConfig', message: `defaults used instead: ${problems}` }],
    'the same problems are reported once',
  );

  fx.operatorConfig = { config: defaultManagedOperatorConfig(), problems: [] };
  await fx.pass();
  assert.deepEqual(await configurationValid(), { status: 'True', reason: 'Valid', message: '' });
});

void test('any UpgradeConfig the API server admits: the pass explains itself and never asks to run again at once', async (t) => {
  const version = fc.oneof(
    fc.constantFrom(FROM, DESIRED, '4.13.0', '4.16.0', '5.0.0'),
    fc.tuple(fc.nat(9), fc.nat(30), fc.nat(60)).map(([major, minor, patch]) => `${major}.${minor}.${patch}`),
    fc.string({ maxLength: 12 }),
  );
  const spec = fc.record(
    {
      type: fc.constantFrom('OSD', 'ARO'),
      upgradeAt: fc.oneof(
        fc.integer({ min: -3 * 24 * 60, max: 3 * 24 * 60 }).map((minutes) => formatTime(T0 + minutes * MINUTE)),
        fc.string({ maxLength: 25 }),
      ),
      PDBForceDrainTimeout: fc.integer({ min: -5, max: 2000 }),
      capacityReservation: fc.boolean(),
      desired: fc.record(
        {
          version,
          channel: fc.oneof(fc.constantFrom(CHANNEL, 'fast-4.15', 'stable-4.14', ''), fc.string({ maxLength: 12 })),
          image: fc.constantFrom('quay.io/openshift-release-dev/ocp-release@sha256:' + 'a'.repeat(64), 'not an image'),
        },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: ['type', 'upgradeAt', 'desired'] },
  );
  let admitted = 0;
  await fc.assert(
    fc.asyncProperty(spec, fc.boolean(), async (candidate, inProgress) => {
      const fx = await fixture(t, inProgress ? { upgradeAt: T0, history: upgrading(T0) } : {});
      try {
        const stored = await fx.stored();
        await fx.cluster.client.update(ManagedUpgradeConfigResource, { ...stored, spec: candidate } as never);
      } catch {
        return; // refused by admission: nothing for the operator to see
      }
      admitted++;
      await fx.at(T0 + 5 * MINUTE);
      const now = fx.cluster.clock.now();
      const result = await fx.passResult();
      const { waiting } = await status(fx);
      assert.ok(waiting?.reason && waiting.reason.length > 0, JSON.stringify(waiting));
      if (waiting.status === 'True') assert.ok((waiting.message ?? '').length > 0, JSON.stringify(waiting));
      // Never a busy loop: a wake-up in the past or now would run the pass again and again.
      if (result.waitFor?.until !== undefined) assert.ok(result.waitFor.until > now, JSON.stringify(result));
    }),
    { numRuns: 60 },
  );
  assert.ok(admitted > 10, `specs admitted: ${admitted}`);
});
