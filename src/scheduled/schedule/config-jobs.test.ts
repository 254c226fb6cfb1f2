import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import type { ScheduledUpgradeConfig } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-config.js';
import type { UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import type { UpgradeSuspensionWindow } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-suspension-window.js';
import {
  activeSuspensionWindow,
  effectiveHistoryLimit,
  isControlledBy,
  isJobFinished,
  latestJob,
  successfulJobsBeyondLimit,
} from './config-jobs.js';

const config = {
  metadata: { name: 'weekly', namespace: 'ns', uid: 'uid-1', labels: { env: 'prod' } },
  spec: {
    schedule: { cron: '@daily', location: 'UTC' },
    maxSchedulingDelay: '1h',
    maxUpgradeStartDelay: '1h',
    jobTemplate: {
      spec: {
        config: {
          upgradeTimeout: '12h',
          preUpgradeHealthChecks: { timeout: '1h' },
          postUpgradeHealthChecks: { timeout: '1h' },
        },
      },
    },
  },
} as ScheduledUpgradeConfig;

type State = 'Succeeded' | 'Failed' | 'running';
function job(name: string, day: number, state: State, uid = 'uid-1', controller = true): UpgradeJob {
  return {
    metadata: {
      name,
      namespace: 'ns',
      ownerReferences: [
        { apiVersion: 'managedupgrade.appuio.io/v1beta1', kind: 'UpgradeConfig', name: 'weekly', uid, controller },
      ],
    },
    spec: {
      startAfter: `2024-01-${String(day).padStart(2, '0')}T00:00:00Z`,
      startBefore: `2024-01-${String(day).padStart(2, '0')}T01:00:00Z`,
      config: config.spec.jobTemplate.spec.config,
    },
    status:
      state === 'running'
        ? {
            conditions: [
              {
                type: 'Started',
                status: 'True',
                reason: 'Started',
                message: '',
                lastTransitionTime: '2024-01-01T00:00:00Z',
              },
            ],
          }
        : {
            conditions: [
              { type: state, status: 'True', reason: state, message: '', lastTransitionTime: '2024-01-01T00:00:00Z' },
            ],
          },
  };
}

void test('controlled means a controller reference with the config UID', () => {
  assert.equal(isControlledBy(job('a', 1, 'running'), config), true);
  assert.equal(isControlledBy(job('a', 1, 'running', 'other-uid'), config), false);
  assert.equal(isControlledBy(job('a', 1, 'running', 'uid-1', false), config), false);
  assert.equal(isJobFinished(job('a', 1, 'Failed')), true);
  assert.equal(isJobFinished(job('a', 1, 'running')), false);
});

void test('the latest job has the greatest startAfter; a tie is finished only when all are', () => {
  assert.equal(latestJob([]), undefined);
  assert.deepEqual(latestJob([job('b', 3, 'Succeeded'), job('a', 5, 'running'), job('c', 4, 'Failed')]), {
    name: 'a',
    startAfterMs: Date.parse('2024-01-05T00:00:00Z'),
    finished: false,
  });
  assert.deepEqual(latestJob([job('x', 5, 'running'), job('y', 5, 'Succeeded')])?.finished, false);
  assert.deepEqual(latestJob([job('x', 5, 'Failed'), job('y', 5, 'Succeeded')])?.finished, true);
});

void test('history: keeps the newest N succeeded jobs (4 by default, unlimited when ≤ 0); failed and running ones stay', () => {
  assert.equal(effectiveHistoryLimit(undefined), 4);
  assert.equal(effectiveHistoryLimit(0), undefined);
  assert.equal(effectiveHistoryLimit(-1), undefined);
  const jobs = [1, 2, 3, 4, 5, 6]
    .map((d) => job(`s${d}`, d, 'Succeeded'))
    .concat([job('f7', 7, 'Failed'), job('r8', 8, 'running')]);
  assert.deepEqual(
    successfulJobsBeyondLimit(jobs, undefined).map((j) => j.metadata?.name),
    ['s2', 's1'],
  );
  assert.deepEqual(
    successfulJobsBeyondLimit(jobs, 1).map((j) => j.metadata?.name),
    ['s5', 's4', 's3', 's2', 's1'],
  );
  assert.deepEqual(successfulJobsBeyondLimit(jobs, 0), []);
  assert.deepEqual(successfulJobsBeyondLimit(jobs, 10), []);
});

function win(name: string, start: string, end: string, configSelector?: LabelSelector): UpgradeSuspensionWindow {
  return {
    metadata: { name, namespace: 'ns' },
    spec: { start, end, reason: `because ${name}`, ...(configSelector ? { configSelector } : {}) },
  };
}

void test('suspension windows: selector (absent = none, {} = all), inclusive interval, first by name', () => {
  const now = Date.parse('2024-01-10T12:00:00Z');
  const w = (
    name: string,
    sel?: LabelSelector,
    start = '2024-01-10T00:00:00Z',
    end = '2024-01-10T12:00:00Z',
  ): UpgradeSuspensionWindow => win(name, start, end, sel);
  assert.equal(activeSuspensionWindow([w('none')], config, now), undefined);
  assert.deepEqual(activeSuspensionWindow([w('all', {})], config, now), { name: 'all', reason: 'because all' });
  assert.deepEqual(activeSuspensionWindow([w('z', {}), w('prod', { matchLabels: { env: 'prod' } })], config, now), {
    name: 'prod',
    reason: 'because prod',
  });
  assert.equal(activeSuspensionWindow([w('dev', { matchLabels: { env: 'dev' } })], config, now), undefined);
  assert.equal(
    activeSuspensionWindow([w('bad', { matchExpressions: [{ key: 'env', operator: 'In', values: [] }] })], config, now),
    undefined,
  );
  assert.ok(activeSuspensionWindow([w('starts-now', {}, '2024-01-10T12:00:00Z', '2024-01-11T00:00:00Z')], config, now));
  assert.equal(
    activeSuspensionWindow([w('ended', {}, '2024-01-09T00:00:00Z', '2024-01-10T11:59:59Z')], config, now),
    undefined,
  );
  assert.equal(
    activeSuspensionWindow([w('future', {}, '2024-01-10T12:00:01Z', '2024-01-11T00:00:00Z')], config, now),
    undefined,
  );
});
