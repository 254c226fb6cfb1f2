import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WakeRegistry } from './wake-registry.js';

void test('a change of a kind wakes exactly the keys waiting on it', () => {
  const w = new WakeRegistry();
  w.set('ns/a', { kinds: ['ClusterVersion'] });
  w.set('ns/b', { kinds: ['MachineConfigPool', 'Node'], until: 100 });
  assert.deepEqual(w.keysWaitingOn('ClusterVersion'), ['ns/a']);
  assert.deepEqual(w.keysWaitingOn('Node'), ['ns/b']);
  assert.deepEqual(w.keysWaitingOn('MachineSet'), []);
  w.set('ns/a', { until: 50 });
  assert.deepEqual(w.keysWaitingOn('ClusterVersion'), []);
});

void test('requeueAfter is the time left, at least 1 ms; nothing waited for is forgotten', () => {
  const w = new WakeRegistry();
  w.set('k', { until: 100 });
  assert.equal(w.requeueAfter('k', 40), 60);
  assert.equal(w.requeueAfter('k', 400), 1);
  w.set('k', {});
  assert.equal(w.get('k'), undefined);
  assert.equal(w.requeueAfter('k', 0), undefined);
  w.set('k', { kinds: ['Node'] });
  w.clear('k');
  assert.deepEqual(w.keysWaitingOn('Node'), []);
});

void test('a change of a waited-for kind during a pass is not lost: set() says to run again', () => {
  const w = new WakeRegistry();
  const since = w.snapshot();
  assert.deepEqual(w.changed('ClusterVersion'), [], 'nobody waits yet');
  assert.equal(w.set('ns/a', { kinds: ['ClusterVersion'] }, since), true);
  assert.equal(
    w.set('ns/a', { kinds: ['MachineConfigPool'] }, since),
    false,
    'a change of another kind does not matter',
  );
  const later = w.snapshot();
  assert.equal(w.set('ns/a', { kinds: ['ClusterVersion'] }, later), false);
  assert.deepEqual(w.changed('ClusterVersion'), ['ns/a']);
});
