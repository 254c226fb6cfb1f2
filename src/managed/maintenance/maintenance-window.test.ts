import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { AlertmanagerApi, GettableSilence } from '../../integrations/alertmanager-api.js';
import { AlertmanagerClient } from '../../integrations/alertmanager-client.js';
import { IntegrationError } from '../../integrations/integration-error.js';
import { ManualClock } from '../../lib/clock.js';
import { SeededRandom } from '../../lib/random.js';
import { SimAlertmanager } from '../../sim/monitoring/alertmanager/alertmanager-server.js';
import {
  controlPlaneComment,
  controlPlaneCriticalsComment,
  controlPlaneSilences,
  criticalAlertsMatcher,
  defaultSilenceMatchers,
  endWindows,
  ensureControlPlaneWindow,
  ensureWorkerWindow,
  isAnyWindowActive,
  isWorkerCommentOf,
  keepControlPlaneWindowOpen,
  planControlPlaneRenewal,
  silencesToEnd,
  workerComment,
  workerSilence,
  workerWindowMs,
} from './maintenance-window.js';

const MINUTE = 60_000;
const V = '4.15.3';

/** The simulated Alertmanager served on loopback, and the operator's HTTP client to it. */
async function setup(t: TestContext): Promise<{ clock: ManualClock; am: SimAlertmanager; api: AlertmanagerClient }> {
  const clock = new ManualClock('2026-03-20T08:00:00Z');
  const am = new SimAlertmanager({ clock, random: new SeededRandom(7) });
  const server = await am.listen({ port: 0 });
  const api = new AlertmanagerClient({ url: server.url, timeoutMs: 10_000 });
  t.after(async () => {
    await api.close();
    await server.close();
  });
  return { clock, am, api };
}

async function live(api: AlertmanagerApi): Promise<Array<{ comment: string; state: string }>> {
  return (await api.listSilences())
    .map((s) => ({ comment: s.comment, state: s.status.state }))
    .sort((a, b) => a.comment.localeCompare(b.comment) || a.state.localeCompare(b.state));
}

void test('comments: MUO’s exact texts', () => {
  const cases: Array<[string, string]> = [
    [controlPlaneComment('4.15.3'), 'Silence for OSD control plane upgrade to version 4.15.3'],
    [
      controlPlaneCriticalsComment('4.15.3'),
      'Silence for critical alerts during OSD control plane upgrade to version 4.15.3',
    ],
    [workerComment('4.15.3', 3), 'Silence for OSD worker node upgrade to version 4.15.3 with remaining 3 nodes'],
    [
      workerComment('4.16.0-rc.1', 1),
      'Silence for OSD worker node upgrade to version 4.16.0-rc.1 with remaining 1 nodes',
    ],
  ];
  for (const [got, want] of cases) assert.equal(got, want);
});

void test('matchers: MUO’s exact names, regexes and flags', () => {
  assert.deepEqual(defaultSilenceMatchers(), [
    { name: 'severity', value: '(warning|info)', isRegex: true },
    { name: 'namespace', value: '(^openshift.*|^kube.*|^redhat.*|^default$)', isRegex: true },
  ]);
  const cases: Array<[string[], string]> = [
    [['etcdMembersDown'], '(etcdMembersDown)'],
    [['etcdMembersDown', 'KubeAPIErrorBudgetBurn'], '(etcdMembersDown|KubeAPIErrorBudgetBurn)'],
  ];
  for (const [names, value] of cases)
    assert.deepEqual(criticalAlertsMatcher(names), { name: 'alertname', value, isRegex: true });
});

void test('control-plane silences: criticals only when the list is non-empty; creator and times', () => {
  const base = { version: V, startsAt: 1000, endsAt: 2000 };
  const none = controlPlaneSilences({ ...base, criticals: [] });
  assert.deepEqual(none, [
    {
      matchers: defaultSilenceMatchers(),
      startsAt: 1000,
      endsAt: 2000,
      createdBy: 'managed-upgrade-operator',
      comment: controlPlaneComment(V),
    },
  ]);
  const two = controlPlaneSilences({ ...base, criticals: ['etcdMembersDown'] });
  assert.equal(two.length, 2);
  assert.deepEqual(two[1], {
    matchers: [criticalAlertsMatcher(['etcdMembersDown'])],
    startsAt: 1000,
    endsAt: 2000,
    createdBy: 'managed-upgrade-operator',
    comment: controlPlaneCriticalsComment(V),
  });
  assert.deepEqual(workerSilence({ version: V, pending: 2, startsAt: 5, endsAt: 9 }), {
    matchers: defaultSilenceMatchers(),
    startsAt: 5,
    endsAt: 9,
    createdBy: 'managed-upgrade-operator',
    comment: workerComment(V, 2),
  });
});

void test('worker window length: pending × max(PDB, drain timeout) + pending × expected drain time', () => {
  const cases: Array<[number, number, number, number, number]> = [
    // pending, PDB, nodeDrain.timeOut, expected, want (minutes)
    [3, 60, 45, 8, 3 * 60 + 3 * 8],
    [3, 30, 45, 8, 3 * 45 + 3 * 8],
    [1, 0, 0, 8, 8],
    [5, 0, 15, 10, 5 * 15 + 5 * 10],
  ];
  for (const [pending, pdb, drain, expected, want] of cases) {
    assert.equal(
      workerWindowMs(pending, {
        pdbForceDrainTimeoutMs: pdb * MINUTE,
        nodeDrainTimeoutMs: drain * MINUTE,
        expectedNodeDrainTimeMs: expected * MINUTE,
      }),
      want * MINUTE,
      `pending ${pending}`,
    );
  }
});

void test('worker comment recognition: same version only, with or without the count', () => {
  assert.ok(isWorkerCommentOf(workerComment('4.15.3', 2), '4.15.3'));
  assert.ok(isWorkerCommentOf('Silence for OSD worker node upgrade to version 4.15.3', '4.15.3'));
  assert.ok(!isWorkerCommentOf(workerComment('4.15.30', 2), '4.15.3'));
  assert.ok(!isWorkerCommentOf(controlPlaneComment('4.15.3'), '4.15.3'));
});

void test('silencesToEnd: only live, MUO-created silences whose comment holds the mark', () => {
  const s = (
    id: string,
    comment: string,
    state: GettableSilence['status']['state'],
    createdBy = 'managed-upgrade-operator',
  ): GettableSilence => ({
    id,
    comment,
    createdBy,
    status: { state },
    matchers: [],
    startsAt: 0,
    endsAt: 1,
    updatedAt: 0,
  });
  const all = [
    s('cp', controlPlaneComment(V), 'active'),
    s('cpc', controlPlaneCriticalsComment(V), 'pending'),
    s('w', workerComment(V, 2), 'active'),
    s('old', workerComment(V, 3), 'expired'),
    s('human', controlPlaneComment(V), 'active', 'alice'),
  ];
  assert.deepEqual(
    silencesToEnd(all, 'control-plane').map((x) => x.id),
    ['cp', 'cpc'],
  );
  assert.deepEqual(
    silencesToEnd(all, 'worker').map((x) => x.id),
    ['w'],
  );
  assert.deepEqual(
    silencesToEnd(all, 'all').map((x) => x.id),
    ['cp', 'cpc', 'w'],
  );
});

void test('control-plane window against the simulated Alertmanager: created once, kept, ended, not re-created', async (t) => {
  const { clock, api } = await setup(t);
  const now = clock.now();
  const endsAt = now + 90 * MINUTE;
  const first = await ensureControlPlaneWindow(api, { version: V, endsAt, criticals: ['etcdMembersDown'], now });
  assert.deepEqual(
    first.map((c) => [c.action, c.comment]),
    [
      ['created', controlPlaneComment(V)],
      ['created', controlPlaneCriticalsComment(V)],
    ],
  );
  const stored = await api.listSilences();
  assert.equal(stored.length, 2);
  const cp = stored.find((s) => s.comment === controlPlaneComment(V))!;
  assert.deepEqual(
    [cp.createdBy, cp.startsAt, cp.endsAt, cp.status.state],
    ['managed-upgrade-operator', now, endsAt, 'active'],
  );
  assert.deepEqual(cp.matchers, [
    { name: 'severity', value: '(warning|info)', isRegex: true, isEqual: true },
    { name: 'namespace', value: '(^openshift.*|^kube.*|^redhat.*|^default$)', isRegex: true, isEqual: true },
  ]);
  const crit = stored.find((s) => s.comment === controlPlaneCriticalsComment(V))!;
  assert.deepEqual(crit.matchers, [{ name: 'alertname', value: '(etcdMembersDown)', isRegex: true, isEqual: true }]);
  assert.ok(await isAnyWindowActive(api));

  // Second call (the step runs on every reconcile): nothing new.
  await clock.advance(5 * MINUTE);
  const second = await ensureControlPlaneWindow(api, {
    version: V,
    endsAt: clock.now() + 90 * MINUTE,
    criticals: ['etcdMembersDown'],
    now: clock.now(),
  });
  assert.deepEqual(
    second.map((c) => [c.action, c.id]),
    first.map((c) => ['kept', c.id]),
  );
  assert.equal((await api.listSilences()).length, 2);

  // Ending the control-plane window expires both, leaves nothing active.
  const ended = await endWindows(api, 'control-plane');
  assert.deepEqual(ended.map((c) => c.action).sort(), ['expired', 'expired']);
  assert.deepEqual(await live(api), [
    { comment: controlPlaneCriticalsComment(V), state: 'expired' },
    { comment: controlPlaneComment(V), state: 'expired' },
  ]);
  assert.equal(await isAnyWindowActive(api), false);
  // Ending again is a no-op.
  assert.deepEqual(await endWindows(api, 'control-plane'), []);

  // Run again after removal: MUO's rule — a silence with the exact comment exists (expired) ⇒ not re-created.
  const again = await ensureControlPlaneWindow(api, {
    version: V,
    endsAt: clock.now() + 90 * MINUTE,
    criticals: ['etcdMembersDown'],
    now: clock.now(),
  });
  assert.deepEqual(
    again.map((c) => c.action),
    ['alreadyEnded', 'alreadyEnded'],
  );
  assert.equal(await isAnyWindowActive(api), false);

  // A new version gets its own window; no criticals ⇒ only the default silence.
  const next = await ensureControlPlaneWindow(api, {
    version: '4.15.4',
    endsAt: clock.now() + 90 * MINUTE,
    criticals: [],
    now: clock.now(),
  });
  assert.deepEqual(
    next.map((c) => [c.action, c.comment]),
    [['created', controlPlaneComment('4.15.4')]],
  );
});

void test('worker window: created, kept while N is unchanged, replaced when N changes, ended by endWindows', async (t) => {
  const { clock, api } = await setup(t);
  const window = (pending: number): number =>
    clock.now() +
    workerWindowMs(pending, {
      pdbForceDrainTimeoutMs: 60 * MINUTE,
      nodeDrainTimeoutMs: 45 * MINUTE,
      expectedNodeDrainTimeMs: 8 * MINUTE,
    });
  // A control-plane window and a person's silence are around too.
  await ensureControlPlaneWindow(api, {
    version: V,
    endsAt: clock.now() + 90 * MINUTE,
    criticals: [],
    now: clock.now(),
  });
  const human = await api.createSilence({
    matchers: [{ name: 'alertname', value: 'Watchdog', isRegex: false }],
    startsAt: clock.now(),
    endsAt: clock.now() + 600 * MINUTE,
    createdBy: 'alice',
    comment: 'Silence for OSD worker node upgrade to version 4.15.3 with remaining 3 nodes',
  });
  await endWindows(api, 'control-plane');

  const first = await ensureWorkerWindow(api, { version: V, pending: 3, endsAt: window(3), now: clock.now() });
  // The person's silence with that very comment counts as present (MUO compares comments only).
  assert.deepEqual([first.action, first.id], ['kept', human]);
  await api.expireSilence(human);

  const created = await ensureWorkerWindow(api, { version: V, pending: 3, endsAt: window(3), now: clock.now() });
  assert.equal(created.action, 'created');
  assert.equal(created.comment, 'Silence for OSD worker node upgrade to version 4.15.3 with remaining 3 nodes');
  const w3 = (await api.listSilences()).find((s) => s.id === created.id)!;
  assert.equal(w3.endsAt - w3.startsAt, 3 * 60 * MINUTE + 3 * 8 * MINUTE);
  assert.equal(w3.createdBy, 'managed-upgrade-operator');

  await clock.advance(MINUTE);
  const kept = await ensureWorkerWindow(api, { version: V, pending: 3, endsAt: window(3), now: clock.now() });
  assert.deepEqual([kept.action, kept.id], ['kept', created.id]);

  await clock.advance(30 * MINUTE);
  const replaced = await ensureWorkerWindow(api, { version: V, pending: 2, endsAt: window(2), now: clock.now() });
  assert.equal(replaced.action, 'replaced');
  assert.deepEqual(replaced.previous, [created.id]);
  assert.equal(replaced.comment, workerComment(V, 2));
  const byId = new Map((await api.listSilences()).map((s) => [s.id, s]));
  assert.equal(byId.get(created.id)?.status.state, 'expired');
  assert.equal(byId.get(replaced.id)?.status.state, 'active');
  assert.equal(byId.get(replaced.id)?.startsAt, clock.now());

  // N goes back to 3 (a node was added): the expired "3 nodes" silences no longer block a new one.
  const back = await ensureWorkerWindow(api, { version: V, pending: 3, endsAt: window(3), now: clock.now() });
  assert.equal(back.action, 'replaced');
  assert.deepEqual(back.previous, [replaced.id]);
  const active = (await api.listSilences()).filter((s) => s.status.state === 'active');
  assert.deepEqual(
    active.map((s) => s.id),
    [back.id],
  );

  // Ending the control-plane window leaves the worker window alone; ending the worker window ends it.
  assert.deepEqual(await endWindows(api, 'control-plane'), []);
  assert.ok(await isAnyWindowActive(api));
  const ended = await endWindows(api, 'worker');
  assert.deepEqual(ended, [{ action: 'expired', id: back.id, comment: workerComment(V, 3) }]);
  assert.equal(await isAnyWindowActive(api), false);
});

void test('endWindows("all") on failure ends both windows; an unavailable Alertmanager is an IntegrationError, bad input a RangeError', async (t) => {
  const { clock, am, api } = await setup(t);
  await ensureControlPlaneWindow(api, {
    version: V,
    endsAt: clock.now() + 90 * MINUTE,
    criticals: ['etcdMembersDown'],
    now: clock.now(),
  });
  await ensureWorkerWindow(api, { version: V, pending: 1, endsAt: clock.now() + 60 * MINUTE, now: clock.now() });
  assert.equal((await endWindows(api, 'all')).length, 3);
  assert.equal(await isAnyWindowActive(api), false);

  await ensureWorkerWindow(api, { version: '4.15.4', pending: 1, endsAt: clock.now() + 60 * MINUTE, now: clock.now() });
  am.setFault({ kind: 'error', status: 503 });
  await assert.rejects(endWindows(api, 'all'), (err: unknown) => err instanceof IntegrationError && err.status === 503);
  await assert.rejects(ensureWorkerWindow(api, { version: V, pending: 0, endsAt: 0, now: 0 }), RangeError);
  am.setFault({ kind: 'none' });
  assert.ok(await isAnyWindowActive(api));
});

void test('a failing expiry does not stop the others', async (t) => {
  const { clock, api } = await setup(t);
  await ensureControlPlaneWindow(api, {
    version: V,
    endsAt: clock.now() + 90 * MINUTE,
    criticals: ['etcdMembersDown'],
    now: clock.now(),
  });
  const ids = (await api.listSilences()).map((s) => s.id);
  const flaky: AlertmanagerApi = {
    listSilences: () => api.listSilences(),
    createSilence: (s) => api.createSilence(s),
    expireSilence: (id) =>
      id === ids[0] ? Promise.reject(new IntegrationError('alertmanager', 'Timeout', 'slow')) : api.expireSilence(id),
  };
  await assert.rejects(
    endWindows(flaky, 'control-plane'),
    (err: unknown) => err instanceof IntegrationError && err.reason === 'Timeout',
  );
  const states = new Map((await api.listSilences()).map((s) => [s.id, s.status.state]));
  assert.equal(states.get(ids[0]!), 'active');
  assert.equal(states.get(ids[1]!), 'expired');
  // A retry ends the remaining one.
  assert.equal((await endWindows(api, 'control-plane')).length, 1);
});

void test('planControlPlaneRenewal: renews the live control-plane silences of the version once half the window is left', () => {
  const s = (
    id: string,
    comment: string,
    state: GettableSilence['status']['state'],
    endsAt: number,
    createdBy = 'managed-upgrade-operator',
  ): GettableSilence => ({
    id,
    comment,
    createdBy,
    status: { state },
    matchers: [],
    startsAt: 0,
    endsAt,
    updatedAt: 0,
  });
  const window = 90 * MINUTE;
  const now = 100 * MINUTE;
  const all = [
    s('cp', controlPlaneComment(V), 'active', now + 40 * MINUTE),
    s('cpc', controlPlaneCriticalsComment(V), 'active', now + 80 * MINUTE),
    s('other-version', controlPlaneComment('4.15.4'), 'active', now + MINUTE),
    s('ended', controlPlaneComment(V), 'expired', now - MINUTE),
    s('worker', workerComment(V, 2), 'active', now + MINUTE),
    s('human', controlPlaneComment(V), 'active', now + MINUTE, 'alice'),
  ];
  const plan = planControlPlaneRenewal(all, { version: V, now, windowMs: window });
  assert.deepEqual(
    plan.renew.map((x) => x.id),
    ['cp'],
  );
  // Next: the criticals silence, 45 minutes before its end (the renewed one is due later).
  assert.equal(plan.nextAt, now + 80 * MINUTE - 45 * MINUTE);
  // Exactly at half the window it is due; with more left, nothing is.
  assert.deepEqual(
    planControlPlaneRenewal([s('cp', controlPlaneComment(V), 'active', now + 45 * MINUTE)], {
      version: V,
      now,
      windowMs: window,
    }).renew.length,
    1,
  );
  const fresh = planControlPlaneRenewal([s('cp', controlPlaneComment(V), 'active', now + 46 * MINUTE)], {
    version: V,
    now,
    windowMs: window,
  });
  assert.deepEqual([fresh.renew.length, fresh.nextAt], [0, now + MINUTE]);
  // Nothing live (never created, or ended by a person or step 10): nothing renewed, nothing to wake for.
  assert.deepEqual(planControlPlaneRenewal([all[3]!], { version: V, now, windowMs: window }), {
    renew: [],
    nextAt: undefined,
  });
});

void test('keepControlPlaneWindowOpen against the simulated Alertmanager: extended in place until the control plane is done, never duplicated, not revived', async (t) => {
  const { clock, api } = await setup(t);
  const window = 90 * MINUTE;
  const created = await ensureControlPlaneWindow(api, {
    version: V,
    endsAt: clock.now() + window,
    criticals: ['etcdMembersDown'],
    now: clock.now(),
  });
  const start = clock.now();
  // Early on: nothing to do, look again when half the window is left.
  const early = await keepControlPlaneWindowOpen(api, { version: V, now: clock.now(), windowMs: window });
  assert.deepEqual(early, { changes: [], nextAt: start + 45 * MINUTE });
  await clock.advance(50 * MINUTE);
  const kept = await keepControlPlaneWindowOpen(api, { version: V, now: clock.now(), windowMs: window });
  assert.deepEqual(
    kept.changes.map((c) => [c.action, c.id, c.endsAt]),
    created.map((c) => ['extended', c.id, clock.now() + window]),
  );
  assert.equal(kept.nextAt, clock.now() + 45 * MINUTE);
  // A second call right after (another reconcile, or a restarted operator): nothing changes.
  assert.deepEqual(
    (await keepControlPlaneWindowOpen(api, { version: V, now: clock.now(), windowMs: window })).changes,
    [],
  );
  const stored = await api.listSilences();
  assert.equal(stored.length, 2, 'updated in place: the same two silences');
  for (const x of stored)
    assert.deepEqual([x.status.state, x.startsAt, x.endsAt], ['active', start, clock.now() + window]);
  // The window stays in force past the original end (start + 90 min) while it is kept.
  await clock.advance(60 * MINUTE);
  assert.ok((await api.listSilences()).every((x) => x.status.state === 'active'));
  // Step 10 ends it; keeping it open afterwards does not bring it back.
  await endWindows(api, 'control-plane');
  assert.deepEqual(await keepControlPlaneWindowOpen(api, { version: V, now: clock.now(), windowMs: window }), {
    changes: [],
    nextAt: undefined,
  });
  assert.equal(await isAnyWindowActive(api), false);
});
