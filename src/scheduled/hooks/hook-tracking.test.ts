import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HookJobTracker } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import {
  decideHookOutcome,
  finalizersToReleaseForDeletedJob,
  hookJobState,
  hookRunEntries,
  isHookJobFinished,
  updateHookTracker,
} from './hook-tracking.js';
import { hook, hookJob, upgradeJob } from './hook-fixtures.test-support.js';

const UJ = 'cluster-upgrade-4-15-3-1700000000';
const COMPLETE = [{ type: 'Complete', status: 'True' }];
const FAILED = [{ type: 'Failed', status: 'True', message: 'Job has reached the specified backoff limit' }];

function withTracker(tracker: HookJobTracker[]): ReturnType<typeof upgradeJob> {
  const job = upgradeJob();
  job.status = { hookTracker: tracker };
  return job;
}

test('a hook Job is failed on Failed=True, complete on Complete=True, otherwise active', () => {
  assert.deepEqual(hookJobState(hookJob('j', { hook: 'h', event: 'Create' })), { status: 'active', message: '' });
  assert.deepEqual(hookJobState(hookJob('j', { hook: 'h', event: 'Create' }, COMPLETE)), {
    status: 'complete',
    message: '',
  });
  assert.deepEqual(hookJobState(hookJob('j', { hook: 'h', event: 'Create' }, FAILED)), {
    status: 'failed',
    message: 'Job has reached the specified backoff limit',
  });
  // Interim conditions do not count.
  const interim = hookJob('j', { hook: 'h', event: 'Create' }, [
    { type: 'SuccessCriteriaMet', status: 'True' },
    { type: 'FailureTarget', status: 'True' },
    { type: 'Complete', status: 'False' },
  ]);
  assert.deepEqual(hookJobState(interim), { status: 'active', message: '' });
  assert.equal(isHookJobFinished(interim), false);
  assert.equal(isHookJobFinished(hookJob('j', { hook: 'h', event: 'Create' }, FAILED)), true);
});

test('the tracker keeps finished entries of deleted Jobs, drops active ones, and sorts by hook+event+key', () => {
  const job = withTracker([
    { hookEvent: 'Create', upgradeJobHook: 'gone-done', status: 'complete' },
    { hookEvent: 'Create', upgradeJobHook: 'gone-running', status: 'active' },
  ]);
  const jobs = [
    hookJob('j1', { hook: 'notify', event: 'Start' }, FAILED),
    hookJob('j2', { hook: 'notify', event: 'Create' }, COMPLETE),
    hookJob('j3', { hook: 'silence', event: 'MachineConfigPoolUnpause', trackingKey: 'worker' }),
    hookJob('j4', { hook: 'other-job', event: 'Create', upgradeJob: 'another-upgrade' }, COMPLETE),
  ];
  const u = updateHookTracker(job, jobs);
  assert.deepEqual(u.tracker, [
    { hookEvent: 'Create', upgradeJobHook: 'gone-done', status: 'complete' },
    { hookEvent: 'Create', upgradeJobHook: 'notify', status: 'complete' },
    {
      hookEvent: 'Start',
      upgradeJobHook: 'notify',
      status: 'failed',
      message: 'Job has reached the specified backoff limit',
    },
    { hookEvent: 'MachineConfigPoolUnpause', upgradeJobHook: 'silence', status: 'active', trackingKey: 'worker' },
  ]);
  assert.equal(u.changed, true);
  assert.deepEqual(u.releaseFinalizer, ['j1', 'j2']);
});

test('the tracker is unchanged when the same set comes in another order; released Jobs are not released again', () => {
  const jobs = [
    hookJob('j1', { hook: 'a', event: 'Create' }, COMPLETE, false),
    hookJob('j2', { hook: 'b', event: 'Create' }),
  ];
  const job = withTracker([
    { hookEvent: 'Create', upgradeJobHook: 'b', status: 'active' },
    { hookEvent: 'Create', upgradeJobHook: 'a', status: 'complete' },
  ]);
  const u = updateHookTracker(job, jobs);
  assert.equal(u.changed, false);
  assert.deepEqual(u.releaseFinalizer, []);
});

test('when the UpgradeJob is gone every hook Job loses the finalizer', () => {
  const jobs = [
    hookJob('j1', { hook: 'a', event: 'Create' }),
    hookJob('j2', { hook: 'b', event: 'Create' }, COMPLETE, false),
  ];
  assert.deepEqual(finalizersToReleaseForDeletedJob(jobs), ['j1']);
});

test('a run with no Job and no entry is to be created; a deleted finished Job is never re-created', () => {
  const run = { upgradeJob: UJ, hook: 'notify', event: 'Create' as const, trackingKey: '' };
  assert.deepEqual(hookRunEntries(run, [], []), []);
  const tracked: HookJobTracker[] = [{ hookEvent: 'Create', upgradeJobHook: 'notify', status: 'complete' }];
  assert.deepEqual(hookRunEntries(run, tracked, []), tracked);
  // Tracked and still live: counted once.
  assert.deepEqual(
    hookRunEntries(run, tracked, [hookJob('j', { hook: 'notify', event: 'Create' }, COMPLETE)]),
    tracked,
  );
  // Another pool of the same hook and event is a separate run.
  const poolRun = { upgradeJob: UJ, hook: 'silence', event: 'MachineConfigPoolUnpause' as const, trackingKey: 'infra' };
  const workerJob = hookJob(
    'j',
    { hook: 'silence', event: 'MachineConfigPoolUnpause', trackingKey: 'worker' },
    COMPLETE,
  );
  assert.deepEqual(hookRunEntries(poolRun, [], [workerJob]), []);
  assert.deepEqual(hookRunEntries({ ...poolRun, trackingKey: 'worker' }, [], [workerJob]), [
    { hookEvent: 'MachineConfigPoolUnpause', upgradeJobHook: 'silence', trackingKey: 'worker', status: 'complete' },
  ]);
});

test('influencing events wait while a hook Job runs (or was just created)', () => {
  const job = upgradeJob();
  const out = decideHookOutcome(job, 'Create', [
    { hook: hook('a'), entries: [{ hookEvent: 'Create', upgradeJobHook: 'a', status: 'complete' }] },
    { hook: hook('b'), entries: [] },
    {
      hook: hook('c', { failurePolicy: 'Abort' }),
      entries: [{ hookEvent: 'Create', upgradeJobHook: 'c', status: 'failed', message: 'boom' }],
    },
  ]);
  assert.deepEqual(out, { kind: 'wait', active: ['b'] });
});

test('an Abort failure on an influencing event fails the job with HookFailed and every message', () => {
  const out = decideHookOutcome(upgradeJob(), 'Start', [
    {
      hook: hook('a', { failurePolicy: 'Abort' }),
      entries: [
        {
          hookEvent: 'Start',
          upgradeJobHook: 'a',
          status: 'failed',
          message: 'Job has reached the specified backoff limit',
        },
      ],
    },
    {
      hook: hook('b', { failurePolicy: 'Abort' }),
      entries: [
        {
          hookEvent: 'Start',
          upgradeJobHook: 'b',
          status: 'failed',
          message: 'Job was active longer than specified deadline',
        },
      ],
    },
    { hook: hook('c'), entries: [{ hookEvent: 'Start', upgradeJobHook: 'c', status: 'failed', message: 'ignored' }] },
  ]);
  assert.deepEqual(out, {
    kind: 'fail',
    reason: 'HookFailed',
    message:
      'hook "a" failed: Job has reached the specified backoff limit, hook "b" failed: Job was active longer than specified deadline',
  });
});

test('Ignore failures, fire-and-forget events and final jobs only log', () => {
  const failedEntry = (e: string): HookJobTracker[] => [
    { hookEvent: e, upgradeJobHook: 'a', status: 'failed', message: 'x' },
  ];
  assert.deepEqual(decideHookOutcome(upgradeJob(), 'Create', [{ hook: hook('a'), entries: failedEntry('Create') }]), {
    kind: 'proceed',
    active: [],
    abortFailures: [],
    ignoredFailures: ['hook "a" failed: x'],
  });
  const abort = hook('a', { failurePolicy: 'Abort' });
  assert.deepEqual(
    decideHookOutcome(upgradeJob(), 'Success', [
      { hook: abort, entries: failedEntry('Success') },
      { hook: hook('b'), entries: [] },
    ]),
    {
      kind: 'proceed',
      active: ['b'],
      abortFailures: ['hook "a" failed: x'],
      ignoredFailures: [],
    },
  );
  const succeeded = upgradeJob({ conditions: [{ type: 'Succeeded', status: 'True' }] });
  assert.equal(
    decideHookOutcome(succeeded, 'MachineConfigPoolUnpause', [
      { hook: abort, entries: failedEntry('MachineConfigPoolUnpause') },
    ]).kind,
    'proceed',
  );
  assert.deepEqual(decideHookOutcome(upgradeJob(), 'Create', []), {
    kind: 'proceed',
    active: [],
    abortFailures: [],
    ignoredFailures: [],
  });
});
