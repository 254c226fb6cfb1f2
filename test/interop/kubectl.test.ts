// The real kubectl against the embedded API server (in this process), through a temp kubeconfig.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApiServer, type ApiServer } from '../../src/apiserver/server.js';

let server: ApiServer;
let dir: string;
let kubeconfig: string;

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function kubectl(args: string[], input?: string, timeoutMs = 20_000): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn('kubectl', ['--kubeconfig', kubeconfig, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input ?? '');
  });
}

async function ok(args: string[], input?: string): Promise<string> {
  const r = await kubectl(args, input);
  assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

before(async () => {
  server = await startApiServer({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'kubectl-interop-'));
  kubeconfig = join(dir, 'kubeconfig');
  await server.writeKubeconfig(kubeconfig);
});

after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const deployment = (replicas: number): string => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: c
        image: nginx:1.25
`;

const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, shortNames: [wd]}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    additionalPrinterColumns:
    - {name: Size, type: integer, jsonPath: .spec.size}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            description: The widget's wishes.
            properties:
              size: {type: integer, minimum: 1, description: How big the widget is.}
`;

void test('version and discovery through kubectl', async () => {
  const version = JSON.parse(await ok(['version', '-o', 'json'])) as { serverVersion: { gitVersion: string } };
  assert.match(version.serverVersion.gitVersion, /^v1\.29\./);
  const resources = await ok(['api-resources']);
  assert.match(resources, /^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment$/m);
  const raw = JSON.parse(await ok(['get', '--raw', '/api/v1'])) as { resources: Array<{ name: string }> };
  assert.ok(raw.resources.some((r) => r.name === 'pods/eviction'));
});

void test('create, get as table, json and yaml; label selectors', async () => {
  await ok(['create', 'configmap', 'c1', '--from-literal=a=b']);
  await ok(['create', 'configmap', 'c2']);
  await ok(['label', 'configmap', 'c1', 'app=web']);
  const table = await ok(['get', 'configmaps']);
  assert.match(table, /^NAME\s+DATA\s+AGE$/m);
  assert.match(table, /^c1\s+1\s+/m);
  const json = JSON.parse(await ok(['get', 'configmap', 'c1', '-o', 'json'])) as { data: Record<string, string> };
  assert.deepEqual(json.data, { a: 'b' });
  assert.match(await ok(['get', 'configmap', 'c1', '-o', 'yaml']), /^ {2}a: b$/m);
  const selected = await ok(['get', 'configmaps', '-l', 'app=web', '-o', 'name']);
  assert.equal(selected.trim(), 'configmap/c1');
  const bad = await kubectl(['get', 'configmaps', '-l', 'app in (x']);
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /unable to parse requirement: found '', expected: ',' or '\)'/);
});

void test('get -w receives an event', async () => {
  // --watch-only prints nothing from the initial list: whatever it prints came as a watch event.
  const child = spawn('kubectl', [
    '--kubeconfig',
    kubeconfig,
    'get',
    'configmaps',
    '-w',
    '--watch-only',
    '-o',
    'name',
    '--request-timeout=20s',
  ]);
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  const closed = new Promise((resolve) => child.on('close', resolve));
  try {
    for (let i = 0; i < 40 && !stdout.includes('configmap/watched-'); i++) {
      await ok(['create', 'configmap', `watched-${i}`]);
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.match(stdout, /configmap\/watched-\d+/);
  } finally {
    child.kill();
    await closed;
  }
});

void test('apply client-side twice, server-side, and patches of every type', async () => {
  assert.match(await ok(['apply', '-f', '-'], deployment(2)), /deployment.apps\/web created/);
  assert.match(await ok(['apply', '-f', '-'], deployment(3)), /deployment.apps\/web configured/);
  assert.equal(await ok(['get', 'deploy', 'web', '-o', 'jsonpath={.spec.replicas} {.metadata.generation}']), '3 2');
  assert.match(await ok(['apply', '--server-side', '-f', '-'], deployment(3)), /serverside-applied/);
  const conflict = await kubectl(['apply', '--server-side', '--field-manager=other', '-f', '-'], deployment(5));
  assert.notEqual(conflict.code, 0);
  assert.match(conflict.stderr, /Apply failed with 1 conflict: conflict with "kubectl": \.spec\.replicas/);
  await ok(['patch', 'deploy', 'web', '--type', 'merge', '-p', '{"spec":{"replicas":4}}']);
  await ok(['patch', 'deploy', 'web', '--type', 'json', '-p', '[{"op":"replace","path":"/spec/replicas","value":6}]']);
  await ok([
    'patch',
    'deploy',
    'web',
    '--type',
    'strategic',
    '-p',
    '{"spec":{"template":{"spec":{"containers":[{"name":"c","image":"nginx:2"}]}}}}',
  ]);
  assert.equal(
    await ok(['get', 'deploy', 'web', '-o', 'jsonpath={.spec.replicas} {.spec.template.spec.containers[0].image}']),
    '6 nginx:2',
  );
});

void test('delete with --cascade=orphan, foreground and background', async () => {
  for (const cascade of ['orphan', 'foreground', 'background']) {
    await ok(['apply', '-f', '-'], deployment(1));
    const uid = await ok(['get', 'deploy', 'web', '-o', 'jsonpath={.metadata.uid}']);
    await ok(['create', 'configmap', `dep-${cascade}`]);
    const owner = { metadata: { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid }] } };
    await ok(['patch', 'configmap', `dep-${cascade}`, '--type', 'merge', '-p', JSON.stringify(owner)]);
    await ok(['delete', 'deploy', 'web', `--cascade=${cascade}`, '--timeout=10s']);
    // Background deletion of dependents is asynchronous: wait for it like a user would.
    if (cascade === 'background') await ok(['wait', '--for=delete', `configmap/dep-${cascade}`, '--timeout=10s']);
    const left = await kubectl(['get', 'configmap', `dep-${cascade}`, '-o', 'jsonpath={.metadata.ownerReferences}']);
    if (cascade === 'orphan') {
      assert.equal(left.code, 0);
      assert.equal(left.stdout, '', 'the orphaned dependent lost its owner reference');
    } else {
      assert.notEqual(left.code, 0, `${cascade}: the dependent is gone`);
    }
  }
});

void test('replace with a stale resourceVersion is a 409', async () => {
  await ok(['create', 'configmap', 'stale']);
  const old = await ok(['get', 'configmap', 'stale', '-o', 'yaml']);
  await ok(['label', 'configmap', 'stale', 'x=y']);
  const r = await kubectl(['replace', '-f', '-'], old);
  assert.notEqual(r.code, 0);
  assert.match(
    r.stderr,
    /Error from server \(Conflict\).*the object has been modified; please apply your changes to the latest version and try again/,
  );
});

void test('a CRD is served at once: printer columns, explain, validation', async () => {
  await ok(['apply', '-f', '-'], crd);
  await ok(['wait', '--for=condition=Established', 'crd/widgets.example.com', '--timeout=10s']);
  await ok(['apply', '-f', '-'], 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w1}\nspec: {size: 3}\n');
  const table = await ok(['get', 'widgets']);
  assert.match(table, /^NAME\s+SIZE$/m);
  assert.match(table, /^w1\s+3$/m);
  const explain = await ok(['explain', 'widget.spec']);
  assert.match(explain, /The widget's wishes\./);
  assert.match(explain, /How big the widget is\./);
  const unknown = await kubectl(
    ['apply', '-f', '-'],
    'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w2}\nspec: {size: 3, bogus: 1}\n',
  );
  // kube-apiserver's words, create (transformDecodeError) and server-side apply (typed patch).
  assert.match(
    unknown.stderr,
    /Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.bogus"/,
  );
  const unknownApplied = await kubectl(
    ['apply', '--server-side', '-f', '-'],
    'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w2}\nspec: {size: 3, bogus: 1}\n',
  );
  assert.match(
    unknownApplied.stderr,
    /failed to create typed patch object \(example\.com\/v1, Kind=Widget\): \.spec\.bogus: field not declared in schema/,
  );
  const invalid = await kubectl(
    ['apply', '-f', '-'],
    'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w3}\nspec: {size: 0}\n',
  );
  assert.match(invalid.stderr, /spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1/);
  // A bad name and a bad spec are reported together, metadata first, as kube-apiserver does.
  const both = await kubectl(
    ['apply', '-f', '-'],
    'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: Bad_Name}\nspec: {size: 0}\n',
  );
  assert.match(
    both.stderr,
    /The Widget "Bad_Name" is invalid: \n\* metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain[^\n]*\n\* spec\.size: Invalid value: 0: spec\.size in body should be greater than or equal to 1/,
  );
  await ok(['patch', 'widget', 'w1', '--type', 'merge', '-p', '{"spec":{"size":5}}']);
  const smp = await kubectl(['patch', 'widget', 'w1', '--type', 'strategic', '-p', '{"spec":{"size":6}}']);
  assert.match(smp.stderr, /the body of the request was in an unknown format/);
  // A kind nobody serves: kubectl reads /openapi/v2 in protobuf, then says what kube-apiserver's users read.
  const unserved = await kubectl(
    ['apply', '-f', '-'],
    'apiVersion: nope.example.com/v1\nkind: Gadget\nmetadata: {name: g}\n',
  );
  assert.match(
    unserved.stderr,
    /resource mapping not found for name: "g" namespace: "" from "STDIN": no matches for kind "Gadget" in version "nope\.example\.com\/v1"\nensure CRDs are installed first/,
  );
  await ok(['delete', 'crd', 'widgets.example.com', '--timeout=10s']);
  const gone = await kubectl(['get', 'widgets']);
  assert.notEqual(gone.code, 0);
});

void test('kubeconfig file works for a second context with a namespace', async () => {
  const file = join(dir, 'ns-kubeconfig');
  writeFileSync(file, server.kubeconfig({ contextName: 'other', namespace: 'kube-system' }));
  const r = await new Promise<string>((resolve, reject) => {
    const child = spawn('kubectl', [
      '--kubeconfig',
      file,
      'config',
      'view',
      '--minify',
      '-o',
      'jsonpath={.contexts[0].context.namespace}',
    ]);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', () => resolve(out));
  });
  assert.equal(r, 'kube-system');
});
