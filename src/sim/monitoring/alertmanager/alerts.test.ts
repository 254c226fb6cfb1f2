import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../../lib/clock.js';
import { SeededRandom } from '../../../lib/random.js';
import { AmError } from './am-error.js';
import { AlertStore, fingerprint, goBool } from './alerts.js';
import { compileFilterMatcher } from './matchers.js';
import { SilenceStore } from './silences.js';
import { compileAnchoredGoRegexp, type GoRegexp } from '../../../lib/go-regexp.js';

function receiverRegexp(source: string): GoRegexp {
  const compiled = compileAnchoredGoRegexp(source);
  assert.ok(compiled.ok);
  return compiled.regexp;
}

const MIN = 60_000;

function setup(options: { receivers?: (l: Readonly<Record<string, string>>) => string[]; groupBy?: string[] } = {}): {
  clock: ManualClock;
  silences: SilenceStore;
  alerts: AlertStore;
} {
  const clock = new ManualClock('2026-03-20T08:00:00Z');
  const silences = new SilenceStore({ clock, random: new SeededRandom(3) });
  const alerts = new AlertStore({ clock, silences, ...options });
  return { clock, silences, alerts };
}

const iso = (ms: number): string => new Date(ms).toISOString();

test('fingerprints are model.LabelSet.Fingerprint (values taken from a real Alertmanager)', () => {
  assert.equal(fingerprint({ alertname: 'A2', severity: 'critical' }), '2478420c49600203');
  assert.equal(fingerprint({ alertname: 'A1', namespace: 'openshift-x', severity: 'warning' }), 'c6c6e01ee2027171');
  assert.equal(fingerprint({ a: 'x', alertname: 'A4' }), '0b2b70ea0b210848');
  assert.equal(fingerprint({}), 'cbf29ce484222325');
});

test('defaults: no times → now and now + resolve timeout; only endsAt → startsAt = endsAt; empty labels dropped', () => {
  const { clock, alerts } = setup();
  const t0 = clock.now();
  alerts.push([{ labels: { alertname: 'A', empty: '' } }, { labels: { alertname: 'B' }, endsAt: iso(t0 + 30 * MIN) }]);
  const [a, b] = alerts.list();
  const byName = Object.fromEntries([a, b].map((x) => [(x!['labels'] as Record<string, string>)['alertname'], x!]));
  assert.deepEqual(byName['A'], {
    annotations: {},
    endsAt: iso(t0 + 5 * MIN),
    fingerprint: fingerprint({ alertname: 'A' }),
    receivers: [{ name: 'null' }],
    startsAt: iso(t0),
    status: { inhibitedBy: [], silencedBy: [], state: 'active' },
    updatedAt: iso(t0),
    labels: { alertname: 'A' },
  });
  assert.equal(byName['B']!['startsAt'], iso(t0 + 30 * MIN));
});

test('alerts resolve by endsAt and disappear from the listing', async () => {
  const { clock, alerts } = setup();
  alerts.push([{ labels: { alertname: 'A' }, startsAt: iso(clock.now()), endsAt: iso(clock.now() + 2 * MIN) }]);
  await clock.advance(2 * MIN);
  assert.equal(alerts.list().length, 1);
  await clock.advance(1);
  assert.equal(alerts.list().length, 0);
  assert.equal(alerts.all().length, 1, 'kept until garbage collection');
  await clock.advance(31 * MIN);
  assert.equal(alerts.all().length, 0);
});

test('re-sent alerts merge: earliest start kept, a later explicit end wins over a timeout', async () => {
  const { clock, alerts } = setup();
  const t0 = clock.now();
  alerts.push([{ labels: { alertname: 'A' }, startsAt: iso(t0 - 10 * MIN), endsAt: iso(t0 + 30 * MIN) }]);
  await clock.advance(MIN);
  alerts.push([{ labels: { alertname: 'A' }, startsAt: iso(t0 - 5 * MIN), endsAt: iso(t0 + 20 * MIN) }]);
  const [a] = alerts.list();
  assert.equal(a!['startsAt'], iso(t0 - 10 * MIN));
  assert.equal(a!['endsAt'], iso(t0 + 30 * MIN));
  assert.equal(a!['updatedAt'], iso(t0 + MIN));
});

test('invalid alerts are reported together after the valid ones are stored', () => {
  const { clock, alerts } = setup();
  assert.throws(
    () =>
      alerts.push([
        { labels: {} },
        { labels: { 'a-b': 'x' } },
        { labels: { zz: '1' }, startsAt: iso(clock.now() + 10 * MIN), endsAt: iso(clock.now() + 5 * MIN) },
        { labels: { ok: 'stored' }, annotations: { 'b-c': 'y' } },
        { labels: { ok: 'yes' } },
      ]),
    (e: unknown) =>
      e instanceof AmError &&
      e.status === 400 &&
      e.body ===
        'at least one label pair required; invalid label set: invalid name "a-b"; start time must be before end time; invalid annotations: invalid name "b-c"',
  );
  assert.deepEqual(
    alerts.list().map((a) => a['labels']),
    [{ ok: 'yes' }],
  );
});

test('silencedBy and state follow the silences, read at list time; query flags and filters', async () => {
  const { clock, silences, alerts } = setup();
  alerts.push([
    { labels: { alertname: 'KubeNodeNotReady', node: 'n1', severity: 'warning', namespace: 'openshift-monitoring' } },
    { labels: { alertname: 'KubeAPIDown', severity: 'critical' } },
  ]);
  const id = silences.post({
    matchers: [
      { name: 'severity', value: '(warning|info)', isRegex: true },
      { name: 'namespace', value: '(^openshift.*|^kube.*)', isRegex: true },
    ],
    startsAt: clock.now(),
    endsAt: clock.now() + 60 * MIN,
    createdBy: 'me',
    comment: 'cp',
  });
  const state = (): Record<string, unknown> =>
    Object.fromEntries(
      alerts.list().map((a): [string, unknown] => [(a['labels'] as Record<string, string>)['alertname']!, a['status']]),
    );
  assert.deepEqual(state(), {
    KubeNodeNotReady: { inhibitedBy: [], silencedBy: [id], state: 'suppressed' },
    KubeAPIDown: { inhibitedBy: [], silencedBy: [], state: 'active' },
  });
  assert.deepEqual(
    alerts.list({ silenced: false }).map((a) => (a['labels'] as Record<string, string>)['alertname']),
    ['KubeAPIDown'],
  );
  assert.deepEqual(
    alerts.list({ active: false }).map((a) => (a['labels'] as Record<string, string>)['alertname']),
    ['KubeNodeNotReady'],
  );
  assert.equal(
    alerts.list({ filter: [compileFilterMatcher({ name: 'severity', type: '=', value: 'critical' })] }).length,
    1,
  );
  assert.equal(alerts.list({ filter: [compileFilterMatcher({ name: 'node', type: '!=', value: '' })] }).length, 1);
  assert.equal(alerts.list({ receiver: receiverRegexp('nu.*') }).length, 2);
  assert.equal(alerts.list({ receiver: receiverRegexp('Critical') }).length, 0);
  await clock.advance(MIN);
  silences.expire(id);
  assert.deepEqual(state()['KubeNodeNotReady'], { inhibitedBy: [], silencedBy: [], state: 'active' });
});

test('groups: per receiver and group_by labels, alerts in Alertmanager order', () => {
  const { alerts } = setup({
    receivers: (l) => [l['severity'] === 'critical' ? 'Critical' : 'Default'],
    groupBy: ['namespace'],
  });
  alerts.push([
    { labels: { alertname: 'B', severity: 'warning', namespace: 'ns1' } },
    { labels: { alertname: 'A', severity: 'warning', namespace: 'ns1', job: 'x' } },
    { labels: { alertname: 'C', severity: 'critical', namespace: 'ns1' } },
    { labels: { alertname: 'D', severity: 'warning' } },
  ]);
  const groups = alerts.groups().map((g) => ({
    labels: g['labels'],
    receiver: g['receiver'],
    alerts: (g['alerts'] as Array<Record<string, Record<string, string>>>).map((a) => a['labels']!['alertname']),
  }));
  assert.deepEqual(groups, [
    { labels: {}, receiver: { name: 'Default' }, alerts: ['D'] },
    { labels: { namespace: 'ns1' }, receiver: { name: 'Critical' }, alerts: ['C'] },
    { labels: { namespace: 'ns1' }, receiver: { name: 'Default' }, alerts: ['A', 'B'] },
  ]);
});

test('goBool takes the spellings swag.ConvertBool takes', () => {
  assert.deepEqual(['true', 'TRUE', 'yes', 'on', 't', 'false', '1', 'maybe'].map(goBool), [
    true,
    true,
    true,
    true,
    true,
    false,
    false,
    false,
  ]);
});
