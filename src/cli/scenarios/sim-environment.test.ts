import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CustomResourceDefinitionResource, NamespaceResource, NodeResource, PodResource } from '../../api/builtin.js';
import { openshiftCustomResourceDefinitions } from '../../api/openshift/crds.js';
import { ClusterVersionResource } from '../../api/openshift/config-v1/cluster-version.js';
import { flushMicrotasks, ManualClock } from '../../lib/clock.js';
import { silentLogger } from '../../lib/log.js';
import { capturedLogger } from '../../lib/log.test-support.js';
import { installCustomResourceDefinitions } from '../../sim/install-crds.js';
import { startExternalServer, type ExternalServer } from './external-server.test-support.js';
import {
  ClusterRefusedError,
  readClusterFacts,
  refusals,
  SIMULATED_CLUSTER_MANAGER,
  startSimEnvironment,
  type ClusterFacts,
  type SimEnvironment,
  VIRTUAL_START,
} from './sim-environment.js';

const SERVER = 'https://api.example:6443';
const empty: ClusterFacts = { server: SERVER, openshiftGroups: [], clusterVersion: undefined, nodes: [] };

void test('an empty API server may get a simulated cluster', () => {
  assert.deepEqual(refusals(empty, false), []);
});

void test('a real OpenShift cluster is refused, with or without --force: its API groups or a ClusterVersion the simulator did not write', () => {
  const byGroups = refusals({ ...empty, openshiftGroups: ['project.openshift.io', 'route.openshift.io'] }, true);
  assert.equal(byGroups.length, 1);
  assert.match(
    byGroups[0] ?? '',
    /^https:\/\/api\.example:6443 is an OpenShift cluster \(it serves project\.openshift\.io, route\.openshift\.io\)/,
  );
  const byCv = refusals({ ...empty, clusterVersion: { managers: ['cluster-version-operator'] } }, true);
  assert.equal(byCv.length, 1);
  assert.match(
    byCv[0] ?? '',
    /holds a ClusterVersion "version" that the simulator did not write \(field managers: cluster-version-operator\)/,
  );
  assert.match(
    refusals({ ...empty, clusterVersion: { managers: [] } }, true)[0] ?? '',
    /field managers: none recorded/,
  );
});

void test("an earlier run's simulated cluster is refused even with --force: a scenario starts from an empty cluster", () => {
  const sim = [SIMULATED_CLUSTER_MANAGER];
  const both = refusals(
    { ...empty, clusterVersion: { managers: ['user', ...sim] }, nodes: [{ name: 'sno-0', managers: sim }] },
    true,
  );
  assert.deepEqual(both, [
    `${SERVER} still holds the simulated cluster of an earlier run (ClusterVersion "version" and 1 Node(s) written by simulated-cluster); a scenario starts from an empty cluster: restart that API server or use a fresh one`,
  ]);
  assert.match(
    refusals({ ...empty, nodes: [{ name: 'sno-0', managers: sim }] }, true)[0] ?? '',
    /earlier run \(1 Node\(s\) written by/,
  );
});

void test('Nodes the simulator did not create are refused unless --force, naming at most five', () => {
  const nodes = ['a', 'b', 'c', 'd', 'e', 'f'].map((name) => ({ name, managers: ['kubelet'] }));
  const r = refusals({ ...empty, nodes }, false);
  assert.equal(r.length, 1);
  assert.match(
    r[0] ?? '',
    /has 6 Node\(s\) the simulator did not create \(a, b, c, d, e, …\); .* pass --force to run anyway$/,
  );
  assert.deepEqual(refusals({ ...empty, nodes }, true), []);
});

// ---- against an API server in this process, reached through a kubeconfig like any other ----

const T0 = Date.UTC(2026, 4, 4, 8);
let dir: string;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'sim-env-'));
});

after(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A server on the wall clock whose terminating pods wait for a kubelet, and its kubeconfig. */
function externalServer(name: string): Promise<ExternalServer> {
  return startExternalServer(dir, name, { fieldManager: 'kubelet' });
}

/** Advances the wall clock in 100 ms steps until the promise settles (CRD waits sleep on it). */
async function drive<T>(wall: ManualClock, p: Promise<T>): Promise<T> {
  let settled = false;
  const watched = p.finally(() => {
    settled = true;
  });
  watched.catch(() => undefined);
  for (let i = 0; i < 3000 && !settled; i++) await wall.advance(100);
  return watched;
}

/** Lets loopback I/O run until `check` holds (a bounded number of event-loop turns). */
async function eventually(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (await check()) return;
    await flushMicrotasks();
  }
  assert.fail(`never: ${what}`);
}

function podOn(node: string, name: string): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'shop' },
    spec: { nodeName: node, terminationGracePeriodSeconds: 30, containers: [{ name: 'c', image: 'example/c:1' }] },
  };
}

void test('against an external server: scaled time from the wall clock, the CRDs installed, and terminated Pods of simulated Nodes removed after their grace period in virtual time', async () => {
  const { server, kubeconfig, admin } = await externalServer('ok');
  await admin.create(NodeResource, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'real-0' } });
  const wall = new ManualClock(T0);
  let env: SimEnvironment | undefined;
  try {
    env = await drive(
      wall,
      startSimEnvironment({
        seed: 1,
        wall,
        logger: silentLogger(),
        external: { kubeconfig, timeScale: 60, force: true },
      }),
    );
    assert.equal(env.server, undefined);
    assert.equal(env.apiServerUrl, server.url);
    assert.equal(env.timeMode, 'scaled');
    assert.equal(
      env.clock.now(),
      VIRTUAL_START + (wall.now() - T0),
      "virtual time starts at the scenario's start, whatever the wall time, and runs at the wall pace while the cluster is set up",
    );
    env.clock.beginScaledTime();
    const begun = env.clock.now();
    await wall.advance(1_000);
    assert.equal(env.clock.now(), begun + 60_000, 'then 60 times as fast');
    const crds = (await admin.list(CustomResourceDefinitionResource)).items.map((c) => c.metadata?.name);
    for (const name of [
      'clusterversions.config.openshift.io',
      'machineconfigpools.machineconfiguration.openshift.io',
      'upgradeconfigs.upgrade.managed.openshift.io',
    ])
      assert.ok(crds.includes(name), name);

    await env.ctx.client.create(NodeResource, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'sim-0' } });
    await env.client.create(NamespaceResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
    await env.client.create(PodResource, podOn('sim-0', 'p-sim'));
    await env.client.create(PodResource, podOn('real-0', 'p-real'));
    const pods = env.ctx.informers.informerFor(PodResource);
    env.ctx.informers.start(env.signal);
    await env.client.delete(PodResource, 'shop', 'p-sim');
    await env.client.delete(PodResource, 'shop', 'p-real');
    await eventually(
      () => ['p-sim', 'p-real'].every((p) => pods.get('shop', p)?.metadata?.deletionTimestamp !== undefined),
      'the informer sees both pods terminating',
    );

    const stored = (name: string): Promise<string | undefined> =>
      admin.getIfExists(PodResource, 'shop', name).then((p) => p?.metadata?.deletionTimestamp);
    // The wall clock stands still while watch events arrive: the grace period starts now or later.
    const seen = env.clock.now();
    await wall.advance(29_000 / 60);
    for (let i = 0; i < 20; i++) await flushMicrotasks();
    assert.ok(await stored('p-sim'), 'still terminating before its grace period ends');
    let removedAfterMs: number | undefined;
    for (let i = 0; i < 120 && removedAfterMs === undefined; i++) {
      await wall.advance(1_000 / 60);
      for (let j = 0; j < 5; j++) await flushMicrotasks();
      if ((await stored('p-sim')) === undefined) removedAfterMs = env.clock.now() - seen;
    }
    assert.ok(
      removedAfterMs !== undefined && removedAfterMs >= 30_000,
      `the simulated node's pod is removed once its 30 s have passed (after ${removedAfterMs} virtual ms)`,
    );
    await wall.advance(60_000 / 60);
    for (let j = 0; j < 20; j++) await flushMicrotasks();
    assert.ok(await stored('p-real'), 'a pod of a Node that was there before is left to its kubelet');
  } finally {
    await env?.close();
    await admin.close();
    await server.close();
  }
});

void test("readClusterFacts reads the API groups, the ClusterVersion's and the Nodes' field managers; a refused server gets nothing written", async () => {
  const { server, kubeconfig, admin } = await externalServer('refused');
  try {
    await installCustomResourceDefinitions(
      admin,
      openshiftCustomResourceDefinitions().filter(
        (c) => (c.metadata as { name?: string }).name === 'clusterversions.config.openshift.io',
      ),
    );
    await admin.create(
      ClusterVersionResource,
      {
        apiVersion: 'config.openshift.io/v1',
        kind: 'ClusterVersion',
        metadata: { name: 'version' },
        spec: { clusterID: '5bd1b4a0-2c11-4f3e-9b0e-6d1f2a3b4c5d' },
      },
      { fieldManager: 'cluster-bootstrap' },
    );
    await admin.create(NodeResource, {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'master-0', labels: { 'node-role.kubernetes.io/master': '' } },
    });
    const facts = await readClusterFacts(admin);
    assert.deepEqual(facts, {
      server: server.url,
      openshiftGroups: [],
      clusterVersion: { managers: ['cluster-bootstrap'] },
      nodes: [{ name: 'master-0', managers: ['kubelet'] }],
    });

    const crdsBefore = (await admin.list(CustomResourceDefinitionResource)).items.length;
    const wall = new ManualClock(T0);
    await assert.rejects(
      drive(wall, startSimEnvironment({ seed: 1, wall, external: { kubeconfig, timeScale: 60 } })),
      (err: unknown) => {
        assert.ok(err instanceof ClusterRefusedError);
        assert.equal(err.refusals.length, 2);
        assert.match(
          err.message,
          /^refusing to run the simulated cluster here:\n {2}- .* holds a ClusterVersion "version" that the simulator did not write \(field managers: cluster-bootstrap\)/,
        );
        assert.match(err.message, /has 1 Node\(s\) the simulator did not create \(master-0\)/);
        return true;
      },
    );
    assert.equal((await admin.list(CustomResourceDefinitionResource)).items.length, crdsBefore, 'no CRD installed');
    assert.deepEqual(
      (await admin.list(NodeResource)).items.map((n) => n.metadata?.name),
      ['master-0'],
      'no Node created',
    );
  } finally {
    await admin.close();
    await server.close();
  }
});

void test('an unreadable kubeconfig fails before anything runs', async () => {
  await assert.rejects(
    startSimEnvironment({ seed: 1, external: { kubeconfig: join(dir, 'missing.kubeconfig'), timeScale: 60 } }),
    /error loading config file ".*missing\.kubeconfig"/,
  );
  await assert.rejects(
    startSimEnvironment({ seed: 1, external: { kubeconfig: join(dir, 'missing.kubeconfig'), timeScale: 0 } }),
    /the time scale must be a positive number, got 0/,
  );
});

void test('embedded: a virtual clock that cannot move says what keeps it busy on the stall logger', async () => {
  const stall = capturedLogger<{ msg: string; busy: Record<string, number> }>('warn');
  const lines = stall.lines;
  const wall = new ManualClock(0);
  const env = await startSimEnvironment({ seed: 1, wall, logger: silentLogger(), stallLogger: stall.logger });
  const end = env.clock.activity.begin('stuck for the test');
  const ac = new AbortController();
  const running = env.clock.run({ signal: ac.signal });
  try {
    await new Promise((resolve) => setImmediate(resolve));
    await wall.advance(10_000);
    assert.equal(lines.length, 1);
    assert.equal(lines[0]?.msg, 'system not quiet; virtual time cannot move');
    assert.equal(lines[0]?.busy['stuck for the test'], 1);
  } finally {
    ac.abort();
    await running;
    end();
    await env.close();
  }
});
