/**
 * End to end on the simulated cluster: an UpgradeJob sets desiredUpdate, the simulated CVO and
 * MCO carry out the upgrade, and the job ends Succeeded once the history says Completed and
 * every pool is updated; its Start and Finish hooks ran as Jobs on the simulated Job controller.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NamespaceResource } from '../../api/builtin.js';
import {
  ANNOTATION_UPGRADE_JOB,
  UpgradeJobResource,
} from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import { upgradeJobCrd } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import { UpgradeJobHookResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook-contract.js';
import { upgradeJobHookCrd } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook.js';
import { upgradeSuspensionWindowCrd } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-suspension-window.js';
import { CLUSTER_VERSION_NAME, ClusterVersionResource } from '../../api/openshift/config-v1/cluster-version.js';
import { MachineConfigPoolResource } from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import type { KubeObjectLike } from '../../api/resource.js';
import { EventRecorder } from '../../kube/event-recorder.js';
import { InformerFactory } from '../../kube/informer-factory.js';
import { formatTime } from '../../lib/clock.js';
import { silentLogger } from '../../lib/log.js';
import { createSimulatedCluster } from '../../sim/cluster.js';
import { installCustomResourceDefinitions } from '../../sim/install-crds.js';
import { startTestCluster } from '../../sim/test-support/cluster.test-support.js';
import { createUpgradeJobController } from './upgrade-job-controller.js';

const MINUTE = 60_000;
const NS = 'appuio-upgrade';

void test('simulated cluster: a 4.14 → 4.15 UpgradeJob runs its hooks, the CVO and MCO upgrade, the job Succeeds and releases the lock', async (t) => {
  const cluster = await startTestCluster(t);
  const { ctx, clock, client } = cluster;
  const sim = createSimulatedCluster(ctx, { profile: 'ha-cloud', version: '4.14.30', channel: 'stable-4.15' });
  t.after(() => sim.close());
  await sim.start(cluster.signal);
  await installCustomResourceDefinitions(client, [
    upgradeJobCrd(),
    upgradeJobHookCrd(),
    upgradeSuspensionWindowCrd(),
  ] as KubeObjectLike[]);
  await client.create(NamespaceResource, { metadata: { name: NS } });
  const cvs = ctx.informers.informerFor(ClusterVersionResource);
  const pools = ctx.informers.informerFor(MachineConfigPoolResource);
  const jobs = ctx.informers.informerFor(UpgradeJobResource, { namespace: NS });
  await ctx.informers.waitForSync();
  const offered = (): { version: string; image: string } | undefined =>
    (cvs.get(undefined, CLUSTER_VERSION_NAME)?.status?.availableUpdates ?? [])
      .filter((r) => r.version.startsWith('4.15.'))
      .sort((a, b) => Number(b.version.split('.')[2]) - Number(a.version.split('.')[2]))[0];
  const start = clock.now();
  await clock.run({ until: () => offered() !== undefined || clock.now() > start + 30 * MINUTE });
  const target = offered();
  assert.ok(target, 'the update service offers a 4.15 release');

  const logger = silentLogger();
  const events = new EventRecorder({
    client: ctx.client,
    clock,
    logger,
    activity: clock.activity,
    component: 'upgrade-operator',
  });
  const informers = new InformerFactory({
    client: ctx.client,
    clock,
    logger,
    random: ctx.random.fork('operator'),
    defaults: { minWatchTimeoutSeconds: 60 * 86_400 },
  });
  const { controller } = createUpgradeJobController({
    client: ctx.client,
    informers,
    clock,
    logger,
    events,
    activity: clock.activity,
    namespace: NS,
  });
  void controller.start(cluster.signal);
  for (const [name, event] of [
    ['announce', 'Start'],
    ['report', 'Finish'],
  ] as const) {
    await client.create(UpgradeJobHookResource, {
      apiVersion: 'managedupgrade.appuio.io/v1beta1',
      kind: 'UpgradeJobHook',
      metadata: { name, namespace: NS },
      spec: {
        events: [event],
        template: {
          spec: {
            template: {
              spec: { restartPolicy: 'Never', containers: [{ name: 'hook', image: 'registry.example.com/hook:1' }] },
            },
          },
        },
      },
    });
  }
  const startAfter = clock.now() + MINUTE;
  await client.create(UpgradeJobResource, {
    apiVersion: 'managedupgrade.appuio.io/v1beta1',
    kind: 'UpgradeJob',
    metadata: { name: 'weekly', namespace: NS },
    spec: {
      startAfter: formatTime(startAfter),
      startBefore: formatTime(startAfter + 60 * MINUTE),
      desiredVersion: { version: target.version, image: target.image },
      config: {
        upgradeTimeout: '12h',
        preUpgradeHealthChecks: { timeout: '30m' },
        postUpgradeHealthChecks: { timeout: '30m' },
      },
    },
  });
  const condition = (type: string): string | undefined =>
    jobs.get(NS, 'weekly')?.status?.conditions?.find((c) => c.type === type && c.status === 'True')?.reason;
  await clock.run({
    until: () =>
      condition('Succeeded') !== undefined ||
      condition('Failed') !== undefined ||
      clock.now() > startAfter + 600 * MINUTE,
  });
  assert.equal(condition('Failed'), undefined, JSON.stringify(jobs.get(NS, 'weekly')?.status?.conditions));
  assert.equal(condition('Succeeded'), 'Succeeded');
  assert.equal(condition('UpgradeCompleted'), 'Completed');
  const cv = cvs.get(undefined, CLUSTER_VERSION_NAME)!;
  assert.equal(cv.status?.history?.[0]?.state, 'Completed');
  assert.equal(cv.status?.history?.[0]?.version, target.version);
  assert.ok(
    pools.list().every((p) => p.status?.updatedMachineCount === p.status?.machineCount),
    'every pool updated',
  );
  await clock.run({
    until: () =>
      cvs.get(undefined, CLUSTER_VERSION_NAME)?.metadata?.annotations?.[ANNOTATION_UPGRADE_JOB] === undefined ||
      clock.now() > startAfter + 700 * MINUTE,
  });
  assert.equal(
    cvs.get(undefined, CLUSTER_VERSION_NAME)?.metadata?.annotations?.[ANNOTATION_UPGRADE_JOB],
    undefined,
    'lock released',
  );
  const tracker = () =>
    (jobs.get(NS, 'weekly')?.status?.hookTracker ?? []).map((e) => `${e.upgradeJobHook}/${e.hookEvent}/${e.status}`);
  await clock.run({
    until: () =>
      (tracker().length === 2 && tracker().every((e) => e.endsWith('complete'))) ||
      clock.now() > startAfter + 700 * MINUTE,
  });
  assert.deepEqual(tracker(), ['announce/Start/complete', 'report/Finish/complete']);
});
