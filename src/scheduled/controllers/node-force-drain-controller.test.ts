import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1.js';
import type { OwnerReference } from 'kubernetes-types/meta/v1.js';
import { Registry } from 'prom-client';
import { DaemonSetResource, EventResource, NamespaceResource, NodeResource, PodResource } from '../../api/builtin.js';
import { NodeForceDrainResource } from '../../api/managedupgrade.appuio.io/v1beta1/node-force-drain-contract.js';
import {
  nodeForceDrainCrd,
  type NodeForceDrainSpec,
} from '../../api/managedupgrade.appuio.io/v1beta1/node-force-drain.js';
import type { KubeObjectLike } from '../../api/resource.js';
import { JqSelector } from '../../integrations/jq-selector.js';
import { EventRecorder } from '../../kube/event-recorder.js';
import { formatTime } from '../../lib/clock.js';
import { silentLogger } from '../../lib/log.js';
import { parseExposition, valueOf } from '../../kube/metrics-exposition.test-support.js';
import { NodeForceDrainMetricName, NodeForceDrainMetrics } from '../metrics/node-force-drain-metrics.js';
import { installCustomResourceDefinitions } from '../../sim/install-crds.js';
import { startTestCluster, type TestCluster } from '../../sim/test-support/cluster.test-support.js';
import { createBlockingPdb } from '../../kube/object-fixtures.test-support.js';
import { createNodeForceDrainController, NodeForceDrainProblemReason } from './node-force-drain-controller.js';

const NS = 'appuio-upgrade';
const MIN = 60_000;
const DESIRED = 'machineconfiguration.openshift.io/desiredDrain';
const APPLIED = 'machineconfiguration.openshift.io/lastAppliedDrain';
const DRAINING = { [DESIRED]: 'drain-rendered-worker-2', [APPLIED]: 'uncordon-rendered-worker-1' };
const DRAINED = { [DESIRED]: 'drain-rendered-worker-2', [APPLIED]: 'drain-rendered-worker-2' };

interface Harness {
  cluster: TestCluster;
  events: EventRecorder;
  registry: Registry;
  /** Pod `ns/name` → virtual times at which a delete request was seen (deletionTimestamp set or grace shortened). */
  deleteRequests: Map<string, number[]>;
  /** Pod `ns/name` → deletionGracePeriodSeconds values seen, in order. */
  graces: Map<string, number[]>;
  t0: number;
}

async function harness(t: TestContext, o: { drainReconcileInterval?: number } = {}): Promise<Harness> {
  const cluster = await startTestCluster(t, { openshiftCrds: false });
  const { clock, ctx, client } = cluster;
  await installCustomResourceDefinitions(client, [nodeForceDrainCrd()] as KubeObjectLike[]);
  const logger = silentLogger();
  const events = new EventRecorder({
    client: ctx.client,
    clock,
    logger,
    activity: clock.activity,
    component: 'upgrade-operator',
  });
  const registry = new Registry();
  const jq = new JqSelector();
  t.after(() => jq.close());
  const { controller } = createNodeForceDrainController({
    client: ctx.client,
    informers: ctx.informers,
    clock,
    logger,
    events,
    activity: clock.activity,
    namespace: NS,
    jq,
    metrics: new NodeForceDrainMetrics(registry),
    ...(o.drainReconcileInterval !== undefined ? { drainReconcileInterval: o.drainReconcileInterval } : {}),
  });
  const deleteRequests = new Map<string, number[]>();
  const graces = new Map<string, number[]>();
  const key = (p: Pod): string => `${p.metadata?.namespace ?? ''}/${p.metadata?.name ?? ''}`;
  ctx.informers.informerFor(PodResource).addHandlers({
    onUpdate: (old, pod) => {
      const g = pod.metadata?.deletionGracePeriodSeconds;
      if (g === undefined || g === old.metadata?.deletionGracePeriodSeconds) return;
      graces.set(key(pod), [...(graces.get(key(pod)) ?? []), g]);
      if (old.metadata?.deletionTimestamp === undefined || g > 0)
        deleteRequests.set(key(pod), [...(deleteRequests.get(key(pod)) ?? []), clock.now()]);
    },
  });
  const running = controller.start(cluster.signal);
  t.after(() => running);
  await client.create(NamespaceResource, { metadata: { name: NS } });
  return { cluster, events, registry, deleteRequests, graces, t0: clock.now() };
}

async function createNode(h: Harness, name: string, annotations: Record<string, string>): Promise<string> {
  const node = await h.cluster.client.create(NodeResource, {
    metadata: { name, labels: { 'node-role.kubernetes.io/worker': '' }, annotations },
  });
  return node.metadata?.uid ?? '';
}

async function createDaemonSet(h: Harness, ns: string, name: string): Promise<string> {
  const created = await h.cluster.client.create(DaemonSetResource, {
    metadata: { name, namespace: ns },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name, image: `registry.example/${name}:1` }] },
      },
    },
  });
  return created.metadata?.uid ?? '';
}

async function setDrain(h: Harness, name: string, annotations: Record<string, string>): Promise<void> {
  await h.cluster.client.patch(NodeResource, undefined, name, { metadata: { annotations } }, { type: 'merge' });
}

interface PodOptions {
  owner?: OwnerReference;
  labels?: Record<string, string>;
  finalizers?: string[];
  terminationGracePeriodSeconds?: number;
}

async function createPod(h: Harness, ns: string, name: string, nodeName: string, o: PodOptions = {}): Promise<void> {
  await h.cluster.client.create(PodResource, {
    metadata: {
      name,
      namespace: ns,
      labels: { ...o.labels },
      ...(o.owner ? { ownerReferences: [o.owner] } : {}),
      ...(o.finalizers ? { finalizers: o.finalizers } : {}),
    },
    spec: {
      nodeName,
      containers: [{ name: 'main', image: 'registry.example/app:1' }],
      ...(o.terminationGracePeriodSeconds !== undefined
        ? { terminationGracePeriodSeconds: o.terminationGracePeriodSeconds }
        : {}),
    },
  });
}

async function createForceDrain(h: Harness, name: string, spec: NodeForceDrainSpec): Promise<void> {
  await h.cluster.client.create(NodeForceDrainResource, {
    apiVersion: 'managedupgrade.appuio.io/v1beta1',
    kind: 'NodeForceDrain',
    metadata: { name, namespace: NS },
    spec,
  });
}

async function eventsOf(
  h: Harness,
  kind: string,
  name: string,
  namespace = 'default',
): Promise<Array<{ type: string; reason: string; message: string }>> {
  await h.events.flush();
  const list = await h.cluster.client.list(EventResource, { namespace });
  return list.items
    .filter((e) => e.involvedObject.kind === kind && e.involvedObject.name === name)
    .map((e) => ({ type: e.type ?? '', reason: e.reason ?? '', message: e.message ?? '' }));
}

async function podState(h: Harness, ns: string, name: string): Promise<'running' | 'terminating' | 'gone'> {
  const pod = await h.cluster.client.getIfExists(PodResource, ns, name);
  if (!pod) return 'gone';
  return pod.metadata?.deletionTimestamp === undefined ? 'running' : 'terminating';
}

/** Runs virtual time until `done` holds, failing past `limit`. */
async function runUntil(h: Harness, done: () => boolean, limit: number): Promise<void> {
  const { clock } = h.cluster;
  await clock.run({ until: () => done() || clock.now() > limit });
  assert.ok(done(), `condition not met by ${formatTime(limit)} (now ${formatTime(clock.now())})`);
}

const ds = (name: string, uid: string): OwnerReference => ({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  name,
  uid,
  controller: true,
});
const HOLD = { finalizers: ['example.com/hold'], terminationGracePeriodSeconds: 3600 };

void test('after nodeDrainGracePeriod exactly the candidate pods are deleted; a stuck pod is forced with grace 1 after podForceDeleteGracePeriod', async (t) => {
  const h = await harness(t);
  const { client, clock } = h.cluster;
  const t0 = h.t0;
  for (const [name, labels] of [
    ['shop', { drain: 'yes' }],
    ['infra', { drain: 'yes' }],
    ['protected', {}],
  ] as const) {
    await client.create(NamespaceResource, { metadata: { name, labels } });
  }
  const worker1 = await createNode(h, 'worker-1', DRAINING);
  await createNode(h, 'worker-2', DRAINED);
  const agent = await createDaemonSet(h, 'infra', 'agent');
  const retired = await createDaemonSet(h, 'infra', 'retired');
  await createBlockingPdb(client, 'shop', 'web', { app: 'web' });
  await createPod(h, 'shop', 'web-5d9f-abcde', 'worker-1', {
    labels: { app: 'web' },
    owner: { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-5d9f', uid: 'rs-uid', controller: true },
  });
  await createPod(h, 'shop', 'stuck', 'worker-1', HOLD);
  await createPod(h, 'shop', 'keep-me', 'worker-1', { labels: { 'drain.example.com/keep': 'true' } });
  await createPod(h, 'infra', 'agent-x1', 'worker-1', { owner: ds('agent', agent) });
  await createPod(h, 'infra', 'agent-x2', 'worker-1', { owner: ds('agent', agent), ...HOLD });
  await createPod(h, 'infra', 'retired-x1', 'worker-1', { owner: ds('retired', retired), ...HOLD });
  await createPod(h, 'infra', 'kube-proxy-worker-1', 'worker-1', {
    owner: { apiVersion: 'v1', kind: 'Node', name: 'worker-1', uid: worker1, controller: true },
  });
  await createPod(h, 'protected', 'db-0', 'worker-1');
  await createPod(h, 'shop', 'web-on-2', 'worker-2', { labels: { app: 'web' } });
  // Two DaemonSet pods hang terminating on their finalizer: one of a DaemonSet that still exists,
  // one whose DaemonSet was deleted (the garbage collector deleted the pod, its reference stays).
  await client.delete(PodResource, 'infra', 'agent-x2');
  await client.delete(DaemonSetResource, 'infra', 'retired');
  await createForceDrain(h, 'default', {
    nodeSelector: { matchLabels: { 'node-role.kubernetes.io/worker': '' } },
    namespaceSelector: { matchLabels: { drain: 'yes' } },
    podJQSelector: '.metadata.labels["drain.example.com/keep"] != "true"',
    nodeDrainGracePeriod: '10m',
    podForceDeleteGracePeriod: '5m',
  });

  // The drain is observed at once; nothing is done during the grace period.
  await runUntil(h, () => h.deleteRequests.has('infra/retired-x1'), t0 + MIN);
  await clock.run({ until: t0 + 10 * MIN - 1 });
  const fd = await client.get(NodeForceDrainResource, NS, 'default');
  assert.deepEqual(fd.status?.lastObservedNodeDrain, [
    { nodeName: 'worker-1', drainID: 'uncordon-rendered-worker-1', observedTime: formatTime(t0) },
  ]);
  assert.deepEqual(Object.fromEntries(h.deleteRequests), { 'infra/agent-x2': [t0], 'infra/retired-x1': [t0] });
  assert.deepEqual(await eventsOf(h, 'Node', 'worker-1'), []);

  // At observedTime + 10m exactly: a plain delete of each candidate, PDB or not, and the orphaned
  // DaemonSet pod, terminating for 10m already, is forced.
  await runUntil(h, () => h.deleteRequests.has('shop/stuck'), t0 + 11 * MIN);
  assert.deepEqual(Object.fromEntries(h.deleteRequests), {
    'infra/agent-x2': [t0],
    'infra/retired-x1': [t0, t0 + 10 * MIN],
    'shop/web-5d9f-abcde': [t0 + 10 * MIN],
    'shop/stuck': [t0 + 10 * MIN],
  });
  assert.deepEqual(h.graces.get('shop/stuck'), [3600], "deleted with the pod's own grace period");
  assert.deepEqual(h.graces.get('infra/retired-x1'), [3600, 1]);
  await clock.run({ until: t0 + 11 * MIN });
  assert.equal(await podState(h, 'shop', 'web-5d9f-abcde'), 'gone');
  assert.equal(await podState(h, 'shop', 'stuck'), 'terminating');

  // podForceDeleteGracePeriod (5m) after its deletion was requested: deleted again with grace 1.
  await runUntil(h, () => (h.graces.get('shop/stuck') ?? []).includes(1), t0 + 16 * MIN);
  assert.deepEqual(h.deleteRequests.get('shop/stuck'), [t0 + 10 * MIN, t0 + 15 * MIN]);
  assert.deepEqual(h.graces.get('shop/stuck'), [3600, 1]);
  assert.deepEqual(h.deleteRequests.get('infra/agent-x2'), [t0], 'a pod of an existing DaemonSet is never forced');

  for (const [ns, name] of [
    ['shop', 'keep-me'],
    ['infra', 'agent-x1'],
    ['infra', 'kube-proxy-worker-1'],
    ['protected', 'db-0'],
    ['shop', 'web-on-2'],
  ] as const) {
    assert.equal(await podState(h, ns, name), 'running', `${ns}/${name} is left alone`);
  }
  const nodeEvents = await eventsOf(h, 'Node', 'worker-1');
  assert.deepEqual(
    [...nodeEvents].sort((a, b) => a.message.localeCompare(b.message)),
    [
      { type: 'Warning', reason: 'NodeDrainDeletePod', message: 'Deleting pod "stuck" in namespace "shop"' },
      { type: 'Warning', reason: 'NodeDrainDeletePod', message: 'Deleting pod "web-5d9f-abcde" in namespace "shop"' },
      {
        type: 'Warning',
        reason: 'NodeDrainForcingPodTermination',
        message: 'Forcing pod termination: Deleting pod "retired-x1" in namespace "infra" with grace period of 1.',
      },
      {
        type: 'Warning',
        reason: 'NodeDrainForcingPodTermination',
        message: 'Forcing pod termination: Deleting pod "stuck" in namespace "shop" with grace period of 1.',
      },
    ],
  );
  assert.deepEqual(await eventsOf(h, 'Node', 'worker-2'), []);
  assert.deepEqual(await eventsOf(h, 'NodeForceDrain', 'default', NS), []);

  const uid = async (ns: string, name: string): Promise<string> =>
    (await client.get(PodResource, ns, name)).metadata?.uid ?? '';
  const labels = async (ns: string, name: string): Promise<Record<string, string>> => ({
    node_force_drain: 'default',
    node: 'worker-1',
    namespace: ns,
    pod_name: name,
    pod_uid: await uid(ns, name),
  });
  const metrics = parseExposition(await h.registry.metrics());
  assert.equal(valueOf(metrics, NodeForceDrainMetricName.podDeletions, await labels('shop', 'stuck')), 1);
  assert.equal(valueOf(metrics, NodeForceDrainMetricName.podTerminations, await labels('shop', 'stuck')), 1);
  assert.equal(valueOf(metrics, NodeForceDrainMetricName.podTerminations, await labels('infra', 'retired-x1')), 1);
  assert.equal(metrics.get(NodeForceDrainMetricName.podDeletions)?.samples.length, 2);
  assert.equal(metrics.get(NodeForceDrainMetricName.podTerminations)?.samples.length, 2);

  // The drain ends: its entry leaves the status, and the remaining pods stay.
  for (const [ns, name] of [
    ['shop', 'stuck'],
    ['infra', 'retired-x1'],
    ['infra', 'agent-x2'],
  ] as const) {
    await client.patch(PodResource, ns, name, { metadata: { finalizers: null } }, { type: 'merge' });
  }
  await setDrain(h, 'worker-1', DRAINED);
  await clock.run({ until: t0 + 60 * MIN });
  assert.equal((await client.get(NodeForceDrainResource, NS, 'default')).status?.lastObservedNodeDrain, undefined);
  assert.equal(await podState(h, 'shop', 'keep-me'), 'running');
  assert.equal((await eventsOf(h, 'Node', 'worker-1')).length, 4);
});

void test('a new drain of the node (lastAppliedDrain changed) starts a new grace period', async (t) => {
  const h = await harness(t);
  const { client, clock } = h.cluster;
  const t0 = h.t0;
  await client.create(NamespaceResource, { metadata: { name: 'app' } });
  await createNode(h, 'worker-1', DRAINING);
  await createForceDrain(h, 'default', {
    nodeSelector: {},
    nodeDrainGracePeriod: '30m',
    podForceDeleteGracePeriod: '0',
  });
  await clock.run({ until: t0 + 20 * MIN });
  // The MCO finished that drain and started the next one 20 minutes in.
  await setDrain(h, 'worker-1', { [DESIRED]: 'drain-rendered-worker-3', [APPLIED]: 'uncordon-rendered-worker-2' });
  await clock.run({ until: t0 + 21 * MIN });
  assert.deepEqual((await client.get(NodeForceDrainResource, NS, 'default')).status?.lastObservedNodeDrain, [
    { nodeName: 'worker-1', drainID: 'uncordon-rendered-worker-2', observedTime: formatTime(t0 + 20 * MIN) },
  ]);
  await createPod(h, 'app', 'web', 'worker-1');
  await clock.run({ until: t0 + 49 * MIN });
  assert.equal(await podState(h, 'app', 'web'), 'running', "the first drain's 30m are not this drain's");
  await runUntil(h, () => h.deleteRequests.has('app/web'), t0 + 51 * MIN);
  assert.deepEqual(h.deleteRequests.get('app/web'), [t0 + 50 * MIN]);
});

void test('with nodeDrainGracePeriod 0 nothing is deleted, but pods already terminating are forced after podForceDeleteGracePeriod', async (t) => {
  const h = await harness(t);
  const { client, clock } = h.cluster;
  const t0 = h.t0;
  await client.create(NamespaceResource, { metadata: { name: 'app' } });
  await createNode(h, 'worker-1', DRAINING);
  await createPod(h, 'app', 'web', 'worker-1');
  await createPod(h, 'app', 'evicted', 'worker-1', HOLD);
  await createForceDrain(h, 'default', {
    nodeSelector: {},
    nodeDrainGracePeriod: '0',
    podForceDeleteGracePeriod: '2m',
  });
  await clock.run({ until: t0 + MIN });
  // Someone else (the MCO's drain) deletes a pod; it hangs on its finalizer. No pod watch tells
  // the controller: its next pass (the 3m drain reconcile interval) finds it, due at 1m + 2m.
  await client.delete(PodResource, 'app', 'evicted');
  await runUntil(h, () => (h.graces.get('app/evicted') ?? []).includes(1), t0 + 4 * MIN);
  assert.deepEqual(h.deleteRequests.get('app/evicted'), [t0 + MIN, t0 + 3 * MIN]);
  assert.equal(await podState(h, 'app', 'web'), 'running');
  const reasons = (await eventsOf(h, 'Node', 'worker-1')).map((e) => e.reason);
  assert.deepEqual(reasons, ['NodeDrainForcingPodTermination']);
});

void test('an invalid NodeForceDrain is reported once and deletes nothing; fixed, it acts', async (t) => {
  const h = await harness(t);
  const { client, clock } = h.cluster;
  const t0 = h.t0;
  await client.create(NamespaceResource, { metadata: { name: 'app' } });
  await createNode(h, 'worker-1', DRAINING);
  await createPod(h, 'app', 'web', 'worker-1');
  await createForceDrain(h, 'bad-duration', {
    nodeSelector: {},
    nodeDrainGracePeriod: '10 minutes',
    podForceDeleteGracePeriod: '0',
  });
  await createForceDrain(h, 'bad-jq', {
    nodeSelector: {},
    podJQSelector: '.metadata.labels | nosuch',
    nodeDrainGracePeriod: '1m',
    podForceDeleteGracePeriod: '0',
  });
  await clock.run({ until: t0 + 30 * MIN });
  assert.equal(await podState(h, 'app', 'web'), 'running');
  assert.equal(
    (await client.get(NodeForceDrainResource, NS, 'bad-jq')).status,
    undefined,
    'an invalid object does not even record drains',
  );
  // A node change wakes both objects again; the problems are not reported twice.
  await setDrain(h, 'worker-1', { [DESIRED]: 'drain-rendered-worker-3' });
  await clock.run({ until: t0 + 31 * MIN });
  assert.deepEqual(await eventsOf(h, 'NodeForceDrain', 'bad-duration', NS), [
    {
      type: 'Warning',
      reason: NodeForceDrainProblemReason.Invalid,
      message:
        'NodeForceDrain appuio-upgrade/bad-duration is invalid and deletes nothing: spec.nodeDrainGracePeriod: time: unknown unit " minutes" in duration "10 minutes"',
    },
  ]);
  assert.deepEqual(await eventsOf(h, 'NodeForceDrain', 'bad-jq', NS), [
    {
      type: 'Warning',
      reason: NodeForceDrainProblemReason.Invalid,
      message:
        'NodeForceDrain appuio-upgrade/bad-jq is invalid and deletes nothing: spec.podJQSelector: nosuch/0 is not defined at <top-level>, line 1',
    },
  ]);

  await client.patch(
    NodeForceDrainResource,
    NS,
    'bad-jq',
    { spec: { podJQSelector: '.metadata.name == "web"' } },
    { type: 'merge' },
  );
  await runUntil(h, () => h.deleteRequests.has('app/web'), t0 + 40 * MIN);
  assert.deepEqual(h.deleteRequests.get('app/web'), [t0 + 32 * MIN], 'observed when fixed (31m), deleted 1m later');
});
