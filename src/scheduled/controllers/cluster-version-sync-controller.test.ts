import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { EventResource, NamespaceResource } from '../../api/builtin.js';
import {
  managedClusterVersionCrd,
  type ManagedClusterVersion,
  type ManagedClusterVersionSpec,
} from '../../api/managedupgrade.appuio.io/v1beta1/cluster-version.js';
import { ManagedClusterVersionResource } from '../../api/managedupgrade.appuio.io/v1beta1/cluster-version-contract.js';
import { ANNOTATION_UPGRADE_JOB } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import {
  ClusterVersionResource,
  type ClusterVersion,
  type ClusterVersionSpec,
} from '../../api/openshift/config-v1/cluster-version.js';
import type { KubeObjectLike } from '../../api/resource.js';
import type { KubeClient } from '../../kube/client.js';
import { EventRecorder } from '../../kube/event-recorder.js';
import { formatTime } from '../../lib/clock.js';
import { silentLogger } from '../../lib/log.js';
import { installCustomResourceDefinitions } from '../../sim/install-crds.js';
import {
  startControllerInstance,
  startTestCluster,
  type TestCluster,
} from '../../sim/test-support/cluster.test-support.js';
import { createClusterVersionSyncController } from './cluster-version-sync-controller.js';

const NS = 'appuio-openshift-upgrade-controller';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const T0 = Date.UTC(2026, 2, 2);
const CLUSTER_ID = '9b588658-9671-429c-a762-34106da5795f';
const GRAPH = 'https://api.openshift.com/api/upgrades_info/v1/graph';
const DESIRED = {
  version: '4.16.3',
  image: 'quay.io/openshift-release-dev/ocp-release@sha256:1111',
  force: false,
  architecture: '' as const,
};
const LOCK = `${NS}/upgrade-1`;

interface Harness {
  cluster: TestCluster;
  events: EventRecorder;
  /** Starts the controller, on `client` when given (default: the simulation's client). */
  start(client?: KubeClient): void;
}

async function harness(t: TestContext, upstream: boolean): Promise<Harness> {
  const cluster = await startTestCluster(t, { start: T0 });
  const { clock, ctx, client } = cluster;
  await installCustomResourceDefinitions(client, [managedClusterVersionCrd()] as KubeObjectLike[]);
  await client.create(NamespaceResource, { metadata: { name: NS } });
  if (upstream) {
    await client.create(ClusterVersionResource, {
      apiVersion: 'config.openshift.io/v1',
      kind: 'ClusterVersion',
      metadata: { name: 'version', annotations: { [ANNOTATION_UPGRADE_JOB]: LOCK } },
      spec: { clusterID: CLUSTER_ID, channel: 'stable-4.5', upstream: GRAPH, desiredUpdate: DESIRED },
    });
  }
  const logger = silentLogger();
  const events = new EventRecorder({
    client: ctx.client,
    clock,
    logger,
    activity: clock.activity,
    component: 'upgrade-operator',
  });
  const start = (c: KubeClient = ctx.client): void => {
    startControllerInstance(
      t,
      cluster,
      (informers) =>
        createClusterVersionSyncController({
          client: c,
          informers,
          clock,
          logger,
          events,
          activity: clock.activity,
          managedNamespace: NS,
        }).controller,
    );
  };
  return { cluster, events, start };
}

function template(extra: Partial<ClusterVersionSpec> = {}): ClusterVersionSpec {
  return {
    clusterID: CLUSTER_ID,
    upstream: GRAPH,
    channel: 'stable-4.6',
    desiredUpdate: { version: 'ignored' },
    ...extra,
  };
}

async function createManaged(h: Harness, spec: ManagedClusterVersionSpec): Promise<void> {
  await h.cluster.client.create(ManagedClusterVersionResource, {
    apiVersion: 'managedupgrade.appuio.io/v1beta1',
    kind: 'ClusterVersion',
    metadata: { name: 'version', namespace: NS },
    spec,
  });
}

async function upstream(h: Harness): Promise<ClusterVersion> {
  return h.cluster.client.get(ClusterVersionResource, undefined, 'version');
}

async function managed(h: Harness): Promise<ManagedClusterVersion> {
  return h.cluster.client.get(ManagedClusterVersionResource, NS, 'version');
}

async function runTo(h: Harness, at: number): Promise<void> {
  await h.cluster.clock.run({ until: at });
}

async function events(h: Harness): Promise<string[]> {
  await h.events.flush();
  const list = await h.cluster.client.list(EventResource, { namespace: NS });
  return list.items
    .filter((e) => e.involvedObject.name === 'version' && e.involvedObject.kind === 'ClusterVersion')
    .sort(
      (a, b) =>
        (a.firstTimestamp ?? '').localeCompare(b.firstTimestamp ?? '') ||
        (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''),
    )
    .map((e) => `${e.type ?? ''} ${e.reason ?? ''}: ${e.message ?? ''}`);
}

void test('the sync applies the template, switches at each overlay, keeps desiredUpdate and the lock, and writes nothing when equal', async (t) => {
  const h = await harness(t, true);
  const from1 = formatTime(T0 + HOUR);
  const from2 = formatTime(T0 + 150 * MINUTE);
  await createManaged(h, {
    template: { spec: template() },
    overlays: [
      { from: from2, overlay: { spec: { clusterID: '', channel: 'stable-4.8' } } },
      { from: from1, overlay: { spec: { clusterID: '', channel: 'stable-4.7' } } },
    ],
  });
  const writes = { update: 0, updateStatus: 0 };
  h.start(
    new Proxy(h.cluster.ctx.client, {
      get(target, prop): unknown {
        if (prop === 'update' || prop === 'updateStatus') writes[prop]++;
        const v: unknown = Reflect.get(target, prop);
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    }),
  );

  await runTo(h, T0 + MINUTE);
  assert.deepEqual(writes, { update: 1, updateStatus: 1 });
  let up = await upstream(h);
  assert.equal(up.spec.channel, 'stable-4.6');
  assert.deepEqual(up.spec.desiredUpdate, DESIRED, 'desiredUpdate is never touched');
  assert.equal(up.metadata?.annotations?.[ANNOTATION_UPGRADE_JOB], LOCK, 'the lock annotation is untouched');
  let cr = await managed(h);
  assert.equal(cr.status?.current?.channel, 'stable-4.6');
  assert.equal(cr.status?.overlayApplied ?? null, null);
  assert.deepEqual(
    cr.status?.overlays?.map((o) => [o.from, o.preview.spec?.channel]),
    [
      [from2, 'stable-4.8'],
      [from1, 'stable-4.7'],
    ],
  );

  await runTo(h, T0 + HOUR - 1000);
  assert.equal((await upstream(h)).spec.channel, 'stable-4.6');
  await runTo(h, T0 + HOUR);
  up = await upstream(h);
  assert.equal(up.spec.channel, 'stable-4.7', 'switched exactly at the first overlay');
  assert.deepEqual(up.spec.desiredUpdate, DESIRED);
  assert.equal(up.metadata?.annotations?.[ANNOTATION_UPGRADE_JOB], LOCK);
  cr = await managed(h);
  assert.equal(cr.status?.overlayApplied, from1);
  assert.equal(cr.status?.current?.channel, 'stable-4.7');

  // Already equal: neither object is written again before the next overlay.
  const rvUp = up.metadata?.resourceVersion;
  const rvCr = cr.metadata?.resourceVersion;
  assert.deepEqual(writes, { update: 2, updateStatus: 2 });
  await runTo(h, T0 + 150 * MINUTE - 1000);
  assert.equal((await upstream(h)).metadata?.resourceVersion, rvUp);
  assert.equal((await managed(h)).metadata?.resourceVersion, rvCr);
  assert.deepEqual(writes, { update: 2, updateStatus: 2 }, 'no request to write either');

  await runTo(h, T0 + 150 * MINUTE);
  up = await upstream(h);
  assert.equal(up.spec.channel, 'stable-4.8');
  assert.deepEqual(up.spec.desiredUpdate, DESIRED);
  cr = await managed(h);
  assert.equal(cr.status?.overlayApplied, from2);

  const rvUp2 = up.metadata?.resourceVersion;
  const rvCr2 = cr.metadata?.resourceVersion;
  await runTo(h, T0 + 10 * HOUR);
  assert.equal((await upstream(h)).metadata?.resourceVersion, rvUp2, 'no more overlays: nothing written');
  assert.equal((await managed(h)).metadata?.resourceVersion, rvCr2);
  assert.deepEqual(writes, { update: 3, updateStatus: 3 });

  assert.deepEqual(await events(h), [
    'Normal ClusterVersionSynced: updated ClusterVersion version (channel) from the template',
    `Normal ClusterVersionSynced: updated ClusterVersion version (channel) from the overlay from ${from1}`,
    `Normal ClusterVersionSynced: updated ClusterVersion version (channel) from the overlay from ${from2}`,
  ]);
});

void test('the sync restores a hand-edited upstream spec, but not a changed desiredUpdate', async (t) => {
  const h = await harness(t, true);
  await createManaged(h, { template: { spec: template() } });
  h.start();
  await runTo(h, T0 + MINUTE);
  assert.equal((await upstream(h)).spec.channel, 'stable-4.6');

  const edited = await upstream(h);
  await h.cluster.client.update(ClusterVersionResource, {
    ...edited,
    spec: { ...edited.spec, channel: 'fast-4.6', signatureStores: [{ url: 'https://sig.example.com' }] },
  });
  await runTo(h, T0 + 2 * MINUTE);
  const restored = await upstream(h);
  assert.equal(restored.spec.channel, 'stable-4.6');
  assert.equal(restored.spec.signatureStores, undefined, 'a field the template lacks is removed');

  const job = {
    ...restored,
    spec: {
      ...restored.spec,
      desiredUpdate: { version: '4.17.1', image: 'quay.io/x@sha256:2', force: false, architecture: '' as const },
    },
  };
  const written = await h.cluster.client.update(ClusterVersionResource, job);
  await runTo(h, T0 + 3 * MINUTE);
  const after = await upstream(h);
  assert.equal(
    after.metadata?.resourceVersion,
    written.metadata?.resourceVersion,
    'a desiredUpdate change is not the sync’s business',
  );
  assert.deepEqual(after.spec.desiredUpdate, job.spec.desiredUpdate);
  // A no-op update would not change the resourceVersion either: the Events show every write.
  assert.deepEqual(await events(h), [
    'Normal ClusterVersionSynced: updated ClusterVersion version (channel) from the template',
    'Normal ClusterVersionSynced: updated ClusterVersion version (channel, signatureStores) from the template',
  ]);
});

void test('the sync follows a template change of the managed object', async (t) => {
  const h = await harness(t, true);
  await createManaged(h, { template: { spec: template() } });
  h.start();
  await runTo(h, T0 + MINUTE);
  const cr = await managed(h);
  await h.cluster.client.update(ManagedClusterVersionResource, {
    ...cr,
    spec: { template: { spec: template({ channel: 'eus-4.16', capabilities: { baselineCapabilitySet: 'v4.14' } }) } },
  });
  await runTo(h, T0 + 2 * MINUTE);
  const up = await upstream(h);
  assert.equal(up.spec.channel, 'eus-4.16');
  assert.deepEqual(up.spec.capabilities, { baselineCapabilitySet: 'v4.14' });
  assert.equal((await managed(h)).status?.current?.channel, 'eus-4.16');
});

void test('without the managed object nothing happens; creating it syncs', async (t) => {
  const h = await harness(t, true);
  const before = await upstream(h);
  h.start();
  await runTo(h, T0 + HOUR);
  assert.equal((await upstream(h)).metadata?.resourceVersion, before.metadata?.resourceVersion);
  await createManaged(h, { template: { spec: template() } });
  await runTo(h, T0 + HOUR + MINUTE);
  assert.equal((await upstream(h)).spec.channel, 'stable-4.6');
});

void test('a template without clusterID: a Warning Event, nothing written', async (t) => {
  const h = await harness(t, true);
  const before = await upstream(h);
  await createManaged(h, { template: { spec: template({ clusterID: '' }) } });
  h.start();
  await runTo(h, T0 + HOUR);
  assert.equal((await upstream(h)).metadata?.resourceVersion, before.metadata?.resourceVersion);
  assert.equal((await managed(h)).status, undefined);
  assert.deepEqual(await events(h), [
    'Warning InvalidClusterVersionSpec: cannot render the ClusterVersion, nothing is synced: spec.template.spec.clusterID is required',
  ]);
});

void test('no upstream ClusterVersion: status written, a Warning Event; synced once it appears', async (t) => {
  const h = await harness(t, false);
  await createManaged(h, { template: { spec: template() } });
  h.start();
  await runTo(h, T0 + MINUTE);
  assert.equal((await managed(h)).status?.current?.channel, 'stable-4.6');
  assert.deepEqual(await events(h), [
    'Warning UpstreamClusterVersionNotFound: ClusterVersion version (config.openshift.io/v1) not found; it is synced once it exists',
  ]);
  await h.cluster.client.create(ClusterVersionResource, {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: { name: 'version' },
    spec: { clusterID: CLUSTER_ID },
  });
  await runTo(h, T0 + 2 * MINUTE);
  const up = await upstream(h);
  assert.equal(up.spec.channel, 'stable-4.6');
  assert.equal(up.spec.upstream, GRAPH);
});

void test('a conflicting write on the upstream is resolved by reading it again; the other writer’s change survives', async (t) => {
  const h = await harness(t, true);
  await createManaged(h, { template: { spec: template() } });
  const real = h.cluster.ctx.client;
  let raced = 0;
  // Another writer changes the upstream between our read and our update, once.
  const racing = new Proxy(real, {
    get(target, prop): unknown {
      if (prop === 'update') {
        return async (d: typeof ClusterVersionResource, obj: ClusterVersion, opts: { signal?: AbortSignal }) => {
          if (raced++ === 0) {
            const cur = await h.cluster.client.get(ClusterVersionResource, undefined, 'version');
            await h.cluster.client.update(ClusterVersionResource, {
              ...cur,
              metadata: { ...cur.metadata, annotations: { ...cur.metadata?.annotations, other: 'writer' } },
            });
          }
          return target.update(d, obj, opts);
        };
      }
      const v: unknown = Reflect.get(target, prop);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  h.start(racing);
  await runTo(h, T0 + MINUTE);
  const up = await upstream(h);
  assert.equal(raced, 2, 'one conflict, one successful retry');
  assert.equal(up.spec.channel, 'stable-4.6');
  assert.deepEqual(up.metadata?.annotations, { [ANNOTATION_UPGRADE_JOB]: LOCK, other: 'writer' });
});
