/**
 * The fault campaign, short (docs/simulation.md#faults): each flow's upgrade against an API server
 * that fails 15 % of the operator's requests, cuts its watches every minute and answers half of
 * its resumes 410 Expired, for two seeds per flow (`npm run bench` runs ten). Seeds 2 and 7 of the
 * managed flow are the ones that failed the upgrade (a transient error retried only at the window's
 * close) and stalled the virtual clock (a reconcile sleeping in two branches) before their fixes.
 * A run that stalls would never end: the test's timeout turns that into a failure.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCheckedScenario } from '../../src/api/deploy/operator-requests.test-support.js';
import { environmentFor, loadScenario } from '../../src/cli/scenarios/catalog.js';
import { startSimEnvironment } from '../../src/cli/scenarios/sim-environment.js';
import { campaignVerdict } from './campaign.test-support.js';

const RUNS = [
  { name: 'managed-fault-campaign', flow: 'managed', seed: 2 },
  { name: 'managed-fault-campaign', flow: 'managed', seed: 7 },
  { name: 'scheduled-fault-campaign', flow: 'scheduled', seed: 1 },
  { name: 'scheduled-fault-campaign', flow: 'scheduled', seed: 2 },
] as const;

for (const { name, flow, seed } of RUNS) {
  void test(
    `${flow}-fault-campaign, seed ${seed}: the upgrade ends once, nothing done twice or left behind, time never stalls`,
    { timeout: 300_000 },
    async (t) => {
      const { file } = loadScenario(name);
      const env = await startSimEnvironment(environmentFor(file, seed));
      t.after(() => env.close());
      const outcome = await runCheckedScenario(env, name, file, { seed });
      t.after(() => outcome.run.close());
      const verdict = await campaignVerdict(outcome, flow);
      assert.deepEqual(verdict.problems, [], outcome.summary);
      const faults = env.server?.faults.counts();
      assert.ok(faults && Object.values(faults.errors).reduce((a, b) => a + b, 0) > 20, JSON.stringify(faults));
      assert.ok(faults.disconnects > 0 && faults.gone > 0, JSON.stringify(faults));
    },
  );
}
