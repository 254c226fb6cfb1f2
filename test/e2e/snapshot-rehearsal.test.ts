// docs/rehearsing-your-cluster.md end to end, with the real binary: a simulated cluster with a
// blocking PodDisruptionBudget and an OSD UpgradeConfig is left on an API server of its own
// (`simulate --kubeconfig … --until`); `snapshot` reads it (with the shipped ClusterRole applied
// by kubectl, and alerts from a Prometheus API), and `simulate --scenario` rehearses the snapshot:
// the report predicts the blocked drain and when the NodeKeeper force-drains. And the refusal of
// a plain API server.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { runBinary } from '../../src/cli/binary.test-support.js';
import { startExternalServer, type ExternalServer } from '../../src/cli/scenarios/external-server.test-support.js';
import { parseScenarioFile } from '../../src/cli/scenarios/scenario-file.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FORCE_DRAIN_MINUTES = 15;
const DRAIN_TIMEOUT_MINUTES = 45;

/** The cluster to snapshot: a checkout whose PDB allows no eviction, an OSD upgrade 30 minutes ahead. */
const LIVE = `description: a cluster with a blocking PodDisruptionBudget and an OSD UpgradeConfig 30 minutes ahead
cluster:
  profile: ha-cloud
  version: 4.14.30
  channel: stable-4.14
operator:
  config: |
    configManager:
      source: LOCAL
      localConfigName: managed-upgrade-config
    maintenance:
      controlPlaneTime: 90
    nodeDrain:
      timeOut: ${DRAIN_TIMEOUT_MINUTES}
      expectedNodeDrainTime: 8
    upgradeWindow:
      timeOut: 120
      delayTrigger: 30
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
          containers:
            - name: checkout
              image: "quay.io/example/checkout:1.4"
              env: [{name: DB_PASSWORD, value: hunter2}]
  - apiVersion: policy/v1
    kind: PodDisruptionBudget
    metadata: {name: checkout, namespace: shop}
    spec:
      minAvailable: 2
      selector: {matchLabels: {app: checkout}}
  - apiVersion: upgrade.managed.openshift.io/v1alpha1
    kind: UpgradeConfig
    metadata: {name: managed-upgrade-config, namespace: openshift-managed-upgrade-operator}
    spec:
      type: OSD
      upgradeAt: "{{ +30m }}"
      PDBForceDrainTimeout: ${FORCE_DRAIN_MINUTES}
      capacityReservation: false
      desired: {version: 4.15.38, channel: stable-4.15}
end:
  timeout: 1h
`;

let dir: string;
let live: ExternalServer;
let bare: ExternalServer;
let prometheus: Server;
let prometheusUrl: string;

function shell(command: string, env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      '/bin/sh',
      ['-c', command],
      { cwd: ROOT, timeout: 30_000, env: { ...process.env, ...env } },
      (error, _out, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stderr }),
    );
  });
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'snapshot-e2e-'));
  [live, bare] = await Promise.all([startExternalServer(dir, 'live'), startExternalServer(dir, 'bare')]);
  // Prometheus' HTTP API as `snapshot` queries it: one firing alert besides Watchdog.
  prometheus = createServer((req, res) => {
    const query = new URL(req.url ?? '/', 'http://x').searchParams.get('query');
    const result =
      query === 'ALERTS{alertstate="firing"}'
        ? [
            {
              metric: {
                __name__: 'ALERTS',
                alertname: 'KubePodCrashLooping',
                alertstate: 'firing',
                namespace: 'shop',
                severity: 'warning',
              },
              value: [1, '1'],
            },
            {
              metric: { __name__: 'ALERTS', alertname: 'Watchdog', alertstate: 'firing', severity: 'none' },
              value: [1, '1'],
            },
          ]
        : [];
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ status: 'success', data: { resultType: 'vector', result } }));
  });
  await new Promise<void>((resolve) => prometheus.listen(0, '127.0.0.1', resolve));
  prometheusUrl = `http://127.0.0.1:${(prometheus.address() as AddressInfo).port}`;
});

after(async () => {
  await Promise.all([live.server.close(), bare.server.close()]);
  await Promise.all([live.admin.close(), bare.admin.close()]);
  await new Promise((resolve) => prometheus.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

interface Transition {
  at: string;
  kind: string;
  name: string;
  field: string;
  to: unknown;
}

void test(
  'a snapshot of a cluster with a blocking PDB, rehearsed, predicts the blocked drain and the force-drain time',
  { timeout: 300_000 },
  async () => {
    const liveFile = join(dir, 'live.yaml');
    // The live cluster keeps the wall clock's time, as a real one does: the snapshot is taken at the
    // wall time, and its UpgradeConfig's upgradeAt must lie ahead of that, as it did on the cluster.
    writeFileSync(liveFile, `start: ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}\n${LIVE}`);
    const made = await runBinary([
      'simulate',
      '--kubeconfig',
      live.kubeconfig,
      '--scenario',
      liveFile,
      '--until',
      '5m',
      '--time-scale',
      '300',
      '--progress',
      'none',
    ]);
    assert.equal(made.status, 0, made.stderr);
    // The shipped ClusterRole, as docs/rehearsing-your-cluster.md applies it.
    const role = await shell('kubectl apply -f deploy/snapshot/cluster-role.yaml', { KUBECONFIG: live.kubeconfig });
    assert.equal(role.code, 0, role.stderr);
    // kubectl create sends built-in kinds as protobuf, which the embedded server does not read: the
    // documented form renders the binding on the client and applies it.
    const binding = await shell(
      'kubectl create clusterrolebinding upgrade-operator-snapshot --clusterrole=upgrade-operator-snapshot --user=jane --dry-run=client -o yaml | kubectl apply -f -',
      { KUBECONFIG: live.kubeconfig },
    );
    assert.equal(binding.code, 0, binding.stderr);

    const snapFile = join(dir, 'my-cluster.yaml');
    const snap = await runBinary([
      'snapshot',
      '--kubeconfig',
      live.kubeconfig,
      '-o',
      snapFile,
      '--prometheus-url',
      prometheusUrl,
    ]);
    assert.equal(snap.status, 0, snap.stderr);
    assert.match(snap.stdout, /4\.14\.30 on stable-4\.14, 6 nodes, .* operator flows managed/);
    const text = readFileSync(snapFile, 'utf8');
    assert.ok(!text.includes('hunter2') && !text.includes('DB_PASSWORD'), 'workload contents are never written');
    const parsed = parseScenarioFile(text);
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.problems.join('\n'));
    const file = parsed.scenario;
    assert.equal(file.cluster.nodes?.length, 6);
    assert.deepEqual(file.cluster.alerts, [
      { labels: { alertname: 'KubePodCrashLooping', namespace: 'shop', severity: 'warning' } },
    ]);
    const pdb = file.manifests?.find((m) => m['kind'] === 'PodDisruptionBudget') as
      { metadata: { annotations: Record<string, string> } } | undefined;
    assert.equal(pdb?.metadata.annotations['upgrade-operator.io/snapshot-disruptions-allowed'], '0');

    // The guide's step 3 and 4: the rehearsal as JSON and as a picture, then the picture again
    // from the saved report.
    const page = join(dir, 'rehearsal.html');
    const rehearsal = await runBinary(['simulate', '--scenario', snapFile, '-o', 'json', '--html', page]);
    assert.equal(rehearsal.status, 0, rehearsal.stderr);
    const saved = join(dir, 'rehearsal.json');
    writeFileSync(saved, rehearsal.stdout);
    const again = join(dir, 'again.html');
    const redrawn = await runBinary(['report', '--html', again, saved]);
    assert.equal(redrawn.status, 0, redrawn.stderr);
    const html = readFileSync(page, 'utf8');
    assert.equal(readFileSync(again, 'utf8'), html);
    const nodeLanes = [...html.matchAll(/<g class="lane" data-group="Nodes" data-id="node\/([^"]+)"/g)].map(
      (m) => m[1],
    );
    for (const n of file.cluster.nodes ?? []) assert.ok(nodeLanes.includes(n.name), `a lane for node ${n.name}`);
    const report = JSON.parse(rehearsal.stdout) as {
      ok: boolean;
      phase: string;
      alerts: Array<{ alertname: string; labels: Record<string, string>; state: string }>;
      transitions: Transition[];
    };
    assert.equal(report.ok, true);
    assert.equal(report.phase, 'Upgraded');
    // The blocked drain: the PDB at its limit, and the copied alert firing throughout.
    assert.ok(
      report.alerts.some((a) => a.alertname === 'PodDisruptionBudgetAtLimit' && a.labels['namespace'] === 'shop'),
    );
    assert.ok(report.alerts.some((a) => a.alertname === 'KubePodCrashLooping' && a.state === 'firing'));
    // Each node: from its cordon to its reboot. A node with checkout pods waits for the force drain
    // (PDBForceDrainTimeout after the drain started), a master has nothing to wait for.
    const minutes = (name: string): number => {
      const of = (field: string, to: unknown): number =>
        Date.parse(
          report.transitions.find((t) => t.kind === 'Node' && t.name === name && t.field === field && t.to === to)
            ?.at ?? '',
        );
      return (of('condition/Ready', 'False') - of('spec.unschedulable', true)) / 60_000;
    };
    const nodes = file.cluster.nodes ?? [];
    const workers = nodes.filter((n) => n.role === 'worker').map((n) => minutes(n.name));
    const masters = nodes.filter((n) => n.role === 'master').map((n) => minutes(n.name));
    const blocked = workers.filter((m) => m >= FORCE_DRAIN_MINUTES);
    assert.ok(
      blocked.length >= 2,
      `the drains of the nodes with checkout pods are blocked: ${workers.join(', ')} minutes`,
    );
    assert.ok(
      blocked.every((m) => m < DRAIN_TIMEOUT_MINUTES),
      `force-drained after ${FORCE_DRAIN_MINUTES} minutes, before the drain timeout: ${blocked.join(', ')}`,
    );
    assert.ok(
      masters.every((m) => m < FORCE_DRAIN_MINUTES),
      `masters drain freely: ${masters.join(', ')} minutes`,
    );
  },
);

// Reads the cluster the first test left on the live server.
void test('--context and --anonymize: the same cluster under hashed names; -o - to stdout; a plain API server refused in one line', async () => {
  const context = (parse(readFileSync(live.kubeconfig, 'utf8')) as { 'current-context': string })['current-context'];
  const anonFile = join(dir, 'my-cluster.yaml');
  const anon = await runBinary([
    'snapshot',
    '--kubeconfig',
    live.kubeconfig,
    '--context',
    context,
    '-o',
    anonFile,
    '--anonymize',
  ]);
  assert.equal(anon.status, 0, anon.stderr);
  const text = readFileSync(anonFile, 'utf8');
  for (const name of ['checkout', 'shop', 'ip-10-0-', 'quay.io']) assert.ok(!text.includes(name), `${name} is left`);
  assert.ok(parseScenarioFile(text).ok);

  const stdout = await runBinary(['snapshot', '--kubeconfig', live.kubeconfig, '-o', '-']);
  assert.equal(stdout.status, 0, stdout.stderr);
  assert.ok(parseScenarioFile(stdout.stdout).ok, 'the file on stdout with -o -');

  const out = join(dir, 'plain.yaml');
  const refused = await runBinary(['snapshot', '--kubeconfig', bare.kubeconfig, '-o', out]);
  assert.notEqual(refused.status, 0);
  assert.equal(
    refused.stderr,
    'upgrade-operator: not an OpenShift cluster: the server serves no clusterversions.config.openshift.io and no machineconfigpools.machineconfiguration.openshift.io\n',
  );
  assert.equal(existsSync(out), false);
});
