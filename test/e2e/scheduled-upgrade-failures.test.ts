/**
 * End to end, the scheduled flow when things go wrong or get in the way, each a named scenario:
 * a failing Abort hook, a suspension window, a missed window, a delayed pool, operator restarts
 * mid-job, a failing health check and a PDB-blocked drain resolved by a NodeForceDrain. Read only through what a user can read: API objects.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeForceDrainResource } from '../../src/api/managedupgrade.appuio.io/v1beta1/node-force-drain-contract.js';
import { MachineConfigPoolResource } from '../../src/api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { UpgradeJobResource } from '../../src/api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import type { UpgradeJob } from '../../src/api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import { CLUSTER_VERSION_NAME, ClusterVersionResource } from '../../src/api/openshift/config-v1/cluster-version.js';
import type { ScenarioRun } from '../../src/cli/scenarios/scenario-runner.js';
import { events, hookJobEnv, hookJobsByRun, runScenario, scrape } from './scenario.test-support.js';

const NS = 'appuio-openshift-upgrade-controller';
const MINUTE = 60_000;
/** The nightly window of these scenarios: 01:00 UTC on the first day. */
const WINDOW = Date.UTC(2026, 2, 2, 1, 0, 0);

async function onlyJob(run: ScenarioRun): Promise<UpgradeJob> {
  const jobs = (await run.env.client.list(UpgradeJobResource, { namespace: NS })).items;
  assert.equal(jobs.length, 1, jobs.map((j) => j.metadata?.name).join(', '));
  return jobs[0]!;
}

function condition(
  job: UpgradeJob,
  type: string,
): { status?: string; reason?: string; message?: string; lastTransitionTime?: string } | undefined {
  return job.status?.conditions?.find((c) => c.type === type);
}

/** The cluster was not touched: no desiredUpdate beyond the installed version, one history entry. */
async function assertUntouched(run: ScenarioRun): Promise<void> {
  const cv = await run.env.client.get(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME);
  assert.notEqual(cv.spec?.desiredUpdate?.version, '4.14.45', 'no upgrade was requested');
  assert.deepEqual(
    cv.status?.history?.map((h) => `${h.version} ${h.state}`),
    ['4.14.30 Completed'],
  );
  assert.equal(cv.metadata?.annotations?.['managedupgrade.appuio.io/upgrade-job'], undefined, 'no lock left');
}

void test('scheduled-hook-failed: a failing Start hook with failurePolicy Abort fails the job with HookFailed before the upgrade; Failure and Finish hooks run', async (t) => {
  const { ok, summary, run } = await runScenario(t, 'scheduled-hook-failed');
  assert.ok(ok, summary);
  const job = await onlyJob(run);
  assert.equal(condition(job, 'Started')?.status, 'True');
  const failed = condition(job, 'Failed');
  assert.deepEqual(
    [failed?.status, failed?.reason, failed?.message],
    ['True', 'HookFailed', 'hook "preflight" failed: Job has reached the specified backoff limit'],
  );
  assert.equal(condition(job, 'Succeeded'), undefined);
  assert.equal(condition(job, 'PreHealthCheckDone'), undefined, 'health checks come after the Start hooks');
  await assertUntouched(run);
  const runs = await hookJobsByRun(run, NS);
  assert.deepEqual([...runs.keys()].sort(), ['notify/Failure', 'notify/Finish', 'preflight/Start']);
  assert.ok(
    runs.get('preflight/Start')?.[0]?.status?.conditions?.some((c) => c.type === 'Failed' && c.status === 'True'),
  );
  assert.equal(hookJobEnv(runs.get('notify/Failure')?.[0]).get('EVENT_reason'), '"HookFailed"');
});

void test('scheduled-suspension-window: a window covering startAfter skips the job: Succeeded/Skipped with the window and reason, the cluster untouched', async (t) => {
  const { ok, summary, run } = await runScenario(t, 'scheduled-suspension-window');
  assert.ok(ok, summary);
  const job = await onlyJob(run);
  const succeeded = condition(job, 'Succeeded');
  assert.deepEqual(
    [succeeded?.status, succeeded?.reason, succeeded?.message],
    [
      'True',
      'Skipped',
      'Upgrade job skipped by UpgradeSuspensionWindow "year-end-freeze", reason: "Change freeze: quarter-end closing"',
    ],
  );
  assert.equal(Date.parse(succeeded?.lastTransitionTime ?? ''), WINDOW, 'skipped at startAfter, not before');
  assert.equal(condition(job, 'Started'), undefined);
  await assertUntouched(run);
  const runs = await hookJobsByRun(run, NS);
  assert.deepEqual([...runs.keys()].sort(), ['notify/Create', 'notify/Success']);
  assert.equal(hookJobEnv(runs.get('notify/Success')?.[0]).get('EVENT_reason'), '"Skipped"');
});

void test('scheduled-job-expired: with the operator down across the window, the job fails Expired once it is back, and nothing is upgraded late', async (t) => {
  const { ok, summary, run } = await runScenario(t, 'scheduled-job-expired');
  assert.ok(ok, summary);
  const job = await onlyJob(run);
  const failed = condition(job, 'Failed');
  assert.deepEqual(
    [failed?.status, failed?.reason, failed?.message],
    ['True', 'Expired', 'Job could not be started before 2026-03-02T02:00:00Z'],
  );
  assert.equal(
    Date.parse(failed?.lastTransitionTime ?? ''),
    WINDOW + 2 * 60 * MINUTE,
    'decided when the operator came back',
  );
  assert.equal(condition(job, 'Started'), undefined);
  await assertUntouched(run);
});

void test('scheduled-pool-delay: the delayed infra pool stays paused for delayMin, then its MachineConfigPoolUnpause hook runs and it updates; the job Succeeds', async (t) => {
  const { ok, summary, run } = await runScenario(t, 'scheduled-pool-delay');
  assert.ok(ok, summary);
  const job = await onlyJob(run);
  assert.equal(condition(job, 'Succeeded')?.reason, 'Succeeded');
  const runs = await hookJobsByRun(run, NS);
  assert.deepEqual([...runs.keys()], ['drain-routers/MachineConfigPoolUnpause/infra']);
  const hook = runs.get('drain-routers/MachineConfigPoolUnpause/infra')![0]!;
  assert.equal(Date.parse(hook.metadata?.creationTimestamp ?? ''), WINDOW + 120 * MINUTE, 'at startAfter + delayMin');
  const env = hookJobEnv(hook);
  assert.equal(env.get('EVENT_pool'), '"infra"');
  assert.equal(env.get('EVENT_reason'), '"DelayReached"');
  // While paused, the job said so; the infra nodes updated only after the unpause.
  assert.ok(
    run.timeline.some(
      (p) => p.upgradeJob.state === 'paused' && p.pools['infra']?.[0] === 0 && p.pools['worker']?.[0] === 3,
    ),
    'paused with the workers done and infra waiting',
  );
  // The infra pool drops to 0 updated when the new release renders its config, and rises again only after the unpause.
  const dropped = run.timeline.findIndex((p) => p.pools['infra']?.[0] === 0);
  const firstInfraUpdate = run.timeline.slice(dropped).find((p) => (p.pools['infra']?.[0] ?? 0) > 0);
  assert.ok(
    dropped >= 0 && firstInfraUpdate && firstInfraUpdate.elapsedMs > 180 * MINUTE,
    `infra updated from ${firstInfraUpdate?.elapsedMs ?? NaN} ms`,
  );
  const infra = await run.env.client.get(MachineConfigPoolResource, undefined, 'infra');
  assert.equal(infra.spec?.paused ?? false, false, 'unpaused');
  assert.equal(infra.status?.updatedMachineCount, 2);
});

void test('scheduled-operator-restart: four restarts mid-job; the job Succeeds once, every hook runs exactly once, one upgrade in the history', async (t) => {
  const { ok, summary, run } = await runScenario(t, 'scheduled-operator-restart');
  assert.ok(ok, summary);
  assert.equal(run.operatorStarts, 5);
  const job = await onlyJob(run);
  assert.equal(condition(job, 'Succeeded')?.reason, 'Succeeded');
  const runs = await hookJobsByRun(run, NS);
  assert.deepEqual([...runs.keys()].sort(), [
    'notify/Create',
    'notify/Finish',
    'notify/Start',
    'notify/Success',
    'notify/UpgradeComplete',
  ]);
  for (const [key, list] of runs) assert.equal(list.length, 1, `${key} ran once`);
  const cv = await run.env.client.get(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME);
  assert.deepEqual(
    cv.status?.history?.map((h) => `${h.version} ${h.state}`),
    ['4.14.45 Completed', '4.14.30 Completed'],
  );
});

void test('scheduled-health-check-failed: a Degraded operator at the window fails the pre-upgrade check after its timeout; the Events say why; nothing is upgraded', async (t) => {
  const { ok, summary, run } = await runScenario(t, 'scheduled-health-check-failed');
  assert.ok(ok, summary);
  const job = await onlyJob(run);
  const failed = condition(job, 'Failed');
  assert.deepEqual([failed?.status, failed?.reason], ['True', 'PreHealthCheckFailed']);
  assert.equal(Date.parse(failed?.lastTransitionTime ?? ''), WINDOW + 15 * MINUTE, 'after the 15-minute timeout');
  assert.equal(condition(job, 'PreHealthCheckDone')?.status, 'False');
  await assertUntouched(run);
  const said = (await events(run, NS))
    .filter((e) => e.object === `UpgradeJob/${job.metadata?.name ?? ''}`)
    .map((e) => e.message)
    .join('\n');
  assert.match(said, /authentication/, `an Event names the degraded operator:\n${said}`);
});

void test('scheduled-force-drain: a PDB blocks every worker drain; the NodeForceDrain deletes the blocking pods after its grace period and the job Succeeds', async (t) => {
  const { ok, summary, run } = await runScenario(t, 'scheduled-force-drain');
  assert.ok(ok, summary);
  const job = await onlyJob(run);
  assert.equal(condition(job, 'Succeeded')?.reason, 'Succeeded');
  const deletes = await events(run, 'default', 'NodeDrainDeletePod');
  assert.ok(deletes.length > 0, 'Events on the Nodes');
  for (const e of deletes) {
    assert.match(e.object, /^Node\//);
    assert.match(e.message, /^Deleting pod "checkout-[a-z0-9-]+" in namespace "shop"$/);
  }
  const metrics = await scrape(run, '/metrics');
  const deleted = [
    ...metrics.matchAll(
      /^openshift_upgrade_controller_node_force_drain_pod_deletions_total\{node_force_drain="workers",node="([^"]+)",namespace="shop",pod_name="checkout-[^"]+",pod_uid="[^"]+"\} 1$/gm,
    ),
  ];
  assert.equal(
    deleted.length,
    deletes.reduce((n, e) => n + e.count, 0),
    'one counted deletion per Event',
  );
  // Behaviour 2
  // (docs/design/cluster-model.md#behaviour-2-a-drain-blocked-by-a-poddisruptionbudget), as far as
  // APPUiO's NodeForceDrain goes: the drain is observed from the node annotations and the pods are
  // deleted after the configured grace, before the MCO's own one-hour drain timeout could mark any
  // node Degraded.
  const degraded = run.recorder
    .transitions(run.startedAt)
    .filter((x) => x.kind === 'Node' && x.field === 'machineconfiguration.openshift.io/state' && x.to === 'Degraded');
  assert.deepEqual(degraded, [], 'no node reached the MCO drain timeout');
  const fd = (await run.env.client.list(NodeForceDrainResource, { namespace: NS })).items[0];
  assert.deepEqual(fd?.status?.lastObservedNodeDrain ?? [], [], 'no drain left observed');
});
