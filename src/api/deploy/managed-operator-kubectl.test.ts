/**
 * `kubectl apply -f deploy/crds/ -f deploy/operator/` with the real kubectl against the embedded
 * API server, as docs/configuration.md tells users to install the operator. The embedded server
 * does not serve RBAC or ServiceMonitors: test-only CRDs with the real fields stand in for them
 * (stand-in-crds.test-support.ts), so `--validate=strict` checks those shapes. The server
 * validates neither Deployments nor Services, so their shapes are checked at compile time
 * (kubernetes-types) and by managed-operator-manifests.test.ts.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { startApiServer, type ApiServer } from '../../apiserver/server.js';
import { operatorManifestOptions } from '../../cli/manifests.js';
import type { JsonObject } from '../../lib/json.js';
import { ManualClock } from '../../lib/clock.js';
import { managedOperatorManifestFiles } from './managed-operator-manifests.js';
import { rbacStandInCrds, serviceMonitorStandInCrd } from './stand-in-crds.test-support.js';

const deployDir = fileURLToPath(new URL('../../../deploy/', import.meta.url));

let server: ApiServer;
let dir: string;
let kubeconfig: string;

function kubectl(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('/usr/bin/kubectl', [...args, `--kubeconfig=${kubeconfig}`, `--cache-dir=${join(dir, 'cache')}`], { timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

async function post(path: string, body: JsonObject): Promise<void> {
  const res = await fetch(server.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(res.status, 201, await res.text());
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'operator-manifests-'));
  server = await startApiServer({ port: 0, clock: new ManualClock('2026-03-02T08:00:00Z') });
  kubeconfig = join(dir, 'kubeconfig');
  await server.writeKubeconfig(kubeconfig);
  for (const crd of [...rbacStandInCrds(), serviceMonitorStandInCrd()]) await post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
  // The CRD registry serves new groups asynchronously.
  for (const group of ['rbac.authorization.k8s.io/v1', 'monitoring.coreos.com/v1']) {
    for (let i = 0; i < 200 && (await fetch(`${server.url}/apis/${group}`)).status !== 200; i++) await sleep(10);
  }
  // Namespaces every OpenShift cluster has.
  for (const name of ['openshift-machine-api', 'openshift-monitoring', 'openshift-config']) await post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
});

after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** `kind/name` of every object of deploy/operator, as kubectl names them in its output. */
function expectedObjects(): Array<{ ref: string; namespace: string | undefined; object: JsonObject }> {
  return managedOperatorManifestFiles(operatorManifestOptions()).flatMap((f) =>
    f.documents.map((d) => {
      const { metadata: meta, apiVersion, kind: kindName } = d.object as unknown as { metadata: { name: string; namespace?: string }; apiVersion: string; kind: string };
      const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
      const kind = kindName.toLowerCase();
      return { ref: `${group === '' ? kind : `${kind}.${group}`}/${meta.name}`, namespace: meta.namespace, object: d.object };
    }),
  );
}

void test('kubectl apply --validate=strict creates the CRDs and every operator object, and a second apply changes nothing', async () => {
  const first = await kubectl(['apply', '--validate=strict', '-f', join(deployDir, 'crds'), '-f', join(deployDir, 'operator')]);
  assert.equal(first.code, 0, first.stderr);
  assert.equal(first.stderr.trim(), '', 'no warnings (unknown fields would be reported here)');
  const lines = first.stdout.trim().split('\n');
  for (const { ref } of expectedObjects()) assert.ok(lines.includes(`${ref} created`), `${ref} created; got:\n${first.stdout}`);

  const second = await kubectl(['apply', '--validate=strict', '-f', join(deployDir, 'operator')]);
  assert.equal(second.code, 0, second.stderr);
  for (const { ref } of expectedObjects()) assert.ok(second.stdout.includes(`${ref} unchanged`), `${ref} unchanged; got:\n${second.stdout}`);
});

void test('what the server stored is what was generated', async () => {
  for (const { ref, namespace, object } of expectedObjects()) {
    const r = await kubectl(['get', ref, ...(namespace ? ['-n', namespace] : []), '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const stored = JSON.parse(r.stdout) as JsonObject;
    const meta = stored['metadata'] as { labels?: Record<string, string> };
    assert.deepEqual(meta.labels, { ...(object['metadata'] as { labels?: Record<string, string> }).labels, ...(ref.startsWith('namespace/') ? { 'kubernetes.io/metadata.name': 'openshift-managed-upgrade-operator' } : {}) }, ref);
    for (const key of ['rules', 'roleRef', 'subjects', 'data']) if (object[key] !== undefined) assert.deepEqual(stored[key], object[key], `${ref} ${key}`);
    if (ref.startsWith('servicemonitor') || ref.startsWith('service/')) {
      const spec = stored['spec'] as JsonObject;
      for (const [k, v] of Object.entries(object['spec'] as JsonObject)) assert.deepEqual(spec[k], v, `${ref} spec.${k}`);
    }
  }
  const d = await kubectl(['get', 'deployment/upgrade-operator', '-n', 'openshift-managed-upgrade-operator', '-o', 'jsonpath={.spec.template.spec.containers[0].image} {.spec.template.spec.containers[0].args}']);
  assert.equal(d.code, 0, d.stderr);
  assert.equal(d.stdout, `quay.io/upgrade-operator/upgrade-operator:${operatorManifestOptions().version} ["run"]`);
});

void test('the stand-in schemas reject what the real API would (so the acceptance above means something)', async () => {
  const bad = join(dir, 'bad.yaml');
  const cases: Array<[string, RegExp]> = [
    ['apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r, namespace: default}\nrules:\n- apiGroups: [""]\n  resources: [pods]\n', /verbs/],
    ['apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: c}\nrules:\n- apiGroups: [""]\n  resources: [pods]\n  verbs: [get]\n  resourceName: [x]\n', /resourceName/],
    ['apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: b, namespace: default}\nsubjects: []\n', /roleRef/],
    ['apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata: {name: m, namespace: default}\nspec:\n  selector: {}\n  endpoints:\n  - port: p\n    scheme: ftp\n', /scheme/],
  ];
  for (const [yaml, message] of cases) {
    writeFileSync(bad, yaml);
    const r = await kubectl(['apply', '--validate=strict', '-f', bad]);
    assert.notEqual(r.code, 0, `accepted:\n${yaml}`);
    assert.match(r.stderr, message);
  }
});
