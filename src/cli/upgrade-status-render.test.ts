import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stripVTControlCharacters } from 'node:util';
import { assessUpgradeStatus } from './upgrade-status.js';
import type { UpgradeStatusReport } from './upgrade-status-model.js';
import { MAX_NODE_ROWS, renderStatusJson, renderStatusText, shortDuration } from './upgrade-status-render.js';
import {
  at,
  c,
  CFG,
  clusterVersion,
  co,
  MASTERS_DONE,
  NEW,
  node,
  NOW,
  ok,
  OLD,
  PARTIAL,
  pdb,
  pod,
  snapshot,
} from './upgrade-status.test-support.js';

/** Control plane waiting on machine-config, workers mid-rollout with a PDB-blocked drain, a managed UpgradeConfig. */
function midUpdate(): UpgradeStatusReport {
  const cv = clusterVersion({
    head: PARTIAL,
    conditions: [
      c('Failing', 'False'),
      c(
        'Progressing',
        'True',
        'ClusterOperatorUpdating',
        `Working towards ${NEW}: 762 of 880 done (86% complete), waiting on machine-config`,
        62,
      ),
      c('ReleaseAccepted', 'True', 'PayloadLoaded'),
    ],
  });
  return assessUpgradeStatus(
    snapshot({
      clusterVersion: ok(cv),
      clusterOperators: ok([
        co('etcd', NEW),
        co('kube-apiserver', NEW),
        co('machine-config', OLD, true),
        co('dns', NEW),
      ]),
      pods: ok([pod('shop', 'web-0', 'w1', { app: 'web' })]),
      podDisruptionBudgets: ok([pdb('shop', 'web-pdb', 'web', 0)]),
      managedUpgradeConfigs: ok([
        {
          metadata: { namespace: 'openshift-managed-upgrade-operator', name: 'managed-upgrade-config' },
          spec: {
            desired: { version: NEW, channel: 'stable-4.15' },
            upgradeAt: at(70),
            PDBForceDrainTimeout: 60,
            type: 'OSD',
          },
          status: {
            history: [
              {
                version: NEW,
                phase: 'Upgrading',
                startTime: at(68),
                conditions: [
                  {
                    type: 'ControlPlaneUpgraded',
                    status: 'False',
                    reason: 'ControlPlaneUpgraded not done',
                    message: 'ControlPlaneUpgraded still in progress',
                    startTime: at(62),
                  },
                ],
              },
            ],
            conditions: [
              {
                type: 'Waiting',
                status: 'True',
                reason: 'WaitingForControlPlane',
                message: 'the cluster version operator waits on machine-config',
                lastTransitionTime: at(10),
              },
            ],
          },
        },
      ]),
    }),
    NOW,
  );
}

const GOLDEN = `= Control Plane =
Assessment:      Progressing
Target Version:  4.15.3 (from 4.14.10)
Completion:      75% (3 operators updated, 1 updating, 0 waiting)
Duration:        1h2m (Est. Time Remaining: 28m)
Operator Health: 4 Healthy
Message:         Working towards 4.15.3: 762 of 880 done (86% complete), waiting on machine-config
Updating:        machine-config

Control Plane Nodes
NAME   ASSESSMENT   PHASE     VERSION   MESSAGE
m0     Completed    Updated   4.15.3
m1     Completed    Updated   4.15.3
m2     Completed    Updated   4.15.3

= Worker Upgrade =

WORKER POOL   ASSESSMENT    COMPLETION   STATUS
infra         Excluded      0% (0/1)     1 Available, 0 Progressing, 0 Draining, 1 Excluded
worker        Progressing   20% (1/5)    2 Available, 3 Progressing, 1 Draining
infra: the pool is paused; 1 node will not update until it is unpaused

Worker Pool Nodes: infra
NAME   ASSESSMENT   PHASE    VERSION   MESSAGE
i0     Excluded     Paused   4.14.10   the pool is paused

Worker Pool Nodes: worker
NAME   ASSESSMENT    PHASE       VERSION   MESSAGE
w1     Progressing   Draining    4.14.10   drain blocked: pod shop/web-0 (PodDisruptionBudget shop/web-pdb)
w2     Progressing   Rebooting   4.14.10   the node is rebooting (NotReady)
w3     Progressing   Updating    4.14.10   updating to 4.15.3
w4     Outdated      Pending     4.14.10
w0     Completed     Updated     4.15.3

= Update Health =
SINCE   LEVEL     IMPACT           MESSAGE
-       Warning   Update Stalled   Node w1 cannot be drained: pod shop/web-0 is protected by PodDisruptionBudget shop/web-pdb (The disruption budget web-pdb needs 2 healthy pods and has 2 currently)
-       Info      Update Speed     Pool infra is paused: 1 of 1 node will not update until it is unpaused

= Upgrade Operator =
Managed upgrades (upgrade.managed.openshift.io UpgradeConfig):
  openshift-managed-upgrade-operator/managed-upgrade-config: 4.15.3 (OSD), upgrade at 2024-03-20T07:52:09Z
    Phase:   Upgrading since 2024-03-20T07:54:09Z
    Step:    ControlPlaneUpgraded=False for 1h2m (ControlPlaneUpgraded not done): ControlPlaneUpgraded still in progress
    Waiting: WaitingForControlPlane: the cluster version operator waits on machine-config
Scheduled upgrades (managedupgrade.appuio.io): not installed
`;

void test('golden text: control plane, worker pools and nodes (a PDB-blocked drain), update health, the managed UpgradeConfig', () => {
  assert.equal(renderStatusText(midUpdate()), GOLDEN);
});

void test('JSON: the report as assessed, pretty or one line for --watch', () => {
  const report = midUpdate();
  const text = renderStatusJson(report);
  assert.deepEqual(JSON.parse(text), report);
  assert.deepEqual(Object.keys(JSON.parse(text) as object), [
    'generatedAt',
    'updating',
    'unknown',
    'controlPlane',
    'pools',
    'health',
    'upgradeOperator',
  ]);
  const line = renderStatusJson(report, true);
  assert.equal(line.split('\n').length, 2, 'one line and its newline');
  assert.deepEqual(JSON.parse(line), report);
});

void test('colour only when asked; --details expands operators and health, nodes beyond the first ten only with --details=nodes', () => {
  const report = midUpdate();
  assert.ok(!renderStatusText(report).includes('\u001b['));
  const coloured = renderStatusText(report, { color: true });
  assert.ok(coloured.includes('\u001b[36mProgressing\u001b[39m'), 'Progressing in cyan');
  assert.equal(stripVTControlCharacters(coloured), GOLDEN, 'colour changes nothing else, padding included');

  const all = renderStatusText(report, { details: ['all'] });
  assert.match(
    all,
    /Operators not done or not healthy\nNAME +VERSION +AVAILABLE +PROGRESSING +DEGRADED +SINCE +MESSAGE\nmachine-config +4\.14\.10 +True +True +False +10m +Working towards 4\.15\.3\n/,
  );
  assert.match(
    all,
    /Message: Node w1 cannot be drained: .*\n {2}Since: +-\n {2}Level: +Warning\n {2}Impact: +Update Stalled\n {2}Resources: +Node w1\n/,
  );

  const many = Array.from({ length: MAX_NODE_ROWS + 2 }, (_, i) =>
    node(`w${String(i).padStart(2, '0')}`, 'worker', { current: CFG.workerOld }),
  );
  const big = assessUpgradeStatus(snapshot({ nodes: ok([...MASTERS_DONE, ...many]) }), NOW);
  assert.match(renderStatusText(big), /\.\.\. and 2 more nodes \(--details=nodes shows all\)\n/);
  const full = renderStatusText(big, { details: ['nodes'] });
  assert.ok(full.includes('w11 ') && !full.includes('more nodes'));
});

void test('not updating: one line, the version, problems only; unknown parts are warned about first', () => {
  const done = assessUpgradeStatus(snapshot({ nodes: ok([...MASTERS_DONE]), machineConfigPools: ok([]) }), NOW);
  assert.equal(
    renderStatusText(done),
    `The cluster is not updating.
Cluster version is 4.15.3 (update from 4.14.10 completed at 2024-03-20T08:57:09Z, took 57m).

= Upgrade Operator =
Managed upgrades (upgrade.managed.openshift.io UpgradeConfig): not installed
Scheduled upgrades (managedupgrade.appuio.io): not installed
`,
  );
  const unknown = assessUpgradeStatus(
    snapshot({ clusterOperators: { state: 'error', error: 'clusteroperators is forbidden' } }),
    NOW,
  );
  const text = renderStatusText(unknown);
  assert.ok(text.startsWith('Warning: could not read clusterOperators: clusteroperators is forbidden\n\n'), text);
  assert.match(text, /Completion: +unknown \(ClusterOperators could not be read\)/);
});

void test('durations as oc prints them', () => {
  assert.deepEqual([0, 999, 45_000, 60_000, 725_000, 3_600_000, 3_720_000, 3_725_000, -5].map(shortDuration), [
    '0s',
    '0s',
    '45s',
    '1m',
    '12m5s',
    '1h',
    '1h2m',
    '1h2m',
    '0s',
  ]);
});
