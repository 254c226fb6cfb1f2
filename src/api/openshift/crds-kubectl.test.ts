/**
 * The OpenShift CRDs installed in the embedded API server, read with the real kubectl: printer
 * columns of `kubectl get clusterversion,co,mcp,machinesets -o wide`, and `kubectl scale
 * machineset` through the scale subresource.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { JsonObject } from '../../lib/json.js';
import { ManualClock } from '../../lib/clock.js';
import { startApiServer, type ApiServer } from '../../apiserver/server.js';
import { openshiftCustomResourceDefinitions } from './crds.js';

const examples = JSON.parse(readFileSync(new URL('./testdata/examples.json', import.meta.url), 'utf8')) as Record<
  string,
  JsonObject
>;
const MS_NAME = 'mycluster-x7k2p-worker-us-east-1a';
const MS_NS = 'openshift-machine-api';

let server: ApiServer;
let dir: string;
let kubeconfig: string;

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: JsonObject }> {
  const res = await fetch(server.url + path, {
    method,
    headers: { 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as JsonObject) : {} };
}

function kubectl(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      '/usr/bin/kubectl',
      [...args, `--kubeconfig=${kubeconfig}`, `--cache-dir=${join(dir, 'cache')}`],
      { timeout: 60_000 },
      (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
      },
    );
  });
}

/** Creates an object (without server-owned metadata), then writes its status through /status. */
async function createWithStatus(collection: string, example: JsonObject): Promise<void> {
  const { status, metadata, ...rest } = example as { status?: JsonObject; metadata: JsonObject } & JsonObject;
  const { uid: _u, resourceVersion: _r, creationTimestamp: _c, generation: _g, ...meta } = metadata;
  const created = await call('POST', collection, { ...rest, metadata: meta });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  if (status === undefined) return;
  const name = (created.body['metadata'] as { name: string }).name;
  const updated = await call('PUT', `${collection}/${name}/status`, { ...created.body, status });
  assert.equal(updated.status, 200, JSON.stringify(updated.body));
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'openshift-crds-'));
  server = await startApiServer({ port: 0, clock: new ManualClock('2024-03-20T09:02:00Z') });
  kubeconfig = join(dir, 'kubeconfig');
  await server.writeKubeconfig(kubeconfig);
  for (const crd of openshiftCustomResourceDefinitions()) {
    const r = await call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
    assert.equal(r.status, 201, JSON.stringify(r.body));
  }
  // The CRD registry serves new kinds asynchronously: wait until the last group is discovered.
  for (let i = 0; i < 200 && (await call('GET', '/apis/fileintegrity.openshift.io/v1alpha1')).status !== 200; i++)
    await sleep(10);
  assert.equal(
    (await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: MS_NS } }))
      .status,
    201,
  );
  await createWithStatus('/apis/config.openshift.io/v1/clusterversions', examples['clusterversion-updating']!);
  await createWithStatus('/apis/config.openshift.io/v1/clusteroperators', examples['clusteroperator-rolling']!);
  await createWithStatus(
    '/apis/machineconfiguration.openshift.io/v1/machineconfigpools',
    examples['machineconfigpool-worker']!,
  );
  await createWithStatus(
    `/apis/machine.openshift.io/v1beta1/namespaces/${MS_NS}/machinesets`,
    examples['machineset-worker']!,
  );
});

after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** kubectl's multi-kind output: one table per kind, each a header and rows, cells split on 2+ spaces. */
function tables(out: string): string[][][] {
  return out
    .trim()
    .split(/\n\s*\n/)
    .map((block) => block.split('\n').map((line) => line.trim().split(/\s{2,}/)));
}

function tableOf(all: string[][][], prefix: string): string[][] {
  const t = all.find((rows) => rows[1]?.[0]?.startsWith(prefix));
  assert.ok(t, `no ${prefix} table`);
  return t;
}

void test('kubectl get -o wide shows the oc get columns', async () => {
  const r = await kubectl(['get', 'clusterversion,co,mcp,machinesets', '-n', MS_NS, '-o', 'wide']);
  assert.equal(r.code, 0, r.stderr);
  const all = tables(r.stdout);
  const cv = tableOf(all, 'clusterversion.config.openshift.io/');
  assert.deepEqual(cv[0], ['NAME', 'VERSION', 'AVAILABLE', 'PROGRESSING', 'SINCE', 'STATUS']);
  assert.deepEqual(cv[1], [
    'clusterversion.config.openshift.io/version',
    '4.14.10',
    'True',
    'True',
    '61m',
    'Working towards 4.15.3: 762 of 880 done (86% complete), waiting on machine-config',
  ]);

  const co = tableOf(all, 'clusteroperator.config.openshift.io/');
  assert.deepEqual(co[0], ['NAME', 'VERSION', 'AVAILABLE', 'PROGRESSING', 'DEGRADED', 'SINCE', 'MESSAGE']);
  const coRow = co[1]!;
  assert.deepEqual(coRow.slice(0, 5), [
    'clusteroperator.config.openshift.io/kube-apiserver',
    '4.14.10',
    'True',
    'True',
    'False',
  ]);
  assert.equal(coRow[6], 'NodeInstallerProgressing: 1 node is at revision 14; 2 nodes are at revision 15');

  const mcp = tableOf(all, 'machineconfigpool.machineconfiguration.openshift.io/');
  assert.deepEqual(mcp[0], [
    'NAME',
    'CONFIG',
    'UPDATED',
    'UPDATING',
    'DEGRADED',
    'MACHINECOUNT',
    'READYMACHINECOUNT',
    'UPDATEDMACHINECOUNT',
    'DEGRADEDMACHINECOUNT',
    'AGE',
  ]);
  assert.deepEqual(mcp[1]!.slice(0, 9), [
    'machineconfigpool.machineconfiguration.openshift.io/worker',
    'rendered-worker-3b8f0c6d1e2a4957b8c0d9e1f2a3b4c5',
    'False',
    'True',
    'False',
    '3',
    '1',
    '1',
    '0',
  ]);

  const ms = tableOf(all, 'machineset.machine.openshift.io/');
  assert.deepEqual(ms[0], ['NAME', 'DESIRED', 'CURRENT', 'READY', 'AVAILABLE', 'AGE']);
  assert.deepEqual(ms[1]!.slice(0, 5), [`machineset.machine.openshift.io/${MS_NAME}`, '2', '2', '1', '1']);
});

void test('kubectl get co and mcp by short name', async () => {
  const co = await kubectl(['get', 'co']);
  assert.equal(co.code, 0, co.stderr);
  assert.match(co.stdout, /^NAME\s+VERSION\s+AVAILABLE\s+PROGRESSING\s+DEGRADED\s+SINCE\s+MESSAGE\n/);
  assert.match(co.stdout, /\nkube-apiserver\s+4\.14\.10\s+True\s+True\s+False\s+/);
  const mcp = await kubectl(['get', 'mcp', 'worker', '-o', 'name']);
  assert.equal(mcp.stdout.trim(), 'machineconfigpool.machineconfiguration.openshift.io/worker');
});

void test('kubectl scale machineset goes through the scale subresource', async () => {
  const r = await kubectl(['scale', 'machineset', MS_NAME, '-n', MS_NS, '--replicas=3']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), `machineset.machine.openshift.io/${MS_NAME} scaled`);
  const obj = await call('GET', `/apis/machine.openshift.io/v1beta1/namespaces/${MS_NS}/machinesets/${MS_NAME}`);
  assert.equal((obj.body['spec'] as { replicas: number }).replicas, 3);
  assert.equal((obj.body['status'] as { replicas: number }).replicas, 2, 'status is the controller’s');
  const scale = await call(
    'GET',
    `/apis/machine.openshift.io/v1beta1/namespaces/${MS_NS}/machinesets/${MS_NAME}/scale`,
  );
  assert.deepEqual(
    [scale.body['kind'], scale.body['spec'], (scale.body['status'] as JsonObject)['replicas']],
    ['Scale', { replicas: 3 }, 2],
  );
  const guarded = await kubectl(['scale', 'machineset', MS_NAME, '-n', MS_NS, '--current-replicas=2', '--replicas=4']);
  assert.notEqual(guarded.code, 0, 'the precondition on current replicas fails');
});
