/**
 * End to end, the managed flow's failure cases on the simulated cluster with the operator in
 * the loop: the scenarios `managed-pdb-blocked-drain`, `managed-degraded-operator` and
 * `managed-failure-window`, checked through what a user can read.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PodResource } from '../../src/api/builtin.js';
import { CLUSTER_VERSION_NAME, ClusterVersionResource } from '../../src/api/openshift/config-v1/cluster-version.js';
import { MachineSetResource } from '../../src/api/openshift/machine-v1beta1/machine-set.js';
import { events, runScenario, scrape } from './scenario.test-support.js';

const MINUTE = 60_000;

void test('managed-pdb-blocked-drain: the NodeKeeper deletes PDB-blocked pods after PDBForceDrainTimeout and the workers finish', async (t) => {
  const { ok, summary, run } = await runScenario(t, 'managed-pdb-blocked-drain');
  assert.ok(ok, summary);
  const deleted = await events(run, 'default', 'ForceDrainPodDeleted');
  assert.ok(deleted.length > 0 && deleted.every((e) => e.object.startsWith('Node/')), JSON.stringify(deleted));
  assert.ok(
    deleted.some((e) => e.message.includes('shop/checkout-')),
    JSON.stringify(deleted),
  );
  // Behaviour 2
  // (docs/design/cluster-model.md#behaviour-2-a-drain-blocked-by-a-poddisruptionbudget), as far as
  // this operator (like MUO) goes: the blocked pods are found by the PodDisruptionBudget that
  // selects them on a cordoned node, and the configured policy (PDB-DELETE once
  // PDBForceDrainTimeout + expectedNodeDrainTime passed since the cordon) is applied before the
  // MCO's own one-hour drain timeout could mark any node Degraded; no blind upgrade timeout fails
  // it.
  assert.ok(
    deleted.every((e) =>
      /^Drain strategy PDB-DELETE deleted pod shop\/checkout-\S+: pod is covered by PodDisruptionBudget checkout; node \S+ has been cordoned for 23m0s \(PDBForceDrainTimeout 15m0s \+ nodeDrain\.expectedNodeDrainTime 8m0s\)$/.test(
        e.message,
      ),
    ),
    JSON.stringify(deleted),
  );
  const degraded = run.recorder
    .transitions(run.startedAt)
    .filter((x) => x.kind === 'Node' && x.field === 'machineconfiguration.openshift.io/state' && x.to === 'Degraded');
  assert.deepEqual(degraded, [], 'no node reached the MCO drain timeout');
  const h = run.upgradeConfig()?.status?.history?.[0];
  assert.equal(h?.phase, 'Upgraded');
  // The workers took at least the PDB force-drain timeout longer than an unblocked roll would need to start draining.
  const workers = Date.parse(h?.workerCompleteTime ?? '') - Date.parse(h?.workerStartTime ?? '');
  assert.ok(workers >= 15 * MINUTE, `workers rolled in ${workers / MINUTE} min`);
  const pods = await run.env.client.list(PodResource, { namespace: 'shop' });
  assert.equal(pods.items.length, 2, 'the Deployment keeps its two replicas');
  assert.doesNotMatch(await scrape(run, '/metrics'), /upgradeoperator_node_drain_timeout\{[^}]*\} 1/);
  // PDB-DELETE sends MUO's "delayed" notification (KCS 7075425), once.
  const sent: unknown = JSON.parse(
    run.upgradeConfig()?.metadata?.annotations?.['upgrade-operator.io/notifications-sent'] ?? '[]',
  );
  assert.ok(Array.isArray(sent) && sent.filter((k) => k === 'StateDelayed@4.15.38').length === 1, JSON.stringify(sent));
  assert.match(
    await scrape(run, '/metrics'),
    /upgradeoperator_upgrade_notification\{[^}]*event="StateDelayed"[^}]*\} 1/,
  );
});

void test('managed-degraded-operator: the pre-upgrade health check refuses with the reason, then goes on once the operator recovers', async (t) => {
  const { ok, summary, run } = await runScenario(t, 'managed-degraded-operator');
  assert.ok(ok, summary);
  const refused = run.timeline.filter((p) => p.waiting.includes('authentication: Degraded=True'));
  assert.ok(refused.length > 0, 'the Waiting condition named the degraded operator');
  assert.ok(
    refused.every((p) => p.clusterVersion.version === '4.14.30' && !p.doneSteps.includes('UpgradeCommenced')),
    'nothing was commenced while it refused',
  );
  const why = (await events(run, run.namespace)).filter(
    (e) => e.object === 'UpgradeConfig/managed-upgrade-config' && e.message.includes('authentication: Degraded=True'),
  );
  assert.ok(why.length > 0, 'an Event on the UpgradeConfig says why');
  const recovered = run.actionsRun.find((a) => a.name === 'authentication recovers');
  const commenced = run.upgradeConfig()?.status?.history?.[0]?.conditions?.find((c) => c.type === 'UpgradeCommenced');
  const createdAt = Date.parse(run.upgradeConfig()?.metadata?.creationTimestamp ?? '');
  assert.ok(
    recovered && Date.parse(commenced?.startTime ?? '') >= createdAt + recovered.elapsedMs,
    'commenced only after the recovery',
  );
  assert.equal(run.upgradeConfig()?.status?.history?.[0]?.phase, 'Upgraded');
});

void test('managed-failure-window: Alertmanager down, the window passes before commencement: capacity removed, Failed, FailedUpgrade', async (t) => {
  const { ok, summary, run } = await runScenario(t, 'managed-failure-window');
  assert.ok(ok, summary);
  const h = run.upgradeConfig()?.status?.history?.[0];
  assert.equal(h?.phase, 'Failed');
  const failed = h?.conditions?.find((c) => c.type === 'FailedUpgrade');
  assert.deepEqual([failed?.status, failed?.message], ['True', 'FailedUpgrade notification sent']);
  assert.ok(
    run.timeline.some((p) => p.waiting.includes('ControlPlaneMaintenanceWindowCreated: Alertmanager unavailable')),
    'the wait named Alertmanager',
  );
  assert.equal(Math.max(...run.timeline.map((p) => p.pools['worker']?.[1] ?? 0)), 6, 'capacity had been added');
  const clones = await run.env.client.list(MachineSetResource, {
    namespace: 'openshift-machine-api',
    labelSelector: 'upgrade.managed.openshift.io=true',
  });
  assert.equal(clones.items.length, 0, 'and was removed');
  const cv = await run.env.client.get(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME);
  assert.equal(cv.spec?.desiredUpdate, undefined, 'the cluster was never told to upgrade');
  assert.match(
    await scrape(run, '/metrics'),
    /upgradeoperator_upgrade_window_breached\{upgradeconfig_name="managed-upgrade-config"\} 1/,
  );
  assert.equal((await events(run, run.namespace, 'UpgradeFailed')).length, 1);
  assert.match(
    run.upgradeConfig()?.metadata?.annotations?.['upgrade-operator.io/notifications-sent'] ?? '',
    /StateFailed|failed/i,
  );
});
