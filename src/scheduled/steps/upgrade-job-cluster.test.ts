import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import type { ClusterVersion, UpdateHistory } from '../../api/openshift/config-v1/cluster-version.js';
import type { MachineConfigPool } from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import {
  desiredUpdateOf,
  isDesiredReleaseAvailable,
  isPausedState,
  isUpgradeCompleted,
  isVersionUpgradeCompleted,
  parseLockValue,
  pausedWakeAt,
  poolDelayPlan,
  poolDelays,
  poolsToPauseOnFailure,
  sameDesiredUpdate,
} from './upgrade-job-cluster.js';

const M = 60_000;
const IMG = 'quay.io/openshift-release-dev/ocp-release@sha256:aaa';

function pool(
  name: string,
  o: { paused?: boolean; updated?: number; total?: number; labels?: Record<string, string> } = {},
): MachineConfigPool {
  return {
    metadata: { name, labels: o.labels ?? { [`pools/${name}`]: '' } },
    spec: { paused: o.paused ?? false },
    status: {
      configuration: { name: 'r' },
      machineCount: o.total ?? 3,
      updatedMachineCount: o.updated ?? 3,
      readyMachineCount: 3,
      unavailableMachineCount: 0,
      degradedMachineCount: 0,
    },
  };
}

function cv(history: Partial<UpdateHistory>[], available: { version: string; image: string }[] = []): ClusterVersion {
  return {
    metadata: { name: 'version' },
    spec: { clusterID: 'x' },
    status: {
      desired: { version: '', image: '' },
      observedGeneration: 1,
      versionHash: '',
      availableUpdates: available,
      history: history as UpdateHistory[],
    },
  };
}

function job(
  config: Partial<NonNullable<UpgradeJob['spec']>['config']> = {},
  desired?: { version?: string; image?: string },
): UpgradeJob {
  return {
    metadata: { name: 'j', namespace: 'ns' },
    spec: {
      startAfter: '2026-01-01T00:00:00Z',
      startBefore: '2026-01-01T01:00:00Z',
      ...(desired ? { desiredVersion: desired } : {}),
      config: { upgradeTimeout: '12h', preUpgradeHealthChecks: {}, postUpgradeHealthChecks: {}, ...config },
    },
  } as UpgradeJob;
}

void test('desiredUpdate equality is Go struct equality on version, image, force, architecture', () => {
  const d = desiredUpdateOf(job({}, { version: '4.15.3', image: IMG }))!;
  assert.deepEqual(d, { version: '4.15.3', image: IMG, force: false });
  assert.equal(sameDesiredUpdate(d, { version: '4.15.3', image: IMG, force: false, architecture: '' }), true);
  assert.equal(sameDesiredUpdate(d, { version: '4.15.3', image: IMG, force: true }), false);
  assert.equal(sameDesiredUpdate(d, undefined), false);
  assert.equal(desiredUpdateOf(job()), undefined, 'a noop job');
});

void test('availability and completion match every field the job sets (image and version when both)', () => {
  const both = { version: '4.15.3', image: IMG };
  assert.equal(isDesiredReleaseAvailable(cv([], [both]), both), true);
  assert.equal(isDesiredReleaseAvailable(cv([], [{ version: '4.15.3', image: 'other' }]), both), false);
  assert.equal(
    isDesiredReleaseAvailable(cv([], [both]), { version: '4.15.3' }),
    true,
    'version only (upstream: never)',
  );
  const done = cv([{ state: 'Completed', ...both }]);
  assert.equal(isUpgradeCompleted(done, both, [pool('master'), pool('worker')]), true);
  assert.equal(isUpgradeCompleted(cv([{ state: 'Partial', ...both }]), both, []), false);
  assert.equal(isUpgradeCompleted(done, both, [pool('worker', { updated: 1 })]), false, 'an unpaused pool is updating');
  assert.equal(
    isUpgradeCompleted(done, both, [pool('worker', { updated: 1, paused: true })]),
    true,
    'paused pools are not waited for',
  );
});

void test('completion reads only the history head, with the spec observed: an older Completed entry for the release (a rollback) is not completion', () => {
  const back = { version: '4.14.30', image: 'img@4.14.30' };
  const older = [
    { state: 'Completed' as const, version: '4.14.45', image: 'img@4.14.45' },
    { state: 'Completed' as const, ...back },
  ];
  assert.equal(isVersionUpgradeCompleted(cv(older), back), false, 'the CVO runs 4.14.45');
  assert.equal(
    isVersionUpgradeCompleted(cv([{ state: 'Partial', ...back }, ...older]), back),
    false,
    'the rollback is in progress',
  );
  const rolledBack = cv([{ state: 'Completed', ...back }, ...older]);
  assert.equal(isVersionUpgradeCompleted(rolledBack, back), true);
  assert.equal(
    isVersionUpgradeCompleted({ ...rolledBack, metadata: { name: 'version', generation: 2 } }, back),
    false,
    'observedGeneration 1 < generation 2: the status may be stale',
  );
});

void test('Paused: some updating pool paused and none of the updating pools unpaused', () => {
  assert.equal(isPausedState([pool('a', { paused: true, updated: 0 }), pool('b')]), true);
  assert.equal(isPausedState([pool('a', { paused: true, updated: 0 }), pool('b', { updated: 1 })]), false);
  assert.equal(isPausedState([pool('a', { paused: true })]), false, 'a paused pool with nothing to update');
});

void test('delay plan: pause before delayMin, unpause from it, expire a pool still paused at delayMax; wakes at both; MachineConfigPoolsPaused status and reason', () => {
  const j = job({
    machineConfigPools: [
      { matchLabels: { matchLabels: { 'pools/worker': '' } }, delayUpgrade: { delayMin: '1h', delayMax: '3h' } },
      { matchLabels: {}, delayUpgrade: {} },
      { delayUpgrade: { delayMin: '5m' } },
    ],
  });
  const { delays } = poolDelays(j);
  assert.equal(delays.length, 2, 'an all-zero entry is skipped');
  const s = 0;
  const pools = [pool('master'), pool('worker')];
  assert.deepEqual(poolDelayPlan(s, s, delays, pools), {
    actions: [{ pool: 'worker', action: 'pause' }],
    shouldBePaused: true,
    matched: true,
    wakes: [60 * M, 180 * M, 5 * M],
  });
  const pausedPools = [pool('master'), pool('worker', { paused: true })];
  assert.deepEqual(poolDelayPlan(59 * M, s, delays, pausedPools).actions, []);
  const at = poolDelayPlan(60 * M, s, delays, pausedPools);
  assert.deepEqual(at.actions, [{ pool: 'worker', action: 'unpause' }]);
  assert.equal(at.shouldBePaused, false);
  assert.equal(at.expired, undefined);
  assert.equal(poolDelayPlan(180 * M, s, delays, pausedPools).expired, 'worker');
  assert.equal(poolDelayPlan(180 * M, s, delays, pools).expired, undefined, 'unpaused in time');
  assert.deepEqual(
    poolDelayPlan(0, s, [], pools),
    { actions: [], shouldBePaused: false, matched: false, wakes: [] },
    'NoManagedPools',
  );
  const { problems } = poolDelays(job({ machineConfigPools: [{ matchLabels: {}, delayUpgrade: { delayMin: '1w' } }] }));
  assert.match(problems[0]!, /delayMin: time: unknown unit "w"/);
});

void test('paused wake-up: the first future of every startAfter + delayMin/delayMax and the timeout', () => {
  const delays = [{ selector: {}, delayMinMs: 60 * M, delayMaxMs: 180 * M }];
  assert.equal(pausedWakeAt(0, 0, delays, 720 * M), 60 * M);
  assert.equal(pausedWakeAt(60 * M, 0, delays, 720 * M), 180 * M);
  assert.equal(pausedWakeAt(200 * M, 0, delays, 720 * M), 720 * M + 1);
  assert.equal(pausedWakeAt(800 * M, 0, delays, 720 * M), undefined);
});

void test('pause on failure: enabled, selector (empty = all), unpaused and updating only, once', () => {
  const pools = [
    pool('master', { updated: 1 }),
    pool('worker', { updated: 1 }),
    pool('infra'),
    pool('paused', { paused: true, updated: 0 }),
  ];
  assert.deepEqual(poolsToPauseOnFailure(job(), pools), []);
  assert.deepEqual(poolsToPauseOnFailure(job({ pauseMachineConfigPoolsOnFailure: { enabled: true } }), pools), [
    'master',
    'worker',
  ]);
  assert.deepEqual(
    poolsToPauseOnFailure(
      job({ pauseMachineConfigPoolsOnFailure: { enabled: true, selector: { matchLabels: { 'pools/worker': '' } } } }),
      pools,
    ),
    ['worker'],
  );
  const guarded = job({ pauseMachineConfigPoolsOnFailure: { enabled: true } });
  guarded.status = {
    conditions: [
      {
        type: 'MachineConfigPoolsPaused',
        status: 'True',
        reason: 'PausedOnFailure',
        message: '',
        lastTransitionTime: '2026-01-01T00:00:00Z',
      },
    ],
  };
  assert.deepEqual(poolsToPauseOnFailure(guarded, pools), []);
});

void test('lock values are exactly <namespace>/<name>', () => {
  assert.deepEqual(parseLockValue('ns/job'), { namespace: 'ns', name: 'job' });
  for (const bad of ['job', 'a/b/c', '/job', 'ns/', undefined])
    assert.equal(parseLockValue(bad), undefined, String(bad));
});
