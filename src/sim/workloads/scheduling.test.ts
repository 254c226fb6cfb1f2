import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, NodeCondition } from 'kubernetes-types/core/v1.js';
import { isNodeReady, isNodeSchedulable } from './scheduling.js';

function node(conditions: NodeCondition[] | undefined, unschedulable?: boolean): Node {
  return {
    metadata: { name: 'n' },
    ...(unschedulable === undefined ? {} : { spec: { unschedulable } }),
    ...(conditions === undefined ? {} : { status: { conditions } }),
  };
}

void test('isNodeReady: only a Ready condition with status True counts', () => {
  assert.equal(
    isNodeReady(
      node([
        { type: 'MemoryPressure', status: 'False' },
        { type: 'Ready', status: 'True' },
      ]),
    ),
    true,
  );
  assert.equal(isNodeReady(node([{ type: 'Ready', status: 'False' }])), false);
  assert.equal(isNodeReady(node([{ type: 'Ready', status: 'Unknown' }])), false);
  assert.equal(
    isNodeReady(node([{ type: 'MemoryPressure', status: 'True' }])),
    false,
    'another condition True is not Ready',
  );
  assert.equal(isNodeReady(node([])), false);
  assert.equal(isNodeReady(node(undefined)), false, 'no status at all');
});

void test('isNodeSchedulable: Ready and not cordoned', () => {
  const ready: NodeCondition[] = [{ type: 'Ready', status: 'True' }];
  assert.equal(isNodeSchedulable(node(ready)), true);
  assert.equal(isNodeSchedulable(node(ready, false)), true);
  assert.equal(isNodeSchedulable(node(ready, true)), false);
  assert.equal(isNodeSchedulable(node([{ type: 'Ready', status: 'False' }])), false);
});
