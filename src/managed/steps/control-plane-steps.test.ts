import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClusterVersion, UpdateHistory } from '../../api/openshift/config-v1/cluster-version.js';
import type { GettableSilence } from '../../integrations/alertmanager-api.js';
import { controlPlaneComment, defaultSilenceMatchers } from '../maintenance/maintenance-window.js';
import type { StepContext } from './step-context.js';
import {
  T0,
  fakeStepContext,
  unreachable,
  type FakeAlertmanager,
  type RecordedEvent,
} from './step-context.test-support.js';
import { controlPlaneUpgraded } from './control-plane-steps.js';

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
