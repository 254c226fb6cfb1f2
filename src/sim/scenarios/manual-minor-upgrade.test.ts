import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestCluster } from '../test-support/cluster.test-support.js';
import { runManualMinorUpgrade, type ProgressSnapshot } from './manual-minor-upgrade.js';

async function run(t: Parameters<typeof startTestCluster>[0], seed: number): Promise<{ completed: boolean; minutes: number; timeline: ProgressSnapshot[] }> {
  const cluster = await startTestCluster(t, { seed });
  const timeline: ProgressSnapshot[] = [];
  const result = await runManualMinorUpgrade(cluster.ctx, cluster.clock, { signal: cluster.signal, onProgress: (p) => timeline.push(p) });
  return { completed: result.completed, minutes: result.upgradeMinutes, timeline };
}

void test('manual-minor-upgrade completes, and one seed gives one timeline', async (t) => {
  const first = await run(t, 3);
  assert.equal(first.completed, true);
  assert.ok(first.minutes >= 40 && first.minutes <= 200, `${first.minutes} virtual minutes`);
  const last = first.timeline.at(-1)!;
  assert.match(last.progressing, /^Cluster version is 4\.15\.\d+$/);
  assert.deepEqual(last.pools, { master: [3, 3], worker: [3, 3] });
  assert.ok(first.timeline.some((p) => /Working towards 4\.15\.\d+: \d+ of \d+ done \(\d+% complete\)/.test(p.progressing)));
  const second = await run(t, 3);
  assert.deepEqual(second.timeline, first.timeline);
});
