import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import {
  ClusterVersionResource,
  type ClusterVersion,
  type ConditionalUpdate,
  type UpdateHistory,
} from '../../api/openshift/config-v1/cluster-version.js';
import type { GettableSilence } from '../../integrations/alertmanager-api.js';
import type { KubeClient } from '../../kube/client.js';
import { ManualClock } from '../../lib/clock.js';
import { controlPlaneComment, defaultSilenceMatchers } from '../maintenance/maintenance-window.js';
import type { StepContext } from './step-context.js';
import {
  CLUSTER_ID,
  CONFIG_NAME,
  DESIRED,
  T0,
  UPGRADE_AT,
  clusterVersion,
  commencedCluster,
  condition,
  fakeStepContext,
  startStepApi,
  unreachable,
  type FakeAlertmanager,
  type FakeStepContext,
  type FakeStepContextOptions,
  type RecordedEvent,
} from './step-context.test-support.js';
import { commenceUpgradeStep, controlPlaneUpgraded } from './control-plane-steps.js';

function h(version: string, state: 'Completed' | 'Partial', completionTime: string | null): UpdateHistory {
  return {
    version,
    state,
    startedTime: '2026-03-02T01:00:00Z',
    completionTime,
    image: `img@${version}`,
    verified: true,
  };
}

function cv(
  generation: number,
  observed: number,
  history: UpdateHistory[],
  desired: string,
  progressing: string,
  failing?: ['True' | 'False' | 'Unknown', string, string],
): ClusterVersion {
  const at = '2026-03-02T01:00:00Z';
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: { name: 'version', generation },
    spec: { clusterID: 'id', channel: 'stable-4.15', desiredUpdate: { version: '4.15.38', image: '', force: false } },
    status: {
      desired: { version: desired, image: `img@${desired}` },
      history,
      observedGeneration: observed,
      versionHash: '',
      availableUpdates: null,
      conditions: [
        { type: 'Progressing', status: 'True' as const, message: progressing, lastTransitionTime: at },
        {
          type: 'ReleaseAccepted',
          status: desired === '4.15.38' ? ('True' as const) : ('Unknown' as const),
          reason: desired === '4.15.38' ? 'PayloadLoaded' : 'RetrievePayload',
          message: '',
          lastTransitionTime: at,
        },
        ...(failing
          ? [{ type: 'Failing', status: failing[0], reason: failing[1], message: failing[2], lastTransitionTime: at }]
          : []),
      ],
    },
  };
}

/** The step's context from the shared fake; `notified` and `events` are what it recorded. */
function context(
  clusterVersion: ClusterVersion,
  options: { now?: number; silences?: GettableSilence[] } = {},
): { ctx: StepContext; notified: string[]; events: RecordedEvent[]; am: FakeAlertmanager } {
  const fake = fakeStepContext({
    now: options.now ?? T0 + 30 * 60_000,
    cluster: { clusterVersion },
    ...(options.silences ? { silences: options.silences } : {}),
  });
  return { ctx: fake.ctx, notified: fake.notifier.sent, events: fake.events, am: fake.alertmanager };
}

function cpSilence(endsAt: number): GettableSilence {
  return {
    id: 'cp-1',
    status: { state: 'active' },
    updatedAt: T0,
    matchers: defaultSilenceMatchers(),
    startsAt: T0 - 20 * 60_000,
    endsAt,
    createdBy: 'managed-upgrade-operator',
    comment: controlPlaneComment('4.15.38'),
  };
}

const signal = new AbortController().signal;

void test('ControlPlaneUpgraded: while the CVO has not observed the new spec, the old Progressing is not read', async () => {
  const { ctx, notified } = context(
    cv(3, 2, [h('4.14.30', 'Completed', 'x')], '4.14.30', 'Cluster version is 4.14.30'),
  );
  const o = await controlPlaneUpgraded.run(ctx, signal);
  assert.equal(o.status, 'pending');
  assert.equal(
    o.status === 'pending' ? o.why : '',
    'waiting for the control plane to complete 4.15.38: the cluster version operator has not yet observed the new spec (observedGeneration 2, generation 3)',
  );
  assert.deepEqual(notified, []);
});

void test('ControlPlaneUpgraded: the Waiting text names a degraded operator the CVO waits on; Unable to apply with Failing=True is still a wait', async () => {
  const plain = context(
    cv(
      3,
      3,
      [h('4.15.38', 'Partial', null)],
      '4.15.38',
      'Working towards 4.15.38: 103 of 883 done (11% complete), waiting on etcd, kube-apiserver',
    ),
  );
  const p = await controlPlaneUpgraded.run(plain.ctx, signal);
  assert.equal(
    p.status === 'pending' ? p.why : '',
    'waiting for the control plane to complete 4.15.38',
    'an update that simply runs: the same words throughout',
  );
  const waiting = context(
    cv(
      3,
      3,
      [h('4.15.38', 'Partial', null), h('4.14.30', 'Completed', 'x')],
      '4.15.38',
      'Working towards 4.15.38: 610 of 883 done (69% complete), waiting up to 40 minutes on authentication',
    ),
  );
  const w = await controlPlaneUpgraded.run(waiting.ctx, signal);
  assert.equal(
    w.status === 'pending' ? w.why : '',
    'waiting for the control plane to complete 4.15.38: the cluster version operator waits up to 40 minutes on degraded authentication',
  );
  const unable = context(
    cv(
      3,
      3,
      [h('4.15.38', 'Partial', null)],
      '4.15.38',
      'Unable to apply 4.15.38: wait has exceeded 40 minutes for these operators: authentication',
      ['True', 'ClusterOperatorDegraded', 'Cluster operator authentication is degraded'],
    ),
  );
  const u = await controlPlaneUpgraded.run(unable.ctx, signal);
  assert.equal(u.status, 'pending', 'not failed: the CVO keeps retrying');
  assert.match(
    u.status === 'pending' ? (u.why ?? '') : '',
    /unable to apply 4\.15\.38: wait has exceeded 40 minutes for these operators: authentication; Failing=True ClusterOperatorDegraded/,
  );
});

void test('ControlPlaneUpgraded: done only once the history head is the target, Completed', async () => {
  const done = context(
    cv(
      3,
      3,
      [h('4.15.38', 'Completed', '2026-03-02T02:00:00Z'), h('4.14.30', 'Completed', 'x')],
      '4.15.38',
      'Cluster version is 4.15.38',
    ),
  );
  assert.deepEqual(await controlPlaneUpgraded.run(done.ctx, signal), { status: 'done' });
  assert.deepEqual(done.notified, ['StateControlPlaneFinishedSL']);
});

void test('ControlPlaneUpgraded: while the control plane upgrades, its maintenance silence is renewed before it runs out and the step wakes for the next renewal', async () => {
  const running = cv(
    3,
    3,
    [h('4.15.38', 'Partial', null)],
    '4.15.38',
    'Working towards 4.15.38: 610 of 883 done (69% complete)',
  );
  const now = T0 + 80 * 60_000;
  // 30 minutes left of a 90-minute window: renewed to now + 90 min.
  const { ctx, events, am } = context(running, { now, silences: [cpSilence(now + 30 * 60_000)] });
  const o = await controlPlaneUpgraded.run(ctx, signal);
  assert.equal(o.status, 'pending');
  assert.equal(am.silences[0]?.endsAt, now + 90 * 60_000);
  assert.deepEqual(
    events.map(({ reason, message }) => `${reason}: ${message}`),
    [
      'MaintenanceWindowExtended: silence cp-1: Silence for OSD control plane upgrade to version 4.15.38, now until 2026-03-02T03:50:00Z',
    ],
  );
  // Wakes at the control-plane deadline (01:00 + 90 min, + 1 ms), earlier than the next renewal (45 min before the new end).
  assert.deepEqual(o.status === 'pending' ? o.waitFor : undefined, {
    kinds: ['ClusterVersion'],
    until: T0 + 90 * 60_000 + 1,
  });
  // A silence not yet due: the renewal is the earlier wake-up.
  const soon = await controlPlaneUpgraded.run(
    context(running, { now: T0 + 10 * 60_000, silences: [cpSilence(T0 + 70 * 60_000)] }).ctx,
    signal,
  );
  assert.deepEqual(soon.status === 'pending' ? soon.waitFor : undefined, {
    kinds: ['ClusterVersion'],
    until: T0 + 25 * 60_000,
  });

  // Past the control-plane deadline the wait still wakes for the renewal.
  const late = T0 + 100 * 60_000;
  const { ctx: lateCtx, am: lateAm } = context(running, { now: late, silences: [cpSilence(late + 60 * 60_000)] });
  const after = await controlPlaneUpgraded.run(lateCtx, signal);
  assert.equal(after.status === 'pending' ? after.reason : '', 'ControlPlaneTimeout');
  assert.deepEqual(after.status === 'pending' ? after.waitFor : undefined, {
    kinds: ['ClusterVersion'],
    until: late + 15 * 60_000,
  });
  assert.equal(lateAm.silences[0]?.endsAt, late + 60 * 60_000, 'not due yet: unchanged');
});

void test('ControlPlaneUpgraded: an unreachable Alertmanager does not fail the wait; it is named and retried in 30 s', async () => {
  const running = cv(
    3,
    3,
    [h('4.15.38', 'Partial', null)],
    '4.15.38',
    'Working towards 4.15.38: 610 of 883 done (69% complete)',
  );
  const now = T0 + 30 * 60_000;
  const down = context(running, { now });
  down.am.failWith(unreachable('alertmanager'));
  const o = await controlPlaneUpgraded.run(down.ctx, signal);
  assert.equal(o.status, 'pending');
  assert.match(
    o.status === 'pending' ? (o.why ?? '') : '',
    /^waiting for the control plane to complete 4\.15\.38; the control-plane maintenance silence could not be extended \(Alertmanager unavailable: .*ECONNREFUSED/,
  );
  assert.deepEqual(o.status === 'pending' ? o.waitFor : undefined, { kinds: ['ClusterVersion'], until: now + 30_000 });
});

/** The CVO upgrading to 4.15.38 since `startedTime`. */
function upgradingSince(startedTime: string): ClusterVersion {
  const running = cv(3, 3, [h('4.15.38', 'Partial', null)], '4.15.38', 'Working towards 4.15.38: 610 of 883 done');
  running.status!.history![0]!.startedTime = startedTime;
  return running;
}

async function controlPlaneTimeout(fake: FakeStepContext): Promise<number | undefined> {
  return fake.value('upgradeoperator_controlplane_timeout', { upgradeconfig_name: CONFIG_NAME, version: DESIRED });
}

void test('ControlPlaneUpgraded: done clears controlplane_timeout and stamps the control plane’s end and the workers’ start', async () => {
  const completed = cv(
    3,
    3,
    [h('4.15.38', 'Completed', '2026-03-02T02:00:00Z'), h('4.14.30', 'Completed', 'x')],
    '4.15.38',
    'Cluster version is 4.15.38',
  );
  const fake = fakeStepContext({ now: T0 + 62 * 60_000, cluster: { clusterVersion: completed } });
  fake.metrics.setControlPlaneTimeout(CONFIG_NAME, DESIRED, true);
  assert.deepEqual(await controlPlaneUpgraded.run(fake.ctx, signal), { status: 'done' });
  assert.equal(await controlPlaneTimeout(fake), 0);
  const labels = { _id: 'id', upgradeconfig_name: CONFIG_NAME, version: DESIRED };
  for (const family of [
    'upgradeoperator_controlplane_upgrade_completed_timestamp',
    'upgradeoperator_workernode_upgrade_started_timestamp',
  ])
    assert.deepEqual(await fake.series(family), [{ labels, value: (T0 + 62 * 60_000) / 1000 }], family);
  assert.deepEqual(fake.alertmanager.calls, [], 'the window is not kept once the control plane is done');
});

void test('ControlPlaneUpgraded: the control-plane time runs from when the CVO started the version, else from upgradeAt', async () => {
  const late = fakeStepContext({
    now: T0 + 100 * 60_000,
    cluster: { clusterVersion: upgradingSince('2026-03-02T01:30:00Z') },
  });
  const outcome = await controlPlaneUpgraded.run(late.ctx, signal);
  assert.deepEqual(
    outcome.status === 'pending' ? [outcome.reason, outcome.waitFor] : outcome,
    ['WaitingForControlPlane', { kinds: ['ClusterVersion'], until: T0 + 120 * 60_000 + 1 }],
    'started 30 min late: 90 min from then',
  );
  assert.equal(await controlPlaneTimeout(late), undefined, 'not timed out: the gauge is not written');

  const noHistory = cv(3, 3, [h('4.14.30', 'Completed', 'x')], '4.15.38', 'Working towards 4.15.38');
  const fromSchedule = fakeStepContext({ now: T0 + 10 * 60_000, cluster: { clusterVersion: noHistory } });
  const waiting = await controlPlaneUpgraded.run(fromSchedule.ctx, signal);
  assert.deepEqual(waiting.status === 'pending' ? waiting.waitFor : waiting, {
    kinds: ['ClusterVersion'],
    until: T0 + 90 * 60_000 + 1,
  });
});

void test('ControlPlaneUpgraded: past the control-plane time it still waits, as ControlPlaneTimeout with controlplane_timeout 1', async () => {
  const fake = fakeStepContext({ now: T0 + 91 * 60_000, cluster: { clusterVersion: upgradingSince(UPGRADE_AT) } });
  assert.deepEqual(await controlPlaneUpgraded.run(fake.ctx, signal), {
    status: 'pending',
    waitFor: { kinds: ['ClusterVersion'] },
    why: 'the control plane has not completed 4.15.38 within the maintenance window (90 min)',
    reason: 'ControlPlaneTimeout',
    attention: true,
  });
  assert.equal(await controlPlaneTimeout(fake), 1);
  assert.deepEqual(fake.notifier.calls, []);
});

void test('ControlPlaneUpgraded: once the control-plane window was removed, Alertmanager is not asked while waiting', async () => {
  const fake = fakeStepContext({
    now: T0 + 30 * 60_000,
    cluster: { clusterVersion: upgradingSince(UPGRADE_AT) },
    history: { conditions: [condition('ControlPlaneMaintenanceWindowRemoved')] },
  });
  fake.alertmanager.failWith(unreachable('alertmanager'));
  const outcome = await controlPlaneUpgraded.run(fake.ctx, signal);
  assert.deepEqual(outcome.status === 'pending' ? outcome.waitFor : outcome, {
    kinds: ['ClusterVersion'],
    until: T0 + 90 * 60_000 + 1,
  });
  assert.deepEqual(fake.alertmanager.calls, []);
});

const IMAGE_38 = 'quay.io/openshift-release-dev/ocp-release@sha256:38';
const offered38 = { version: '4.15.38', image: IMAGE_38 };
const RISK = 'AWSOldBootImages';

/** The embedded API holding the ClusterVersion `at`, which the fake's cache also holds. */
async function commenceFixture(
  t: TestContext,
  at: ClusterVersion,
  options: FakeStepContextOptions = {},
): Promise<{ fake: FakeStepContext; client: KubeClient; read: () => Promise<ClusterVersion> }> {
  const clock = new ManualClock(T0);
  const client = await startStepApi(t, clock);
  const { status, ...withoutStatus } = at;
  const created = await client.create(ClusterVersionResource, withoutStatus);
  const stored = await client.updateStatus(ClusterVersionResource, { ...created, ...(status ? { status } : {}) });
  const fake = fakeStepContext({ clock, client, cluster: { clusterVersion: stored }, ...options });
  return { fake, client, read: () => client.get(ClusterVersionResource, undefined, 'version') };
}

/** A conditional update of 4.15.38 the CVO does not recommend for this cluster. */
function notRecommended(): ConditionalUpdate {
  return {
    release: offered38,
    risks: [
      {
        name: RISK,
        message: 'Nodes on old boot images fail to join.',
        url: 'https://issues.redhat.com/browse/OCPBUGS-1',
        matchingRules: [{ type: 'Always' }],
      },
    ],
    conditions: [
      {
        type: 'Recommended',
        status: 'False',
        reason: RISK,
        message: 'Nodes on old boot images fail to join.',
        lastTransitionTime: '2026-03-01T00:00:00Z',
      },
    ],
  };
}

async function windowBreached(fake: FakeStepContext): Promise<number | undefined> {
  return fake.value('upgradeoperator_upgrade_window_breached', { upgradeconfig_name: CONFIG_NAME });
}

void test('CommenceUpgrade: once commenced, done without the API; upgrade_window_breached is 0', async () => {
  const fake = fakeStepContext({
    cluster: commencedCluster(),
  });
  fake.metrics.setUpgradeWindowBreached(CONFIG_NAME, true);
  assert.deepEqual(await commenceUpgradeStep.run(fake.ctx, signal), { status: 'done' });
  assert.equal(await windowBreached(fake), 0);
  assert.deepEqual([fake.notifier.calls, fake.events], [[], []]);
  assert.deepEqual(await fake.series('upgradeoperator_controlplane_upgrade_started_timestamp'), []);
});

void test('CommenceUpgrade: an available update is commanded as version only, with the service log, the timestamp and an Event', async (t) => {
  const { fake, read } = await commenceFixture(t, clusterVersion({ availableUpdates: [offered38] }));
  assert.deepEqual(await commenceUpgradeStep.run(fake.ctx, signal), { status: 'done' });
  const cv = await read();
  assert.deepEqual(
    [cv.spec.channel, cv.spec.desiredUpdate?.version, cv.spec.desiredUpdate?.image],
    ['stable-4.15', '4.15.38', undefined],
  );
  assert.deepEqual(fake.notifier.calls, [{ state: 'StateControlPlaneStartedSL' }]);
  assert.deepEqual(fake.events, [
    {
      type: 'Normal',
      reason: 'UpgradeCommenced',
      message: 'cluster version operator told to upgrade to the available update 4.15.38',
    },
  ]);
  assert.deepEqual(await fake.series('upgradeoperator_controlplane_upgrade_started_timestamp'), [
    { labels: { _id: CLUSTER_ID, upgradeconfig_name: CONFIG_NAME, version: DESIRED }, value: T0 / 1000 },
  ]);
  assert.equal(await windowBreached(fake), 0);

  // The cache catches up: the next pass is done without a write or a second Event.
  fake.cluster.clusterVersion = cv;
  assert.deepEqual(await commenceUpgradeStep.run(fake.ctx, signal), { status: 'done' });
  assert.equal((await read()).metadata?.resourceVersion, cv.metadata?.resourceVersion);
  assert.equal(fake.events.length, 1);
});

void test('CommenceUpgrade: a different channel is set first and named in the Event', async (t) => {
  const { fake, read } = await commenceFixture(
    t,
    clusterVersion({ channel: 'stable-4.14', availableUpdates: [offered38] }),
  );
  assert.deepEqual(await commenceUpgradeStep.run(fake.ctx, signal), { status: 'done' });
  const cv = await read();
  assert.deepEqual([cv.spec.channel, cv.spec.desiredUpdate?.version], ['stable-4.15', '4.15.38']);
  assert.deepEqual(
    fake.events.map((event) => event.message),
    ['cluster version operator told to upgrade to the available update 4.15.38 on channel stable-4.15'],
  );
});

void test('CommenceUpgrade: a version not offered waits for ClusterVersion, leaving desiredUpdate alone', async (t) => {
  const { fake, read } = await commenceFixture(
    t,
    clusterVersion({ availableUpdates: [{ version: '4.15.37', image: 'x' }] }),
  );
  assert.deepEqual(await commenceUpgradeStep.run(fake.ctx, signal), {
    status: 'pending',
    waitFor: { kinds: ['ClusterVersion'] },
    why: 'version 4.15.38 is not yet offered by the cluster version operator on channel stable-4.15 (neither an available nor a conditional update)',
    reason: 'VersionNotAvailable',
  });
  assert.equal((await read()).spec.desiredUpdate?.version, '4.14.30');
  assert.deepEqual(fake.events, []);
});

const RISK_URL = 'https://issues.redhat.com/browse/OCPBUGS-1';
/** The opt-in: a not-recommended target waits until its risks are accepted. */
const REQUIRE_ACCEPTANCE = 'conditionalUpdates:\n  requireRiskAcceptance: true\n';

/** The UpgradeConfig's UpdateRecommended condition as [status, reason, message], if any. */
function updateRecommended(fake: FakeStepContext): [string, string, string] | undefined {
  const c = fake.ctx.upgradeConfig.status?.conditions?.find((x) => x.type === 'UpdateRecommended');
  return c ? [c.status, c.reason, c.message] : undefined;
}

void test('CommenceUpgrade, by default (MUO): a conditional update not recommended is commanded with its image; a Warning Event and UpdateRecommended=False name the risk and its URL', async (t) => {
  const { fake, read } = await commenceFixture(t, clusterVersion({ conditionalUpdates: [notRecommended()] }));
  assert.deepEqual(await commenceUpgradeStep.run(fake.ctx, signal), { status: 'done' });
  const cv = await read();
  assert.deepEqual([cv.spec.desiredUpdate?.version, cv.spec.desiredUpdate?.image], ['4.15.38', IMAGE_38]);
  const said = `commenced the update to 4.15.38, which the cluster version operator does not recommend for this cluster (Recommended=False ${RISK}): ${RISK}: Nodes on old boot images fail to join. ${RISK_URL}; not accepted: ${RISK} (conditionalUpdates.requireRiskAcceptance is off)`;
  assert.deepEqual(fake.events, [
    {
      type: 'Normal',
      reason: 'UpgradeCommenced',
      message: 'cluster version operator told to upgrade to the conditional update 4.15.38',
    },
    { type: 'Warning', reason: 'UpdateNotRecommended', message: said },
  ]);
  assert.deepEqual(updateRecommended(fake), ['False', 'UpdateNotRecommended', said]);
  assert.deepEqual(
    fake.logs.map((l) => [l.level, l.msg]),
    [['warn', said]],
  );
  // A pass whose cache has not yet seen the write finds desiredUpdate set: the judgement stands.
  assert.deepEqual(await commenceUpgradeStep.run(fake.ctx, signal), { status: 'done' });
  assert.deepEqual(updateRecommended(fake), ['False', 'UpdateNotRecommended', said]);
});

void test('CommenceUpgrade, by default: risks the CVO could not evaluate are named with UpdateRecommended=Unknown', async (t) => {
  const unknown = notRecommended();
  unknown.conditions = [{ ...unknown.conditions![0]!, status: 'Unknown', reason: 'EvaluationFailed' }];
  const { fake, read } = await commenceFixture(t, clusterVersion({ conditionalUpdates: [unknown] }));
  assert.deepEqual(await commenceUpgradeStep.run(fake.ctx, signal), { status: 'done' });
  assert.equal((await read()).spec.desiredUpdate?.image, IMAGE_38);
  const [status, reason, message] = updateRecommended(fake) ?? [];
  assert.deepEqual([status, reason], ['Unknown', 'UpdateRiskUnknown']);
  assert.match(
    message ?? '',
    /could not evaluate \(Recommended=Unknown EvaluationFailed\): AWSOldBootImages: .* https:\/\/issues\.redhat\.com\/browse\/OCPBUGS-1;/,
  );
  assert.deepEqual(
    fake.events.map((e) => `${e.type} ${e.reason}`),
    ['Normal UpgradeCommenced', 'Warning UpdateRiskUnknown'],
  );
});

void test('CommenceUpgrade, by default: risks the UpgradeConfig accepts are named in the condition, with no Warning', async (t) => {
  const { fake } = await commenceFixture(t, clusterVersion({ conditionalUpdates: [notRecommended()] }), {
    annotations: { 'upgrade-operator.io/accept-risks': RISK },
  });
  assert.deepEqual(await commenceUpgradeStep.run(fake.ctx, signal), { status: 'done' });
  assert.deepEqual(fake.events, [
    {
      type: 'Normal',
      reason: 'UpgradeCommenced',
      message: `cluster version operator told to upgrade to the conditional update 4.15.38 (risks accepted by the UpgradeConfig: ${RISK})`,
    },
  ]);
  assert.deepEqual(updateRecommended(fake), [
    'False',
    'UpdateNotRecommended',
    `commenced the update to 4.15.38, which the cluster version operator does not recommend for this cluster (Recommended=False ${RISK}): ${RISK}: Nodes on old boot images fail to join. ${RISK_URL}; risks accepted by the UpgradeConfig: ${RISK}`,
  ]);
});

void test('CommenceUpgrade: a known-good target clears an UpdateRecommended condition left from an earlier judgement', async (t) => {
  const { fake } = await commenceFixture(t, clusterVersion({ availableUpdates: [offered38] }));
  fake.ctx.upgradeConfig.status = {
    conditions: [
      {
        type: 'UpdateRecommended',
        status: 'False',
        reason: 'UpdateNotRecommended',
        message: 'old',
        lastTransitionTime: '2026-03-01T00:00:00Z',
      },
    ],
  };
  assert.deepEqual(await commenceUpgradeStep.run(fake.ctx, signal), { status: 'done' });
  assert.equal(updateRecommended(fake), undefined);
});

void test('CommenceUpgrade, requiring acceptance: a conditional update not recommended waits for its risks to be accepted, naming them', async (t) => {
  const { fake, read } = await commenceFixture(t, clusterVersion({ conditionalUpdates: [notRecommended()] }), {
    operatorConfig: REQUIRE_ACCEPTANCE,
  });
  const why = `the cluster version operator does not recommend the update to 4.15.38 for this cluster (Recommended=False ${RISK}): ${RISK}: Nodes on old boot images fail to join. ${RISK_URL}; not commencing unless the UpgradeConfig accepts this risk (annotation upgrade-operator.io/accept-risks: "${RISK}")`;
  assert.deepEqual(await commenceUpgradeStep.run(fake.ctx, signal), {
    status: 'pending',
    waitFor: { kinds: ['ClusterVersion'] },
    why,
    reason: 'UpdateNotRecommended',
    attention: true,
  });
  assert.equal((await read()).spec.desiredUpdate?.version, '4.14.30');
  assert.deepEqual(fake.events, []);
  assert.deepEqual(updateRecommended(fake), ['False', 'UpdateNotRecommended', why]);
});

void test('CommenceUpgrade, requiring acceptance: with its risk accepted, the conditional update is commanded with its image and the risk named', async (t) => {
  const { fake, read } = await commenceFixture(t, clusterVersion({ conditionalUpdates: [notRecommended()] }), {
    annotations: { 'upgrade-operator.io/accept-risks': ` ${RISK} ` },
    operatorConfig: REQUIRE_ACCEPTANCE,
  });
  assert.deepEqual(await commenceUpgradeStep.run(fake.ctx, signal), { status: 'done' });
  const cv = await read();
  assert.deepEqual([cv.spec.desiredUpdate?.version, cv.spec.desiredUpdate?.image], ['4.15.38', IMAGE_38]);
  assert.deepEqual(
    fake.events.map((event) => event.message),
    [
      `cluster version operator told to upgrade to the conditional update 4.15.38 (risks accepted by the UpgradeConfig: ${RISK})`,
    ],
  );
  assert.equal(updateRecommended(fake)?.[0], 'False');
});

void test('CommenceUpgrade: image mode commands the image, whether the CVO lists it or not', async (t) => {
  const image = 'quay.io/openshift-release-dev/ocp-release@sha256:hand-picked';
  const { fake, read } = await commenceFixture(t, clusterVersion(), { spec: { desired: { image } } });
  assert.deepEqual(await commenceUpgradeStep.run(fake.ctx, signal), { status: 'done' });
  const cv = await read();
  assert.deepEqual([cv.spec.desiredUpdate?.image, cv.spec.desiredUpdate?.version], [image, undefined]);
  assert.deepEqual(
    fake.events.map((event) => event.message),
    [`cluster version operator told to upgrade to the release image ${image}`],
  );
});
