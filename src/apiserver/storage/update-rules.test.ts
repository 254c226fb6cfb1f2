import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cloneJson } from '../../lib/json.js';
import { deploymentType, namespaceType } from '../builtin/kinds.js';
import type { KubeObject } from '../types.js';
import { updatedObject } from './update-rules.js';

const ns: KubeObject = {
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'n', uid: 'u1', creationTimestamp: '2026-01-01T00:00:00Z', labels: { a: 'b' } },
  spec: { finalizers: ['kubernetes'] },
  status: { phase: 'Active' },
};

void test('a main write keeps system metadata, status and a Namespace spec.finalizers', () => {
  const incoming: KubeObject = {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'n', uid: 'other', labels: { c: 'd' }, selfLink: '/x' },
    spec: {},
    status: { phase: 'Terminating' },
  };
  const next = updatedObject(namespaceType, ns, cloneJson(incoming), undefined);
  assert.equal(next.metadata.uid, 'u1');
  assert.equal(next.metadata.creationTimestamp, '2026-01-01T00:00:00Z');
  assert.equal(next.metadata.selfLink, undefined);
  assert.deepEqual(next.metadata.labels, { c: 'd', 'kubernetes.io/metadata.name': 'n' });
  assert.deepEqual(next.status, { phase: 'Active' });
  assert.deepEqual(next.spec, { finalizers: ['kubernetes'] });
});

void test('a finalize write changes only spec.finalizers; a status write only status', () => {
  const finalized = updatedObject(
    namespaceType,
    ns,
    { ...cloneJson(ns), metadata: { name: 'n', labels: {} }, spec: { finalizers: [] } },
    'finalize',
  );
  assert.deepEqual(finalized.spec, { finalizers: [] });
  assert.deepEqual(finalized.metadata.labels, { a: 'b' });
  const d: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd', generation: 3 },
    spec: { replicas: 1 },
    status: {},
  };
  const status = updatedObject(
    deploymentType,
    d,
    { ...cloneJson(d), spec: { replicas: 9 }, status: { replicas: 1 } },
    'status',
  );
  assert.deepEqual(status.spec, { replicas: 1 });
  assert.deepEqual(status.status, { replicas: 1 });
});
