import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { SeededRandom } from './random.js';

void test('triangular draws stay within [min, max] for any parameters and seed', () => {
  fc.assert(
    fc.property(
      fc.integer(),
      fc.double({ min: -1e6, max: 1e6, noNaN: true }),
      fc.double({ min: 0, max: 1e6, noNaN: true }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      (seed, min, span, at) => {
        const max = min + span;
        const mode = Math.min(max, Math.max(min, min + span * at));
        const r = new SeededRandom(seed);
        for (let i = 0; i < 20; i++) {
          const v = r.triangular(min, mode, max);
          assert.ok(v >= min && v <= max, `${v} outside [${min}, ${max}]`);
        }
      },
    ),
  );
});

void test('triangular has the mean and mode of the distribution', () => {
  const r = new SeededRandom('triangular');
  const [min, mode, max] = [8, 15, 25];
  const n = 20_000;
  let sum = 0;
  const bins = new Array<number>(17).fill(0);
  for (let i = 0; i < n; i++) {
    const v = r.triangular(min, mode, max);
    sum += v;
    bins[Math.min(16, Math.floor(v - min))]!++;
  }
  // Mean (min + mode + max) / 3 = 16; standard error ≈ 0.025 here.
  assert.ok(Math.abs(sum / n - 16) < 0.15, `mean ${sum / n}`);
  // The densest unit bin is the one just below or above the mode.
  const peak = bins.indexOf(Math.max(...bins)) + min;
  assert.ok(peak === 14 || peak === 15, `peak bin ${peak}`);
  // Below the mode the density rises linearly: the first bin is far thinner than the peak.
  assert.ok(bins[0]! < bins[peak - min]! / 5);
});

void test('triangular is reproducible by seed and handles degenerate shapes', () => {
  const a = new SeededRandom(7);
  const b = new SeededRandom(7);
  const drawsA = Array.from({ length: 10 }, () => a.triangular(0.5, 1.5, 3));
  const drawsB = Array.from({ length: 10 }, () => b.triangular(0.5, 1.5, 3));
  assert.deepEqual(drawsA, drawsB);
  assert.equal(new SeededRandom(1).triangular(4, 4, 4), 4);
  // Mode at an edge: a right or left triangle, still within bounds.
  const r = new SeededRandom(3);
  for (let i = 0; i < 100; i++) {
    const low = r.triangular(1, 1, 2);
    const high = r.triangular(1, 2, 2);
    assert.ok(low >= 1 && low <= 2 && high >= 1 && high <= 2);
  }
  assert.throws(() => new SeededRandom(1).triangular(3, 1, 2), RangeError);
  assert.throws(() => new SeededRandom(1).triangular(1, 3, 2), RangeError);
});

void test('fork gives independent, reproducible streams', () => {
  const a = new SeededRandom(7).fork('cvo');
  const b = new SeededRandom(7).fork('cvo');
  const c = new SeededRandom(7).fork('mco');
  const seqA = [a.next(), a.next(), a.next()];
  assert.deepEqual(seqA, [b.next(), b.next(), b.next()]);
  assert.notDeepEqual(seqA, [c.next(), c.next(), c.next()]);
});
