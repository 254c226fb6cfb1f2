/**
 * End to end, `upgrade-operator status` against the simulated cluster: an ha-cloud cluster with
 * six workers is updated to the newest offered z-stream by setting ClusterVersion
 * `spec.desiredUpdate` (as `oc adm upgrade --to` does); the virtual clock stops once the control
 * plane has Completed while the worker pool is part-way through its roll; the real binary then
 * reads the cluster (`status --kubeconfig … -o json`, and once as text) and what it reports is
 * checked against the objects themselves.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeResource } from '../../src/api/builtin.js';
import { CLUSTER_VERSION_NAME, ClusterVersionResource } from '../../src/api/openshift/config-v1/cluster-version.js';
import {
  MachineConfigNodeAnnotation as A,
  MachineConfigPoolResource,
} from '../../src/api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { runBinary } from '../../src/cli/binary.test-support.js';
import { startSimEnvironment } from '../../src/cli/scenarios/sim-environment.js';
import type { UpgradeStatusReport } from '../../src/cli/upgrade-status-model.js';
import { createSimulatedCluster } from '../../src/sim/cluster.js';
import { buildCatalogue, findRelease } from '../../src/sim/releases/catalogue.js';

const MINUTE = 60_000;

void test('status: control plane Completed, worker pool part-way; every node phase matches its Node object', async (t) => {
  const env = await startSimEnvironment({ seed: 1 });
  t.after(() => env.close());
  const catalogue = buildCatalogue();
  const sim = createSimulatedCluster(env.ctx, {
    profile: 'ha-cloud',
    version: '4.14.30',
    channel: 'stable-4.14',
    workers: 6,
    catalogue,
    seed: 1,
  });
  await sim.start(env.signal);
  t.after(() => sim.close());
  const inf = env.ctx.informers;
  const cvs = inf.informerFor(ClusterVersionResource);
  const pools = inf.informerFor(MachineConfigPoolResource);
  inf.start(env.signal);
  await inf.waitForSync(env.signal);
  const cv = () => cvs.get(undefined, CLUSTER_VERSION_NAME);
  const offered = (): string[] =>
    (cv()?.status?.availableUpdates ?? []).map((r) => r.version).filter((v) => v.startsWith('4.14.'));
  const installed = env.clock.now();
  await env.clock.run({
    until: () => offered().length > 0 || env.clock.now() > installed + 30 * MINUTE,
    signal: env.signal,
  });
  const target = offered().sort((a, b) => Number(b.split('.')[2]) - Number(a.split('.')[2]))[0];
  assert.ok(target, 'the update service offers a 4.14 z-stream');
  await env.client.patch(
    ClusterVersionResource,
    undefined,
    CLUSTER_VERSION_NAME,
    { spec: { desiredUpdate: { version: target, image: findRelease(catalogue, target)!.pullSpec } } },
    { type: 'merge' },
  );

  // Stop once ClusterVersion is Completed and the workers are part-way (the clock then stands still).
  const worker = () => pools.get(undefined, 'worker')?.status;
  const midWorkers = (): boolean => {
    const h = cv()?.status?.history?.[0];
    const w = worker();
    return (
      h?.version === target &&
      h.state === 'Completed' &&
      w !== undefined &&
      w.updatedMachineCount >= 1 &&
      w.updatedMachineCount < w.machineCount
    );
  };
  const started = env.clock.now();
  await env.clock.run({ until: () => midWorkers() || env.clock.now() > started + 6 * 60 * MINUTE, signal: env.signal });
  assert.ok(
    midWorkers(),
    `stopped with ClusterVersion ${JSON.stringify(cv()?.status?.history?.[0])} and worker ${JSON.stringify(worker())}`,
  );

  const dir = mkdtempSync(join(tmpdir(), 'status-e2e-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const kubeconfig = join(dir, 'kubeconfig');
  await env.server.writeKubeconfig(kubeconfig);
  const json = await runBinary(['status', '--kubeconfig', kubeconfig, '-o', 'json'], { KUBECONFIG: '' });
  assert.equal(json.status, 0, json.stderr);
  const report = JSON.parse(json.stdout) as UpgradeStatusReport;

  assert.deepEqual(report.unknown, []);
  // Times are the cluster's (virtual here), not this machine's: generated at the simulation's now.
  assert.equal(
    report.generatedAt,
    new Date(Math.floor(env.clock.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z'),
  );
  assert.equal(report.updating, true, 'workers still roll: the cluster is updating');
  assert.equal(report.controlPlane.assessment, 'Completed');
  assert.equal(report.controlPlane.targetVersion, target);
  assert.equal(report.controlPlane.previousVersion, '4.14.30');
  assert.equal(
    report.controlPlane.operators?.updated,
    report.controlPlane.operators?.total,
    'every ClusterOperator reached the target',
  );

  const master = report.pools.find((p) => p.name === 'master');
  assert.equal(master?.assessment, 'Completed');
  assert.equal(master?.controlPlane, true);
  const w = report.pools.find((p) => p.name === 'worker');
  assert.ok(w, 'the worker pool is reported');
  assert.equal(w.assessment, 'Progressing');
  assert.equal(w.targetVersion, target);
  assert.equal(w.total, worker()?.machineCount);
  assert.equal(w.updated, worker()?.updatedMachineCount, 'updated nodes as the MCO counts them');
  assert.ok(
    w.nodes.some((n) => n.assessment === 'Progressing'),
    'a worker is in progress',
  );
  assert.equal(report.upgradeOperator.managed.state, 'absent', 'no upgrade-operator CRDs on this cluster');

  // Each node's phase, from the Node object itself.
  const nodes = (await env.client.list(NodeResource)).items;
  const reported = report.pools.flatMap((p) => p.nodes);
  assert.equal(reported.length, nodes.length, 'every node is reported once');
  const workerTarget = (await env.client.get(MachineConfigPoolResource, undefined, 'worker')).spec.configuration?.name;
  for (const node of nodes) {
    const name = node.metadata?.name ?? '';
    const r = reported.find((n) => n.name === name);
    assert.ok(r, `node ${name} reported`);
    const a = node.metadata?.annotations ?? {};
    const ready = node.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
    const done = a[A.CurrentConfig] === a[A.DesiredConfig] && a[A.State] === 'Done';
    assert.equal(r.currentConfig, a[A.CurrentConfig]);
    if (r.pool === 'master')
      assert.equal(r.phase, 'Updated', `${name}: masters are done when ClusterVersion completed`);
    else if (done && a[A.CurrentConfig] === workerTarget) assert.equal(r.phase, 'Updated', name);
    else if (done) assert.equal(r.phase, 'Pending', name);
    else if (!ready) assert.equal(r.phase, 'Rebooting', name);
    else if (a[A.DesiredDrain] === `drain-${a[A.DesiredConfig]}` && a[A.LastAppliedDrain] !== a[A.DesiredDrain])
      assert.equal(r.phase, 'Draining', name);
    else assert.equal(r.phase, 'Updating', name);
    assert.equal(
      r.version,
      r.phase === 'Updated' ? target : '4.14.30',
      `${name} runs the release of its current config`,
    );
  }

  const text = await runBinary(['status', '--kubeconfig', kubeconfig], { KUBECONFIG: '', NO_COLOR: '1' });
  assert.equal(text.status, 0, text.stderr);
  for (const heading of [
    '= Control Plane =',
    '= Worker Upgrade =',
    '= Update Health =',
    '= Upgrade Operator =',
    'Worker Pool Nodes: worker',
  ])
    assert.ok(text.stdout.includes(heading), `${heading} in:\n${text.stdout}`);
  assert.match(text.stdout, new RegExp(`worker\\s+Progressing\\s+${w.percent}% \\(${w.updated}/${w.total}\\)`));
  assert.ok(!text.stdout.includes('\x1b['), 'no colour codes when stdout is not a TTY');
});

void test('status against a server that refuses or never answers: one line and exit 1, bounded by --request-timeout', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'status-bad-server-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const kubeconfigFor = (server: string): string => {
    const file = join(dir, `kubeconfig-${new URL(server).port}`);
    writeFileSync(
      file,
      `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "${server}"}}]\ncontexts: [{name: c, context: {cluster: c, user: u}}]\nusers: [{name: u, user: {}}]\ncurrent-context: c\n`,
    );
    return file;
  };
  // A port nothing listens on.
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const refusedPort = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const refused = await runBinary(['status', '--kubeconfig', kubeconfigFor(`http://127.0.0.1:${refusedPort}`)], {
    KUBECONFIG: '',
  });
  assert.equal(refused.status, 1);
  assert.equal(refused.stdout, '');
  assert.equal(
    refused.stderr,
    `upgrade-operator: The connection to the server 127.0.0.1:${refusedPort} was refused - did you specify the right host or port?\n`,
  );
  // A server that accepts connections and never answers.
  const held: Socket[] = [];
  const silent = createServer((socket) => void held.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    for (const socket of held) socket.destroy();
    silent.close();
  });
  const silentPort = (silent.address() as AddressInfo).port;
  const hung = await runBinary(
    ['status', '--kubeconfig', kubeconfigFor(`http://127.0.0.1:${silentPort}`), '--request-timeout', '1s'],
    { KUBECONFIG: '' },
  );
  assert.equal(hung.status, 1);
  assert.equal(
    hung.stderr,
    `upgrade-operator: Unable to connect to the server 127.0.0.1:${silentPort}: no answer within 1s (--request-timeout)\n`,
  );
});
