import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClusterOperator } from '../../api/openshift/config-v1/cluster-operator.js';
import type { ClusterVersion, UpdateHistory } from '../../api/openshift/config-v1/cluster-version.js';
import type { MachineConfigPool } from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import {
  clusterVersionTransitionViolations,
  clusterVersionViolations,
  completionViolations,
  headCompleted,
} from './invariants.js';

const T = '2026-03-02T00:00:00Z';
const installed: UpdateHistory = {
  state: 'Completed',
  startedTime: '2026-01-01T00:00:00Z',
  completionTime: '2026-01-01T01:00:00Z',
  version: '4.14.10',
  image: 'img@10',
  verified: false,
};
const updating: UpdateHistory = {
  state: 'Partial',
  startedTime: T,
  completionTime: null,
  version: '4.14.12',
  image: 'img@12',
  verified: true,
};

function cv(
  history: UpdateHistory[],
  o: { progressing?: 'True' | 'False'; available?: string; desired?: string } = {},
): ClusterVersion {
  const head = history[0]!;
  const lastCompleted = history.find((h) => h.state === 'Completed')?.version ?? '';
  return {
    metadata: { name: 'version' },
    spec: { clusterID: 'x' },
    status: {
      desired: { version: o.desired ?? head.version, image: head.image },
      history,
      observedGeneration: 1,
      versionHash: 'h',
      availableUpdates: null,
      conditions: [
        {
          type: 'Available',
          status: 'True',
          lastTransitionTime: T,
          message: o.available ?? `Done applying ${lastCompleted}`,
        },
        {
          type: 'Progressing',
          status: o.progressing ?? (head.state === 'Partial' ? 'True' : 'False'),
          lastTransitionTime: T,
          message: 'm',
        },
      ],
    },
  };
}

test('a consistent ClusterVersion, idle or updating, has no violations', () => {
  assert.deepEqual(clusterVersionViolations(cv([installed])), []);
  assert.deepEqual(clusterVersionViolations(cv([updating, installed])), []);
  const retargeted = [
    { ...updating, version: '4.14.13', image: 'img@13' },
    { ...updating, completionTime: '2026-03-02T00:10:00Z' },
    installed,
  ];
  assert.deepEqual(clusterVersionViolations(cv(retargeted)), []);
});

test('only the head may have completionTime null; a Partial head has it null, a Completed head not', () => {
  const v = clusterVersionViolations(cv([{ ...updating, version: '4.14.13', image: 'img@13' }, updating, installed]));
  assert.deepEqual(v, ['clusterversion: history[1] (Partial 4.14.12) has completionTime null; only the head may']);
  assert.match(
    clusterVersionViolations(cv([{ ...updating, completionTime: T }, installed]))[0] ?? '',
    /Partial head 4\.14\.12 has a completionTime/,
  );
  assert.match(
    clusterVersionViolations(cv([{ ...installed, completionTime: null }]))[0] ?? '',
    /Completed head 4\.14\.10 has completionTime null/,
  );
});

test('desired is the head entry; Available names the last completed version while updating', () => {
  assert.deepEqual(clusterVersionViolations(cv([updating, installed], { desired: '4.14.10' })), [
    "clusterversion: desired 4.14.10 is not the head entry's version 4.14.12",
  ]);
  assert.deepEqual(clusterVersionViolations(cv([updating, installed], { available: 'Done applying 4.14.12' })), [
    'clusterversion: Available says "Done applying 4.14.12" but the last completed version is 4.14.10',
  ]);
});

test('Progressing=True exactly while the head entry is Partial', () => {
  assert.match(
    clusterVersionViolations(cv([updating, installed], { progressing: 'False' }))[0] ?? '',
    /Progressing=False while the head entry 4\.14\.12 is Partial/,
  );
  assert.match(
    clusterVersionViolations(cv([installed], { progressing: 'True' }))[0] ?? '',
    /Progressing=True while the head entry 4\.14\.10 is Completed/,
  );
});

test('history transitions: Partial until completion, only the head completes, nothing reverts or disappears', () => {
  const done = { ...updating, state: 'Completed' as const, completionTime: '2026-03-02T01:00:00Z' };
  assert.deepEqual(clusterVersionTransitionViolations(cv([installed]), cv([updating, installed])), []);
  assert.deepEqual(clusterVersionTransitionViolations(cv([updating, installed]), cv([done, installed])), []);
  const retarget = cv([
    { ...updating, version: '4.14.13', image: 'img@13' },
    { ...updating, completionTime: '2026-03-02T00:10:00Z' },
    installed,
  ]);
  assert.deepEqual(clusterVersionTransitionViolations(cv([updating, installed]), retarget), []);

  assert.match(
    clusterVersionTransitionViolations(cv([done, installed]), cv([{ ...done, state: 'Partial' }, installed]))[0] ?? '',
    /went from Completed back to Partial/,
  );
  const closedCompleted = cv([
    { ...updating, version: '4.14.13', image: 'img@13' },
    { ...updating, state: 'Completed', completionTime: '2026-03-02T00:10:00Z' },
    installed,
  ]);
  assert.deepEqual(
    clusterVersionTransitionViolations(cv([updating, installed]), closedCompleted).filter((m) =>
      /completed while not the head/.test(m),
    ).length,
    1,
  );
  assert.match(
    clusterVersionTransitionViolations(
      cv([done, installed]),
      cv([{ ...done, completionTime: '2026-03-02T02:00:00Z' }, installed]),
    )[0] ?? '',
    /completionTime of 4\.14\.12 .* changed/,
  );
  assert.match(
    clusterVersionTransitionViolations(cv([updating, installed]), cv([updating]))[0] ?? '',
    /history entry Completed 4\.14\.10 .* disappeared/,
  );
});

test('headCompleted is the moment the head turns Completed', () => {
  const done = { ...updating, state: 'Completed' as const, completionTime: '2026-03-02T01:00:00Z' };
  assert.equal(headCompleted(cv([updating, installed]), cv([done, installed]))?.version, '4.14.12');
  assert.equal(headCompleted(cv([done, installed]), cv([done, installed])), undefined);
  assert.equal(headCompleted(undefined, cv([done, installed])), undefined);
  assert.equal(headCompleted(cv([updating, installed]), cv([updating, installed])), undefined);
});

function co(name: string, version: string): ClusterOperator {
  return { metadata: { name }, spec: {}, status: { versions: [{ name: 'operator', version }] } };
}

function pool(name: string, target: string, reached: string, required: boolean): MachineConfigPool {
  return {
    metadata: {
      name,
      labels: required ? { 'operator.machineconfiguration.openshift.io/required-for-upgrade': '' } : {},
    },
    spec: { configuration: { name: target }, paused: false },
    status: {
      configuration: { name: reached },
      machineCount: 3,
      updatedMachineCount: 0,
      readyMachineCount: 0,
      unavailableMachineCount: 1,
      degradedMachineCount: 0,
      observedGeneration: 1,
    },
  };
}

test('completion: every operator at the version, machine-config included, and the master pool at its target', () => {
  const cos = [co('etcd', '4.14.12'), co('machine-config', '4.14.12')];
  const workerBehind = pool('worker', 'rendered-worker-new', 'rendered-worker-old', false);
  assert.deepEqual(
    completionViolations('4.14.12', cos, [
      pool('master', 'rendered-master-new', 'rendered-master-new', true),
      workerBehind,
    ]),
    [],
  );
  assert.deepEqual(
    completionViolations(
      '4.14.12',
      [co('etcd', '4.14.10'), co('machine-config', '4.14.12')],
      [pool('master', 'a', 'a', true)],
    ),
    ['clusterversion: 4.14.12 completed while cluster operators had not reported it: etcd at 4.14.10'],
  );
  assert.deepEqual(completionViolations('4.14.12', [co('etcd', '4.14.12')], []), [
    'clusterversion: 4.14.12 completed without a machine-config cluster operator',
  ]);
  assert.deepEqual(
    completionViolations('4.14.12', cos, [pool('master', 'rendered-master-new', 'rendered-master-old', true)]),
    [
      'clusterversion: 4.14.12 completed while the required pool master is at rendered-master-old, not at its target rendered-master-new',
    ],
  );
});
