/**
 * The verdict of one run of a campaign scenario (the fault campaigns of both flows, the crash
 * campaign's upgrades), as the acceptance campaign judged it and as the suite and `npm run bench`
 * report it: the upgrade ended as expected exactly once, and no side effect was made twice or
 * left behind. Besides the problems in words, the counts a campaign adds up.
 */
import { MachineSetResource } from '../../src/api/openshift/machine-v1beta1/machine-set.js';
import { MachineConfigPoolResource } from '../../src/api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { UpgradeJobResource } from '../../src/api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import type { ScenarioOutcome } from '../../src/cli/scenarios/catalog.js';
import { hookJobsByRun, silences } from './scenario.test-support.js';

/** What went wrong in a campaign run (empty: nothing). */
export interface CampaignVerdict {
  ok: boolean;
  problems: string[];
  /** Upgrades that completed: history entries `Upgraded` (managed), UpgradeJobs `Succeeded` (scheduled); 1 on a good run. */
  completed: number;
  /** Side effects made twice or left behind; every count is 0 on a good run. */
  leaks: CampaignLeaks;
}

/** What a run left behind or made twice. */
export interface CampaignLeaks {
  /** The operator's silences still active at the end, plus those made twice. */
  silences: number;
  /** Capacity MachineSets (label `upgrade.managed.openshift.io=true`) left. */
  capacityMachineSets: number;
  /** MachineConfigPools left paused. */
  pausedPools: number;
  /** Hook Jobs beyond the first for one hook, event and tracking key. */
  duplicateHookJobs: number;
}

/** The scheduled flow's namespace in a scenario (the file's, else APPUiO's default). */
const SCHEDULED_NAMESPACE = 'appuio-openshift-upgrade-controller';

/** Judges a finished run of `managed-fault-campaign` or `scheduled-fault-campaign`. */
export async function campaignVerdict(
  outcome: ScenarioOutcome,
  flow: 'managed' | 'scheduled',
): Promise<CampaignVerdict> {
  const { run } = outcome;
  const problems = [...outcome.unmet];
  const client = run.env.client;
  const leaks: CampaignLeaks = { silences: 0, capacityMachineSets: 0, pausedPools: 0, duplicateHookJobs: 0 };
  let completed: number;
  // No paused pool is left behind (both flows pause pools only for a while).
  for (const pool of (await client.list(MachineConfigPoolResource)).items) {
    if (!pool.spec?.paused) continue;
    leaks.pausedPools++;
    problems.push(`MachineConfigPool ${pool.metadata?.name ?? ''} left paused`);
  }
  if (flow === 'managed') {
    const history = run.upgradeConfig()?.status?.history ?? [];
    completed = history.filter((h) => h.phase === 'Upgraded').length;
    if (history.length !== 1 || history[0]?.phase !== 'Upgraded')
      problems.push(
        `history ${JSON.stringify(history.map((h) => `${h.version ?? ''} ${h.phase}`))}, expected one Upgraded`,
      );
    const ours = (await silences(run)).filter((s) => s.createdBy === 'managed-upgrade-operator');
    const comments = ours.map((s) => s.comment);
    leaks.silences += comments.length - new Set(comments).size;
    if (new Set(comments).size !== comments.length) problems.push(`a silence made twice: ${JSON.stringify(comments)}`);
    const live = ours.filter((s) => s.status.state !== 'expired');
    leaks.silences += live.length;
    if (live.length > 0) problems.push(`silences left: ${JSON.stringify(live.map((s) => s.comment))}`);
    const clones = await client.list(MachineSetResource, {
      namespace: 'openshift-machine-api',
      labelSelector: 'upgrade.managed.openshift.io=true',
    });
    leaks.capacityMachineSets = clones.items.length;
    if (clones.items.length > 0) problems.push(`capacity MachineSets left: ${clones.items.length}`);
  } else {
    const namespace = run.file.operator?.namespace ?? SCHEDULED_NAMESPACE;
    const jobs = (await client.list(UpgradeJobResource, { namespace })).items;
    const succeeded = jobs.filter((j) =>
      (j.status?.conditions ?? []).some((c) => c.type === 'Succeeded' && c.status === 'True'),
    );
    completed = succeeded.length;
    if (succeeded.length !== 1) problems.push(`${succeeded.length} UpgradeJobs Succeeded, expected one`);
    for (const [key, hookJobs] of await hookJobsByRun(run, namespace)) {
      leaks.duplicateHookJobs += Math.max(0, hookJobs.length - 1);
      if (hookJobs.length !== 1) problems.push(`hook ${key} ran ${hookJobs.length} times`);
    }
  }
  return { ok: problems.length === 0, problems, completed, leaks };
}
