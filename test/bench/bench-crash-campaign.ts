/**
 * The crash campaign, long (docs/simulation.md#rehearsing-the-real-deployment): three managed and
 * three scheduled upgrades rehearsed through `simulate --operator external` and the installed
 * `upgrade-operator run --rehearsal`, whose process is SIGKILLed at ten seeded random points of
 * each upgrade and started again at once, as the same pod or a new one
 * (test/e2e/crash-campaign.test-support.ts). The target: at least 50 kills over at least 5
 * upgrades, every kill survived (the restarted process took the Lease over and the upgrade went
 * on), every upgrade completed exactly once, and nothing left behind or made twice.
 */
import {
  describeRun,
  runCrashUpgrade,
  type CrashFlow,
  type CrashRunRecord,
} from '../e2e/crash-campaign.test-support.js';
import type { BenchResult } from './result.js';
import { summarize } from './stats.js';

const SEEDS = [1, 2, 3];
const FLOWS: readonly CrashFlow[] = ['managed', 'scheduled'];
const KILLS_PER_UPGRADE = 10;
/** Scaled time of the rehearsals: a few hundred, as docs/simulation.md advises. */
const TIME_SCALE = 300;
const TARGET_KILLS = 50;
const TARGET_UPGRADES = 5;

/** Runs the campaign. */
export async function runCrashCampaignBench(log: (line: string) => void): Promise<BenchResult> {
  const records: CrashRunRecord[] = [];
  for (const flow of FLOWS) {
    for (const seed of SEEDS) {
      const r = await runCrashUpgrade({ flow, seed, kills: KILLS_PER_UPGRADE, timeScale: TIME_SCALE, log });
      records.push(r);
      log(`crash campaign ${describeRun(r)}`);
    }
  }
  const sum = (pick: (r: CrashRunRecord) => number): number => records.reduce((n, r) => n + pick(r), 0);
  const kills = sum((r) => r.kills);
  const survived = sum((r) => (r.ok ? r.takeovers : 0));
  const exactlyOnce = records.filter((r) => r.verdict.completed === 1).length;
  const leaks = {
    silences: sum((r) => r.verdict.leaks.silences),
    capacityMachineSets: sum((r) => r.verdict.leaks.capacityMachineSets),
    pausedPools: sum((r) => r.verdict.leaks.pausedPools),
    duplicateHookJobs: sum((r) => r.verdict.leaks.duplicateHookJobs),
  };
  const takeovers = records.flatMap((r) => r.takeoverMs);
  const takeover = summarize(takeovers.length > 0 ? takeovers : [0]);
  const wall = summarize(records.map((r) => r.wallMs));
  const pass =
    kills >= TARGET_KILLS &&
    records.length >= TARGET_UPGRADES &&
    survived === kills &&
    exactlyOnce === records.length &&
    records.every((r) => r.ok) &&
    Object.values(leaks).every((n) => n === 0);
  return {
    id: 'crash-campaign',
    title: 'Crash campaign: run SIGKILLed and restarted mid-upgrade',
    method: `${records.length} upgrades (\`managed-osd-upgrade\` and the scheduled rehearsal scenario of test/e2e/rehearsal.test-support.ts, seeds ${SEEDS.join(', ')}) rehearsed at ×${TIME_SCALE} against \`upgrade-operator apiserver\`, with the operator as the installed \`upgrade-operator run --rehearsal\` in its own process (Lease of 2 s, renew deadline 1.5 s, retry 0.5 s). At ${KILLS_PER_UPGRADE} seeded points of each upgrade (one in each tenth of its span), once the process holds the Lease, it is SIGKILLed and started again at once, as the same pod (its identity, which takes the Lease back at once) and as a new pod (a new identity, which waits the Lease out) in turn. A kill is survived when the restarted process takes the Lease over and the upgrade completes exactly once with nothing left behind: silences, capacity MachineSets, paused pools, duplicate hook Jobs (test/e2e/campaign.test-support.ts).`,
    target: `≥ ${TARGET_KILLS} kills over ≥ ${TARGET_UPGRADES} upgrades; every kill survived; every upgrade completed exactly once; 0 leaked silences, capacity MachineSets, paused pools, duplicate hook Jobs`,
    result: `${survived}/${kills} kills survived over ${records.length} upgrades; ${exactlyOnce}/${records.length} completed exactly once; leaks ${Object.values(leaks).reduce((a, b) => a + b, 0)}`,
    pass,
    measurements: [
      {
        label: 'kills: as the same pod / as a new pod',
        value: `${kills}: ${sum((r) => r.restarts.sameIdentity)} / ${sum((r) => r.restarts.newIdentity)}`,
      },
      { label: 'kills survived', value: `${survived} of ${kills}` },
      { label: 'upgrades completed exactly once', value: `${exactlyOnce} of ${records.length}` },
      {
        label: 'leaked silences / capacity MachineSets / paused pools / duplicate hook Jobs',
        value: `${leaks.silences} / ${leaks.capacityMachineSets} / ${leaks.pausedPools} / ${leaks.duplicateHookJobs}`,
      },
      {
        label: 'restart to Lease held (median, max)',
        value: `${(takeover.median / 1000).toFixed(1)} s, ${(takeover.max / 1000).toFixed(1)} s`,
      },
      { label: 'exits of run not caused by a kill', value: String(sum((r) => r.unplannedExits)) },
      {
        label: 'wall time per upgrade (median, max)',
        value: `${(wall.median / 1000).toFixed(1)} s, ${(wall.max / 1000).toFixed(1)} s`,
      },
    ],
    memory: [],
    notes: records.filter((r) => !r.ok).map(describeRun),
  };
}
