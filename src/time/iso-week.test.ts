import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isoWeekOf, isoWeeksInYear } from './iso-week.js';

test('ISO weeks around year boundaries, like Go’s ISOWeek', () => {
  const cases: [number, number, number, number, number][] = [
    [2020, 12, 28, 2020, 53],
    [2020, 12, 29, 2020, 53],
    [2021, 1, 3, 2020, 53],
    [2021, 1, 4, 2021, 1],
    [2021, 1, 5, 2021, 1],
    [2024, 12, 29, 2024, 52],
    [2024, 12, 30, 2025, 1],
    [2025, 1, 1, 2025, 1],
    [2026, 12, 31, 2026, 53],
    [2027, 1, 1, 2026, 53],
    [2027, 1, 4, 2027, 1],
    [2024, 3, 31, 2024, 13],
    [2024, 10, 27, 2024, 43],
    [2008, 12, 29, 2009, 1],
    [2010, 1, 3, 2009, 53],
    [1, 1, 1, 1, 1],
  ];
  for (const [y, m, d, wy, w] of cases) assert.deepEqual(isoWeekOf(y, m, d), { year: wy, week: w }, `${y}-${m}-${d}`);
});

test('53-week years are those starting or (leap) ending on Thursday', () => {
  const long = [];
  for (let y = 2015; y <= 2040; y++) if (isoWeeksInYear(y) === 53) long.push(y);
  assert.deepEqual(long, [2015, 2020, 2026, 2032, 2037]);
});

test('consecutive days: the week changes only on Mondays, by one', () => {
  fc.assert(
    fc.property(fc.integer({ min: -20_000, max: 40_000 }), (n) => {
      const a = new Date(n * 86_400_000);
      const b = new Date((n + 1) * 86_400_000);
      const wa = isoWeekOf(a.getUTCFullYear(), a.getUTCMonth() + 1, a.getUTCDate());
      const wb = isoWeekOf(b.getUTCFullYear(), b.getUTCMonth() + 1, b.getUTCDate());
      if (b.getUTCDay() !== 1) assert.deepEqual(wb, wa);
      else if (wa.week === isoWeeksInYear(wa.year)) assert.deepEqual(wb, { year: wa.year + 1, week: 1 });
      else assert.deepEqual(wb, { year: wa.year, week: wa.week + 1 });
    }),
  );
});
