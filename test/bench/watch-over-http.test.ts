import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { WatchEvent } from '../../src/kube/watch-decoder.js';
import { UnorderedWatchTally } from './watch-over-http.js';

function added(name: string, rv: number, bench = true): WatchEvent {
  return {
    type: 'ADDED',
    object: { metadata: { name, resourceVersion: String(rv), ...(bench ? { labels: { app: 'bench' } } : {}) } },
  };
}

test('every object once, in any order, in increasing resourceVersion, then the sentinel', () => {
  const t = new UnorderedWatchTally(3);
  assert.equal(t.accept(added('cm-2', 10), 1), false);
  assert.equal(t.accept({ type: 'BOOKMARK', object: { metadata: { resourceVersion: '11' } } }, 2), false);
  assert.equal(t.accept(added('kube-root-ca.crt', 12, false), 2), false);
  assert.equal(t.accept(added('cm-0', 13), 3), false);
  assert.equal(t.accept(added('cm-1', 14), 4), false);
  assert.equal(t.allAtMs, 4);
  assert.equal(t.accept(added('sentinel', 15, false), 5), true);
  assert.equal(t.sawSentinel, true);
});

test('a duplicate, a stranger, a step back, an early sentinel, another event type or an ERROR fail the watcher', () => {
  const dup = new UnorderedWatchTally(3);
  dup.accept(added('cm-1', 1), 0);
  assert.throws(() => dup.accept(added('cm-1', 2), 0), /cm-1 delivered twice/);
  assert.throws(() => new UnorderedWatchTally(3).accept(added('cm-3', 1), 0), /unexpected object cm-3/);
  const back = new UnorderedWatchTally(3);
  back.accept(added('cm-0', 5), 0);
  assert.throws(() => back.accept(added('cm-1', 4), 0), /resourceVersion 4 after 5: out of order/);
  const early = new UnorderedWatchTally(2);
  early.accept(added('cm-0', 1), 0);
  assert.throws(() => early.accept(added('sentinel', 2, false), 0), /the sentinel after 1 of 2 objects/);
  assert.throws(
    () => new UnorderedWatchTally(1).accept({ ...added('cm-0', 1), type: 'MODIFIED' }, 0),
    /unexpected MODIFIED event for cm-0/,
  );
  assert.throws(
    () => new UnorderedWatchTally(1).accept({ type: 'ERROR', object: { message: 'too old resource version' } }, 0),
    /watch ERROR event: too old resource version/,
  );
});
