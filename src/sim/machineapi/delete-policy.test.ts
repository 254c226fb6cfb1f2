import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Machine } from '../../api/openshift/machine-v1beta1/machine.js';
import { deletePriority, machinesToDelete } from './delete-policy.js';

const NOW = Date.UTC(2026, 2, 2, 12);
const HOUR = 3_600_000;

function machine(
  name: string,
  ageHours: number,
  extra: { annotated?: boolean; deleting?: boolean; nodeRef?: boolean } = {},
): Machine {
  return {
    metadata: {
      name,
      creationTimestamp: new Date(NOW - ageHours * HOUR).toISOString(),
      ...(extra.annotated ? { annotations: { 'machine.openshift.io/delete-machine': 'true' } } : {}),
      ...(extra.deleting ? { deletionTimestamp: new Date(NOW).toISOString() } : {}),
    },
    status: extra.nodeRef === false ? {} : { nodeRef: { kind: 'Node', name } },
  };
}

void test('Oldest removes the oldest, Newest the newest; the delete-machine annotation goes first under both', () => {
  const ms = [machine('a', 1), machine('b', 48), machine('c', 5)];
  assert.deepEqual(
    machinesToDelete(ms, 1, 'Oldest', NOW).map((m) => m.metadata?.name),
    ['b'],
  );
  assert.deepEqual(
    machinesToDelete(ms, 2, 'Newest', NOW).map((m) => m.metadata?.name),
    ['a', 'c'],
  );
  const marked = [machine('a', 1), machine('b', 48), machine('c', 5, { annotated: true })];
  assert.deepEqual(
    machinesToDelete(marked, 1, 'Oldest', NOW).map((m) => m.metadata?.name),
    ['c'],
  );
  assert.deepEqual(
    machinesToDelete(marked, 1, 'Newest', NOW).map((m) => m.metadata?.name),
    ['c'],
  );
});

void test('Random: deleting first, then annotated, then machines without a node; ties keep the given order', () => {
  const ms = [
    machine('a', 1),
    machine('b', 1, { nodeRef: false }),
    machine('c', 1, { annotated: true }),
    machine('d', 1, { deleting: true }),
  ];
  assert.deepEqual(
    machinesToDelete(ms, 3, 'Random', NOW).map((m) => m.metadata?.name),
    ['d', 'c', 'b'],
  );
  assert.equal(deletePriority('Random', machine('x', 1), NOW), 20);
  assert.equal(deletePriority('Oldest', machine('x', 1, { deleting: true }), NOW), 100);
  assert.deepEqual(machinesToDelete(ms, 0, 'Random', NOW), []);
  assert.equal(machinesToDelete(ms, 9, 'Random', NOW).length, 4);
});
