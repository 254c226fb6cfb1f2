import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse, stringify } from 'yaml';
import { parseScenarioFile } from '../scenarios/scenario-file.js';
import { isJsonObject, type JsonObject } from '../../lib/json.js';
import {
  DISRUPTIONS_ALLOWED_ANNOTATION,
  SNAPSHOT_KIND_ANNOTATION,
  profileOf,
  snapshotScenario,
} from './snapshot-scenario.js';
import { sampleSnapshot } from './snapshot.test-support.js';

const derivedAlerts = new Set(['Watchdog', 'UpdateAvailable']);

function manifest(file: ReturnType<typeof snapshotScenario>, kind: string, name: string): JsonObject | undefined {
  return file.manifests?.find(
    (m) => m['kind'] === kind && isJsonObject(m['metadata']) && m['metadata']['name'] === name,
  ) as JsonObject | undefined;
}

void test('a snapshot becomes a scenario file that the scenario parser accepts as it is written', () => {
  const file = snapshotScenario(sampleSnapshot(), { derivedAlerts });
  const parsed = parseScenarioFile(stringify(file));
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.problems.join('\n'));
  assert.equal(file.start, '2026-05-04T08:00:00Z');
  assert.deepEqual(
    { profile: file.cluster.profile, version: file.cluster.version, channel: file.cluster.channel },
    { profile: 'ha-cloud', version: '4.14.30', channel: 'stable-4.14' },
  );
  assert.deepEqual(file.snapshot?.availableUpdates, ['4.14.31']);
  assert.deepEqual(file.snapshot?.conditionalUpdates, [
    { version: '4.15.2', risks: ['PreRelease'], recommended: 'False' },
  ]);
});

void test('nodes keep their roles, zones, labels and lasting taints; a node names its MachineSet; pools keep maxUnavailable and paused', () => {
  const file = snapshotScenario(sampleSnapshot(), { derivedAlerts });
  const nodes = new Map((file.cluster.nodes ?? []).map((n) => [n.name, n]));
  assert.deepEqual(
    [...nodes.values()].map((n) => `${n.name}:${n.role}`),
    ['m0:master', 'm1:master', 'm2:master', 'w0:worker', 'w1:worker', 'i0:infra', 'g0:worker'],
  );
  assert.equal(nodes.get('w0')?.zone, 'eu-1a');
  assert.equal(nodes.get('w0')?.labels?.['team.example.com/owner'], 'payments');
  // The cordon's taint is the moment's, not the node's.
  assert.deepEqual(nodes.get('w0')?.taints, [{ key: 'dedicated', value: 'payments', effect: 'NoExecute' }]);
  assert.deepEqual(nodes.get('m0')?.taints, [{ key: 'node-role.kubernetes.io/master', effect: 'NoSchedule' }]);
  assert.equal(nodes.get('w0')?.machineSet, 'prod-worker-eu-1a');
  assert.equal(nodes.get('i0')?.machineSet, undefined);
  assert.deepEqual(file.cluster.machineSets, [
    { name: 'prod-worker-eu-1a', role: 'worker', zone: 'eu-1a', instanceType: 'm6i.2xlarge' },
  ]);
  assert.deepEqual(file.cluster.pools, [
    { name: 'master', maxUnavailable: 1 },
    { name: 'worker', maxUnavailable: '25%', paused: true },
    { name: 'infra' },
  ]);
  const notes = file.snapshot?.notes ?? [];
  assert.ok(notes.some((n) => n.includes('MachineConfigPool gpu is not reproduced')));
  assert.ok(notes.some((n) => n.includes('cordoned') && n.includes('w0')));
});

void test('workloads as the drain sees them: placement, replicas and PDBs kept, contents never written', () => {
  const file = snapshotScenario(sampleSnapshot(), { derivedAlerts });
  const checkout = manifest(file, 'Deployment', 'checkout');
  assert.ok(checkout);
  const text = stringify(file);
  for (const secret of ['hunter2', 'DB_PASSWORD', '--token', 'sleep']) assert.ok(!text.includes(secret), secret);
  assert.deepEqual(parse(stringify(checkout)), {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'checkout', namespace: 'shop', labels: { app: 'checkout' } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'checkout' } },
      template: {
        metadata: { labels: { app: 'checkout' } },
        spec: {
          containers: [{ name: 'checkout', image: 'quay.io/example/checkout:1.4' }],
          nodeSelector: { 'team.example.com/owner': 'payments' },
          tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'payments', effect: 'NoExecute' }],
        },
      },
    },
  });
  // The release's own operators are the simulated cluster's; a StatefulSet is a Deployment.
  assert.equal(manifest(file, 'Deployment', 'console'), undefined);
  const db = manifest(file, 'Deployment', 'db');
  assert.equal(
    (db?.['metadata'] as { annotations?: Record<string, string> }).annotations?.[SNAPSHOT_KIND_ANNOTATION],
    'StatefulSet',
  );
  // A bare pod stays on its node; a finished one and the ReplicaSet's pods are not copied.
  assert.deepEqual((manifest(file, 'Pod', 'debug')?.['spec'] as JsonObject)['nodeName'], 'w1');
  assert.equal(manifest(file, 'Pod', 'done'), undefined);
  assert.equal(manifest(file, 'Pod', 'checkout-7f9-a'), undefined);
  const pdb = manifest(file, 'PodDisruptionBudget', 'checkout');
  assert.deepEqual(pdb?.['spec'], { minAvailable: 2, selector: { matchLabels: { app: 'checkout' } } });
  assert.equal(
    (pdb?.['metadata'] as { annotations?: Record<string, string> }).annotations?.[DISRUPTIONS_ALLOWED_ANNOTATION],
    '0',
  );
  assert.deepEqual(
    file.manifests?.filter((m) => m['kind'] === 'Namespace').map((m) => (m['metadata'] as { name: string }).name),
    ['openshift-managed-upgrade-operator', 'shop'],
  );
  assert.ok((file.snapshot?.notes ?? []).some((n) => n.includes('1 DaemonSet(s) are not reproduced')));
});

void test('firing alerts are copied but those the simulated cluster raises itself', () => {
  const file = snapshotScenario(sampleSnapshot(), { derivedAlerts });
  assert.deepEqual(file.cluster.alerts, [
    { labels: { alertname: 'KubePodCrashLooping', namespace: 'shop', pod: 'checkout-7f9-a', severity: 'warning' } },
  ]);
  const without = snapshotScenario({ ...sampleSnapshot(), alerts: undefined }, { derivedAlerts });
  assert.equal(without.cluster.alerts, undefined);
  assert.ok((without.snapshot?.notes ?? []).some((n) => n.includes('--prometheus-url')));
});

void test('the managed UpgradeConfig and ConfigMap: OCM becomes LOCAL for the copied config, the run expects Upgraded', () => {
  const file = snapshotScenario(sampleSnapshot(), { derivedAlerts });
  assert.deepEqual(file.operator?.flows, ['managed']);
  const config = parse(file.operator?.config ?? '') as JsonObject;
  assert.deepEqual(config['configManager'], { source: 'LOCAL', watchInterval: 60, localConfigName: 'osd-upgrade' });
  assert.deepEqual(config['nodeDrain'], { timeOut: 45 });
  const uc = manifest(file, 'UpgradeConfig', 'osd-upgrade');
  assert.deepEqual(uc?.['metadata'], { name: 'osd-upgrade', namespace: 'openshift-managed-upgrade-operator' });
  assert.equal(uc?.['status'], undefined);
  assert.deepEqual(file.expect, { phase: 'Upgraded' });
  // upgradeAt is two hours after the snapshot: time enough to reach it, and twelve hours more.
  assert.deepEqual(file.end, { timeout: '14h' });
});

void test('the scheduled flow: its kinds copied, hooks without container contents, finished jobs left out', () => {
  const snap = sampleSnapshot();
  const ns = 'appuio-openshift-upgrade-controller';
  snap.operator = {
    managedUpgradeConfigs: [],
    upgradeConfigs: [
      {
        apiVersion: 'managedupgrade.appuio.io/v1beta1',
        kind: 'UpgradeConfig',
        metadata: { name: 'nightly', namespace: ns },
        spec: { schedule: { cron: '0 1 * * *' } },
      } as ClusterSnapshotObject,
    ],
    upgradeJobs: [
      {
        apiVersion: 'managedupgrade.appuio.io/v1beta1',
        kind: 'UpgradeJob',
        metadata: { name: 'old', namespace: ns },
        spec: {},
        status: { conditions: [{ type: 'Succeeded', status: 'True' }] },
      } as ClusterSnapshotObject,
    ],
    upgradeJobHooks: [
      {
        apiVersion: 'managedupgrade.appuio.io/v1beta1',
        kind: 'UpgradeJobHook',
        metadata: { name: 'notify', namespace: ns },
        spec: {
          events: ['Finish'],
          template: {
            spec: {
              template: { spec: { containers: [{ name: 'curl', image: 'curl', args: ['https://hook/secret'] }] } },
            },
          },
        },
      } as ClusterSnapshotObject,
    ],
    upgradeSuspensionWindows: [],
    nodeForceDrains: [],
  };
  const file = snapshotScenario(snap, { derivedAlerts });
  assert.deepEqual(file.operator, { flows: ['scheduled'], namespace: ns });
  assert.ok(manifest(file, 'UpgradeConfig', 'nightly'));
  assert.equal(manifest(file, 'UpgradeJob', 'old'), undefined);
  assert.ok(!stringify(file).includes('hook/secret'));
  assert.deepEqual(file.end?.objectCondition?.kind, 'UpgradeJob');
  assert.ok(parseScenarioFile(stringify(file)).ok);
});

type ClusterSnapshotObject = ReturnType<typeof sampleSnapshot>['operator']['upgradeConfigs'][number];

void test('a version the simulation does not know is said in the notes', () => {
  const file = snapshotScenario(sampleSnapshot(), { derivedAlerts, knownVersion: (v) => v !== '4.14.30' });
  assert.ok((file.snapshot?.notes ?? []).some((n) => n.startsWith('version 4.14.30 is not in the simulation')));
  const known = snapshotScenario(sampleSnapshot(), { derivedAlerts, knownVersion: () => true });
  assert.ok(!(known.snapshot?.notes ?? []).some((n) => n.startsWith('version ')));
});

void test('the profile follows the platform and the topology', () => {
  const infra = (status: JsonObject): Parameters<typeof profileOf>[0] =>
    ({ metadata: { name: 'cluster' }, status }) as unknown as Parameters<typeof profileOf>[0];
  assert.equal(profileOf(infra({ platformStatus: { type: 'AWS' } })), 'ha-cloud');
  assert.equal(profileOf(infra({ platformStatus: { type: 'BareMetal' } })), 'bare-metal');
  assert.equal(
    profileOf(infra({ controlPlaneTopology: 'SingleReplica', platformStatus: { type: 'None' } })),
    'single-node',
  );
  assert.equal(profileOf(undefined), 'ha-cloud');
});
