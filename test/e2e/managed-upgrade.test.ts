/**
 * End to end, the happy paths of the managed flow on the simulated cluster with the operator
 * in the loop: the scenarios `managed-control-plane-overrun` (the OSD upgrade of
 * `managed-osd-upgrade` with a control plane that overruns `controlPlaneTime`), `managed-aro-upgrade` and
 * `managed-conditional-update` (the default for a not-recommended target), checked through what a
 * user can read.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CLUSTER_VERSION_NAME, ClusterVersionResource } from '../../src/api/openshift/config-v1/cluster-version.js';
import { MachineSetResource } from '../../src/api/openshift/machine-v1beta1/machine-set.js';
import { events, runScenario, scrape, silences } from './scenario.test-support.js';

const OSD_CONDITIONS = [
  'StartedNotificationSent',
  'IsClusterUpgradable',
  'ClusterHealthyBeforeUpgrade',
  'ExternalDependenciesAvailable',
  'ComputeCapacityReserved',
  'ControlPlaneMaintenanceWindowCreated',
  'UpgradeCommenced',
  'ControlPlaneUpgraded',
  'ControlPlaneMaintenanceWindowRemoved',
  'WorkersMaintenanceWindowCreated',
  'WorkerNodesUpgraded',
  'ComputeCapacityRemoved',
  'WorkersMaintenanceWindowRemoved',
  'ClusterHealthyAfterUpgrade',
  'PostUpgradeTasksCompleted',
  'CompletedNotificationSent',
];

void test('managed-control-plane-overrun (the OSD upgrade): 17 steps to Upgraded, capacity and silences created then removed, the control-plane silence kept past controlPlaneTime, worker times, metrics', async (t) => {
  const { ok, summary, run } = await runScenario(t, 'managed-control-plane-overrun');
  assert.ok(ok, summary);
  const cr = run.upgradeConfig();
  const h = cr?.status?.history?.[0];
  assert.equal(h?.phase, 'Upgraded');
  assert.equal(h?.precedingVersion, '4.14.30');
  assert.ok(
    run.timeline.some((p) => p.phase === 'Pending'),
    'the upgrade waited in Pending',
  );
  assert.ok(
    Date.parse(h?.startTime ?? '') >= Date.parse(cr?.spec?.upgradeAt ?? ''),
    'it did not start before upgradeAt',
  );
  assert.deepEqual(
    [...(h?.conditions ?? [])].reverse().map((c) => `${c.type}=${c.status}`),
    OSD_CONDITIONS.map((c) => `${c}=True`),
  );
  assert.equal(h?.conditions?.[0]?.message, 'CompletedNotificationSent is completed');
  assert.equal(cr?.status?.conditions?.find((c) => c.type === 'Waiting')?.reason, 'Upgraded');

  // The MachineConfigPool controller's times, in order, inside the upgrade.
  const [start, workersStart, workersDone, end] = [
    h?.startTime,
    h?.workerStartTime,
    h?.workerCompleteTime,
    h?.completeTime,
  ].map((x) => Date.parse(x ?? ''));
  assert.ok(
    start! <= workersStart! && workersStart! < workersDone! && workersDone! <= end!,
    JSON.stringify(h, null, 1),
  );

  // ClusterVersion Completed while the workers still rolled: the upgrade waited for them.
  assert.ok(
    run.timeline.some(
      (p) =>
        p.clusterVersion.state === 'Completed' &&
        p.clusterVersion.version === '4.15.38' &&
        p.phase === 'Upgrading' &&
        !p.doneSteps.includes('WorkerNodesUpgraded') &&
        (p.pools['worker']?.[0] ?? 0) < (p.pools['worker']?.[1] ?? 0),
    ),
    'a moment with the control plane Completed and workers still rolling',
  );
  const cv = await run.env.client.get(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME);
  assert.deepEqual([cv.status?.history?.[0]?.version, cv.status?.history?.[0]?.state], ['4.15.38', 'Completed']);

  // Capacity: three clones (one per worker MachineSet) joined the pool, and are gone.
  assert.equal(Math.max(...run.timeline.map((p) => p.pools['worker']?.[1] ?? 0)), 6);
  const clones = await run.env.client.list(MachineSetResource, {
    namespace: 'openshift-machine-api',
    labelSelector: 'upgrade.managed.openshift.io=true',
  });
  assert.equal(clones.items.length, 0);

  const ours = (await silences(run)).filter((s) => s.createdBy === 'managed-upgrade-operator');
  assert.equal(ours.filter((s) => s.comment === 'Silence for OSD control plane upgrade to version 4.15.38').length, 1);
  // The worker window is replaced (never duplicated) as the count of remaining nodes falls.
  const workers = ours
    .filter((s) => s.comment.startsWith('Silence for OSD worker node upgrade to version 4.15.38 with remaining '))
    .map((s) => s.comment);
  assert.ok(workers.length >= 1 && new Set(workers).size === workers.length, JSON.stringify(workers));
  assert.deepEqual(
    ours.filter((s) => s.status.state === 'active'),
    [],
    'every maintenance silence ended',
  );
  // Behaviour 9 (docs/design/cluster-model.md#behaviour-9-silences-and-alerts): every silence ended
  // as expired; the control-plane silence was in force from commencement until ClusterVersion
  // completed (kept open while the CVO took longer than `controlPlaneTime`, unlike MUO's), and a
  // worker silence when the last worker finished.
  assert.ok(
    ours.every((s) => s.status.state === 'expired'),
    JSON.stringify(ours.map((s) => s.status.state)),
  );
  const commencedAt = Date.parse(h?.conditions?.find((c) => c.type === 'UpgradeCommenced')?.completeTime ?? '');
  const cpCompletedAt = Date.parse(cv.status?.history?.[0]?.completionTime ?? '');
  const cp = ours.filter((s) => s.comment === 'Silence for OSD control plane upgrade to version 4.15.38');
  assert.ok(
    cp.length === 1 && Math.floor(cp[0]!.startsAt / 1000) * 1000 <= commencedAt,
    'the control-plane silence was in force when the CVO was told to upgrade',
  );
  assert.ok(
    cpCompletedAt - commencedAt > 90 * 60_000,
    'the control plane took longer than controlPlaneTime (90 min): the case MUO got wrong',
  );
  assert.ok(
    cp[0]!.endsAt >= cpCompletedAt,
    `the control-plane silence was in force until ClusterVersion completed (${cv.status?.history?.[0]?.completionTime ?? '?'}), ended at ${new Date(cp[0]!.endsAt).toISOString()}`,
  );
  assert.ok(cp[0]!.endsAt - cpCompletedAt < 5 * 60_000, 'and removed right after');
  const timeouts = await events(run, run.namespace, 'ControlPlaneTimeout');
  assert.ok(
    timeouts.length >= 1 && timeouts.every((e) => e.type === 'Warning'),
    `the overrun was reported as a Warning: ${JSON.stringify(timeouts)}`,
  );
  const extended = await events(run, run.namespace, 'MaintenanceWindowExtended');
  assert.ok(
    extended.length >= 1 &&
      extended.every((e) =>
        e.message.startsWith(
          `silence ${cp[0]!.id}: Silence for OSD control plane upgrade to version 4.15.38, now until `,
        ),
      ),
    JSON.stringify(extended),
  );
  const workerSilences = ours.filter((s) => s.comment.startsWith('Silence for OSD worker node upgrade'));
  assert.ok(
    workerSilences.some((s) => s.startsAt <= workersDone! && s.endsAt >= workersDone!),
    'a worker silence was in force when the last worker finished',
  );

  const metrics = await scrape(run, '/metrics');
  assert.match(metrics, /upgradeoperator_upgrade_completed_timestamp\{[^}]*version="4\.15\.38"/);
  // controller-runtime's families, with durations in virtual time (docs/metrics.md).
  assert.match(
    metrics,
    /controller_runtime_reconcile_total\{controller="upgradeconfig",result="requeue_after"\} [1-9]/,
  );
  assert.match(metrics, /workqueue_adds_total\{name="nodekeeper",controller="nodekeeper"\} [1-9]/);
  assert.match(metrics, /rest_client_requests_total\{code="201",method="POST",host="[^"]+"\} [1-9]/);
  assert.match(metrics, /process_resident_memory_bytes \d/);
  assert.match(
    await scrape(run, '/collector'),
    /managed_upgrade_condition_workers_upgraded_timestamp\{[^}]*condition="True"/,
  );
  assert.equal((await events(run, run.namespace, 'UpgradeCompleted')).length, 1);
});

void test('managed-osd-upgrade (the flagship, the demo): Upgraded with no timeout and no Warning Event on the way', async (t) => {
  const { ok, summary, run } = await runScenario(t, 'managed-osd-upgrade');
  assert.ok(ok, summary);
  assert.equal(run.upgradeConfig()?.status?.history?.[0]?.phase, 'Upgraded');
  const warnings = (await events(run, run.namespace)).filter((e) => e.type === 'Warning');
  assert.deepEqual(warnings, []);
  assert.ok(
    run.timeline.every((p) => p.warning === '' && p.waitingReason !== 'ControlPlaneTimeout'),
    'never a timeout on the way',
  );
  assert.match(
    await scrape(run, '/metrics'),
    /upgradeoperator_controlplane_timeout\{[^}]*\} 0/,
    'the timeout metric says no',
  );
});

void test('managed-aro-upgrade: the 14 ARO steps to Upgraded, no capacity reserved, MUO’s silence texts (which say OSD on ARO too)', async (t) => {
  const { ok, summary, run } = await runScenario(t, 'managed-aro-upgrade');
  assert.ok(ok, summary);
  const h = run.upgradeConfig()?.status?.history?.[0];
  const aro = OSD_CONDITIONS.filter((c) => c !== 'IsClusterUpgradable' && c !== 'PostUpgradeTasksCompleted');
  assert.deepEqual(
    [...(h?.conditions ?? [])].reverse().map((c) => `${c.type}=${c.status}`),
    aro.map((c) => `${c}=True`),
  );
  assert.equal(Math.max(...run.timeline.map((p) => p.pools['worker']?.[1] ?? 0)), 3, 'no extra machine');
  const ours = (await silences(run)).filter((s) => s.createdBy === 'managed-upgrade-operator');
  assert.ok(
    ours.some((s) => s.comment === 'Silence for OSD control plane upgrade to version 4.14.45'),
    JSON.stringify(ours.map((s) => s.comment)),
  );
  assert.deepEqual(
    ours.filter((s) => s.status.state === 'active'),
    [],
  );
});

void test('managed-conditional-update: a not-recommended conditional target is commenced by default, as MUO, with its release image; its risk is named', async (t) => {
  const { ok, summary, run } = await runScenario(t, 'managed-conditional-update');
  assert.ok(ok, summary);
  const cv = await run.env.client.get(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME);
  assert.equal(cv.spec?.desiredUpdate?.version, '4.15.2');
  assert.match(
    cv.spec?.desiredUpdate?.image ?? '',
    /^quay\.io\/openshift-release-dev\/ocp-release@sha256:[0-9a-f]{64}$/,
  );
  assert.deepEqual([cv.status?.history?.[0]?.version, cv.status?.history?.[0]?.state], ['4.15.2', 'Completed']);
  const cr = run.upgradeConfig();
  assert.equal(cr?.status?.history?.[0]?.precedingVersion, '4.14.10');
  // Behaviour 4 (docs/design/cluster-model.md#behaviour-4-a-conditional-updates-risk): the target
  // was taken while its Recommended condition was False, with no risk accepted and no opt-in
  // (conditionalUpdates.requireRiskAcceptance): the CVO recorded the risk it was told to accept.
  assert.match(
    cv.status?.history?.[0]?.acceptedRisks ?? '',
    /^Precondition "ClusterVersionRecommendedUpdate" failed because of "[A-Za-z0-9_,:]+": Update from 4\.14\.10 to 4\.15\.2 is not recommended:/,
  );
  const told = await events(run, run.namespace, 'UpgradeCommenced');
  assert.match(told[0]?.message ?? '', /conditional update 4\.15\.2$/);
  // The risk is named, with its URL, in a Warning Event and in the UpgradeConfig's UpdateRecommended condition.
  const warned = await events(run, run.namespace, 'UpdateNotRecommended');
  assert.equal(warned.length, 1, JSON.stringify(warned));
  assert.match(
    warned[0]?.message ?? '',
    /^commenced the update to 4\.15\.2, which the cluster version operator does not recommend for this cluster \(Recommended=False PreRelease\): PreRelease: .+ https?:\/\/\S+; not accepted: PreRelease \(conditionalUpdates\.requireRiskAcceptance is off\)$/,
  );
  const condition = cr?.status?.conditions?.find((c) => c.type === 'UpdateRecommended');
  assert.deepEqual(
    [condition?.status, condition?.reason, condition?.message],
    ['False', 'UpdateNotRecommended', warned[0]?.message],
  );
  assert.equal(
    cr?.status?.history?.[0]?.conditions?.find((c) => c.type === 'UpgradeCommenced')?.message,
    'UpgradeCommenced is completed',
    'MUO’s step text',
  );
});

void test('ocm-policy-upgrade: an OCM policy becomes the UpgradeConfig, the upgrade runs at next_run, each state goes back to OCM once', async (t) => {
  const { ok, summary, run } = await runScenario(t, 'ocm-policy-upgrade');
  assert.ok(ok, summary);
  const cr = run.upgradeConfig();
  assert.equal(cr?.spec?.type, 'OSD', 'the ConfigMap’s upgradeType');
  assert.equal(cr?.spec?.desired.channel, 'stable-4.15', '<channel_group>-<major>.<minor>');
  assert.equal(cr?.spec?.PDBForceDrainTimeout, 60, 'node_drain_grace_period of 1 hour, in minutes');
  const policy = run.ocm?.ocm.state.policies(run.ocm.clusterId)[0];
  assert.equal(
    cr?.spec?.upgradeAt,
    policy ? new Date(policy.nextRun).toISOString().replace('.000Z', 'Z') : '',
    'upgradeAt is the policy’s next_run',
  );
  assert.equal(cr?.status?.history?.[0]?.phase, 'Upgraded');
  const changes = policy ? (run.ocm?.ocm.state.stateHistory(policy.id) ?? []) : [];
  assert.deepEqual(
    changes.map((c) => c.value),
    ['scheduled', 'started', 'completed'],
  );
  assert.ok(
    changes.slice(1).every((c) => c.source === 'api'),
    'started and completed were reported by the operator through the API',
  );
  assert.equal((await events(run, run.namespace, 'PolicyApplied')).length, 1);
});

void test('ocm-kill-switch: a policy rescheduled between syncs stops the start at the old time; the upgrade runs at the new one', async (t) => {
  const { ok, summary, run } = await runScenario(t, 'ocm-kill-switch');
  assert.ok(ok, summary);
  const changed = await events(run, run.namespace, 'PolicyChanged');
  assert.ok(
    changed.some((e) => e.message.startsWith('not starting: ')),
    JSON.stringify(changed),
  );
  const cr = run.upgradeConfig();
  const created = Date.parse(cr?.metadata?.creationTimestamp ?? '');
  const h = cr?.status?.history?.[0];
  assert.ok(
    Date.parse(h?.startTime ?? '') >= created + 85 * 60_000,
    `started at the new time (${h?.startTime ?? '?'})`,
  );
  assert.ok(
    run.timeline.some(
      (p) =>
        p.elapsedMs >= 30 * 60_000 &&
        p.elapsedMs < 31 * 60_000 &&
        p.phase === 'Pending' &&
        p.waiting.includes('01:30:00Z'),
    ),
    'back to waiting, for the new time',
  );
  const policy = run.ocm?.ocm.state.policies(run.ocm.clusterId)[0];
  assert.deepEqual(
    (policy ? (run.ocm?.ocm.state.stateHistory(policy.id) ?? []) : []).map((c) => c.value),
    ['scheduled', 'started', 'completed'],
  );
});
