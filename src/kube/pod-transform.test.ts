import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { realisticPod } from '../../test/bench/fixtures.js';
import { drainPodTransform } from './pod-transform.js';

test('drainPodTransform keeps what drain logic reads and drops the rest', () => {
  const pod = realisticPod(3, { namespaces: 5, nodes: 5 }) as unknown as Pod;
  const slim = drainPodTransform({
    ...pod,
    metadata: { ...pod.metadata, resourceVersion: '42', deletionTimestamp: '2025-01-06T10:00:00Z' },
  });
  assert.equal(slim.metadata?.name, pod.metadata?.name);
  assert.equal(slim.metadata?.namespace, pod.metadata?.namespace);
  assert.equal(slim.metadata?.resourceVersion, '42');
  assert.equal(slim.metadata?.deletionTimestamp, '2025-01-06T10:00:00Z');
  assert.deepEqual(slim.metadata?.labels, pod.metadata?.labels);
  assert.deepEqual(slim.metadata?.ownerReferences, pod.metadata?.ownerReferences);
  assert.equal(slim.metadata?.annotations, undefined);
  assert.equal(slim.spec?.nodeName, pod.spec?.nodeName);
  assert.deepEqual(slim.spec?.containers, []);
  assert.equal(slim.status?.phase, 'Running');
  assert.equal(slim.status?.containerStatuses, undefined);
  assert.ok(JSON.stringify(slim).length * 4 < JSON.stringify(pod).length);
});

test('drainPodTransform keeps emptyDir volumes and the mirror-pod annotation', () => {
  const pod: Pod = {
    metadata: { name: 'p', namespace: 'n', annotations: { 'kubernetes.io/config.mirror': 'abc', other: 'x' } },
    spec: {
      containers: [{ name: 'c' }],
      volumes: [
        { name: 'scratch', emptyDir: {} },
        { name: 'cfg', configMap: { name: 'c' } },
      ],
    },
  };
  const slim = drainPodTransform(pod);
  assert.deepEqual(slim.metadata?.annotations, { 'kubernetes.io/config.mirror': 'abc' });
  assert.deepEqual(slim.spec?.volumes, [{ name: 'scratch', emptyDir: {} }]);
  assert.equal(slim.status, undefined);
});
