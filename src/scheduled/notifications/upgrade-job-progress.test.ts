import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import { upgradeJobProgress } from './upgrade-job-progress.js';

const NOW = Date.parse('2026-11-27T01:30:00Z');
const cond = (type: string, status: 'True' | 'False', reason: string, at: string) => ({
  type,
  status,
  reason,
  message: `${type} ${reason}`,
  lastTransitionTime: at,
});

function job(
  conditions: ReturnType<typeof cond>[],
  hookTracker: NonNullable<UpgradeJob['status']>['hookTracker'] = [],
): UpgradeJob {
  return {
    apiVersion: 'managedupgrade.appuio.io/v1beta1',
    kind: 'UpgradeJob',
    metadata: { namespace: 'appuio', name: 'nightly-1', uid: 'u1', creationTimestamp: '2026-11-27T00:00:00Z' },
    spec: {
      startAfter: '2026-11-27T01:00:00Z',
      startBefore: '2026-11-27T02:00:00Z',
      desiredVersion: { version: '4.14.31' },
      config: {},
    },
    status: { conditions, hookTracker },
  } as UpgradeJob;
}

void test('a new job is scheduled at its creation for startAfter, nothing else', () => {
  const p = upgradeJobProgress(job([]), NOW);
  assert.deepEqual(p.scheduled, { at: '2026-11-27T00:00:00Z', for: '2026-11-27T01:00:00Z' });
  assert.equal(p.version, '4.14.31');
  assert.deepEqual(
    [p.started, p.wait, p.completed, p.failed, p.problems],
    [undefined, undefined, undefined, undefined, []],
  );
});

void test('a started job waits on its first unfinished step (or on a pause) since that condition changed', () => {
  const running = upgradeJobProgress(
    job([
      cond('Started', 'True', 'Started', '2026-11-27T01:00:05Z'),
      cond('PreHealthCheckDone', 'True', 'Completed', '2026-11-27T01:02:00Z'),
      cond('UpgradeCompleted', 'False', 'InProgress', '2026-11-27T01:02:01Z'),
    ]),
    NOW,
  );
  assert.deepEqual(running.started, { at: '2026-11-27T01:00:05Z', message: 'Started Started' });
  assert.deepEqual(running.wait, {
    step: 'UpgradeCompleted',
    reason: 'InProgress',
    message: 'UpgradeCompleted InProgress',
    since: '2026-11-27T01:02:01Z',
  });
  const paused = upgradeJobProgress(
    job([
      cond('Started', 'True', 'Started', '2026-11-27T01:00:05Z'),
      cond('UpgradeCompleted', 'False', 'InProgress', '2026-11-27T01:02:01Z'),
      cond('Paused', 'True', 'DelaySet', '2026-11-27T01:20:00Z'),
    ]),
    NOW,
  );
  assert.equal(paused.wait?.step, 'Paused');
  assert.equal(paused.wait?.since, '2026-11-27T01:20:00Z');
});

void test('failed hook Jobs are problems; Succeeded and Failed end the job with their reason', () => {
  const p = upgradeJobProgress(
    job(
      [
        cond('Started', 'True', 'Started', '2026-11-27T01:00:05Z'),
        cond('Failed', 'True', 'HookFailed', '2026-11-27T01:05:00Z'),
      ],
      [
        { hookEvent: 'Start', upgradeJobHook: 'notify', status: 'failed', message: 'exit 1' },
        { hookEvent: 'Create', upgradeJobHook: 'notify', status: 'complete' },
      ],
    ),
    NOW,
  );
  assert.deepEqual(p.problems, [
    {
      key: 'hook/Start/notify/',
      at: '2026-11-27T01:30:00Z',
      reason: 'HookFailed',
      message: 'hook notify failed on Start: exit 1',
    },
  ]);
  assert.deepEqual(p.failed, { at: '2026-11-27T01:05:00Z', reason: 'HookFailed', message: 'Failed HookFailed' });
  assert.equal(p.wait, undefined);
  const skipped = upgradeJobProgress(job([cond('Succeeded', 'True', 'Skipped', '2026-11-27T01:00:00Z')]), NOW);
  assert.deepEqual(skipped.completed, { at: '2026-11-27T01:00:00Z', reason: 'Skipped', message: 'Succeeded Skipped' });
});
