/**
 * End to end, the scheduled flow (APPUiO compatible) on the simulated cluster with the operator
 * in the loop: the scenario `scheduled-upgrade`, checked through what a user can read.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JobResource } from '../../src/api/builtin.js';
import { ScheduledUpgradeConfigResource } from '../../src/api/managedupgrade.appuio.io/v1beta1/upgrade-config-contract.js';
import { UpgradeJobResource } from '../../src/api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import { CLUSTER_VERSION_NAME, ClusterVersionResource } from '../../src/api/openshift/config-v1/cluster-version.js';
import { runScenario, scrape } from './scenario.test-support.js';

const NS = 'appuio-openshift-upgrade-controller';
const MINUTE = 60_000;

void test('scheduled-upgrade: the window creates the UpgradeJob at window − pinVersionWindow; it starts at the window, runs its hooks as Jobs, upgrades and Succeeds', async (t) => {
  const { ok, summary, run } = await runScenario(t, 'scheduled-upgrade');
  assert.ok(ok, summary);
  const client = run.env.client;
  const window = Date.UTC(2026, 2, 2, 1, 0, 0);
  const jobs = (await client.list(UpgradeJobResource, { namespace: NS })).items;
  assert.equal(jobs.length, 1, jobs.map((j) => j.metadata?.name).join(', '));
  const job = jobs[0]!;
  assert.equal(job.metadata?.name, `nightly-4-14-45-${window / 1000}`);
  assert.equal(
    Date.parse(job.metadata?.creationTimestamp ?? ''),
    window - 30 * MINUTE,
    'created and pinned 30 minutes before the window',
  );
  assert.equal(job.metadata?.ownerReferences?.[0]?.name, 'nightly');
  assert.equal(job.metadata?.labels?.['upgrade-config'], 'nightly');
  assert.equal(job.spec?.desiredVersion?.version, '4.14.45', 'the newest available z-stream');
  const cond = (type: string) => job.status?.conditions?.find((c) => c.type === type);
  assert.equal(cond('Started')?.message, `Upgrade started at ${new Date(window).toISOString().replace('.000Z', 'Z')}`);
  assert.deepEqual([cond('Succeeded')?.status, cond('Succeeded')?.message], ['True', 'Upgrade succeeded']);
  assert.equal(cond('UpgradeCompleted')?.status, 'True');
  assert.equal(cond('PreHealthCheckDone')?.status, 'True');
  assert.equal(cond('PostHealthCheckDone')?.status, 'True');

  const hookJobs = (await client.list(JobResource, { namespace: NS })).items;
  assert.equal(
    hookJobs.length,
    2,
    `one hook Job for Create, one for Finish: ${hookJobs.map((j) => j.metadata?.name).join(', ')}`,
  );
  const byEvent = new Map(
    hookJobs.map((j) => [j.spec?.template.spec?.containers[0]?.env?.find((e) => e.name === 'EVENT_name')?.value, j]),
  );
  assert.deepEqual([...byEvent.keys()].sort(), ['"Create"', '"Finish"']);
  // The Create hook ran to completion before the job started; the Finish hook starts once the job is final.
  assert.ok(byEvent.get('"Create"')?.status?.conditions?.some((c) => c.type === 'Complete' && c.status === 'True'));
  assert.ok(
    Date.parse(byEvent.get('"Finish"')?.metadata?.creationTimestamp ?? '') >=
      Date.parse(cond('Succeeded')?.lastTransitionTime ?? ''),
  );

  const cv = await client.get(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME);
  assert.equal(cv.spec?.desiredUpdate?.version, '4.14.45');
  assert.deepEqual([cv.status?.history?.[0]?.version, cv.status?.history?.[0]?.state], ['4.14.45', 'Completed']);
  assert.equal(cv.metadata?.annotations?.['managedupgrade.appuio.io/upgrade-job'], undefined, 'the lock is released');

  const config = await client.get(ScheduledUpgradeConfigResource, NS, 'nightly');
  assert.equal(Date.parse(config.status?.lastScheduledUpgrade ?? ''), window);
  assert.equal(config.status?.nextPossibleSchedules.length, 10);
  const metrics = await scrape(run, '/metrics');
  assert.match(metrics, /controller_runtime_reconcile_total\{controller="upgradejob",result="success"\} [1-9]/);
  assert.match(metrics, /controller_runtime_max_concurrent_reconciles\{controller="scheduled-upgradeconfig"\} 1/);
  assert.match(
    metrics,
    /openshift_upgrade_controller_upgradeconfig_info\{upgradeconfig="nightly",cron="0 1 \* \* \*",location="UTC",suspended="false"\} 1/,
  );
});
