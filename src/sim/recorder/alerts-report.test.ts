import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Silence } from '../monitoring/alertmanager/silences.js';
import type { AlertTransition } from '../monitoring/rules.js';
import { alertEpisodes, isoTime, silenceRecords } from './alerts-report.js';

const T0 = Date.UTC(2026, 2, 2);
const MIN = 60_000;

function tr(
  at: number,
  state: AlertTransition['state'],
  activeAt: number,
  labels: Record<string, string>,
  forMs = 10 * MIN,
): AlertTransition {
  return { at: T0 + at, alertname: labels['alertname'] ?? '', labels, state, activeAt: T0 + activeAt, forMs };
}

void test('alert transitions fold into one episode per activation, with pending, fired, resolved and dropped times', () => {
  const node = { severity: 'warning', alertname: 'KubeNodeUnreachable', node: 'worker-a' };
  const other = { alertname: 'ClusterOperatorDown', name: 'etcd', severity: 'critical' };
  const episodes = alertEpisodes([
    tr(1 * MIN, 'pending', 1 * MIN, node),
    tr(2 * MIN, 'pending', 2 * MIN, other),
    tr(4 * MIN, 'dropped', 2 * MIN, other),
    tr(11 * MIN, 'firing', 1 * MIN, node),
    tr(20 * MIN, 'resolved', 1 * MIN, node),
    // The same alert again, a new episode, still firing at the end.
    tr(30 * MIN, 'firing', 30 * MIN, node, 0),
  ]);
  assert.deepEqual(episodes, [
    {
      alertname: 'KubeNodeUnreachable',
      severity: 'warning',
      labels: { alertname: 'KubeNodeUnreachable', node: 'worker-a', severity: 'warning' },
      state: 'resolved',
      forMs: 10 * MIN,
      pendingSince: '2026-03-02T00:01:00.000Z',
      firedAt: '2026-03-02T00:11:00.000Z',
      resolvedAt: '2026-03-02T00:20:00.000Z',
      droppedAt: null,
    },
    {
      alertname: 'ClusterOperatorDown',
      severity: 'critical',
      labels: { alertname: 'ClusterOperatorDown', name: 'etcd', severity: 'critical' },
      state: 'dropped',
      forMs: 10 * MIN,
      pendingSince: '2026-03-02T00:02:00.000Z',
      firedAt: null,
      resolvedAt: null,
      droppedAt: '2026-03-02T00:04:00.000Z',
    },
    {
      alertname: 'KubeNodeUnreachable',
      severity: 'warning',
      labels: { alertname: 'KubeNodeUnreachable', node: 'worker-a', severity: 'warning' },
      state: 'firing',
      forMs: 0,
      pendingSince: '2026-03-02T00:30:00.000Z',
      firedAt: '2026-03-02T00:30:00.000Z',
      resolvedAt: null,
      droppedAt: null,
    },
  ]);
  // Labels' keys are sorted, so that the JSON does not depend on the order labels came in.
  assert.deepEqual(Object.keys(episodes[0]!.labels), ['alertname', 'node', 'severity']);
  assert.deepEqual(alertEpisodes([]), []);
});

void test('silences become flat records with matchers in text form and their state at the end, ordered by start', () => {
  const s = (id: string, startsAt: number, endsAt: number): Silence => ({
    id,
    matchers: [
      { name: 'severity', value: 'warning|critical', isRegex: true, isEqual: true },
      { name: 'namespace', value: 'openshift-etcd', isRegex: false, isEqual: false },
    ],
    startsAt: T0 + startsAt,
    endsAt: T0 + endsAt,
    updatedAt: T0 + startsAt,
    createdBy: 'managed-upgrade-operator',
    comment: `Silence ${id}`,
  });
  const records = silenceRecords(
    [s('b', 10 * MIN, 100 * MIN), s('a', 5 * MIN, 20 * MIN), s('c', 200 * MIN, 300 * MIN)],
    T0 + 60 * MIN,
  );
  assert.deepEqual(
    records.map((r) => [r.id, r.state]),
    [
      ['a', 'expired'],
      ['b', 'active'],
      ['c', 'pending'],
    ],
  );
  assert.deepEqual(records[0], {
    id: 'a',
    matchers: ['severity=~"warning|critical"', 'namespace!="openshift-etcd"'],
    createdBy: 'managed-upgrade-operator',
    comment: 'Silence a',
    startsAt: '2026-03-02T00:05:00.000Z',
    endsAt: '2026-03-02T00:20:00.000Z',
    updatedAt: '2026-03-02T00:05:00.000Z',
    state: 'expired',
  });
});

void test('isoTime: RFC 3339 in UTC with milliseconds, fractions of a millisecond dropped', () => {
  assert.equal(isoTime(T0 + 1234.9), '2026-03-02T00:00:01.234Z');
});
