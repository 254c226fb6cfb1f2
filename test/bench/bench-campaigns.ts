/**
 * The fault campaign over ten seeds per flow (docs/simulation.md#faults), in this process: each
 * flow's upgrade against an API server that fails 15 % of the operator's requests, cuts its
 * watches about every minute and answers half of its resumes 410 Expired. A run passes when the
 * upgrade ends as expected exactly once and nothing was done twice or left behind
 * (test/e2e/campaign.test-support.ts); a run whose virtual clock stops for good is a stall, ended
 * after a wall-clock limit. The target: every run of both flows passes, no stall.
 */
import { environmentFor, loadScenario, runScenario } from '../../src/cli/scenarios/catalog.js';
import { startSimEnvironment } from '../../src/cli/scenarios/sim-environment.js';
import { campaignVerdict } from '../e2e/campaign.test-support.js';
import type { BenchResult } from './result.js';
import { summarize } from './stats.js';

const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
/** A run still going after this long (wall time) has stalled: a full run takes well under a minute. */
const STALL_AFTER_MS = 4 * 60_000;
const FLOWS = [
  { flow: 'managed', scenario: 'managed-fault-campaign' },
  { flow: 'scheduled', scenario: 'scheduled-fault-campaign' },
] as const;

interface RunRecord {
  flow: string;
  seed: number;
  verdict: 'passed' | 'failed' | 'stalled';
  wallMs: number;
  why: string;
}

async function runOnce(scenario: string, flow: 'managed' | 'scheduled', seed: number): Promise<RunRecord> {
  const { file } = loadScenario(scenario);
  const env = await startSimEnvironment(environmentFor(file, seed));
  const started = performance.now();
  let stalledTimer: NodeJS.Timeout | undefined;
  const stalled = new Promise<'stalled'>((resolve) => {
    stalledTimer = setTimeout(() => resolve('stalled'), STALL_AFTER_MS);
  });
  try {
    const outcome = await Promise.race([runScenario(env, file, { seed }), stalled]);
    if (outcome === 'stalled')
      return { flow, seed, verdict: 'stalled', wallMs: performance.now() - started, why: 'the virtual clock stopped' };
    try {
      const verdict = await campaignVerdict(outcome, flow);
      return {
        flow,
        seed,
        verdict: verdict.ok ? 'passed' : 'failed',
        wallMs: performance.now() - started,
        why: verdict.problems.join('; '),
      };
    } finally {
      await outcome.run.close();
    }
  } finally {
    clearTimeout(stalledTimer);
    await env.close();
  }
}

/** Runs both campaigns. */
export async function runFaultCampaignBench(log: (line: string) => void): Promise<BenchResult> {
  const records: RunRecord[] = [];
  for (const { flow, scenario } of FLOWS) {
    for (const seed of SEEDS) {
      const r = await runOnce(scenario, flow, seed);
      records.push(r);
      log(
        `fault campaign ${flow} seed ${seed}: ${r.verdict} in ${(r.wallMs / 1000).toFixed(1)} s${r.why ? ` (${r.why})` : ''}`,
      );
    }
  }
  const count = (flow: string, verdict: RunRecord['verdict']): number =>
    records.filter((r) => r.flow === flow && r.verdict === verdict).length;
  const pass = records.every((r) => r.verdict === 'passed');
  const wall = summarize(records.map((r) => r.wallMs));
  return {
    id: 'fault-campaign',
    title: 'Fault campaign: both flows under API faults',
    method:
      "Each flow's campaign scenario (`managed-fault-campaign`, `scheduled-fault-campaign`: 15 % of the operator's API requests fail with 409, 500, 503, 429 or 504, its watches are cut about every minute, half of its resumes get `410 Expired`) over seeds 1–10, in this process on event-driven virtual time. A run passes when the upgrade ends as expected exactly once and no silence, capacity MachineSet, paused pool or hook Job was made twice or left behind; a run still going after 4 minutes of wall time has stalled.",
    target: 'every run of both flows passes (10/10 each), no stall',
    result:
      FLOWS.map(({ flow }) => `${flow} ${count(flow, 'passed')}/${SEEDS.length}`).join(', ') +
      `; ${records.filter((r) => r.verdict === 'stalled').length} stalled`,
    pass,
    measurements: [
      ...FLOWS.map(({ flow }) => ({
        label: `${flow}: passed / failed / stalled`,
        value: `${count(flow, 'passed')} / ${count(flow, 'failed')} / ${count(flow, 'stalled')}`,
      })),
      {
        label: 'wall time per run (median, max)',
        value: `${(wall.median / 1000).toFixed(1)} s, ${(wall.max / 1000).toFixed(1)} s`,
      },
    ],
    memory: [],
    notes: records.filter((r) => r.verdict !== 'passed').map((r) => `${r.flow} seed ${r.seed} ${r.verdict}: ${r.why}`),
  };
}
