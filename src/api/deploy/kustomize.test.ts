/**
 * The kustomize bases of deploy/ build, with kubectl's built-in kustomize, into exactly the
 * objects the builders make: the CRDs and the managed flow (`deploy/managed`), the CRDs and the
 * scheduled flow (`deploy/scheduled`); and with the namespace and the image tag changed in the
 * folder's kustomization.yaml, into the builders' objects for that namespace and tag (objects in
 * other namespaces stay where they are, the ServiceAccount subjects and the Namespace follow).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { operatorManifestOptions, scheduledOperatorManifestOptions } from '../../cli/manifests.js';
import type { JsonObject } from '../../lib/json.js';
import { customResourceDefinitions } from '../manifests.js';
import { managedOperatorManifestFiles } from './managed-operator-manifests.js';
import type { ManifestFile } from './operator-objects.js';
import { scheduledOperatorManifestFiles } from './scheduled-operator-manifests.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
let dir: string;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'kustomize-'));
  cpSync(join(ROOT, 'deploy'), join(dir, 'deploy'), { recursive: true });
});

after(() => {
  rmSync(dir, { recursive: true, force: true });
});

function kustomize(path: string, cwd: string): Promise<JsonObject[]> {
  return new Promise((resolve, reject) => {
    execFile('/usr/bin/kubectl', ['kustomize', path], { cwd, timeout: 60_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`kubectl kustomize ${path}: ${stderr}`));
      else resolve(parseAllDocuments(stdout).map((d) => d.toJS() as JsonObject));
    });
  });
}

function key(o: JsonObject): string {
  const { apiVersion, kind, metadata } = o as unknown as {
    apiVersion: string;
    kind: string;
    metadata: { name: string; namespace?: string };
  };
  return `${apiVersion} ${kind} ${metadata.namespace ?? ''}/${metadata.name}`;
}

function byKey(objects: readonly JsonObject[]): Map<string, JsonObject> {
  return new Map(objects.map((o) => [key(o), o]));
}

function expected(files: readonly ManifestFile[]): Map<string, JsonObject> {
  // The CRDs as `kubectl kustomize` prints them: plain JSON values.
  const crds = customResourceDefinitions().map((c) => JSON.parse(JSON.stringify(c)) as JsonObject);
  return byKey([...crds, ...files.flatMap((f) => f.documents.map((d) => d.object))]);
}

function assertSameObjects(got: Map<string, JsonObject>, want: Map<string, JsonObject>): void {
  assert.deepEqual([...got.keys()].sort(), [...want.keys()].sort());
  for (const [k, o] of want) assert.deepEqual(got.get(k), o, k);
}

void test('kubectl kustomize deploy/managed and deploy/scheduled give the CRDs and the generated objects', async () => {
  assertSameObjects(
    byKey(await kustomize('deploy/managed', ROOT)),
    expected(managedOperatorManifestFiles(operatorManifestOptions())),
  );
  assertSameObjects(
    byKey(await kustomize('deploy/scheduled', ROOT)),
    expected(scheduledOperatorManifestFiles(scheduledOperatorManifestOptions())),
  );
});

function adapt(flow: string, from: string, to: string, tag: string): void {
  const file = join(dir, 'deploy', flow, 'kustomization.yaml');
  const text = readFileSync(file, 'utf8');
  const next = text
    .replace(`  - namespace=${from}\n`, `  - namespace=${to}\n`)
    .replace(/ {2}newTag: "[^"]*"/, `  newTag: "${tag}"`);
  assert.notEqual(next, text);
  writeFileSync(file, next);
}

void test('the namespace and the image tag set in kustomization.yaml move every object of the operator and nothing else', async () => {
  adapt('managed', 'openshift-managed-upgrade-operator', 'my-upgrades', '9.9.9');
  assertSameObjects(
    byKey(await kustomize('deploy/managed', dir)),
    expected(
      managedOperatorManifestFiles({ ...operatorManifestOptions(), version: '9.9.9', namespace: 'my-upgrades' }),
    ),
  );
  adapt('scheduled', 'appuio-openshift-upgrade-controller', 'my-scheduled-upgrades', '9.9.9');
  assertSameObjects(
    byKey(await kustomize('deploy/scheduled', dir)),
    expected(
      scheduledOperatorManifestFiles({
        ...scheduledOperatorManifestOptions(),
        version: '9.9.9',
        namespace: 'my-scheduled-upgrades',
      }),
    ),
  );
});
