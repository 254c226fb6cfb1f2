import { test } from 'node:test';
import assert from 'node:assert/strict';
import { operatorSequenceViolations, operatorState, trackOperatorVersion } from './invariants.js';

const s = (
  at: number,
  version: string | undefined,
  progressing: boolean,
): { at: number; version: string | undefined; progressing: boolean } => ({ at, version, progressing });

test('a rollout: Progressing=True, then the new version, holds; so do two hops with a period each', () => {
  assert.deepEqual(
    operatorSequenceViolations('etcd', [
      s(0, 'A', false),
      s(1, 'A', true),
      s(2, 'A', true),
      s(3, 'B', false),
      s(4, 'B', false),
    ]),
    [],
  );
  assert.deepEqual(
    operatorSequenceViolations('etcd', [
      s(0, 'A', false),
      s(1, 'A', true),
      s(3, 'B', false),
      s(5, 'B', true),
      s(6, 'C', false),
    ]),
    [],
  );
});

test('a version change without a Progressing=True period before it is a violation', () => {
  assert.deepEqual(operatorSequenceViolations('dns', [s(0, 'A', false), s(1, 'B', true), s(2, 'B', false)]), [
    'clusteroperator dns: operator version changed A → B without a Progressing=True period before',
  ]);
  // The period before the first change does not cover the second.
  assert.deepEqual(operatorSequenceViolations('dns', [s(0, 'A', true), s(1, 'B', false), s(2, 'C', false)]), [
    'clusteroperator dns: operator version changed B → C without a Progressing=True period before',
  ]);
});

test('changing to the same version twice is a violation unless a new update to it started in between', () => {
  const flap = [
    s(0, 'A', false),
    s(1, 'A', true),
    s(2, 'B', false),
    s(3, 'B', true),
    s(4, 'A', false),
    s(5, 'A', true),
    s(6, 'B', false),
  ];
  assert.deepEqual(operatorSequenceViolations('console', flap), [
    'clusteroperator console: operator version changed to A a second time in one update (B → A)',
    'clusteroperator console: operator version changed to B a second time in one update (A → B)',
  ]);
  // A rollback and a new update: each change belongs to an update started after the last one.
  const started = new Map([
    ['A', 3.5],
    ['B', 5.5],
  ]);
  assert.deepEqual(
    operatorSequenceViolations('console', flap, (v, since) => (started.get(v) ?? -1) > since),
    [],
  );
});

test('a version first reported needs no Progressing period; a version that disappears is a violation', () => {
  assert.deepEqual(operatorSequenceViolations('olm', [s(0, undefined, false), s(1, 'B', false)]), []);
  assert.deepEqual(operatorSequenceViolations('olm', [s(0, 'A', false), s(1, undefined, false)]), [
    'clusteroperator olm: operator version A disappeared',
  ]);
});

test('operatorState reads the operator version and Progressing; tracking keeps the first version as reached', () => {
  const st = operatorState({
    metadata: { name: 'etcd' },
    spec: {},
    status: {
      versions: [
        { name: 'raw-internal', version: 'x' },
        { name: 'operator', version: '4.14.10' },
      ],
      conditions: [{ type: 'Progressing', status: 'True', lastTransitionTime: '2026-03-02T00:00:00Z' }],
    },
  });
  assert.deepEqual(st, { version: '4.14.10', progressing: true });
  const first = trackOperatorVersion('etcd', undefined, st, 7);
  assert.deepEqual(
    [first.track.version, first.track.progressedSinceChange, first.track.reachedAt.get('4.14.10')],
    ['4.14.10', true, 7],
  );
  assert.deepEqual(operatorState({ metadata: { name: 'x' }, spec: {} }), { version: undefined, progressing: false });
});
