import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node } from 'kubernetes-types/core/v1.js';
import { Registry } from 'prom-client';
import type { ClusterVersion, Update, UpdateHistory } from '../../api/openshift/config-v1/cluster-version.js';
import type { Machine } from '../../api/openshift/machine-v1beta1/machine.js';
import type { MachineConfigPool } from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { silentLogger } from '../../lib/log.js';
import { parseExposition, samplesOf, valueOf } from '../../kube/metrics-exposition.test-support.js';
import {
  ClusterStateCollector,
  ClusterStateMetricName as N,
  clusterUpgradingSeries,
  machineConfigPoolSeries,
  machineInfoSeries,
  machineSetOf,
  nodeDrainingSeries,
} from './cluster-state-metrics.js';

const IMG = (v: string): string => `quay.io/openshift-release-dev/ocp-release@sha256:${v.replaceAll('.', '')}`;

function history(version: string, state: 'Completed' | 'Partial'): UpdateHistory {
  return {
    state,
    version,
    image: IMG(version),
    startedTime: '2024-01-01T00:00:00Z',
    completionTime: state === 'Completed' ? '2024-01-01T01:00:00Z' : null,
    verified: true,
  };
}

function cv(desiredUpdate: Update | undefined, entries: UpdateHistory[]): ClusterVersion {
  return {
    metadata: { name: 'version' },
    spec: { clusterID: 'id', ...(desiredUpdate ? { desiredUpdate } : {}) },
    status: {
      desired: { version: entries[0]?.version ?? '', image: entries[0]?.image ?? '' },
      history: entries,
      observedGeneration: 1,
      versionHash: 'h',
      availableUpdates: null,
    },
  };
}

function pool(name: string, opts: { paused?: boolean; machines?: number; updated?: number } = {}): MachineConfigPool {
  const machines = opts.machines ?? 3;
  return {
    metadata: { name },
    spec: { ...(opts.paused === undefined ? {} : { paused: opts.paused }) },
    status: {
      configuration: { name: `rendered-${name}` },
      machineCount: machines,
      updatedMachineCount: opts.updated ?? machines,
      readyMachineCount: machines,
      unavailableMachineCount: 0,
      degradedMachineCount: 0,
    },
  };
}

const DESIRED = 'machineconfiguration.openshift.io/desiredDrain';
const APPLIED = 'machineconfiguration.openshift.io/lastAppliedDrain';

function node(name: string, annotations?: Record<string, string>): Node {
  return { metadata: { name, ...(annotations ? { annotations } : {}) } };
}

void test('cluster_upgrading: desiredUpdate history and unpaused updating pools', () => {
  const done = [pool('master'), pool('worker')];
  const cases: { name: string; cv: ClusterVersion; pools: MachineConfigPool[]; want: number }[] = [
    {
      name: 'never upgraded: no desiredUpdate, install completed',
      cv: cv(undefined, [history('4.15.3', 'Completed')]),
      pools: done,
      want: 0,
    },
    { name: 'no desiredUpdate and no history at all', cv: cv(undefined, []), pools: [], want: 0 },
    {
      name: 'installing: no desiredUpdate, history partial',
      cv: cv(undefined, [history('4.15.3', 'Partial')]),
      pools: done,
      want: 0,
    },
    {
      name: 'desiredUpdate completed',
      cv: cv({ version: '4.15.3', image: IMG('4.15.3') }, [history('4.15.3', 'Completed')]),
      pools: done,
      want: 0,
    },
    {
      name: 'desiredUpdate partial',
      cv: cv({ version: '4.16.1', image: IMG('4.16.1') }, [
        history('4.16.1', 'Partial'),
        history('4.15.3', 'Completed'),
      ]),
      pools: done,
      want: 1,
    },
    {
      name: 'desiredUpdate not in history yet',
      cv: cv({ version: '4.16.1', image: IMG('4.16.1') }, [history('4.15.3', 'Completed')]),
      pools: done,
      want: 1,
    },
    {
      name: 'version-only desiredUpdate completed',
      cv: cv({ version: '4.16.1', image: '', force: false }, [history('4.16.1', 'Completed')]),
      pools: done,
      want: 0,
    },
    {
      name: 'completed but worker pool updating',
      cv: cv({ version: '4.15.3', image: IMG('4.15.3') }, [history('4.15.3', 'Completed')]),
      pools: [pool('master'), pool('worker', { updated: 1 })],
      want: 1,
    },
    {
      name: 'completed, updating pool paused',
      cv: cv({ version: '4.15.3', image: IMG('4.15.3') }, [history('4.15.3', 'Completed')]),
      pools: [pool('master'), pool('worker', { updated: 1, paused: true })],
      want: 0,
    },
    {
      name: 'completed, paused pool up to date',
      cv: cv(undefined, []),
      pools: [pool('worker', { paused: true })],
      want: 0,
    },
  ];
  for (const c of cases)
    assert.deepEqual(
      clusterUpgradingSeries(c.cv, c.pools).get(N.clusterUpgrading),
      [{ labels: {}, value: c.want }],
      c.name,
    );
  assert.deepEqual(clusterUpgradingSeries(undefined, done).get(N.clusterUpgrading), [], 'no ClusterVersion, no series');
});

void test('pool families: upgrading only when updating and not paused; paused from spec.paused', () => {
  const s = machineConfigPoolSeries([
    pool('master'),
    pool('worker', { updated: 1 }),
    pool('infra', { updated: 0, paused: true }),
    pool('app', { paused: true }),
    pool('edge', { paused: false }),
  ]);
  assert.deepEqual(
    s.get(N.poolsUpgrading)?.map((x) => [x.labels.pool, x.value]),
    [
      ['master', 0],
      ['worker', 1],
      ['infra', 0],
      ['app', 0],
      ['edge', 0],
    ],
  );
  assert.deepEqual(
    s.get(N.poolsPaused)?.map((x) => [x.labels.pool, x.value]),
    [
      ['master', 0],
      ['worker', 0],
      ['infra', 1],
      ['app', 1],
      ['edge', 0],
    ],
  );
});

void test('node_draining: desiredDrain differs from lastAppliedDrain, a missing annotation is ""', () => {
  const s = nodeDrainingSeries([
    node('plain'),
    node('done', { [DESIRED]: 'drain-abc', [APPLIED]: 'drain-abc' }),
    node('draining', { [DESIRED]: 'drain-def', [APPLIED]: 'uncordon-abc' }),
    node('first-drain', { [DESIRED]: 'drain-abc' }),
    node('applied-only', { [APPLIED]: 'uncordon-abc' }),
    node('both-empty', { [DESIRED]: '', [APPLIED]: '' }),
  ]);
  assert.deepEqual(
    s.get(N.nodeDraining)?.map((x) => [x.labels.node, x.value]),
    [
      ['plain', 0],
      ['done', 0],
      ['draining', 1],
      ['first-drain', 1],
      ['applied-only', 1],
      ['both-empty', 0],
    ],
  );
});

function machine(name: string, extra: Partial<Machine> & { namespace?: string } = {}): Machine {
  const { namespace, ...rest } = extra;
  return {
    metadata: { name, namespace: namespace ?? 'openshift-machine-api', ...(rest.metadata ?? {}) },
    ...(rest.spec ? { spec: rest.spec } : {}),
    ...(rest.status ? { status: rest.status } : {}),
  };
}

const ownerRef = (
  kind: string,
  name: string,
  controller?: boolean,
): NonNullable<NonNullable<Machine['metadata']>['ownerReferences']>[number] => ({
  apiVersion: 'machine.openshift.io/v1beta1',
  kind,
  name,
  uid: `uid-${name}`,
  ...(controller === undefined ? {} : { controller }),
});

void test('machine_info: MachineSet from the controller ownerRef, node, provider ID and phase; other namespaces left out', () => {
  const machines = [
    machine('worker-a-1', {
      metadata: { ownerReferences: [ownerRef('MachineSet', 'worker-a', true)] },
      spec: { providerID: 'aws:///eu-central-1a/i-0123' },
      status: { phase: 'Running', nodeRef: { kind: 'Node', name: 'ip-10-0-1-1' } },
    }),
    machine('master-0', { status: { phase: 'Running', nodeRef: { kind: 'Node', name: 'ip-10-0-0-1' } } }),
    machine('worker-b-1', {
      metadata: { ownerReferences: [ownerRef('MachineSet', 'worker-b')] },
      status: { phase: 'Provisioning' },
    }),
    machine('cpms-0', {
      metadata: {
        ownerReferences: [ownerRef('ControlPlaneMachineSet', 'cluster', true), ownerRef('MachineSet', 'x', true)],
      },
    }),
    machine('stray', {
      namespace: 'default',
      metadata: { ownerReferences: [ownerRef('MachineSet', 'worker-a', true)] },
    }),
  ];
  assert.deepEqual(machineInfoSeries(machines, 'openshift-machine-api').get(N.machineInfo), [
    {
      labels: {
        machine: 'worker-a-1',
        machineset: 'worker-a',
        node_ref: 'ip-10-0-1-1',
        provider_id: 'aws:///eu-central-1a/i-0123',
        phase: 'Running',
      },
      value: 1,
    },
    {
      labels: { machine: 'master-0', machineset: '', node_ref: 'ip-10-0-0-1', provider_id: '', phase: 'Running' },
      value: 1,
    },
    {
      labels: { machine: 'worker-b-1', machineset: '', node_ref: '', provider_id: '', phase: 'Provisioning' },
      value: 1,
    },
    { labels: { machine: 'cpms-0', machineset: '', node_ref: '', provider_id: '', phase: '' }, value: 1 },
  ]);
  assert.equal(machineSetOf(machines[0]!), 'worker-a');
  assert.equal(machineInfoSeries(machines, 'default').get(N.machineInfo)?.length, 1);
});

void test('collector: the five families at scrape time; each failing source blanks only its families', async () => {
  const registry = new Registry();
  const broken = new Set<string>();
  const read = <T>(what: string, value: T): T => {
    if (broken.has(what)) throw new Error(`${what} unavailable`);
    return value;
  };
  new ClusterStateCollector(
    registry,
    {
      clusterVersion: () =>
        read('cv', cv({ version: '4.16.1', image: IMG('4.16.1') }, [history('4.16.1', 'Completed')])),
      machineConfigPools: () => read('pools', [pool('master'), pool('worker', { updated: 2, paused: true })]),
      nodes: () => read('nodes', [node('n1', { [DESIRED]: 'drain-1' })]),
      machines: () =>
        read('machines', [
          machine('m1', { status: { phase: 'Running' } }),
          machine('elsewhere', { namespace: 'capi' }),
        ]),
    },
    { log: silentLogger(), machineNamespace: 'openshift-machine-api' },
  );
  const f = parseExposition(await registry.metrics());
  for (const name of Object.values(N)) {
    assert.equal(f.get(name)?.type, 'gauge', name);
    assert.notEqual(f.get(name)?.help ?? '', '', name);
  }
  assert.equal(valueOf(f, N.clusterUpgrading, {}), 0);
  assert.equal(valueOf(f, N.poolsUpgrading, { pool: 'worker' }), 0);
  assert.equal(valueOf(f, N.poolsPaused, { pool: 'worker' }), 1);
  assert.equal(valueOf(f, N.nodeDraining, { node: 'n1' }), 1);
  assert.deepEqual(samplesOf(f, N.machineInfo), [
    {
      name: N.machineInfo,
      labels: { machine: 'm1', machineset: '', node_ref: '', provider_id: '', phase: 'Running' },
      value: 1,
    },
  ]);

  const counts = async (): Promise<Record<string, number>> => {
    const p = parseExposition(await registry.metrics());
    return Object.fromEntries(Object.values(N).map((name) => [name, samplesOf(p, name).length]));
  };
  broken.add('cv');
  assert.deepEqual(await counts(), {
    [N.clusterUpgrading]: 0,
    [N.poolsUpgrading]: 2,
    [N.poolsPaused]: 2,
    [N.nodeDraining]: 1,
    [N.machineInfo]: 1,
  });
  broken.clear();
  broken.add('pools');
  assert.deepEqual(await counts(), {
    [N.clusterUpgrading]: 0,
    [N.poolsUpgrading]: 0,
    [N.poolsPaused]: 0,
    [N.nodeDraining]: 1,
    [N.machineInfo]: 1,
  });
  broken.clear();
  broken.add('nodes');
  broken.add('machines');
  assert.deepEqual(await counts(), {
    [N.clusterUpgrading]: 1,
    [N.poolsUpgrading]: 2,
    [N.poolsPaused]: 2,
    [N.nodeDraining]: 0,
    [N.machineInfo]: 0,
  });
});
