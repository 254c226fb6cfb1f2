import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeResource } from '../api/builtin.js';
import { ClusterOperatorResource, type ClusterOperator } from '../api/openshift/config-v1/cluster-operator.js';
import { ClusterVersionResource, type ClusterVersion } from '../api/openshift/config-v1/cluster-version.js';
import {
  MachineConfigPoolResource,
  type MachineConfigPool,
} from '../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { startInvariantMonitor } from './invariant-monitor.js';
import type { AlertTransition } from './monitoring/rules.js';
import { startTestCluster } from './test-support/cluster.test-support.js';

const CUR = 'machineconfiguration.openshift.io/currentConfig';
const DES = 'machineconfiguration.openshift.io/desiredConfig';
const T = '2026-03-02T00:00:00Z';

function poolStatus(updated: number): NonNullable<MachineConfigPool['status']> {
  const all = updated === 2;
  return {
    observedGeneration: 1,
    configuration: { name: 'rendered-master-old' },
    machineCount: 2,
    updatedMachineCount: updated,
    readyMachineCount: Math.min(updated, 2),
    unavailableMachineCount: all ? 0 : 1,
    degradedMachineCount: 0,
    conditions: [{ type: 'Updated', status: all ? 'True' : 'False', lastTransitionTime: T, reason: '', message: '' }],
  };
}

function cvStatus(progressing: 'True' | 'False'): NonNullable<ClusterVersion['status']> {
  return {
    desired: { version: '4.14.12', image: 'img@12' },
    history: [
      { state: 'Partial', startedTime: T, completionTime: null, version: '4.14.12', image: 'img@12', verified: true },
      {
        state: 'Completed',
        startedTime: '2026-01-01T00:00:00Z',
        completionTime: '2026-01-01T01:00:00Z',
        version: '4.14.10',
        image: 'img@10',
        verified: false,
      },
    ],
    observedGeneration: 1,
    versionHash: 'abcdefghijkl',
    availableUpdates: null,
    conditions: [
      { type: 'Available', status: 'True', lastTransitionTime: T, message: 'Done applying 4.14.10' },
      { type: 'Progressing', status: progressing, lastTransitionTime: T, message: 'Working towards 4.14.12' },
    ],
  };
}

test('the monitor checks every event of the shared informers and the alert log, one entry per distinct violation', async (t) => {
  const cluster = await startTestCluster(t);
  const { client, clock, ctx } = cluster;
  const alerts: AlertTransition[] = [];
  const monitor = startInvariantMonitor(ctx, { rules: { transitions: () => alerts } });
  ctx.informers.start(cluster.signal);
  await ctx.informers.waitForSync(cluster.signal);
  const until = async (cond: () => boolean): Promise<void> => {
    const r = await clock.run({ until: () => cond() });
    assert.equal(r.reason, 'condition');
  };
  const messages = (): string[] => monitor.violations().map((v) => `${v.kind}: ${v.message}`);

  // A consistent start: a master pool of two nodes, a ClusterVersion updating, an operator.
  const pool = await client.create(MachineConfigPoolResource, {
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfigPool',
    metadata: { name: 'master' },
    spec: {
      nodeSelector: { matchLabels: { 'node-role.kubernetes.io/master': '' } },
      paused: false,
      maxUnavailable: 1,
      configuration: { name: 'rendered-master-new' },
    },
  });
  let p = await client.updateStatus(MachineConfigPoolResource, { ...pool, status: poolStatus(2) });
  for (const name of ['m0', 'm1']) {
    await client.create(NodeResource, {
      metadata: {
        name,
        labels: { 'node-role.kubernetes.io/master': '' },
        annotations: { [CUR]: 'rendered-master-old', [DES]: 'rendered-master-old' },
      },
    });
  }
  const cv = await client.create(ClusterVersionResource, {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: { name: 'version' },
    spec: { clusterID: '6f1c8a2e-3b7d-4c19-9a55-0e2d7b4f8c31' },
  });
  const v = await client.updateStatus(ClusterVersionResource, { ...cv, status: cvStatus('True') });
  const co = await client.create(ClusterOperatorResource, {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterOperator',
    metadata: { name: 'dns' },
    spec: {},
  });
  const coStatus = (version: string): NonNullable<ClusterOperator['status']> => ({
    versions: [{ name: 'operator', version }],
    conditions: [{ type: 'Progressing', status: 'False', lastTransitionTime: T }],
  });
  let c = await client.updateStatus(ClusterOperatorResource, { ...co, status: coStatus('4.14.10') });
  const cache = ctx.informers.informerFor(ClusterOperatorResource);
  await until(() => cache.get(undefined, 'dns')?.metadata?.resourceVersion === c.metadata?.resourceVersion);
  assert.deepEqual(messages(), []);

  // Pool counters broken twice: one entry, seen twice.
  p = await client.updateStatus(MachineConfigPoolResource, {
    ...p,
    status: { ...poolStatus(2), updatedMachineCount: 3 },
  });
  p = await client.updateStatus(MachineConfigPoolResource, {
    ...p,
    status: { ...poolStatus(2), updatedMachineCount: 3, degradedMachineCount: 1 },
  });
  await until(() => monitor.violations().some((x) => x.count === 2));
  const [counters] = monitor.violations();
  assert.deepEqual(
    [counters?.kind, counters?.message, counters?.count],
    ['pool', 'pool master: updatedMachineCount 3 > machineCount 2', 2],
  );
  assert.ok(counters!.lastAt >= counters!.firstAt);

  // Both masters targeted at once with maxUnavailable 1.
  for (const name of ['m0', 'm1'])
    await client.patch(
      NodeResource,
      undefined,
      name,
      { metadata: { annotations: { [DES]: 'rendered-master-new' } } },
      { type: 'merge' },
    );
  await until(() => messages().includes('pool: pool master: 2 nodes updating at once (m0, m1), maxUnavailable 1'));

  // Progressing=False while the head is Partial.
  await client.updateStatus(ClusterVersionResource, { ...v, status: cvStatus('False') });
  await until(() =>
    messages().some((m) =>
      m.startsWith('cluster-version: clusterversion: Progressing=False while the head entry 4.14.12 is Partial'),
    ),
  );

  // An operator version change without a Progressing period.
  c = await client.updateStatus(ClusterOperatorResource, { ...c, status: coStatus('4.14.12') });
  await until(() =>
    messages().includes(
      'cluster-operator: clusteroperator dns: operator version changed 4.14.10 → 4.14.12 without a Progressing=True period before',
    ),
  );

  // The alert log is read where the last read stopped; the violation carries the evaluation's time.
  const at = clock.now() - 60_000;
  alerts.push({
    at,
    alertname: 'KubeNodeNotReady',
    labels: { alertname: 'KubeNodeNotReady', node: 'm0' },
    state: 'firing',
    activeAt: at - 900_000,
    forMs: 900_000,
  });
  const alert = monitor.violations().find((x) => x.kind === 'alert');
  assert.deepEqual(
    [alert?.message, alert?.firstAt],
    ['alert KubeNodeNotReady{node="m0"}: firing without having been pending (for 900s)', at],
  );
  assert.equal(monitor.violations().filter((x) => x.kind === 'alert').length, 1);

  // Stopped: later events are not checked.
  monitor.stop();
  const before = monitor.violations().length;
  const last = await client.updateStatus(MachineConfigPoolResource, {
    ...p,
    status: { ...poolStatus(2), readyMachineCount: 1 },
  });
  const pools = ctx.informers.informerFor(MachineConfigPoolResource);
  await until(() => pools.get(undefined, 'master')?.metadata?.resourceVersion === last.metadata?.resourceVersion);
  assert.equal(monitor.violations().length, before);
});
