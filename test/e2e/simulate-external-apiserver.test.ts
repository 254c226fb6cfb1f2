// `simulate --kubeconfig FILE` against a genuinely external API server: this project's
// `upgrade-operator apiserver` in its own process (wall clock; terminating pods wait for a
// kubelet, as on a kube-apiserver with no kubelet behind the simulated Nodes), read back with
// the real kubectl. Also the refusals: an earlier run's cluster and a foreign ClusterVersion.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openshiftCustomResourceDefinitions } from '../../src/api/openshift/crds.js';
import { runBinary } from '../../src/cli/binary.test-support.js';
import { startApiServerProcess, stopApiServerProcess, type ApiServerProcess } from '../../scripts/apiserver-process.js';

const TIME_SCALE = 300;

/** A compact cluster (three schedulable masters) with a customer Deployment, taken to the newest 4.14 z-stream. */
const SCENARIO = `description: a compact cluster at 4.14.30 with a two-replica Deployment, upgraded to the newest 4.14 z-stream by setting desiredUpdate
cluster:
  profile: ha-cloud
  workers: 0
  version: 4.14.30
  channel: stable-4.14
manifests:
  - {apiVersion: v1, kind: Namespace, metadata: {name: shop}}
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: checkout, namespace: shop}
    spec:
      replicas: 2
      selector: {matchLabels: {app: checkout}}
      template:
        metadata: {labels: {app: checkout}}
        spec:
          containers: [{name: checkout, image: "quay.io/example/checkout:1.4"}]
actions:
  - name: oc adm upgrade --to-latest
    when: {offered: "4.14."}
    do: {upgradeToLatest: "4.14."}
end:
  clusterUpgraded: true
  timeout: 24h
expect:
  clusterVersionCompleted: true
  poolsUpdated: true
  actionsRun: 1
`;

let dir: string;
let scenarioFile: string;
let servers: ApiServerProcess[] = [];

function kubectl(kubeconfig: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      '/usr/bin/kubectl',
      ['--kubeconfig', kubeconfig, ...args],
      { timeout: 30_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      },
    );
  });
}

async function kubectlOk(kubeconfig: string, args: string[]): Promise<string> {
  const r = await kubectl(kubeconfig, args);
  assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

interface Conditioned {
  type: string;
  status: string;
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sim-external-'));
  scenarioFile = join(dir, 'compact-z-stream.yaml');
  writeFileSync(scenarioFile, SCENARIO);
  servers = await Promise.all([startApiServerProcess(dir, 'run'), startApiServerProcess(dir, 'foreign')]);
});

after(async () => {
  await Promise.all(servers.map(stopApiServerProcess));
  rmSync(dir, { recursive: true, force: true });
});

void test(
  'simulate --kubeconfig installs the CRDs on the external server and upgrades the simulated cluster there on scaled time',
  { timeout: 240_000 },
  async () => {
    const s = servers[0];
    assert.ok(s);
    const r = await runBinary([
      'simulate',
      '--kubeconfig',
      s.kubeconfig,
      '--scenario',
      scenarioFile,
      '--time-scale',
      String(TIME_SCALE),
      '-o',
      'json',
    ]);
    assert.equal(r.status, 0, `simulate failed:\n${r.stdout}\n${r.stderr}`);
    const report = JSON.parse(r.stdout) as {
      ok: boolean;
      apiServer: string;
      timeMode: string;
      timeScale: number;
      reproducible: boolean;
      ended: string;
    };
    assert.deepEqual(
      {
        ok: report.ok,
        apiServer: report.apiServer,
        timeMode: report.timeMode,
        timeScale: report.timeScale,
        reproducible: report.reproducible,
        ended: report.ended,
      },
      {
        ok: true,
        apiServer: s.url,
        timeMode: 'scaled',
        timeScale: TIME_SCALE,
        reproducible: false,
        ended: 'end condition',
      },
    );

    const crds = await kubectlOk(s.kubeconfig, [
      'get',
      'crd',
      'clusterversions.config.openshift.io',
      'machineconfigpools.machineconfiguration.openshift.io',
      'upgradeconfigs.upgrade.managed.openshift.io',
      '-o',
      'name',
    ]);
    assert.equal(crds.trim().split('\n').length, 3);

    const cv = JSON.parse(await kubectlOk(s.kubeconfig, ['get', 'clusterversion', 'version', '-o', 'json'])) as {
      status: { desired: { version: string }; history: Array<{ state: string; version: string }> };
    };
    const target = cv.status.desired.version;
    assert.match(target, /^4\.14\.\d+$/);
    assert.notEqual(target, '4.14.30');
    assert.deepEqual(
      cv.status.history.map((h) => [h.state, h.version]),
      [
        ['Completed', target],
        ['Completed', '4.14.30'],
      ],
    );

    const pools = JSON.parse(await kubectlOk(s.kubeconfig, ['get', 'machineconfigpools', '-o', 'json'])) as {
      items: Array<{
        metadata: { name: string };
        status: { machineCount: number; updatedMachineCount: number; conditions: Conditioned[] };
      }>;
    };
    const master = pools.items.find((p) => p.metadata.name === 'master');
    assert.equal(master?.status.machineCount, 3);
    for (const p of pools.items) {
      assert.equal(p.status.updatedMachineCount, p.status.machineCount, p.metadata.name);
      assert.equal(p.status.conditions.find((c) => c.type === 'Updated')?.status, 'True', p.metadata.name);
    }

    // Every master was drained; with no kubelet behind the simulated Nodes, the evicted pods are
    // gone only because the simulation removed them after their grace period.
    const drains = await kubectlOk(s.kubeconfig, [
      'get',
      'events',
      '-n',
      'default',
      '--field-selector',
      'reason=Drain',
      '-o',
      'name',
    ]);
    assert.ok(drains.trim().split('\n').length >= 3, drains);
    const pods = JSON.parse(await kubectlOk(s.kubeconfig, ['get', 'pods', '-n', 'shop', '-o', 'json'])) as {
      items: Array<{ metadata: { name: string; deletionTimestamp?: string } }>;
    };
    assert.equal(pods.items.length, 2);
    assert.deepEqual(
      pods.items.filter((p) => p.metadata.deletionTimestamp !== undefined),
      [],
    );
  },
);

void test(
  "an earlier run's cluster and a foreign ClusterVersion are refused before anything is written",
  { timeout: 120_000 },
  async () => {
    const [earlier, foreign] = servers;
    assert.ok(earlier && foreign);
    // A real cluster's ClusterVersion: created by someone else (kubectl here), not the simulator.
    const crd = openshiftCustomResourceDefinitions().find(
      (c) => (c.metadata as { name?: string }).name === 'clusterversions.config.openshift.io',
    );
    writeFileSync(join(dir, 'crd.json'), JSON.stringify(crd));
    await kubectlOk(foreign.kubeconfig, ['create', '-f', join(dir, 'crd.json')]);
    await kubectlOk(foreign.kubeconfig, [
      'wait',
      '--for=condition=Established',
      '--timeout=30s',
      'crd/clusterversions.config.openshift.io',
    ]);
    writeFileSync(
      join(dir, 'cv.json'),
      JSON.stringify({
        apiVersion: 'config.openshift.io/v1',
        kind: 'ClusterVersion',
        metadata: { name: 'version' },
        spec: { clusterID: '5bd1b4a0-2c11-4f3e-9b0e-6d1f2a3b4c5d', channel: 'stable-4.16' },
      }),
    );
    await kubectlOk(foreign.kubeconfig, ['create', '-f', join(dir, 'cv.json')]);
    const cvBefore = await kubectlOk(earlier.kubeconfig, [
      'get',
      'clusterversion',
      'version',
      '-o',
      'jsonpath={.metadata.resourceVersion}',
    ]);

    const [again, refused, faults] = await Promise.all([
      runBinary([
        'simulate',
        '--kubeconfig',
        earlier.kubeconfig,
        '--scenario',
        scenarioFile,
        '--time-scale',
        String(TIME_SCALE),
        '--force',
      ]),
      runBinary([
        'simulate',
        '--kubeconfig',
        foreign.kubeconfig,
        '--scenario',
        scenarioFile,
        '--time-scale',
        String(TIME_SCALE),
        '--force',
      ]),
      // API faults are the embedded server's: refused before anything runs.
      runBinary(['simulate', '--kubeconfig', foreign.kubeconfig, '--scenario', 'managed-api-faults']),
    ]);
    assert.equal(faults.status, 1, faults.stdout);
    assert.match(
      faults.stderr,
      /scenario managed-api-faults cannot run against an external API server: it asks for API faults, which only the embedded API server injects/,
    );
    assert.equal(again.status, 1, again.stdout);
    assert.match(
      again.stderr,
      /refusing to run the simulated cluster here:\n {2}- http:\/\/127\.0\.0\.1:\d+ still holds the simulated cluster of an earlier run \(ClusterVersion "version" and 3 Node\(s\) written by simulated-cluster\)/,
    );
    assert.equal(
      await kubectlOk(earlier.kubeconfig, [
        'get',
        'clusterversion',
        'version',
        '-o',
        'jsonpath={.metadata.resourceVersion}',
      ]),
      cvBefore,
      "the earlier run's ClusterVersion is untouched",
    );

    assert.equal(refused.status, 1, refused.stdout);
    assert.match(
      refused.stderr,
      /holds a ClusterVersion "version" that the simulator did not write \(field managers: kubectl-create\); it looks like a real OpenShift cluster, and simulate never writes to one/,
    );
    assert.equal((await kubectlOk(foreign.kubeconfig, ['get', 'nodes', '-o', 'name'])).trim(), '', 'no Node created');
    const mcp = await kubectl(foreign.kubeconfig, [
      'get',
      'crd',
      'machineconfigpools.machineconfiguration.openshift.io',
    ]);
    assert.notEqual(mcp.code, 0, 'no other CRD installed');
    assert.match(mcp.stderr, /NotFound/);
  },
);
