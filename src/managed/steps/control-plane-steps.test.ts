import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClusterVersion, UpdateHistory } from '../../api/openshift/config-v1/cluster-version.js';
import { ManualClock } from '../../lib/clock.js';
import type { AlertmanagerApi, GettableSilence } from '../../integrations/alertmanager-api.js';
import { IntegrationError } from '../../integrations/integration-error.js';
import { silentLogger } from '../../lib/log.js';
import { controlPlaneComment, defaultSilenceMatchers } from '../maintenance/maintenance-window.js';
import type { StepContext } from './step-context.js';
import { controlPlaneUpgraded } from './control-plane-steps.js';

const T0 = Date.UTC(2026, 2, 2, 1);

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

/** The step's context, with only what ControlPlaneUpgraded reads; it records what it did. */
function context(
  clusterVersion: ClusterVersion,
  options: { now?: number; alertmanager?: AlertmanagerApi } = {},
): { ctx: StepContext; notified: string[]; events: string[] } {
  const notified: string[] = [];
  const events: string[] = [];
  const ctx = {
    upgradeConfig: {
      metadata: { name: 'managed-upgrade-config' },
      spec: {
        type: 'OSD',
        upgradeAt: '2026-03-02T01:00:00Z',
        PDBForceDrainTimeout: 60,
        desired: { version: '4.15.38', channel: 'stable-4.15' },
      },
    },
    history: { version: '4.15.38', phase: 'Upgrading', conditions: [] },
    config: { maintenance: { controlPlaneTimeMs: 90 * 60_000 } },
    clock: new ManualClock(options.now ?? T0 + 30 * 60_000),
    cluster: { clusterVersion: () => clusterVersion },
    alertmanager: options.alertmanager ?? silencesOf([]),
    log: silentLogger(),
    metrics: { setControlPlaneTimeout: () => undefined, setTimestamp: () => undefined },
    event: (_type: string, reason: string, message: string) => void events.push(`${reason}: ${message}`),
    notify: (state: string) => {
      notified.push(state);
      return Promise.resolve();
    },
  };
  return { ctx: ctx as unknown as StepContext, notified, events };
}

/** An Alertmanager holding `silences`; a POST with an ID updates that silence in place. */
function silencesOf(silences: GettableSilence[]): AlertmanagerApi & { silences: GettableSilence[] } {
  return {
    silences,
    listSilences: () => Promise.resolve(silences.map((s) => ({ ...s }))),
    createSilence: (p) => {
      const s = silences.find((x) => x.id === p.id);
      if (!s) return Promise.reject(new Error('only updates are expected'));
      Object.assign(s, { endsAt: p.endsAt, updatedAt: T0 });
      return Promise.resolve(s.id);
    },
    expireSilence: () => Promise.reject(new Error('not expected')),
  };
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
  const am = silencesOf([cpSilence(now + 30 * 60_000)]);
  const { ctx, events } = context(running, { now, alertmanager: am });
  const o = await controlPlaneUpgraded.run(ctx, signal);
  assert.equal(o.status, 'pending');
  assert.equal(am.silences[0]?.endsAt, now + 90 * 60_000);
  assert.deepEqual(events, [
    'MaintenanceWindowExtended: silence cp-1: Silence for OSD control plane upgrade to version 4.15.38, now until 2026-03-02T03:50:00Z',
  ]);
  // Wakes at the control-plane deadline (01:00 + 90 min, + 1 ms), earlier than the next renewal (45 min before the new end).
  assert.deepEqual(o.status === 'pending' ? o.waitFor : undefined, {
    kinds: ['ClusterVersion'],
    until: T0 + 90 * 60_000 + 1,
  });
  // A silence not yet due: the renewal is the earlier wake-up.
  const soon = await controlPlaneUpgraded.run(
    context(running, { now: T0 + 10 * 60_000, alertmanager: silencesOf([cpSilence(T0 + 70 * 60_000)]) }).ctx,
    signal,
  );
  assert.deepEqual(soon.status === 'pending' ? soon.waitFor : undefined, {
    kinds: ['ClusterVersion'],
    until: T0 + 25 * 60_000,
  });

  // Past the control-plane deadline the wait still wakes for the renewal.
  const late = T0 + 100 * 60_000;
  const lateAm = silencesOf([cpSilence(late + 60 * 60_000)]);
  const after = await controlPlaneUpgraded.run(context(running, { now: late, alertmanager: lateAm }).ctx, signal);
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
  const down: AlertmanagerApi = {
    listSilences: () =>
      Promise.reject(new IntegrationError('alertmanager', 'Unreachable', 'connect ECONNREFUSED 127.0.0.1:9093')),
    createSilence: () => Promise.reject(new Error('not expected')),
    expireSilence: () => Promise.reject(new Error('not expected')),
  };
  const now = T0 + 30 * 60_000;
  const o = await controlPlaneUpgraded.run(context(running, { now, alertmanager: down }).ctx, signal);
  assert.equal(o.status, 'pending');
  assert.match(
    o.status === 'pending' ? (o.why ?? '') : '',
    /^waiting for the control plane to complete 4\.15\.38; the control-plane maintenance silence could not be extended \(Alertmanager unavailable: .*ECONNREFUSED/,
  );
  assert.deepEqual(o.status === 'pending' ? o.waitFor : undefined, { kinds: ['ClusterVersion'], until: now + 30_000 });
});
