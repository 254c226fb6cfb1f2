import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../lib/clock.js';
import { instantQuery } from './promql/engine.js';
import { RuleEvaluator, rfc3339Nano } from './rules.js';
import type { AlertSink, PostableAlert, RuleGroup } from './rules.js';
import { ScrapeWriter, Tsdb } from './tsdb.js';

const T0 = Date.UTC(2024, 2, 20, 8, 0, 0);
const MIN = 60_000;

interface Harness {
  clock: ManualClock;
  db: Tsdb;
  rules: RuleEvaluator;
  pushed: PostableAlert[][];
  /** value of `m{node="n1"}`, undefined: absent */
  set(v: number | undefined): void;
}

function harness(groups: RuleGroup[]): Harness {
  const clock = new ManualClock(T0);
  const db = new Tsdb();
  const writer = new ScrapeWriter(db);
  let value: number | undefined;
  const pushed: PostableAlert[][] = [];
  const sink: AlertSink = { push: (alerts) => pushed.push(alerts) };
  const rules = new RuleEvaluator({
    tsdb: db,
    clock,
    groups,
    sink,
    externalLabels: { prometheus: 'openshift-monitoring/k8s' },
    beforeEvaluation: (t) =>
      writer.write(value === undefined ? [] : [{ labels: { __name__: 'm', node: 'n1', namespace: 'ns' }, value }], t),
  });
  rules.start();
  return { clock, db, rules, pushed, set: (v) => (value = v) };
}

const group = (forDuration: string | undefined): RuleGroup => ({
  name: 'g',
  file: '/rules.yaml',
  rules: [
    {
      name: 'MHigh',
      expr: 'm > 0',
      ...(forDuration !== undefined ? { for: forDuration } : {}),
      labels: { severity: 'warning' },
      annotations: { description: '{{ $labels.node }} is at {{ $value }}', summary: 'static' },
    },
  ],
});

test('inactive → pending → firing honouring for; every firing alert spent `for` in pending (§8.7)', async () => {
  const h = harness([group('10m')]);
  h.set(0);
  const timeline: Array<{ t: number; pending: number; firing: number }> = [];
  const observe = (): void => {
    const t = h.clock.now();
    const count = (state: string): number => {
      const v = instantQuery(h.db, `ALERTS{alertname="MHigh",alertstate="${state}"}`, t);
      return v.type === 'vector' ? v.samples.length : -1;
    };
    timeline.push({ t, pending: count('pending'), firing: count('firing') });
  };
  await h.clock.advance(0);
  observe();
  await h.clock.advance(2 * MIN);
  h.set(3);
  for (let i = 0; i < 30; i++) {
    await h.clock.advance(30_000);
    observe();
  }
  const firstPending = timeline.find((s) => s.pending === 1);
  const firstFiring = timeline.find((s) => s.firing === 1);
  assert.ok(firstPending && firstFiring);
  assert.ok(firstFiring.t - firstPending.t >= 10 * MIN, 'pending for at least the `for` duration');
  assert.equal(firstFiring.t - firstPending.t, 10 * MIN);
  // Never both states at once; the pending series goes stale when the alert fires.
  for (const s of timeline) assert.ok(s.pending + s.firing <= 1);
  const [alert] = h.rules.activeAlerts();
  assert.equal(alert?.state, 'firing');
  assert.equal(alert?.activeAt, firstPending.t);
  assert.deepEqual(alert?.annotations, { description: 'n1 is at 3', summary: 'static' });
  assert.deepEqual(alert?.labels, { alertname: 'MHigh', node: 'n1', namespace: 'ns', severity: 'warning' });
  const forState = instantQuery(h.db, 'ALERTS_FOR_STATE', h.clock.now());
  assert.deepEqual(forState.type === 'vector' ? forState.samples.map((s) => s.v) : [], [firstPending.t / 1000]);
  // Firing alerts were pushed with external labels, startsAt = the firing time.
  const last = h.pushed.at(-1)?.[0];
  assert.equal(last?.labels['prometheus'], 'openshift-monitoring/k8s');
  assert.equal(last?.startsAt, rfc3339Nano(firstFiring.t));
  assert.ok(last?.generatorURL?.includes('g0.expr=m%20%3E%200'));
  h.rules.stop();
});

test('a pending alert that goes away is dropped without ever firing', async () => {
  const h = harness([group('10m')]);
  h.set(1);
  await h.clock.advance(5 * MIN);
  assert.equal(h.rules.activeAlerts()[0]?.state, 'pending');
  h.set(0);
  await h.clock.advance(MIN);
  assert.deepEqual(h.rules.activeAlerts(), []);
  assert.equal(h.pushed.length, 0);
  h.rules.stop();
});

test('a rule without for fires at the first evaluation; resolution is pushed with endsAt', async () => {
  const h = harness([group(undefined)]);
  h.set(1);
  await h.clock.advance(0);
  assert.equal(h.rules.activeAlerts()[0]?.state, 'firing');
  const pending = instantQuery(h.db, 'ALERTS{alertstate="pending"}', h.clock.now());
  assert.equal(pending.type === 'vector' ? pending.samples.length : -1, 0);
  await h.clock.advance(MIN);
  h.set(undefined);
  await h.clock.advance(30_000);
  assert.deepEqual(h.rules.activeAlerts(), []);
  const resolved = h.pushed.at(-1)?.[0];
  assert.equal(resolved?.endsAt, rfc3339Nano(h.clock.now()));
  const status = h.rules.status()[0];
  assert.equal(status?.state, 'inactive');
  assert.equal(status?.health, 'ok');
  h.rules.stop();
});

test('a rule whose evaluation fails reports health err', async () => {
  const h = harness([
    { name: 'g', file: 'f', rules: [{ name: 'Bad', expr: 'label_replace(m, "1bad", "", "node", ".*")' }] },
  ]);
  h.set(1);
  await h.clock.advance(0);
  const status = h.rules.status()[0];
  assert.equal(status?.health, 'err');
  assert.match(status?.lastError ?? '', /invalid destination label name/);
  h.rules.stop();
});

test('rfc3339Nano trims trailing zeros like Go', () => {
  assert.equal(rfc3339Nano(T0), '2024-03-20T08:00:00Z');
  assert.equal(rfc3339Nano(T0 + 900), '2024-03-20T08:00:00.9Z');
  assert.equal(rfc3339Nano(T0 + 10_050), '2024-03-20T08:00:10.05Z');
});

test('the transition log: pending, firing after `for`, resolved; a short blip is dropped; no `for` fires at once', async () => {
  const withFor = harness([group('10m')]);
  withFor.set(0);
  await withFor.clock.advance(MIN);
  withFor.set(1);
  await withFor.clock.advance(5 * MIN); // pending, then gone before 10m: dropped
  withFor.set(0);
  await withFor.clock.advance(MIN);
  withFor.set(1);
  await withFor.clock.advance(15 * MIN);
  withFor.set(0);
  await withFor.clock.advance(MIN);
  const log = withFor.rules
    .transitions()
    .map((x) => [x.state, (x.at - T0) / MIN, (x.activeAt - T0) / MIN, x.forMs / MIN, x.labels['alertname']]);
  assert.deepEqual(log, [
    ['pending', 1.5, 1.5, 10, 'MHigh'], // the evaluation at 1m still saw 0
    ['dropped', 6.5, 1.5, 10, 'MHigh'],
    ['pending', 7.5, 7.5, 10, 'MHigh'],
    ['firing', 17.5, 7.5, 10, 'MHigh'],
    ['resolved', 22.5, 7.5, 10, 'MHigh'],
  ]);

  const noFor = harness([group(undefined)]);
  noFor.set(1);
  await noFor.clock.advance(MIN);
  assert.deepEqual(
    noFor.rules.transitions().map((x) => [x.state, x.at - T0]),
    [['firing', 0]],
  );
});
