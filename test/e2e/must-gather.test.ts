/**
 * End to end, against a simulated cluster whose operator was restarted: the real `kubectl logs
 * deploy/upgrade-operator` (current and `--previous`) reads the operator's own log lines through
 * `pods/log`, and `upgrade-operator must-gather` (the real binary) collects the cluster, both
 * flows' objects, the operator's pod, its logs, Events, its ConfigMap, metrics and status in
 * OpenShift must-gather's layout, reading only.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { runCheckedScenario } from '../../src/api/deploy/operator-requests.test-support.js';
import { runBinary } from '../../src/cli/binary.test-support.js';
import { environmentFor, loadScenario } from '../../src/cli/scenarios/catalog.js';
import { startSimEnvironment, type EmbeddedSimEnvironment } from '../../src/cli/scenarios/sim-environment.js';

const NS = 'openshift-managed-upgrade-operator';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** `sh scripts/gather` as the image runs it, with `upgrade-operator` on the PATH (this checkout's). */
function gather(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', [join(ROOT, 'scripts/gather')], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function kubectl(kubeconfig: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('kubectl', ['--kubeconfig', kubeconfig, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Every file under dir, relative, sorted. */
function tree(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? tree(dir, join(prefix, e.name)) : [join(prefix, e.name)]))
    .sort();
}

void test('kubectl logs deploy/upgrade-operator and must-gather: the operator’s real log lines, current and previous; the support bundle', async (t) => {
  const { file } = loadScenario('managed-operator-restart');
  const env = (await startSimEnvironment(environmentFor(file, 1))) as EmbeddedSimEnvironment;
  t.after(() => env.close());
  // Until just after the first restart (while Pending).
  const outcome = await runCheckedScenario(env, 'managed-operator-restart', file, { seed: 1, untilMs: 8 * 60_000 });
  t.after(() => outcome.run.close());
  const dir = mkdtempSync(join(tmpdir(), 'must-gather-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const kubeconfig = join(dir, 'kubeconfig');
  await env.server.writeKubeconfig(kubeconfig);

  // kubectl finds the pod through the Deployment's selector and reads its log.
  const current = await kubectl(kubeconfig, ['logs', '-n', NS, 'deploy/upgrade-operator']);
  assert.equal(current.code, 0, current.stderr);
  const lines = current.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { level: string; msg: string; time: string });
  assert.ok(lines.length > 0);
  assert.ok(lines.every((l) => typeof l.msg === 'string' && typeof l.time === 'string'));
  assert.ok(
    lines.some((l) => /caches synced; starting workers/.test(l.msg)),
    'the operator’s own lines, from its start on',
  );
  const previous = await kubectl(kubeconfig, ['logs', '-n', NS, 'deploy/upgrade-operator', '--previous']);
  assert.equal(previous.code, 0, previous.stderr);
  assert.ok(previous.stdout.trim().split('\n').length > 0);
  assert.notEqual(previous.stdout, current.stdout, 'the process before the restart');
  const tail = await kubectl(kubeconfig, ['logs', '-n', NS, 'deploy/upgrade-operator', '--tail=1']);
  assert.equal(tail.stdout, `${current.stdout.trim().split('\n').at(-1)}\n`);

  const out = join(dir, 'bundle');
  const r = await runBinary([
    'must-gather',
    '--kubeconfig',
    kubeconfig,
    '--dest-dir',
    out,
    '--metrics-url',
    `${outcome.run.metricsUrl()}/metrics`,
  ]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /bundle: \d+ files/);
  const files = tree(out);
  for (const f of [
    'timestamp',
    'status.json',
    'metrics.txt',
    'cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml',
    'cluster-scoped-resources/machineconfiguration.openshift.io/machineconfigpools/worker.yaml',
    `namespaces/${NS}/upgrade.managed.openshift.io/upgradeconfigs/managed-upgrade-config.yaml`,
    `namespaces/${NS}/core/configmaps/managed-upgrade-operator-config.yaml`,
    `namespaces/${NS}/apps/deployments/upgrade-operator.yaml`,
    `namespaces/${NS}/core/events.yaml`,
  ])
    assert.ok(files.includes(f), `${f} in ${files.join(', ')}`);
  assert.ok(files.some((f) => f.startsWith('cluster-scoped-resources/config.openshift.io/clusteroperators/')));
  assert.ok(files.some((f) => f.startsWith('cluster-scoped-resources/core/nodes/')));
  assert.ok(files.some((f) => f.startsWith('namespaces/openshift-machine-api/machine.openshift.io/machinesets/')));
  const pod = files.find((f) => /^namespaces\/[^/]+\/pods\/[^/]+\/upgrade-operator\/logs\/current\.log$/.test(f));
  assert.ok(pod, 'the operator pod’s current log');
  assert.equal(readFileSync(join(out, pod), 'utf8'), current.stdout, 'what kubectl logs shows');
  assert.equal(readFileSync(join(out, pod.replace('current.log', 'previous.log')), 'utf8'), previous.stdout);
  assert.ok(!files.some((f) => f.includes('/secrets/')), 'never a Secret');
  if (existsSync(join(out, 'gather-errors.txt'))) assert.fail(readFileSync(join(out, 'gather-errors.txt'), 'utf8'));
  const status = JSON.parse(readFileSync(join(out, 'status.json'), 'utf8')) as Record<string, unknown>;
  assert.ok('controlPlane' in status || Object.keys(status).length > 0);
  assert.match(
    readFileSync(join(out, 'metrics.txt'), 'utf8'),
    /controller_runtime_reconcile_total\{controller="upgradeconfig"/,
  );
  const cv = parse(
    readFileSync(join(out, 'cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml'), 'utf8'),
  ) as { kind: string; metadata: { managedFields?: unknown } };
  assert.equal(cv.kind, 'ClusterVersion');
  assert.equal(cv.metadata.managedFields, undefined);
  assert.match(readFileSync(join(out, 'timestamp'), 'utf8'), /must-gather started[\s\S]*must-gather finished/);

  // The image's /usr/bin/gather: the same collection into MUST_GATHER_DIR (default /must-gather).
  const bin = join(dir, 'bin');
  const shim = join(bin, 'upgrade-operator');
  mkdirSync(bin, { recursive: true });
  writeFileSync(
    shim,
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} --import tsx ${JSON.stringify(join(ROOT, 'src/main.ts'))} "$@"\n`,
  );
  chmodSync(shim, 0o755);
  const gathered = join(dir, 'gathered');
  const g = await gather({
    PATH: `${bin}:${process.env['PATH'] ?? ''}`,
    KUBECONFIG: kubeconfig,
    MUST_GATHER_DIR: gathered,
  });
  assert.equal(g.code, 0, g.stderr);
  assert.ok(existsSync(join(gathered, pod)), 'the operator log');
  assert.ok(existsSync(join(gathered, 'status.json')));
  // Without --metrics-url and outside a cluster, the metrics go through pods/proxy, which the embedded API server does not serve.
  assert.match(
    readFileSync(join(gathered, 'gather-errors.txt'), 'utf8'),
    /^metrics of openshift-managed-upgrade-operator\/upgrade-operator-/m,
  );
});
