/**
 * End to end, the scheduled flow's main case (scenario `scheduled-weekly-upgrade`): a weekly
 * `@odd` window in Europe/Zurich pins a 4.15 release at window − pinVersionWindow and upgrades
 * 4.14 → 4.15 with Create, Start, UpgradeComplete, Success and Finish hooks as Jobs. Read only
 * through what a user can read: API objects and the operator's metrics.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ScheduledUpgradeConfigResource } from '../../src/api/managedupgrade.appuio.io/v1beta1/upgrade-config-contract.js';
import { UpgradeJobResource } from '../../src/api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import { CLUSTER_VERSION_NAME, ClusterVersionResource } from '../../src/api/openshift/config-v1/cluster-version.js';
import { hookJobEnv, hookJobsByRun, runScenario, scrape } from './scenario.test-support.js';

const NS = 'appuio-openshift-upgrade-controller';
const HOUR = 3_600_000;

void test('scheduled-weekly-upgrade: Tuesday 22:00 Zurich in an odd ISO week pins 4.15 an hour before, upgrades and runs its five hooks as Jobs', async (t) => {
  const { ok, summary, run } = await runScenario(t, 'scheduled-weekly-upgrade');
  assert.ok(ok, summary);
  // A flagship scenario tells a clean story: no warning on the way.
  assert.deepEqual(
    run.timeline.filter((p) => p.warning !== '').map((p) => p.warning),
    [],
  );
  const client = run.env.client;
  // Tuesday 10 March 2026, ISO week 11; 22:00 CET is 21:00 UTC.
  const window = Date.UTC(2026, 2, 10, 21, 0, 0);
  const jobs = (await client.list(UpgradeJobResource, { namespace: NS })).items;
  assert.equal(jobs.length, 1, jobs.map((j) => j.metadata?.name).join(', '));
  const job = jobs[0]!;
  const version = job.spec?.desiredVersion?.version ?? '';
  assert.match(version, /^4\.15\.\d+$/, 'the newest available release by semver: a 4.15');
  assert.equal(job.metadata?.name, `weekly-${version.replaceAll('.', '-')}-${window / 1000}`);
  assert.equal(Date.parse(job.metadata?.creationTimestamp ?? ''), window - HOUR, 'pinned at window − pinVersionWindow');
  assert.equal(Date.parse(job.spec?.startAfter ?? ''), window);
  assert.equal(Date.parse(job.spec?.startBefore ?? ''), window + HOUR, 'window + maxUpgradeStartDelay');
  const cond = (type: string) => job.status?.conditions?.find((c) => c.type === type);
  assert.deepEqual([cond('Succeeded')?.status, cond('Succeeded')?.reason], ['True', 'Succeeded']);

  // Five hook Jobs, one per hook and event, with the event in the environment.
  const runs = await hookJobsByRun(run, NS);
  assert.deepEqual([...runs.keys()].sort(), [
    'maintenance/Start',
    'maintenance/UpgradeComplete',
    'notify/Create',
    'notify/Finish',
    'notify/Success',
  ]);
  for (const [key, list] of runs) {
    assert.equal(list.length, 1, `${key} ran once`);
    const env = hookJobEnv(list[0]);
    assert.equal(env.get('EVENT_name'), JSON.stringify(key.split('/')[1]));
    assert.equal(env.get('JOB_metadata_name'), JSON.stringify(job.metadata?.name));
    assert.equal(list[0]!.metadata?.ownerReferences?.[0]?.name, job.metadata?.name);
  }
  const created = (key: string): number => Date.parse(runs.get(key)?.[0]?.metadata?.creationTimestamp ?? '');
  assert.ok(created('notify/Create') <= window - HOUR + 60_000, 'Create runs when the job is created');
  assert.ok(created('maintenance/Start') >= window, 'Start runs at the window');
  assert.ok(
    created('maintenance/UpgradeComplete') >= Date.parse(cond('UpgradeCompleted')?.lastTransitionTime ?? ''),
    'UpgradeComplete after the upgrade',
  );
  assert.equal(created('notify/Success'), created('notify/Finish'), 'Success and Finish start in the same pass');

  const cv = await client.get(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME);
  assert.deepEqual([cv.status?.history?.[0]?.version, cv.status?.history?.[0]?.state], [version, 'Completed']);
  assert.equal(cv.spec?.desiredUpdate?.version, version);
  assert.equal(cv.metadata?.annotations?.['managedupgrade.appuio.io/upgrade-job'], undefined, 'the lock is released');

  const config = await client.get(ScheduledUpgradeConfigResource, NS, 'weekly');
  assert.equal(Date.parse(config.status?.lastScheduledUpgrade ?? ''), window);
  // The next windows: Tuesdays of odd weeks, 21:00 UTC until the end of March, 20:00 UTC in summer time.
  assert.deepEqual(
    config.status?.nextPossibleSchedules.slice(0, 3).map((s) => s.time),
    ['2026-03-24T21:00:00Z', '2026-04-07T20:00:00Z', '2026-04-21T20:00:00Z'],
  );
  const metrics = await scrape(run, '/metrics');
  assert.match(
    metrics,
    /openshift_upgrade_controller_upgradeconfig_info\{upgradeconfig="weekly",cron="0 22 \* \* 2",location="Europe\/Zurich",suspended="false"\} 1/,
  );
  const state = metrics
    .split('\n')
    .find((l) =>
      l.startsWith(`openshift_upgrade_controller_upgradejob_state{upgradejob="${job.metadata?.name ?? ''}"`),
    );
  assert.ok(state, 'the job has a state series');
  for (const label of [
    'start_after="2026-03-10T21:00:00Z"',
    'start_before="2026-03-10T22:00:00Z"',
    `desired_version_version="${version}"`,
    'state="succeeded"',
    'reason="Succeeded"',
    'matches_disruptive_hooks="true"',
  ]) {
    assert.ok(state.includes(label), `${label} in ${state}`);
  }
  assert.match(metrics, /^openshift_upgrade_controller_cluster_upgrading 0$/m, 'the cluster is no longer upgrading');
  assert.match(metrics, /^openshift_upgrade_controller_machine_config_pools_paused\{pool="worker"\} 0$/m);
});
