import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Event } from 'kubernetes-types/core/v1.js';
import { CFG, MASTERS_DONE, pool, WORKERS_MID } from '../upgrade-status.test-support.js';
import { activeSilenceComments, firingAlertNames, newestWarning, poolActivity } from './scenario-progress.js';

void test('pool activity: the nodes draining, rebooting or updating, by pool, in name order', () => {
  const pools = [pool('master', CFG.masterNew), pool('worker', CFG.workerNew)];
  assert.deepEqual(poolActivity([...WORKERS_MID].reverse(), pools), {
    worker: 'draining w1, rebooting w2, updating w3',
  });
  assert.deepEqual(poolActivity(MASTERS_DONE, pools), {});
});

void test('firing alerts: once each, sorted, without severity none (the Watchdog heartbeat) or pending ones', () => {
  const alert = (alertname: string, state: 'pending' | 'firing', severity = 'warning') => ({
    labels: { alertname, severity },
    state,
  });
  assert.deepEqual(
    firingAlertNames([
      alert('Watchdog', 'firing', 'none'),
      alert('KubeNodeNotReady', 'firing'),
      alert('ClusterOperatorDown', 'firing', 'critical'),
      alert('KubeNodeNotReady', 'firing'),
      alert('TargetDown', 'pending'),
    ]),
    ['ClusterOperatorDown', 'KubeNodeNotReady'],
  );
});

void test('active silences: those in force now, in order of their start; a silence without a comment by its id', () => {
  const silence = (id: string, startsAt: number, endsAt: number, comment = '') => ({
    id,
    matchers: [],
    startsAt,
    endsAt,
    updatedAt: 0,
    createdBy: 'x',
    comment,
  });
  assert.deepEqual(
    activeSilenceComments(
      [
        silence('b', 20, 100, 'workers'),
        silence('a', 10, 100, 'control plane'),
        silence('c', 0, 50),
        silence('d', 80, 90),
      ],
      60,
    ),
    ['control plane', 'workers'],
  );
  assert.deepEqual(activeSilenceComments([silence('c', 0, 100)], 60), ['c']);
});

void test('the newest Warning Event as Reason: message; Normal Events are not warnings', () => {
  const event = (type: string, reason: string, lastTimestamp: string): Event => ({
    metadata: { name: reason },
    involvedObject: { kind: 'UpgradeConfig', name: 'u' },
    type,
    reason,
    message: `${reason} happened`,
    lastTimestamp,
  });
  assert.equal(
    newestWarning([
      event('Warning', 'StepError', '2026-03-02T00:10:00Z'),
      event('Warning', 'ControlPlaneTimeout', '2026-03-02T01:50:00Z'),
      event('Normal', 'UpgradeCompleted', '2026-03-02T02:00:00Z'),
    ]),
    'ControlPlaneTimeout: ControlPlaneTimeout happened',
  );
  assert.equal(newestWarning([event('Normal', 'UpgradeStarted', '2026-03-02T00:10:00Z')]), '');
});
