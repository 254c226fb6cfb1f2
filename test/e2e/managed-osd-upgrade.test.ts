/**
 * End to end: an OSD managed upgrade 4.14.30 → 4.15.38 on the simulated ha-cloud cluster, the
 * operator in the loop, all on one event-driven virtual clock. The test reads only what a
 * user could read: the UpgradeConfig's status, ClusterVersion, MachineSets, Alertmanager's
 * silences and the operator's metrics.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigMapResource, NamespaceResource } from '../../src/api/builtin.js';
import { CLUSTER_VERSION_NAME, ClusterVersionResource } from '../../src/api/openshift/config-v1/cluster-version.js';
import { MachineSetResource } from '../../src/api/openshift/machine-v1beta1/machine-set.js';
import { ManagedUpgradeConfigResource } from '../../src/api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { managedUpgradeConfigCrd, type ManagedUpgradeConfig } from '../../src/api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import { createManagedOperator } from '../../src/cli/managed-operator.js';
import { defaultOperatorSettings } from '../../src/config/operator-settings.js';
import { AlertmanagerClient } from '../../src/integrations/alertmanager-client.js';
import { NO_PROXY_CONFIG } from '../../src/integrations/http/proxy-env.js';
import { KubeClient } from '../../src/kube/client.js';
import { InformerFactory } from '../../src/kube/informer-factory.js';
import { formatTime } from '../../src/lib/clock.js';
import { SeededRandom } from '../../src/lib/random.js';
import { createSimulatedCluster } from '../../src/sim/cluster.js';
import { installCustomResourceDefinitions } from '../../src/sim/install-crds.js';
import { startTestCluster } from '../../src/sim/test-support/cluster.test-support.js';

const NS = 'openshift-managed-upgrade-operator';
const MINUTE = 60_000;

void test('an OSD upgrade runs its 17 steps to Upgraded, with silences and extra capacity created then removed', async (t) => {
  const tc = await startTestCluster(t);
  const sim = createSimulatedCluster(tc.ctx, { profile: 'ha-cloud', version: '4.14.30', channel: 'stable-4.14' });
  await sim.start(tc.signal);
  await installCustomResourceDefinitions(tc.client, [managedUpgradeConfigCrd()]);
  await tc.client.create(NamespaceResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  await tc.client.create(ConfigMapResource, {
    apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'managed-upgrade-operator-config', namespace: NS },
    data: { 'config.yaml': 'configManager:\n  source: LOCAL\n  localConfigName: managed-upgrade-config\nmaintenance:\n  controlPlaneTime: 90\nscale:\n  timeOut: 30\nnodeDrain:\n  timeOut: 45\n  expectedNodeDrainTime: 8\nupgradeWindow:\n  timeOut: 120\n  delayTrigger: 30\n' },
  });

  const opClient = new KubeClient({ config: { server: tc.server.url, insecureSkipTLSVerify: false, auth: () => Promise.resolve(undefined), namespace: NS }, clock: tc.clock, logger: tc.ctx.logger, activity: tc.clock.activity, fieldManager: 'upgrade-operator' });
  t.after(() => opClient.close());
  const informers = new InformerFactory({ client: opClient, clock: tc.clock, logger: tc.ctx.logger, random: new SeededRandom(7) });
  const monitoring = sim.components.monitoring;
  const operator = createManagedOperator({
    client: opClient, informers, clock: tc.clock, logger: tc.ctx.logger, activity: tc.clock.activity,
    settings: defaultOperatorSettings(),
    prometheusUrl: monitoring.prometheusUrl ?? '', alertmanagerUrl: monitoring.alertmanagerUrl ?? '',
    releaseActivityAfterWallMs: 2000,
  });
  t.after(() => operator.close());
  void operator.start(tc.signal);

  const upgradeAt = tc.clock.now() + 10 * MINUTE;
  await tc.client.create(ManagedUpgradeConfigResource, {
    apiVersion: 'upgrade.managed.openshift.io/v1alpha1', kind: 'UpgradeConfig',
    metadata: { name: 'managed-upgrade-config', namespace: NS },
    spec: { type: 'OSD', upgradeAt: formatTime(upgradeAt), PDBForceDrainTimeout: 60, capacityReservation: true, desired: { channel: 'stable-4.15', version: '4.15.38' } },
  });

  const read = (): Promise<ManagedUpgradeConfig> => tc.client.get(ManagedUpgradeConfigResource, NS, 'managed-upgrade-config');
  let sawClones = false;
  let sawPendingPhase = false;
  const am = new AlertmanagerClient({ url: monitoring.alertmanagerUrl ?? '', proxy: NO_PROXY_CONFIG, clock: tc.clock, activity: tc.clock.activity });
  t.after(() => am.close());
  let phase = '';
  const watch = (o: ManagedUpgradeConfig): void => {
    phase = o.status?.history?.[0]?.phase ?? '';
    if (phase === 'Pending') sawPendingPhase = true;
  };
  tc.ctx.informers.informerFor(ManagedUpgradeConfigResource, { namespace: NS }).addHandlers({ onAdd: watch, onUpdate: (_o, n) => watch(n) });
  tc.ctx.informers.informerFor(MachineSetResource).addHandlers({ onAdd: (ms) => { if (ms.metadata?.labels?.['upgrade.managed.openshift.io'] === 'true') sawClones = true; } });
  const started = tc.clock.now();
  await tc.clock.run({ until: () => phase === 'Upgraded' || tc.clock.now() > started + 600 * MINUTE, signal: tc.signal });
  const cr = await read();
  const h = cr.status?.history?.[0];
  assert.equal(h?.phase, 'Upgraded', JSON.stringify(cr.status, null, 1));
  assert.ok(sawPendingPhase, 'the upgrade waited in Pending until upgradeAt');
  assert.ok(Date.parse(h?.startTime ?? '') >= upgradeAt, 'it did not start before upgradeAt');
  assert.equal(h?.precedingVersion, '4.14.30');
  assert.deepEqual(
    [...(h?.conditions ?? [])].reverse().map((c) => `${c.type}=${c.status}`),
    ['StartedNotificationSent', 'IsClusterUpgradable', 'ClusterHealthyBeforeUpgrade', 'ExternalDependenciesAvailable', 'ComputeCapacityReserved', 'ControlPlaneMaintenanceWindowCreated', 'UpgradeCommenced', 'ControlPlaneUpgraded', 'ControlPlaneMaintenanceWindowRemoved', 'WorkersMaintenanceWindowCreated', 'WorkerNodesUpgraded', 'ComputeCapacityRemoved', 'WorkersMaintenanceWindowRemoved', 'ClusterHealthyAfterUpgrade', 'PostUpgradeTasksCompleted', 'CompletedNotificationSent'].map((c) => `${c}=True`),
  );
  assert.equal(h?.conditions?.[0]?.message, 'CompletedNotificationSent is completed');
  const cv = await tc.client.get(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME);
  assert.equal(cv.status?.history?.[0]?.version, '4.15.38');
  assert.equal(cv.status?.history?.[0]?.state, 'Completed');
  assert.ok(sawClones, 'capacity clones were created');
  const clones = (await tc.client.list(MachineSetResource, { namespace: 'openshift-machine-api', labelSelector: 'upgrade.managed.openshift.io=true' })).items;
  assert.equal(clones.length, 0, 'capacity clones were removed');
  const silences = await am.listSilences();
  const ours = silences.filter((s) => s.createdBy === 'managed-upgrade-operator');
  assert.ok(ours.some((s) => s.comment === 'Silence for OSD control plane upgrade to version 4.15.38'));
  assert.ok(ours.some((s) => s.comment.startsWith('Silence for OSD worker node upgrade to version 4.15.38 with remaining ')));
  assert.deepEqual(ours.filter((s) => s.status.state === 'active'), [], 'every maintenance silence ended');
  const metrics = await operator.metricsRegistry.metrics();
  assert.match(metrics, /upgradeoperator_upgrade_completed_timestamp\{[^}]*version="4\.15\.38"/);
  assert.equal(cr.status?.conditions?.find((c) => c.type === 'Waiting')?.reason, 'Upgraded');
});
