import { test } from 'node:test';
import assert from 'node:assert/strict';
import { configMapType, namespaceType, podType } from '../builtin/kinds.js';
import type { JsonObject, KubeObject } from '../types.js';
import {
  applyPropagationPolicy,
  initialGracePeriod,
  markDeleting,
  newFinalizersWhileDeleting,
  removableNow,
  shortenGracePeriod,
  shouldRemove,
} from './deletion.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');

function pod(extra: JsonObject = {}, status: JsonObject = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'd' },
    spec: { nodeName: 'n1', terminationGracePeriodSeconds: 10, ...extra },
    status,
  };
}

void test('propagation policies swap the orphan/foregroundDeletion finalizers and keep others', () => {
  const o: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', finalizers: ['x/y', 'orphan'] } };
  applyPropagationPolicy(o, 'Foreground');
  assert.deepEqual(o.metadata.finalizers, ['x/y', 'foregroundDeletion']);
  applyPropagationPolicy(o, 'Background');
  assert.deepEqual(o.metadata.finalizers, ['x/y']);
  const bare: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b', finalizers: ['orphan'] } };
  applyPropagationPolicy(bare, 'Background');
  assert.equal(bare.metadata.finalizers, undefined);
});

void test('grace periods: bound running pods only; a repeated delete may only shorten it', () => {
  assert.equal(initialGracePeriod(podType, pod(), undefined), 10);
  assert.equal(initialGracePeriod(podType, pod(), 3), 3);
  assert.equal(initialGracePeriod(podType, pod({ nodeName: '' }), undefined), 0);
  assert.equal(initialGracePeriod(podType, pod({}, { phase: 'Succeeded' }), undefined), 0);
  assert.equal(initialGracePeriod(configMapType, pod(), 30), 0);
  const p = pod();
  markDeleting(podType, p, T0, 10);
  shortenGracePeriod(podType, p, 20, T0);
  assert.equal(p.metadata.deletionGracePeriodSeconds, 10);
  shortenGracePeriod(podType, p, 0, T0 + 1000);
  assert.equal(p.metadata.deletionGracePeriodSeconds, 0);
  assert.equal(p.metadata.deletionTimestamp, '2026-01-01T00:00:01Z');
  assert.equal(shouldRemove(podType, p), true);
});

void test('marking: timestamp, generation bump when present, Namespace Terminating; removal waits for finalizers', () => {
  const ns: KubeObject = {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'n' },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  };
  assert.equal(removableNow(namespaceType, ns, 0), false);
  markDeleting(namespaceType, ns, T0, 0);
  assert.deepEqual(ns.status, { phase: 'Terminating' });
  assert.equal(ns.metadata.generation, undefined);
  assert.equal(shouldRemove(namespaceType, ns), false);
  const cm: KubeObject = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'c', generation: 2, finalizers: ['x/y'] },
  };
  markDeleting(configMapType, cm, T0, 0);
  assert.equal(cm.metadata.generation, 3);
  assert.equal(cm.metadata.deletionTimestamp, '2026-01-01T00:00:00Z');
  assert.equal(shouldRemove(configMapType, cm), false);
  const added = { ...cm, metadata: { ...cm.metadata, finalizers: ['x/y', 'new/one'] } };
  assert.equal(
    newFinalizersWhileDeleting(cm, added)?.detail,
    'no new finalizers can be added if the object is being deleted, found new finalizers []string{"new/one"}',
  );
  assert.equal(newFinalizersWhileDeleting(cm, cm), undefined);
});
