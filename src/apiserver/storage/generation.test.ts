import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../types.js';
import { generationChanges, nextGeneration } from './generation.js';

function obj(spec: unknown, extra: Partial<KubeObject> = {}, annotations?: Record<string, string>): KubeObject {
  return {
    apiVersion: 'x/v1',
    kind: 'X',
    metadata: { name: 'a', generation: 4, ...(annotations ? { annotations } : {}) },
    spec: spec as never,
    ...extra,
  };
}

void test('spec rule: only spec changes count', () => {
  assert.equal(generationChanges('spec', obj({ a: 1 }), obj({ a: 2 }), true), true);
  assert.equal(generationChanges('spec', obj({ a: 1 }), obj({ a: 1 }, {}, { x: 'y' }), true), false);
  assert.equal(generationChanges('spec', obj({ a: 1 }), obj({ a: 1 }, { status: { s: 1 } }), true), false);
});

void test('specAndAnnotations rule: annotations count as well', () => {
  assert.equal(generationChanges('specAndAnnotations', obj({ a: 1 }), obj({ a: 1 }, {}, { x: 'y' }), true), true);
});

void test('content rule: status counts only without a status subresource; top-level fields count', () => {
  assert.equal(generationChanges('content', obj({}), obj({}, { status: { s: 1 } }), true), false);
  assert.equal(generationChanges('content', obj({}), obj({}, { status: { s: 1 } }), false), true);
  assert.equal(generationChanges('content', obj({}), obj({}, { data: { k: 'v' } }), true), true);
});

void test('nextGeneration: undefined for kinds without one, old + 1 on a change', () => {
  assert.equal(nextGeneration(undefined, obj({ a: 1 }), obj({ a: 2 }), true), undefined);
  assert.equal(nextGeneration('spec', obj({ a: 1 }), obj({ a: 2 }), true), 5);
  assert.equal(nextGeneration('spec', obj({ a: 1 }), obj({ a: 1 }), true), 4);
});
