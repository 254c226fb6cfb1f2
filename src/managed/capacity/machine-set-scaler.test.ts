import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { Node } from 'kubernetes-types/core/v1.js';
import { NamespaceResource, NodeResource } from '../../api/builtin.js';
import { MachineResource, type Machine } from '../../api/openshift/machine-v1beta1/machine.js';
import { MachineSetResource, type MachineSet } from '../../api/openshift/machine-v1beta1/machine-set.js';
import { MachineConfigPoolResource } from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { createMachineApi, type MachineApi } from '../../sim/machineapi/machine-api.js';
import { startTestCluster, type TestCluster } from '../../sim/test-support/cluster.test-support.js';
import {
  cloneMachineSet,
  cloneReadiness,
  deleteCloneMachineSets,
  ensureScaleDown,
  ensureScaleUp,
  hasWorkerPool,
  nodesToDrain,
  originalMachineSets,
  type ScaleUpResult,
} from './machine-set-scaler.js';

const MINUTE = 60_000;
const NS = 'openshift-machine-api';
const INFRA = 'mycluster-x7k2p';
const CONFIG = 'rendered-worker-3b8f0c6d1e2a4957b8c0d9e1f2a3b4c5';
const nonServing = (pool: string): boolean => /^non-serving-/.test(pool);

function machineSet(
  name: string,
  pool: string | undefined,
  options: { replicas?: number; clone?: boolean } = {},
): MachineSet {
  const selector = {
    'machine.openshift.io/cluster-api-cluster': INFRA,
    'machine.openshift.io/cluster-api-machineset': name,
  };
  const labels: Record<string, string> = {
    'machine.openshift.io/cluster-api-cluster': INFRA,
    'hive.openshift.io/managed': 'true',
  };
  if (pool !== undefined) labels['hive.openshift.io/machine-pool'] = pool;
  if (options.clone) labels['upgrade.managed.openshift.io'] = 'true';
  return {
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'MachineSet',
    metadata: {
      name,
      namespace: NS,
      labels,
      annotations: { 'machine.openshift.io/cluster-api-autoscaler-node-group-max-size': '6' },
    },
    spec: {
      replicas: options.replicas ?? 0,
      selector: { matchLabels: selector },
      template: {
        metadata: {
          labels: {
            ...selector,
            'machine.openshift.io/cluster-api-machine-role': 'worker',
            'machine.openshift.io/cluster-api-machine-type': 'worker',
          },
        },
        spec: {
          metadata: { labels: { 'node-role.kubernetes.io/worker': '' } },
          providerSpec: {
            value: {
              apiVersion: 'machine.openshift.io/v1beta1',
              kind: 'AWSMachineProviderConfig',
              instanceType: 'm6i.xlarge',
              placement: { availabilityZone: 'us-east-1a', region: 'us-east-1' },
            },
          },
        },
      },
    },
  };
}

void test('originalMachineSets: the worker pool plus matching extra pools; clones and unlabelled sets never', () => {
  const all = [
    machineSet('w-a', 'worker'),
    machineSet('w-b', 'worker'),
    machineSet('infra-a', 'infra'),
    machineSet('ns-a', 'non-serving-1'),
    machineSet('plain', undefined),
    machineSet('w-a-upgrade', 'worker', { clone: true }),
  ];
  const cases: Array<[string, (pool: string) => boolean, string[]]> = [
    ['worker only', () => false, ['w-a', 'w-b']],
    ['extra glob', nonServing, ['w-a', 'w-b', 'ns-a']],
    ['match everything', () => true, ['w-a', 'w-b', 'infra-a', 'ns-a']],
  ];
  for (const [what, matcher, want] of cases)
    assert.deepEqual(
      originalMachineSets(all, matcher).map((m) => m.metadata?.name),
      want,
      what,
    );
  assert.ok(hasWorkerPool(all));
  assert.ok(
    !hasWorkerPool([machineSet('ns-a', 'non-serving-1'), machineSet('w-a-upgrade', 'worker', { clone: true })]),
  );
});

void test('cloneMachineSet: name, namespace, one replica, own labels and selector; hive labels and annotations dropped', () => {
  const original = machineSet('mycluster-x7k2p-worker-us-east-1a', 'worker', { replicas: 3 });
  original.metadata = {
    ...original.metadata,
    uid: 'u1',
    resourceVersion: '42',
    creationTimestamp: '2026-01-01T00:00:00Z',
    ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: 'u' }],
  };
  original.status = { replicas: 3, readyReplicas: 3 };
  const before = structuredClone(original);
  const clone = cloneMachineSet(original);
  const name = 'mycluster-x7k2p-worker-us-east-1a-upgrade';
  const own = { 'upgrade.managed.openshift.io': 'true', 'machine.openshift.io/cluster-api-machineset': name };
  assert.deepEqual(clone.metadata, {
    name,
    namespace: NS,
    labels: { 'machine.openshift.io/cluster-api-cluster': INFRA, 'upgrade.managed.openshift.io': 'true' },
  });
  assert.equal(clone.status, undefined);
  assert.equal(clone.spec?.replicas, 1);
  assert.deepEqual(clone.spec?.selector, {
    matchLabels: { 'machine.openshift.io/cluster-api-cluster': INFRA, ...own },
  });
  assert.deepEqual(clone.spec?.template?.metadata?.labels, {
    'machine.openshift.io/cluster-api-cluster': INFRA,
    'machine.openshift.io/cluster-api-machine-role': 'worker',
    'machine.openshift.io/cluster-api-machine-type': 'worker',
    ...own,
  });
  assert.deepEqual(clone.spec?.template?.spec, original.spec?.template?.spec);
  assert.deepEqual(original, before, 'the original is not modified');
});

function cloneWith(status: MachineSet['status'], extra: { deleting?: boolean } = {}): MachineSet {
  const c = cloneMachineSet(machineSet('w-a', 'worker'));
  c.metadata = {
    ...c.metadata,
    creationTimestamp: '2026-03-02T00:00:00Z',
    ...(extra.deleting ? { deletionTimestamp: '2026-03-02T00:05:00Z' } : {}),
  };
  if (status) c.status = status;
  return c;
}
function machine(name: string, set: string, status: Machine['status']): Machine {
  return {
    metadata: {
      name,
      namespace: NS,
      labels: { 'machine.openshift.io/cluster-api-machineset': set, 'upgrade.managed.openshift.io': 'true' },
    },
    ...(status ? { status } : {}),
  };
}
function node(name: string, ready: 'True' | 'False' | undefined): Node {
  return { metadata: { name }, status: ready === undefined ? {} : { conditions: [{ type: 'Ready', status: ready }] } };
}

void test('cloneReadiness: MUO’s checks in order, the timeout from the clone’s creation', () => {
  const t0 = Date.parse('2026-03-02T00:00:00Z');
  const ok = { replicas: 1, readyReplicas: 1 };
  const m1 = machine('w-a-upgrade-abcde', 'w-a-upgrade', { phase: 'Running', nodeRef: { name: 'n1' } });
  const nodes = new Map([
    ['n1', node('n1', 'True')],
    ['n2', node('n2', 'False')],
    ['n3', node('n3', undefined)],
  ]);
  const cases: Array<[string, MachineSet, Machine[], string, RegExp]> = [
    ['ready', cloneWith(ok), [m1], 'ready', /node n1 of MachineSet w-a-upgrade is Ready/],
    [
      'replicas differ',
      cloneWith({ replicas: 1, readyReplicas: 0 }),
      [m1],
      'waiting',
      /not all machines are ready for MachineSet w-a-upgrade \(0 of 1 ready\)/,
    ],
    ['no status, no machine', cloneWith(undefined), [], 'waiting', /has 0 machines, expected 1/],
    ['two machines', cloneWith(ok), [m1, machine('w-a-upgrade-fghij', 'w-a-upgrade', {})], 'waiting', /has 2 machines/],
    [
      'another set’s machine',
      cloneWith(ok),
      [machine('x', 'w-b-upgrade', { nodeRef: { name: 'n1' } })],
      'waiting',
      /has 0 machines/,
    ],
    [
      'no phase, no node',
      cloneWith(ok),
      [machine('m', 'w-a-upgrade', undefined)],
      'waiting',
      /machine m \(phase unknown\) has no node yet/,
    ],
    [
      'node missing',
      cloneWith(ok),
      [machine('m', 'w-a-upgrade', { phase: 'Running', nodeRef: { name: 'gone' } })],
      'waiting',
      /node gone of machine m does not exist yet/,
    ],
    [
      'node not ready',
      cloneWith(ok),
      [machine('m', 'w-a-upgrade', { nodeRef: { name: 'n2' } })],
      'waiting',
      /node n2 of machine m is not Ready/,
    ],
    [
      'node without conditions',
      cloneWith(ok),
      [machine('m', 'w-a-upgrade', { nodeRef: { name: 'n3' } })],
      'waiting',
      /not Ready/,
    ],
    ['deleting', cloneWith(ok, { deleting: true }), [m1], 'deleting', /being deleted/],
  ];
  for (const [what, clone, machines, state, message] of cases) {
    const r = cloneReadiness(clone, machines, nodes, {
      now: t0 + 10 * MINUTE,
      timeoutMs: 30 * MINUTE,
      original: 'w-a',
    });
    assert.equal(r.state, state, what);
    assert.match(r.message, message, what);
    assert.deepEqual([r.name, r.original], ['w-a-upgrade', 'w-a'], what);
  }
  const late = { timeoutMs: 30 * MINUTE, original: 'w-a' };
  assert.equal(
    cloneReadiness(cloneWith({ replicas: 1, readyReplicas: 0 }), [], nodes, { ...late, now: t0 + 30 * MINUTE }).state,
    'waiting',
    'at the limit: not yet',
  );
  const timedOut = cloneReadiness(cloneWith({ replicas: 1, readyReplicas: 0 }), [], nodes, {
    ...late,
    now: t0 + 30 * MINUTE + 1,
  });
  assert.equal(timedOut.state, 'timedOut');
  assert.match(
    timedOut.message,
    /^MachineSet w-a-upgrade provisioning timed out after 30m: not all machines are ready/,
  );
  assert.equal(
    cloneReadiness(cloneWith(ok), [m1], nodes, { ...late, now: t0 + 90 * MINUTE }).state,
    'ready',
    'ready is ready whatever the time',
  );
});

void test('nodesToDrain: Running and Deleting machines with a node; phase read nil-safely', () => {
  const ms = [
    machine('a', 's', { phase: 'Running', nodeRef: { name: 'n1' } }),
    machine('b', 's', { phase: 'Deleting', nodeRef: { name: 'n2' } }),
    machine('c', 's', { phase: 'Provisioned' }),
    machine('d', 's', undefined),
    machine('e', 's', { nodeRef: { name: 'n5' } }),
    machine('f', 's', { phase: 'Deleting' }),
  ];
  assert.deepEqual(nodesToDrain(ms), ['n1', 'n2']);
});

async function setup(t: TestContext, seed: number): Promise<{ cluster: TestCluster; api: MachineApi }> {
  const cluster = await startTestCluster(t, { seed });
  const c = cluster.client;
  await c.create(NamespaceResource, { metadata: { name: NS } });
  const pool = await c.create(MachineConfigPoolResource, {
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfigPool',
    metadata: { name: 'worker' },
    spec: {
      nodeSelector: { matchLabels: { 'node-role.kubernetes.io/worker': '' } },
      paused: false,
      maxUnavailable: 1,
      configuration: { name: CONFIG },
    },
  });
  await c.updateStatus(MachineConfigPoolResource, {
    ...pool,
    status: {
      observedGeneration: 1,
      configuration: { name: CONFIG },
      machineCount: 0,
      updatedMachineCount: 0,
      readyMachineCount: 0,
      unavailableMachineCount: 0,
      degradedMachineCount: 0,
    },
  });
  const api = createMachineApi(cluster.ctx);
  await api.start(cluster.signal);
  return { cluster, api };
}

/** Calls `pass` until `done(result)`, letting `stepMs` of virtual time pass between calls. */
async function repeat<R>(
  cluster: TestCluster,
  pass: () => Promise<R>,
  done: (r: R) => boolean,
  options: { stepMs: number; maxMs: number },
): Promise<R> {
  const deadline = cluster.clock.now() + options.maxMs;
  for (;;) {
    const r = await pass();
    if (done(r) || cluster.clock.now() >= deadline) return r;
    await cluster.clock.run({ until: cluster.clock.now() + options.stepMs });
  }
}

async function labelled(cluster: TestCluster, kind: 'sets' | 'machines'): Promise<string[]> {
  const options = { namespace: NS, labelSelector: 'upgrade.managed.openshift.io=true' };
  const items =
    kind === 'sets'
      ? (await cluster.client.list(MachineSetResource, options)).items
      : (await cluster.client.list(MachineResource, options)).items;
  return items.map((o) => o.metadata?.name ?? '').sort();
}

void test('scale-up creates every clone once, they become ready; scale-down drains and removes them', async (t) => {
  const { cluster } = await setup(t, 21);
  const c = cluster.client;
  const now = (): number => cluster.clock.now();
  for (const ms of [
    machineSet('w-a', 'worker', { replicas: 1 }),
    machineSet('w-b', 'worker'),
    machineSet('infra-a', 'infra'),
    machineSet('ns-a', 'non-serving-1'),
  ])
    await c.create(MachineSetResource, ms);
  // A clone left from a partial pass: the rest are still created (MUO would stop here).
  await c.create(MachineSetResource, cloneMachineSet(machineSet('w-b', 'worker')));

  const first = await ensureScaleUp(c, { now: now(), timeoutMs: 30 * MINUTE, extraPoolMatcher: nonServing });
  assert.equal(first.state, 'created');
  assert.deepEqual(first.clones.map((x) => x.name).sort(), ['ns-a-upgrade', 'w-a-upgrade']);
  assert.deepEqual(await labelled(cluster, 'sets'), ['ns-a-upgrade', 'w-a-upgrade', 'w-b-upgrade']);
  const stored = await c.get(MachineSetResource, NS, 'w-a-upgrade');
  assert.deepEqual(
    [stored.spec?.replicas, stored.metadata?.labels?.['hive.openshift.io/machine-pool'], stored.metadata?.annotations],
    [1, undefined, undefined],
  );

  const second = await ensureScaleUp(c, { now: now(), timeoutMs: 30 * MINUTE, extraPoolMatcher: nonServing });
  assert.equal(second.state, 'waiting');
  assert.deepEqual(
    second.clones.map((x) => x.name),
    ['ns-a-upgrade', 'w-a-upgrade', 'w-b-upgrade'],
  );
  assert.deepEqual(
    await labelled(cluster, 'sets'),
    ['ns-a-upgrade', 'w-a-upgrade', 'w-b-upgrade'],
    'nothing created twice',
  );

  const ready = await repeat(
    cluster,
    () => ensureScaleUp(c, { now: now(), timeoutMs: 30 * MINUTE, extraPoolMatcher: nonServing }),
    (r: ScaleUpResult) => r.state !== 'waiting',
    { stepMs: MINUTE, maxMs: 20 * MINUTE },
  );
  assert.equal(ready.state, 'ready', ready.message);
  assert.deepEqual(
    ready.clones.map((x) => x.state),
    ['ready', 'ready', 'ready'],
  );
  const machines = (
    await c.list(MachineResource, { namespace: NS, labelSelector: 'upgrade.managed.openshift.io=true' })
  ).items;
  assert.equal(machines.length, 3);
  const nodeNames = machines.map((m) => m.status?.nodeRef?.name ?? '');
  for (const n of nodeNames) {
    const got = await c.get(NodeResource, undefined, n);
    assert.equal(got.status?.conditions?.find((x) => x.type === 'Ready')?.status, 'True');
  }
  // The original's own machine is not labelled and not counted.
  assert.equal((await c.list(MachineResource, { namespace: NS })).items.length, 4);

  const drained: string[] = [];
  const drainNode = (name: string): Promise<{ failed: boolean }> => {
    drained.push(name);
    return Promise.resolve({ failed: name === nodeNames[0] && drained.length === 1 });
  };
  const down1 = await ensureScaleDown(c, { drainNode });
  assert.equal(down1.state, 'deleting');
  assert.deepEqual(down1.deleted.sort(), ['ns-a-upgrade', 'w-a-upgrade', 'w-b-upgrade']);
  assert.deepEqual(down1.failedNodes, [nodeNames[0]]);
  assert.deepEqual([...drained].sort(), [...nodeNames].sort());
  const done = await repeat(
    cluster,
    () => ensureScaleDown(c, { drainNode }),
    (r) => r.state === 'done',
    { stepMs: MINUTE, maxMs: 20 * MINUTE },
  );
  assert.equal(done.state, 'done');
  assert.deepEqual([done.failedNodes, done.deleted, done.machines], [[], [], []]);
  assert.deepEqual(await labelled(cluster, 'sets'), []);
  assert.deepEqual(await labelled(cluster, 'machines'), []);
  for (const n of nodeNames) await assert.rejects(c.get(NodeResource, undefined, n), /not found/);
  // The originals are untouched.
  assert.deepEqual((await c.list(MachineSetResource, { namespace: NS })).items.map((m) => m.metadata?.name).sort(), [
    'infra-a',
    'ns-a',
    'w-a',
    'w-b',
  ]);
});

void test('a clone whose node never joins times out into timedOut; deleteCloneMachineSets removes the clones without draining', async (t) => {
  const { cluster, api } = await setup(t, 22);
  const c = cluster.client;
  const now = (): number => cluster.clock.now();

  assert.equal((await ensureScaleUp(c, { now: now(), timeoutMs: 30 * MINUTE })).state, 'noWorkerPool');
  await c.create(MachineSetResource, machineSet('ns-a', 'non-serving-1'));
  assert.equal((await ensureScaleUp(c, { now: now(), timeoutMs: 30 * MINUTE })).state, 'noWorkerPool');
  const none = await ensureScaleUp(c, { now: now(), timeoutMs: 30 * MINUTE, extraPoolMatcher: (p) => p === 'gpu' });
  assert.deepEqual([none.state, none.message], ['noMachineSets', 'failed to get any machinesets to scale']);

  for (const ms of [machineSet('w-a', 'worker'), machineSet('w-b', 'worker')]) await c.create(MachineSetResource, ms);
  api.blockJoin({ machineSet: 'w-b-upgrade' });
  const t0 = now();
  assert.equal((await ensureScaleUp(c, { now: now(), timeoutMs: 30 * MINUTE })).state, 'created');
  await cluster.clock.run({ until: t0 + 20 * MINUTE });
  const waiting = await ensureScaleUp(c, { now: now(), timeoutMs: 30 * MINUTE });
  assert.equal(waiting.state, 'waiting');
  assert.deepEqual(
    waiting.clones.map((x) => x.state),
    ['ready', 'waiting'],
  );
  assert.equal(waiting.message, 'not all machines are ready for MachineSet w-b-upgrade (0 of 1 ready)');

  await cluster.clock.run({ until: t0 + 31 * MINUTE });
  const timedOut = await ensureScaleUp(c, { now: now(), timeoutMs: 30 * MINUTE });
  assert.equal(timedOut.state, 'timedOut');
  assert.deepEqual(
    timedOut.clones.map((x) => [x.name, x.state]),
    [
      ['w-a-upgrade', 'ready'],
      ['w-b-upgrade', 'timedOut'],
    ],
  );
  assert.equal(
    timedOut.message,
    'MachineSet w-b-upgrade provisioning timed out after 30m: not all machines are ready for MachineSet w-b-upgrade (0 of 1 ready)',
  );

  // The failure policy: delete the clones, no drain.
  assert.deepEqual((await deleteCloneMachineSets(c)).sort(), ['w-a-upgrade', 'w-b-upgrade']);
  assert.deepEqual(await deleteCloneMachineSets(c), [], 'already deleted');
  await cluster.clock.run({ until: now() + 10 * MINUTE });
  assert.deepEqual(await labelled(cluster, 'sets'), []);
  assert.deepEqual(await labelled(cluster, 'machines'), []);
  const after = await ensureScaleDown(c, { drainNode: () => Promise.reject(new Error('no drain expected')) });
  assert.deepEqual([after.state, after.deleted], ['done', []]);
});
