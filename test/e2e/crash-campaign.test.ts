/**
 * The crash campaign, short (docs/simulation.md#rehearsing-the-real-deployment): a managed and a
 * scheduled upgrade rehearsed with `run --rehearsal` in its own process, SIGKILLed at three seeded
 * random points of each and started again at once (as the same pod or a new one). Each upgrade
 * completes exactly once, leaves no silence, capacity MachineSet, paused pool or duplicate hook
 * Job, and the restarted process takes the killed one's Lease over every time. `npm run bench`
 * runs the long campaign (test/bench/bench-crash-campaign.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SeededRandom } from '../../src/lib/random.js';
import { LEASE_FLAGS, describeRun, killPoints, runCrashUpgrade } from './crash-campaign.test-support.js';

const RUNS = [
  { flow: 'managed', seed: 1 },
  { flow: 'scheduled', seed: 1 },
] as const;

for (const { flow, seed } of RUNS) {
  void test(
    `crash campaign, ${flow} flow, seed ${seed}: three SIGKILLs of run, restarted at once; the upgrade completes once, nothing left behind`,
    { timeout: 240_000 },
    async (t) => {
      const record = await runCrashUpgrade({ flow, seed, kills: 3, timeScale: 600, log: (line) => t.diagnostic(line) });
      t.diagnostic(describeRun(record));
      assert.equal(record.kills, 3, describeRun(record));
      assert.deepEqual(
        {
          problems: [...record.verdict.problems, ...record.crashProblems],
          completed: record.verdict.completed,
          leaks: record.verdict.leaks,
          takeovers: record.takeovers,
        },
        {
          problems: [],
          completed: 1,
          leaks: { silences: 0, capacityMachineSets: 0, pausedPools: 0, duplicateHookJobs: 0 },
          takeovers: 3,
        },
      );
    },
  );
}

void test('kill points spread over the upgrade: one drawn in each equal stretch of the span, the same for one seed', () => {
  const points = killPoints(new SeededRandom(7), 5, 151);
  assert.equal(points.length, 5);
  points.forEach((p, i) => assert.ok(p >= (1 + i * 30) * 60_000 && p <= (1 + (i + 1) * 30) * 60_000, `${i}: ${p}`));
  assert.deepEqual(killPoints(new SeededRandom(7), 5, 151), points);
  assert.notDeepEqual(killPoints(new SeededRandom(8), 5, 151), points);
});

void test("the campaign's Lease settings are the ones docs/simulation.md shows for a rehearsal with crashes", () => {
  const doc = readFileSync(fileURLToPath(new URL('../../docs/simulation.md', import.meta.url)), 'utf8').replace(
    /\s+/g,
    ' ',
  );
  assert.ok(doc.includes(`(\`${LEASE_FLAGS.join(' ')}\`)`), LEASE_FLAGS.join(' '));
});
