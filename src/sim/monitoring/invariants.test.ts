import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alertTransitionViolations, newAlertCheckState } from './invariants.js';
import type { AlertTransition } from './rules.js';

const MIN = 60_000;

function tr(
  state: AlertTransition['state'],
  at: number,
  activeAt: number,
  forMs: number,
  node = 'n1',
): AlertTransition {
  return {
    at,
    alertname: 'KubeNodeNotReady',
    labels: { alertname: 'KubeNodeNotReady', node, severity: 'warning' },
    state,
    activeAt,
    forMs,
  };
}

test('pending for at least `for`, then firing, then resolved: no violation; nor dropped pendings', () => {
  assert.deepEqual(
    alertTransitionViolations([
      tr('pending', 0, 0, 15 * MIN),
      tr('firing', 15 * MIN, 0, 15 * MIN),
      tr('resolved', 20 * MIN, 0, 15 * MIN),
    ]),
    [],
  );
  assert.deepEqual(
    alertTransitionViolations([
      tr('pending', 0, 0, 15 * MIN),
      tr('dropped', 5 * MIN, 0, 15 * MIN),
      tr('pending', 6 * MIN, 6 * MIN, 15 * MIN),
      tr('firing', 21 * MIN, 6 * MIN, 15 * MIN),
    ]),
    [],
  );
});

test('firing before `for` elapsed, or without a pending record, is a violation', () => {
  assert.deepEqual(alertTransitionViolations([tr('pending', 0, 0, 15 * MIN), tr('firing', 10 * MIN, 0, 15 * MIN)]), [
    'alert KubeNodeNotReady{node="n1",severity="warning"}: firing after 600s pending, less than its for of 900s',
  ]);
  assert.deepEqual(alertTransitionViolations([tr('firing', 20 * MIN, 0, 15 * MIN)]), [
    'alert KubeNodeNotReady{node="n1",severity="warning"}: firing without having been pending (for 900s)',
  ]);
  // The pending record of another instance does not count.
  assert.equal(
    alertTransitionViolations([tr('pending', 0, 0, 15 * MIN, 'n2'), tr('firing', 20 * MIN, 0, 15 * MIN)]).length,
    1,
  );
});

test('a rule without `for` fires at once and is never pending', () => {
  assert.deepEqual(alertTransitionViolations([tr('firing', 0, 0, 0), tr('resolved', MIN, 0, 0)]), []);
  assert.deepEqual(alertTransitionViolations([tr('pending', 0, 0, 0), tr('firing', 30_000, 0, 0)]), [
    'alert KubeNodeNotReady{node="n1",severity="warning"}: pending, but its rule has no for clause (it must fire at once)',
    'alert KubeNodeNotReady{node="n1",severity="warning"}: its rule has no for clause but it fired 30s after it became active',
  ]);
});

test('the state carries pending alerts across incremental calls', () => {
  const state = newAlertCheckState();
  assert.deepEqual(alertTransitionViolations([tr('pending', 0, 0, 15 * MIN)], state), []);
  assert.deepEqual(alertTransitionViolations([tr('firing', 15 * MIN, 0, 15 * MIN)], state), []);
  assert.equal(state.pending.size, 0);
});
