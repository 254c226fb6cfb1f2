/**
 * End to end, the migrations of docs/migrating-from-muo.md: scenario `migrate-from-muo` (an OSD
 * upgrade MUO started — its status history, its control-plane silence, its capacity MachineSets,
 * ClusterVersion already commanded — adopted by this operator and completed exactly once, MUO's
 * leftovers cleaned up) and `migrate-from-appuio` (docs/migrating-from-appuio.md: an UpgradeJob
 * APPUiO's controller started — pre-checked, the ClusterVersion locked and commanded, the Create
 * and Start hooks run — adopted and finished once, no hook run twice, the lock released), read as
 * a user would read them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubeconfigFor } from '../../src/apiserver/kubeconfig.js';
import { runBinary } from '../../src/cli/binary.test-support.js';
import type { ScenarioRun } from '../../src/cli/scenarios/scenario-runner.js';
import { MachineSetResource } from '../../src/api/openshift/machine-v1beta1/machine-set.js';
import { CLUSTER_VERSION_NAME, ClusterVersionResource } from '../../src/api/openshift/config-v1/cluster-version.js';
import { UpgradeJobResource } from '../../src/api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import { events, hookJobsByRun, runScenario, silences } from './scenario.test-support.js';

/** The command lines of a guide's `sh` blocks, as written. */
function guideCommands(guide: string): string[] {
  const text = readFileSync(new URL(`../../docs/${guide}`, import.meta.url), 'utf8');
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split('\n').filter((l) => l.trim() !== ''));
}

/**
 * Runs, as written and against the run's cluster, every command of the guide that reads it
 * (`kubectl get` and `kubectl logs`, but the Lease's and pipes): each must exit 0. The others
 * (scaling the old operator, OLM, `apply -k`, `simulate`) are run elsewhere or need a real
 * cluster, as the guide says.
 */
async function runReadCommands(
  t: { after: (fn: () => void) => void },
  run: ScenarioRun,
  guide: string,
  skip?: RegExp,
): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'migration-guide-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'kubeconfig'), kubeconfigFor(run.env.apiServerUrl));
  // Not the Lease: the in-process operator runs without leader election.
  const read = guideCommands(guide).filter(
    (c) => /^kubectl (get|logs) /.test(c) && !c.includes('|') && !c.startsWith('kubectl get lease ') && !skip?.test(c),
  );
  // Asynchronously: the API server runs in this process.
  for (const command of read) {
    await promisify(execFile)('sh', ['-c', command], {
      cwd: dir,
      env: { ...process.env, KUBECONFIG: join(dir, 'kubeconfig') },
      timeout: 60_000,
    }).catch((err: unknown) => assert.fail(`${command}: ${String(err)}`));
  }
  return read;
}

void test('migrate-from-muo: the upgrade MUO started is adopted and completed once, its leftovers cleaned up', async (t) => {
  const { ok, summary, run } = await runScenario(t, 'migrate-from-muo');
  assert.ok(ok, summary);
  assert.equal(run.actionsRun.at(-1)?.name, 'MUO scaled to 0, upgrade-operator started');
  // One history entry, MUO's, carried on to Upgraded: every step True once.
  const history = run.upgradeConfig()?.status?.history ?? [];
  assert.equal(history.length, 1);
  assert.equal(history[0]?.phase, 'Upgraded');
  assert.equal(history[0]?.precedingVersion, '4.14.30');
  const conditions = history[0]?.conditions ?? [];
  assert.equal(conditions.filter((c) => c.status === 'True').length, 16);
  assert.equal(new Set(conditions.map((c) => c.type)).size, conditions.length, 'each step once');
  // The CVO was commanded once: one history entry for the target.
  const cv = await run.env.client.get(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME);
  const entries = (cv.status?.history ?? []).filter((h) => h.version === '4.15.38');
  assert.deepEqual(
    entries.map((h) => h.state),
    ['Completed'],
  );
  // MUO's clones served as the capacity (no second set: never more than 3 + 3 workers), then removed.
  assert.equal(Math.max(...run.timeline.map((p) => p.pools['worker']?.[1] ?? 0)), 6);
  const clones = await run.env.client.list(MachineSetResource, {
    namespace: 'openshift-machine-api',
    labelSelector: 'upgrade.managed.openshift.io=true',
  });
  assert.deepEqual(clones.items, []);
  // MUO's control-plane silence was reused, not doubled, and nothing is left active.
  const all = (await silences(run)).filter((s) => s.createdBy === 'managed-upgrade-operator');
  assert.equal(
    all.filter((s) => s.comment === 'Silence for OSD control plane upgrade to version 4.15.38').length,
    1,
    'one control-plane silence',
  );
  assert.deepEqual(
    all.filter((s) => s.status.state === 'active').map((s) => s.comment),
    [],
  );
  const completed = await events(run, run.namespace, 'UpgradeCompleted');
  assert.equal(
    completed.reduce((n, e) => n + e.count, 0),
    1,
    'completed once',
  );
  // MUO had started it: this operator reports no second start.
  assert.deepEqual(await events(run, run.namespace, 'UpgradeStarted'), []);
  assert.equal((await runReadCommands(t, run, 'migrating-from-muo.md')).length, 7);
});

void test('migrate-from-appuio: the UpgradeJob APPUiO started Succeeds once, no hook runs twice, the lock is released', async (t) => {
  const ns = 'appuio-openshift-upgrade-controller';
  const { ok, summary, run } = await runScenario(t, 'migrate-from-appuio');
  assert.ok(ok, summary);
  const jobs = (await run.env.client.list(UpgradeJobResource, { namespace: ns })).items;
  assert.deepEqual(
    jobs.map((j) => j.metadata?.name),
    ['nightly-4-15-37'],
  );
  const status = jobs[0]?.status;
  assert.ok(status?.conditions?.some((c) => c.type === 'Succeeded' && c.status === 'True'));
  // One hook Job per event: APPUiO's Create and Start Jobs were not made again.
  const runs = await hookJobsByRun(run, ns);
  assert.deepEqual([...runs].map(([key, hookJobs]) => `${key}=${hookJobs.length}`).sort(), [
    'notify/Create=1',
    'notify/Finish=1',
    'notify/Start=1',
    'notify/Success=1',
    'notify/UpgradeComplete=1',
  ]);
  // APPUiO's Jobs were tracked as complete and lost their tracker finalizer (Success and Finish
  // run after the job Succeeded, where the run ends).
  assert.deepEqual(
    ['notify/Create', 'notify/Start'].flatMap((k) => runs.get(k) ?? []).map((j) => j.metadata?.finalizers ?? []),
    [[], []],
  );
  assert.deepEqual(
    (status?.hookTracker ?? [])
      .filter((h) => ['Create', 'Start', 'UpgradeComplete'].includes(h.hookEvent ?? ''))
      .map((h) => `${h.hookEvent ?? ''}:${h.status ?? ''}`)
      .sort(),
    ['Create:complete', 'Start:complete', 'UpgradeComplete:complete'],
  );
  // The CVO was commanded once and the lock is released.
  const cv = await run.env.client.get(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME);
  assert.deepEqual(
    (cv.status?.history ?? []).filter((h) => h.version === '4.15.37').map((h) => h.state),
    ['Completed'],
  );
  assert.equal(cv.metadata?.annotations?.['managedupgrade.appuio.io/upgrade-job'], undefined);
  // The simulation's scheduled-flow operator has no Deployment to read the log of.
  assert.equal((await runReadCommands(t, run, 'migrating-from-appuio.md', /^kubectl logs /)).length, 5);
});

void test('the simulate commands of the migration guides run as written and end as expected', async () => {
  const commands = ['migrating-from-muo.md', 'migrating-from-appuio.md']
    .flatMap(guideCommands)
    .filter((c) => c.startsWith('upgrade-operator simulate '));
  assert.deepEqual(commands, [
    'upgrade-operator simulate --scenario migrate-from-muo',
    'upgrade-operator simulate --scenario migrate-from-appuio',
  ]);
  for (const command of commands) {
    const r = await runBinary(command.split(' ').slice(1));
    assert.equal(r.status, 0, `${command}\n${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /^as expected: /m);
  }
});
