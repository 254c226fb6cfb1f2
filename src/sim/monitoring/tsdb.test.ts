import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ScrapeWriter, Tsdb } from './tsdb.js';

const name = [{ name: '__name__', type: '=' as const, value: 'm' }];

test('instant selection takes the newest sample within the lookback, not after t', () => {
  const db = new Tsdb();
  for (let i = 0; i < 10; i++) db.append({ __name__: 'm', a: '1' }, i < 5 ? 1 : 2, i * 30_000);
  assert.deepEqual(
    db.selectInstant(name, 100_000, 300_000).map((s) => [s.t, s.v]),
    [[90_000, 1]],
  );
  assert.deepEqual(
    db.selectInstant(name, 150_000, 300_000).map((s) => [s.t, s.v]),
    [[150_000, 2]],
  );
  assert.deepEqual(
    db.selectInstant(name, 270_000 + 300_000, 300_000).map((s) => s.v),
    [2],
  );
  assert.deepEqual(db.selectInstant(name, 270_001 + 300_000, 300_000), []);
  assert.deepEqual(db.selectInstant(name, -1, 300_000), []);
});

test('range selection is closed on both ends and expands runs', () => {
  const db = new Tsdb();
  for (let i = 0; i < 10; i++) db.append({ __name__: 'm' }, i % 3 === 0 ? 5 : 7, i * 30_000);
  const [s] = db.selectRange(name, 60_000, 150_000);
  assert.deepEqual(
    s?.points.map((p) => [p.t, p.v]),
    [
      [60_000, 7],
      [90_000, 5],
      [120_000, 7],
      [150_000, 7],
    ],
  );
});

test('a stale marker ends the series for instant selectors and is not a range sample', () => {
  const db = new Tsdb();
  db.append({ __name__: 'm' }, 1, 0);
  db.append({ __name__: 'm' }, 1, 30_000);
  db.markStale({ __name__: 'm' }, 60_000);
  assert.deepEqual(
    db.selectInstant(name, 45_000, 300_000).map((s) => s.v),
    [1],
  );
  assert.deepEqual(db.selectInstant(name, 60_000, 300_000), []);
  assert.equal(db.selectRange(name, 0, 120_000)[0]?.points.length, 2);
  db.append({ __name__: 'm' }, 3, 90_000);
  assert.deepEqual(
    db.selectInstant(name, 90_000, 300_000).map((s) => s.v),
    [3],
  );
  assert.deepEqual(db.liveSeries(), [{ __name__: 'm' }]);
});

test('a repeated timestamp replaces the value; older samples are ignored', () => {
  const db = new Tsdb();
  db.append({ __name__: 'm' }, 1, 0);
  db.append({ __name__: 'm' }, 1, 30_000);
  db.append({ __name__: 'm' }, 4, 30_000);
  db.append({ __name__: 'm' }, 9, 10_000);
  assert.deepEqual(
    db.selectRange(name, 0, 60_000)[0]?.points.map((p) => [p.t, p.v]),
    [
      [0, 1],
      [30_000, 4],
    ],
  );
});

test('compaction keeps only the retention window and drops dead series', () => {
  const db = new Tsdb({ retentionMs: 60_000 });
  for (let i = 0; i <= 10; i++) db.append({ __name__: 'm' }, 1, i * 30_000);
  db.append({ __name__: 'gone' }, 1, 0);
  db.compact(300_000);
  assert.deepEqual(
    db.selectRange(name, 0, 300_000)[0]?.points.map((p) => p.t),
    [240_000, 270_000, 300_000],
  );
  assert.equal(db.seriesCount, 1);
});

test('ScrapeWriter marks series missing from the next scrape stale', () => {
  const db = new Tsdb();
  const w = new ScrapeWriter(db);
  w.write(
    [
      { labels: { __name__: 'm', a: '1' }, value: 1 },
      { labels: { __name__: 'm', a: '2' }, value: 1 },
    ],
    0,
  );
  w.write([{ labels: { __name__: 'm', a: '1' }, value: 1 }], 30_000);
  assert.deepEqual(
    db.selectInstant(name, 30_000, 300_000).map((s) => s.metric['a']),
    ['1'],
  );
});
