import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkOperatorGate, summarizeErrors, type SyncError } from './errors.js';
import { progressConditions, progressText } from './progress.js';

const MIN = 60_000;
const T0 = Date.UTC(2026, 2, 2);

test('progress text truncates the percentage and drops the counts at zero', () => {
  assert.equal(progressText('4.15.3', 512, 883), 'Working towards 4.15.3: 512 of 883 done (57% complete)');
  assert.equal(progressText('4.15.3', 882, 883), 'Working towards 4.15.3: 882 of 883 done (99% complete)');
  assert.equal(progressText('4.15.3', 0, 883), 'Working towards 4.15.3');
});

test('operators still updating are condensed into one sorted "waiting on" list and never fail', () => {
  const errs: SyncError[] = ['kube-apiserver', 'etcd'].map((n) => ({
    reason: 'ClusterOperatorUpdating',
    message: `Cluster operator ${n} is updating versions`,
    effect: 'None',
    names: [n],
  }));
  const failure = summarizeErrors(errs)!;
  assert.equal(failure.reason, 'ClusterOperatorsUpdating');
  assert.equal(failure.message, 'Cluster operators etcd, kube-apiserver are updating versions');
  const { progressing, failing } = progressConditions({
    report: { version: '4.15.3', done: 106, total: 863, reconciling: false, failure },
    now: T0 + 300 * MIN,
    operatorStart: new Map([['etcd', T0]]),
  });
  assert.deepEqual(progressing, {
    type: 'Progressing',
    status: 'True',
    reason: 'ClusterOperatorsUpdating',
    message: 'Working towards 4.15.3: 106 of 863 done (12% complete), waiting on etcd, kube-apiserver',
  });
  assert.deepEqual(failing, { type: 'Failing', status: 'False' });
  const atZero = progressConditions({
    report: { version: '4.15.3', done: 0, total: 863, reconciling: false, failure },
    now: T0,
    operatorStart: new Map(),
  });
  assert.equal(atZero.progressing.message, 'Working towards 4.15.3: waiting on etcd, kube-apiserver');
});

test('[4.16+] slow operators: 30 minutes, 90 for machine-config, Failing=Unknown SlowClusterOperator', () => {
  const failure: SyncError = {
    reason: 'ClusterOperatorsUpdating',
    message: '',
    effect: 'None',
    names: ['machine-config', 'network'],
  };
  const start = new Map([
    ['network', T0],
    ['machine-config', T0],
  ]);
  const at = (min: number, version = '4.16.2') =>
    progressConditions({
      report: { version, done: 700, total: 904, reconciling: false, failure },
      now: T0 + min * MIN,
      operatorStart: start,
    });
  assert.match(at(20).progressing.message!, /, waiting on machine-config, network$/);
  assert.equal(
    at(31).progressing.message,
    'Working towards 4.16.2: 700 of 904 done (77% complete), waiting on network over 30 minutes which is longer than expected',
  );
  assert.deepEqual(at(31).failing, {
    type: 'Failing',
    status: 'Unknown',
    reason: 'SlowClusterOperator',
    message: 'waiting on network over 30 minutes which is longer than expected',
  });
  assert.equal(
    at(91).failing.message,
    'waiting on network over 30 minutes and machine-config over 90 minutes which is longer than expected',
  );
  assert.equal(at(91).progressing.reason, 'ClusterOperatorsUpdating');
  // 4.15 has no slow-operator messages.
  assert.deepEqual(at(91, '4.15.3').failing, { type: 'Failing', status: 'False' });
  const mcoOnly = progressConditions({
    report: {
      version: '4.16.2',
      done: 700,
      total: 904,
      reconciling: false,
      failure: { ...failure, names: ['machine-config'], reason: 'ClusterOperatorUpdating' },
    },
    now: T0 + 91 * MIN,
    operatorStart: start,
  });
  assert.equal(mcoOnly.failing.message, 'waiting on machine-config over 90 minutes which is longer than expected');
});

test('a blocking error while reconciling is "Error while reconciling"; MultipleErrors summarises', () => {
  const errs: SyncError[] = [
    {
      reason: 'ClusterOperatorNotAvailable',
      message: 'Cluster operator dns is not available',
      effect: 'Fail',
      names: ['dns'],
    },
    {
      reason: 'ClusterOperatorNoVersions',
      message: 'Cluster operator x does not declare expected versions',
      effect: 'Fail',
      names: ['x'],
    },
    {
      reason: 'ClusterOperatorUpdating',
      message: 'Cluster operator network is updating versions',
      effect: 'None',
      names: ['network'],
    },
  ];
  const multi = summarizeErrors(errs)!;
  assert.equal(multi.reason, 'MultipleErrors');
  assert.equal(
    multi.message,
    'Multiple errors are preventing progress:\n* Cluster operator dns is not available\n* Cluster operator x does not declare expected versions',
  );
  const upd = progressConditions({
    report: { version: '4.14.10', done: 10, total: 860, reconciling: false, failure: multi },
    now: T0,
    operatorStart: new Map(),
  });
  assert.equal(upd.progressing.message, 'Unable to apply 4.14.10: an unknown error has occurred: MultipleErrors');
  const single = summarizeErrors([errs[0]!, errs[2]!])!;
  const rec = progressConditions({
    report: { version: '4.14.10', done: 10, total: 860, reconciling: true, failure: single },
    now: T0,
    operatorStart: new Map(),
  });
  assert.deepEqual(rec.progressing, {
    type: 'Progressing',
    status: 'False',
    reason: 'ClusterOperatorNotAvailable',
    message: 'Error while reconciling 4.14.10: the cluster operator dns is not available',
  });
  assert.deepEqual(rec.failing, {
    type: 'Failing',
    status: 'True',
    reason: 'ClusterOperatorNotAvailable',
    message: 'Cluster operator dns is not available',
  });
});

test('the gate: no versions, Available, Degraded (missing counts), then versions', () => {
  const v = [{ name: 'operator', version: '4.15.3' }];
  const co = (conds: Array<[string, string]>, version = '4.15.3') => ({
    spec: {},
    status: {
      conditions: conds.map(([type, status]) => ({ type, status: status as 'True', lastTransitionTime: '' })),
      versions: [{ name: 'operator', version }],
    },
  });
  assert.equal(
    checkOperatorGate(
      'a',
      co([
        ['Available', 'True'],
        ['Degraded', 'False'],
      ]),
      [],
    )?.reason,
    'ClusterOperatorNoVersions',
  );
  assert.equal(checkOperatorGate('a', undefined, v)?.reason, 'ClusterOperatorNotAvailable');
  assert.equal(checkOperatorGate('a', co([['Available', 'True']]), v)?.effect, 'FailAfterInterval');
  assert.equal(
    checkOperatorGate(
      'a',
      co(
        [
          ['Available', 'True'],
          ['Degraded', 'False'],
        ],
        '4.15.2',
      ),
      v,
    )?.message,
    'Cluster operator a is updating versions',
  );
  assert.equal(
    checkOperatorGate(
      'a',
      co([
        ['Available', 'True'],
        ['Degraded', 'False'],
        ['Progressing', 'True'],
      ]),
      v,
    ),
    undefined,
  );
});
