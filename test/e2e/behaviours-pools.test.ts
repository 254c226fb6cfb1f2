/**
 * End to end, the behaviours (docs/design/cluster-model.md#what-an-upgrade-operator-must-handle) 1,
 * 5 and 8 — where ClusterVersion, the MachineConfigPools and the upgrade disagree about "done" —
 * each on its named scenario, watched through the run as a user would (informers, Alertmanager, the
 * metrics endpoint):
 *
 * 1. ClusterVersion Completed before the workers finish: `managed-workers-after-completed`,
 *    `scheduled-workers-after-completed`;
 * 5. Upgradeable=False blocks minor, not patch updates, and a chained minor update waits for the
 *    pools: `managed-upgradeable-blocked`, `managed-chained-minor-upgrade`;
 * 8. paused pools: `managed-paused-worker-pool`, `managed-paused-master-pool`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventResource, NodeResource } from '../../src/api/builtin.js';
import { UpgradeJobResource } from '../../src/api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import { CLUSTER_VERSION_NAME, ClusterVersionResource } from '../../src/api/openshift/config-v1/cluster-version.js';
import {
  MachineConfigDaemonState,
  MachineConfigNodeAnnotation as A,
  MachineConfigPoolResource,
} from '../../src/api/openshift/machineconfiguration-v1/machine-config-pool.js';
import {
  MANAGED_UPGRADE_CONFIG_NAME,
  ManagedUpgradeConfigResource,
} from '../../src/api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import type { GettableSilence } from '../../src/integrations/alertmanager-api.js';
import { scrape, silences } from './scenario.test-support.js';
import { first, metricValue, poolsUpdated, runWatched, type Sample } from './watched-run.test-support.js';

const MINUTE = 60_000;
const MUO = 'managed-upgrade-operator';
const NS = 'appuio-openshift-upgrade-controller';

function completed(version: string): (s: Sample) => boolean {
  return (s) => s.cv.version === version && s.cv.state === 'Completed';
}

function ours(list: readonly GettableSilence[]): GettableSilence[] {
  return list.filter((s) => s.createdBy === MUO);
}

/** The end of the stretch from `from` that the silences cover without a gap (ms). */
function coveredUntil(list: readonly GettableSilence[], from: number): number {
  let covered = from;
  const spans = list.map((s) => [s.startsAt, s.endsAt] as const).sort((a, b) => a[0] - b[0]);
  for (const [start, end] of spans) if (start <= covered + 1000 && end > covered) covered = end;
  return covered;
}

/** Whole seconds (metav1.Time has no fraction). */
function seconds(ms: number): number {
  return Math.floor(ms / 1000) * 1000;
}

void test('behaviour 1, managed: ClusterVersion Completed long before the workers; Upgraded, completion metrics and the end of the worker silence only once every pool is updated', async (t) => {
  const lastWorker = (s: Sample): boolean =>
    completed('4.15.38')(s) && (s.pools['worker']?.updated ?? 0) === (s.pools['worker']?.total ?? 0) - 1;
  const w = await runWatched(t, 'managed-workers-after-completed', [
    {
      name: 'at Completed',
      when: completed('4.15.38'),
      read: async (run) => ours(await silences(run)).filter((s) => s.status.state === 'active'),
    },
    {
      name: 'last worker',
      when: lastWorker,
      read: async (run) => ({ silences: ours(await silences(run)), metrics: await scrape(run, '/metrics') }),
    },
  ]);
  assert.ok(w.outcome.ok, w.outcome.summary);
  const { samples, run } = w;

  // The moment history[0] turned Completed: the worker pool was still far from done.
  const cvDone = first(samples, completed('4.15.38'));
  assert.ok(cvDone, 'ClusterVersion completed 4.15.38');
  const atCompleted = cvDone.s.pools['worker']!;
  assert.equal(
    cvDone.s.pools['master']?.updated,
    cvDone.s.pools['master']?.total,
    'the master pool is done when the version completes',
  );
  assert.ok(
    atCompleted.updated < atCompleted.total - 3,
    `worker ${atCompleted.updated}/${atCompleted.total} when ClusterVersion completed`,
  );
  const done = first(samples, (s) => poolsUpdated(s), cvDone.i);
  assert.ok(done, 'the pools finished');
  assert.ok(
    done.s.at - cvDone.s.at >= 30 * MINUTE,
    `the workers finished ${(done.s.at - cvDone.s.at) / MINUTE} min after ClusterVersion completed`,
  );

  // Not Upgraded, no WorkerNodesUpgraded, before the pools were updated.
  const early = samples.filter(
    (s) => s.at < done.s.at && (s.uc?.phase === 'Upgraded' || s.uc?.done.includes('WorkerNodesUpgraded')),
  );
  assert.deepEqual(early, [], 'nothing reported done before the workers');
  const upgraded = first(samples, (s) => s.uc?.phase === 'Upgraded');
  assert.ok(upgraded && upgraded.i > done.i);
  // Until then the operator said it waits for the workers.
  assert.ok(
    samples.some(
      (s) =>
        s.at > cvDone.s.at &&
        s.uc?.waiting?.status === 'True' &&
        s.uc.waiting.reason === 'WaitingForWorkers' &&
        s.uc.waiting.message.includes('worker'),
    ),
  );

  const h = (await run.env.client.get(ManagedUpgradeConfigResource, run.namespace, MANAGED_UPGRADE_CONFIG_NAME)).status
    ?.history?.[0];
  for (const [what, time] of [
    ['completeTime', h?.completeTime],
    ['workerCompleteTime', h?.workerCompleteTime],
  ] as const) {
    assert.ok(
      Date.parse(time ?? '') >= seconds(done.s.at),
      `${what} ${time ?? '(none)'} is not before the pools were updated`,
    );
  }
  const completedEvents = (await run.env.client.list(EventResource, { namespace: run.namespace })).items.filter(
    (e) => e.reason === 'UpgradeCompleted',
  );
  assert.equal(completedEvents.length, 1);
  assert.ok(Date.parse(completedEvents[0]?.firstTimestamp ?? '') >= seconds(done.s.at));

  // Metrics: no completion while the last worker rolled; the timestamps after it.
  const last = w.probes.get('last worker') as { silences: GettableSilence[]; metrics: string } | undefined;
  assert.ok(last, 'probed while the last worker updated');
  assert.equal(
    metricValue(last.metrics, 'upgradeoperator_upgrade_completed_timestamp', { version: '4.15.38' }) ?? 0,
    0,
    'no completion reported while a worker was left',
  );
  assert.equal(
    metricValue(last.metrics, 'upgradeoperator_workernode_upgrade_completed_timestamp', { version: '4.15.38' }) ?? 0,
    0,
  );
  const metrics = await scrape(run, '/metrics');
  for (const name of [
    'upgradeoperator_upgrade_completed_timestamp',
    'upgradeoperator_workernode_upgrade_completed_timestamp',
  ]) {
    const v = metricValue(metrics, name, { version: '4.15.38' });
    assert.ok(v !== undefined && v * 1000 >= seconds(done.s.at), `${name} = ${String(v)}`);
  }

  // Silences: one was active when the version completed, the workers' was active while the last
  // worker rolled, they covered the whole worker roll without a gap, and all ended afterwards.
  const active = w.probes.get('at Completed') as GettableSilence[] | undefined;
  assert.ok(active && active.length > 0, 'a maintenance silence was active when ClusterVersion completed');
  const workerComment = 'Silence for OSD worker node upgrade to version 4.15.38 with remaining ';
  assert.ok(
    last.silences.some((s) => s.status.state === 'active' && s.comment.startsWith(workerComment)),
    JSON.stringify(last.silences.map((s) => [s.comment, s.status.state])),
  );
  const all = ours(await silences(run));
  assert.ok(coveredUntil(all, cvDone.s.at) >= done.s.at, 'the silences covered the worker roll');
  const workerEnds = all.filter((s) => s.comment.startsWith(workerComment)).map((s) => s.endsAt);
  assert.ok(Math.max(...workerEnds) >= done.s.at, 'the worker silence ended only after the pools were updated');
  assert.deepEqual(
    all.filter((s) => s.status.state === 'active'),
    [],
    'every maintenance silence ended',
  );
});

void test('behaviour 1, scheduled: the UpgradeJob neither completes nor succeeds before every pool is updated', async (t) => {
  const w = await runWatched(t, 'scheduled-workers-after-completed');
  assert.ok(w.outcome.ok, w.outcome.summary);
  const cvDone = first(w.samples, completed('4.15.37'));
  assert.ok(cvDone);
  const worker = cvDone.s.pools['worker']!;
  assert.ok(
    worker.updated < worker.total - 3,
    `worker ${worker.updated}/${worker.total} when ClusterVersion completed`,
  );
  const done = first(w.samples, (s) => poolsUpdated(s), cvDone.i);
  assert.ok(done && done.s.at - cvDone.s.at >= 30 * MINUTE);
  const early = w.samples.filter(
    (s) =>
      s.at < done.s.at && Object.values(s.jobs).some((c) => c.includes('UpgradeCompleted') || c.includes('Succeeded')),
  );
  assert.deepEqual(early, [], 'UpgradeCompleted and Succeeded only after the pools');
  const job = (await w.run.env.client.list(UpgradeJobResource, { namespace: NS })).items[0];
  for (const type of ['UpgradeCompleted', 'Succeeded']) {
    const c = job?.status?.conditions?.find((x) => x.type === type);
    assert.equal(c?.status, 'True');
    assert.ok(Date.parse(c.lastTransitionTime) >= seconds(done.s.at), `${type} at ${c.lastTransitionTime}`);
  }
  assert.match(await scrape(w.run, '/metrics'), /openshift_upgrade_controller_cluster_upgrading 0/);
});

void test('behaviour 5: Upgradeable=False (OLM IncompatibleOperatorsInstalled) blocks the minor update with MUO’s reason and ClusterVersion untouched; the z-stream goes through under the same fault', async (t) => {
  const w = await runWatched(t, 'managed-upgradeable-blocked');
  assert.ok(w.outcome.ok, w.outcome.summary);
  const { samples, run } = w;

  // The minor update is refused, and says why.
  const blocked = samples.filter((s) => s.uc?.version === '4.15.38' && s.uc.phase === 'Upgrading');
  assert.ok(blocked.length > 0);
  const refusal =
    /^cluster upgrade to version 4\.15\.38 on Mon Mar {2}2 00:10:00 UTC 2026 has been cancelled: IncompatibleOperatorsInstalled: Cluster operator operator-lifecycle-manager should not be upgraded between minor versions: ClusterServiceVersions blocking cluster upgrade: /;
  assert.ok(
    blocked.every((s) => s.uc?.step === 'IsClusterUpgradable=False' && refusal.test(s.uc.stepMessage)),
    JSON.stringify(blocked.at(-1)?.uc),
  );
  const waiting = blocked.at(-1)?.uc?.waiting;
  assert.deepEqual([waiting?.status, waiting?.reason], ['True', 'ClusterNotUpgradeable']);
  assert.match(waiting?.message ?? '', /IncompatibleOperatorsInstalled/);
  assert.ok(
    blocked.every(
      (s) => s.cv.upgradeable?.status === 'False' && s.cv.upgradeable.reason === 'IncompatibleOperatorsInstalled',
    ),
  );
  // ClusterVersion was never pointed at 4.15 (neither its channel nor desiredUpdate), so the CVO never refused a release.
  assert.deepEqual(
    samples.filter((s) => s.cv.desiredUpdate.startsWith('4.15') || s.cv.channel === 'stable-4.15'),
    [],
  );
  assert.deepEqual(
    samples.filter((s) => s.cv.releaseAccepted?.status === 'False'),
    [],
  );

  // The z-stream, asked for under the same fault, goes through.
  const cv = await run.env.client.get(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME);
  assert.deepEqual([cv.status?.history?.[0]?.version, cv.status?.history?.[0]?.state], ['4.14.45', 'Completed']);
  // The fault held throughout the z-stream (machine-config's PoolUpdating joined it while the pools rolled).
  const patch = samples.filter((s) => s.cv.desiredUpdate === '4.14.45');
  assert.ok(
    patch.length > 0 &&
      patch.every(
        (s) =>
          (s.cv.upgradeable?.status === 'False' &&
            s.cv.upgradeable.message.includes('IncompatibleOperatorsInstalled')) ||
          s.cv.upgradeable?.reason === 'IncompatibleOperatorsInstalled',
      ),
  );
  assert.ok(
    patch.some((s) => s.cv.upgradeable?.reason === 'ClusterOperatorsNotUpgradeable'),
    'both blockers at once',
  );
  const history = run.upgradeConfig()?.status?.history ?? [];
  assert.deepEqual(
    history.map((h) => [h.version, h.phase]),
    [
      ['4.14.45', 'Upgraded'],
      ['4.15.38', 'Upgrading'],
    ],
  );
  assert.equal(history[0]?.conditions?.find((c) => c.type === 'IsClusterUpgradable')?.status, 'True');
});

void test('behaviour 5, chained minor update: the 4.16 hop waits for the pools (PoolUpdating) and for Upgradeable to clear before the target is set', async (t) => {
  const w = await runWatched(t, 'managed-chained-minor-upgrade');
  assert.ok(w.outcome.ok, w.outcome.summary);
  const { samples } = w;
  const hop1 = first(samples, completed('4.15.37'));
  assert.ok(hop1);
  assert.ok(
    (hop1.s.pools['worker']?.updated ?? 0) < (hop1.s.pools['worker']?.total ?? 0),
    'the workers still rolled when 4.15.37 completed',
  );

  // While the workers rolled, the next hop was refused with machine-config's PoolUpdating.
  const refused = samples.filter((s) => s.uc?.version === '4.16.28' && s.uc.step === 'IsClusterUpgradable=False');
  assert.ok(refused.length > 0, 'the 4.16 hop was refused for a while');
  assert.ok(refused.some((s) => !poolsUpdated(s)));
  assert.ok(
    refused.every((s) =>
      /has been cancelled: PoolUpdating: Cluster operator machine-config should not be upgraded between minor versions: One or more machine config pools are updating/.test(
        s.uc?.stepMessage ?? '',
      ),
    ),
    JSON.stringify(refused[0]?.uc),
  );
  // The target was set only once every pool was updated and Upgradeable no longer False.
  const target = first(samples, (s) => s.cv.desiredUpdate === '4.16.28');
  assert.ok(target);
  assert.ok(poolsUpdated(target.s), JSON.stringify(target.s.pools));
  assert.notEqual(target.s.cv.upgradeable?.status, 'False', JSON.stringify(target.s.cv.upgradeable));
  assert.ok(target.s.at > (refused.at(-1)?.at ?? 0) - 1);
  // So the CVO never had to refuse it (ReleaseAccepted=False PreconditionChecks).
  assert.deepEqual(
    samples.filter((s) => s.cv.releaseAccepted?.status === 'False').map((s) => s.cv.releaseAccepted),
    [],
  );

  const cv = await w.run.env.client.get(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME);
  assert.deepEqual(
    cv.status?.history?.slice(0, 2).map((h) => [h.version, h.state]),
    [
      ['4.16.28', 'Completed'],
      ['4.15.37', 'Completed'],
    ],
  );
  assert.equal(w.run.upgradeConfig()?.status?.history?.[0]?.phase, 'Upgraded');
});

void test('behaviour 8, paused worker pool: the targeted node finishes, ClusterVersion completes, the operator waits for the unpaused infra pool only and reaches Upgraded', async (t) => {
  const w = await runWatched(t, 'managed-paused-worker-pool');
  assert.ok(w.outcome.ok, w.outcome.summary);
  const { samples, run } = w;
  const paused = first(samples, (s) => s.pools['worker']?.paused === true);
  assert.ok(paused);
  assert.equal(paused.s.pools['worker']?.updated, 1, 'paused after its first machine updated');

  // The pool stays behind; the node already targeted went on to the end; none is left half-way.
  const pool = await run.env.client.get(MachineConfigPoolResource, undefined, 'worker');
  const target = pool.spec.configuration?.name ?? '';
  assert.equal(pool.spec.paused, true);
  assert.ok(
    (pool.status?.updatedMachineCount ?? 0) >= 2 &&
      (pool.status?.updatedMachineCount ?? 0) < (pool.status?.machineCount ?? 0),
    JSON.stringify(pool.status),
  );
  assert.equal(
    pool.status?.conditions?.find((c) => c.type === 'Updating')?.message,
    `Pool is paused; will not update to MachineConfig ${target}`,
  );
  const workers = (
    await run.env.client.list(NodeResource, {
      labelSelector: 'node-role.kubernetes.io/worker,!node-role.kubernetes.io/infra',
    })
  ).items.map((n) => n.metadata?.annotations ?? {});
  assert.equal(workers.length, 3);
  assert.ok(
    workers.every((a) => a[A.CurrentConfig] === a[A.DesiredConfig] && a[A.State] === MachineConfigDaemonState.Done),
    JSON.stringify(workers.map((a) => [a[A.CurrentConfig], a[A.DesiredConfig], a[A.State]])),
  );
  assert.equal(workers.filter((a) => a[A.CurrentConfig] === target).length, pool.status?.updatedMachineCount);

  // The CVO waited for nothing of the workers; the operator waited for infra, not for the paused pool.
  const cv = await run.env.client.get(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME);
  assert.deepEqual([cv.status?.history?.[0]?.version, cv.status?.history?.[0]?.state], ['4.15.38', 'Completed']);
  const workersDone = first(samples, (s) => s.uc?.done.includes('WorkerNodesUpgraded') === true);
  assert.ok(workersDone);
  assert.equal(
    workersDone.s.pools['infra']?.updated,
    workersDone.s.pools['infra']?.total,
    'the unpaused infra pool was waited for',
  );
  // After the pause, ClusterVersion completed while infra still rolled: the operator named infra alone.
  const cvDone = first(samples, completed('4.15.38'));
  assert.ok(
    cvDone && (cvDone.s.pools['infra']?.updated ?? 0) < (cvDone.s.pools['infra']?.total ?? 0),
    'infra still rolled when ClusterVersion completed',
  );
  assert.ok(
    samples.some(
      (s) =>
        s.at < workersDone.s.at &&
        s.uc?.step === 'WorkerNodesUpgraded=False' &&
        s.uc.waiting?.reason === 'WaitingForWorkers' &&
        /: waiting for worker pool\(s\) infra to update \(\d machine\(s\) left\)$/.test(s.uc.waiting.message),
    ),
  );
  assert.equal(run.upgradeConfig()?.status?.history?.[0]?.phase, 'Upgraded');
  assert.deepEqual(
    ours(await silences(run)).filter((s) => s.status.state === 'active'),
    [],
    'the maintenance silences ended',
  );
});

void test('behaviour 8, paused master pool: ClusterVersion stalls on machine-config; the operator waits for the control plane (timeout reported) until the pool is unpaused', async (t) => {
  const timedOut = (s: Sample): boolean => s.uc?.waiting?.reason === 'ControlPlaneTimeout';
  const w = await runWatched(t, 'managed-paused-master-pool', [
    { name: 'timeout', when: timedOut, read: (run) => scrape(run, '/metrics') },
  ]);
  assert.ok(w.outcome.ok, w.outcome.summary);
  const { samples } = w;
  const whilePaused = samples.filter((s) => s.pools['master']?.paused === true && s.cv.desiredUpdate === '4.15.38');
  assert.ok(whilePaused.length > 0);
  // The update stalls at machine-config: never Completed, the MCO says why, the CVO waits on it.
  assert.deepEqual(whilePaused.filter(completed('4.15.38')), []);
  assert.ok(
    whilePaused.some(
      (s) =>
        s.mcoDegraded?.status === 'True' &&
        s.mcoDegraded.reason === 'RequiredPoolsFailed' &&
        s.mcoDegraded.message.includes(
          'required MachineConfigPool master is paused and cannot sync until it is unpaused',
        ),
    ),
  );
  assert.ok(
    whilePaused.some((s) => /^(Working towards|Unable to apply) 4\.15\.38: .*machine-config/.test(s.cv.progressing)),
    'Progressing names machine-config',
  );
  // The unpaused worker pool rolled meanwhile.
  assert.ok(whilePaused.some((s) => poolsUpdated(s, true) && (s.pools['master']?.updated ?? 0) === 0));

  // The operator did not move past the control plane, and reported the timeout.
  assert.deepEqual(
    whilePaused.filter((s) => s.uc?.done.includes('ControlPlaneUpgraded')),
    [],
  );
  assert.ok(whilePaused.some(timedOut));
  const metrics = w.probes.get('timeout') as string | undefined;
  assert.equal(
    metrics === undefined
      ? undefined
      : metricValue(metrics, 'upgradeoperator_controlplane_timeout', { version: '4.15.38' }),
    1,
  );

  // Unpaused: the masters update, the version completes, the upgrade finishes, the timeout clears.
  const unpaused = first(samples, (s) => s.pools['master']?.paused === false && s.cv.desiredUpdate === '4.15.38');
  const cvDone = first(samples, completed('4.15.38'));
  assert.ok(unpaused && cvDone && cvDone.s.at > unpaused.s.at);
  assert.ok(unpaused.s.at - w.start >= 3 * 60 * MINUTE);
  assert.equal(w.run.upgradeConfig()?.status?.history?.[0]?.phase, 'Upgraded');
  assert.equal(
    metricValue(await scrape(w.run, '/metrics'), 'upgradeoperator_controlplane_timeout', { version: '4.15.38' }),
    0,
  );
});
