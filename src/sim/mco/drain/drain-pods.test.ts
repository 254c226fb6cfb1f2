import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1.js';
import {
  aggregateErrors,
  attemptTimeoutMessage,
  drainFailedMessage,
  drainThresholdMessage,
  evictionFor,
  evictionPath,
  formatGoDuration,
  podsToDrain,
} from './drain-pods.js';

function pod(name: string, extra: Partial<NonNullable<Pod['metadata']>> = {}): Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns', ...extra } };
}

void test('podsToDrain keeps everything but mirror pods and DaemonSet-controlled pods', () => {
  const owned = (kind: string, controller: boolean): Partial<NonNullable<Pod['metadata']>> => ({
    ownerReferences: [{ apiVersion: 'apps/v1', kind, name: 'o', uid: 'u', controller }],
  });
  const pods = [
    pod('bare'),
    pod('rs', owned('ReplicaSet', true)),
    pod('ds', owned('DaemonSet', true)),
    pod('ds-not-controller', owned('DaemonSet', false)),
    pod('mirror', { annotations: { 'kubernetes.io/config.mirror': 'x' } }),
  ];
  assert.deepEqual(
    podsToDrain(pods).map((p) => p.metadata?.name),
    ['bare', 'rs', 'ds-not-controller'],
  );
});

void test('the Eviction body and path', () => {
  const p = pod('web-1');
  assert.deepEqual(evictionFor(p), {
    apiVersion: 'policy/v1',
    kind: 'Eviction',
    metadata: { name: 'web-1', namespace: 'ns' },
  });
  assert.equal(evictionPath(p), '/api/v1/namespaces/ns/pods/web-1/eviction');
});

void test('formatGoDuration matches time.Duration.String()', () => {
  assert.equal(formatGoDuration(0), '0s');
  assert.equal(formatGoDuration(500), '500ms');
  assert.equal(formatGoDuration(5_000), '5s');
  assert.equal(formatGoDuration(1_500), '1.5s');
  assert.equal(formatGoDuration(90_000), '1m30s');
  assert.equal(formatGoDuration(600_000), '10m0s');
  assert.equal(formatGoDuration(3_600_000), '1h0m0s');
  assert.equal(formatGoDuration(5_400_000), '1h30m0s');
  assert.equal(formatGoDuration(-90_000), '-1m30s');
});

void test('drain error texts as the drain helper and the controller write them', () => {
  assert.equal(aggregateErrors(['a']), 'a');
  assert.equal(aggregateErrors(['a', 'b']), '[a, b]');
  assert.equal(
    attemptTimeoutMessage(
      [
        { namespace: 'default', name: 'web-a', cause: 'eviction' },
        { namespace: 'db', name: 'pg-0', cause: 'terminating' },
      ],
      90_000,
    ),
    '[error when evicting pods/"web-a" -n "default": global timeout reached: 1m30s, error when waiting for pod "pg-0" in namespace "db" to terminate: global timeout reached: 1m30s]',
  );
  assert.equal(
    drainThresholdMessage(600_000, 300_000, 'E'),
    'Drain failed. Drain has been failing for more than 10 minutes. Waiting 5 minutes then retrying. Error message from drain: E',
  );
  assert.equal(drainFailedMessage('w1', 3_600_000), 'node w1: drain exceeded timeout: 1h0m0s. Will continue to retry.');
});
