/** Golden test of deploy/crds/ and the YAML rendering of CRDs and of the operator manifests. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import { managedOperatorManifestFiles } from './deploy/managed-operator-manifests.js';
import { scheduledOperatorManifestFiles } from './deploy/scheduled-operator-manifests.js';
import {
  crdFileName,
  customResourceDefinitions,
  renderCrdFiles,
  renderCrdYaml,
  renderManifestDocument,
  renderOperatorFiles,
  renderScheduledOperatorFiles,
  writeCrdFiles,
} from './manifests.js';

const crdDir = fileURLToPath(new URL('../../deploy/crds', import.meta.url));

void test('deploy/crds matches the CRDs generated from src/api (run `npm run manifests` after changing a schema)', async () => {
  const expected = renderCrdFiles();
  const committed = (await readdir(crdDir)).filter((f) => f.endsWith('.yaml')).sort();
  assert.deepEqual(
    committed,
    [...expected.keys()].sort(),
    'deploy/crds has other files than the generated ones; run `npm run manifests`',
  );
  for (const [name, text] of expected) {
    const onDisk = await readFile(join(crdDir, name), 'utf8');
    assert.ok(onDisk === text, `deploy/crds/${name} is stale; run \`npm run manifests\` and commit the result`);
  }
});

void test('file names follow controller-gen: <group>_<plural>.yaml; kustomization.yaml lists them', () => {
  const files = renderCrdFiles();
  assert.deepEqual(
    [...files.keys()],
    [
      'managedupgrade.appuio.io_clusterversions.yaml',
      'managedupgrade.appuio.io_nodeforcedrains.yaml',
      'managedupgrade.appuio.io_upgradeconfigs.yaml',
      'managedupgrade.appuio.io_upgradejobhooks.yaml',
      'managedupgrade.appuio.io_upgradejobs.yaml',
      'managedupgrade.appuio.io_upgradesuspensionwindows.yaml',
      'upgrade.managed.openshift.io_upgradeconfigs.yaml',
      'kustomization.yaml',
    ],
  );
  const kustomization = parse(files.get('kustomization.yaml') ?? '') as { resources: string[] };
  assert.deepEqual(
    kustomization.resources,
    [...files.keys()].filter((n) => n !== 'kustomization.yaml'),
  );
});

void test('rendered YAML starts with ---, reads back as the same object, and is stable', () => {
  for (const crd of customResourceDefinitions()) {
    const text = renderCrdYaml(crd);
    assert.ok(
      text.startsWith('---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n'),
      crdFileName(crd),
    );
    assert.deepEqual(parse(text, { version: '1.1' }), crd);
    assert.equal(renderCrdYaml(crd), text);
  }
});

void test('YAML 1.1 mode quotes strings a Go reader would take for booleans', () => {
  const text = renderCrdYaml({ spec: { a: 'on', b: 'yes', c: 'off', d: 'n' } });
  assert.match(text, /a: "on"/);
  assert.match(text, /b: "yes"/);
  assert.match(text, /c: "off"/);
  assert.match(text, /d: "n"/);
});

void test('writeCrdFiles writes every CRD and returns the paths', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'crds-'));
  try {
    const paths = await writeCrdFiles(join(dir, 'nested'));
    assert.equal(paths.length, 8);
    for (const [name, text] of renderCrdFiles()) assert.equal(await readFile(join(dir, 'nested', name), 'utf8'), text);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

void test('operator manifests: one --- document per object, comments above the document and above each RBAC rule, parse back to the objects', () => {
  const files = managedOperatorManifestFiles({ version: '9.9.9', leaseName: 'lock' });
  const rendered = renderOperatorFiles({ version: '9.9.9', leaseName: 'lock' });
  for (const f of files) {
    const text = rendered.get(f.name) ?? assert.fail(f.name);
    const docs = parseAllDocuments(text, { version: '1.1' });
    assert.deepEqual(
      docs.map((d) => d.toJS() as unknown),
      f.documents.map((d) => d.object),
      f.name,
    );
    assert.equal(text.split(/^---$/m).length - 1, f.documents.length);
  }
  const role = renderManifestDocument({
    object: { kind: 'Role', rules: [{ verbs: ['get'] }, { verbs: ['list'] }] },
    comment: ' the role',
    ruleComments: [' first reason', ' second reason'],
  });
  assert.equal(
    role,
    '---\n# the role\nkind: Role\nrules:\n# first reason\n- verbs:\n  - get\n# second reason\n- verbs:\n  - list\n',
  );
});

void test('scheduled-operator manifests: one --- document per object, parse back to the objects', () => {
  const files = scheduledOperatorManifestFiles({ version: '9.9.9', leaseName: 'lock' });
  const rendered = renderScheduledOperatorFiles({ version: '9.9.9', leaseName: 'lock' });
  assert.deepEqual([...rendered.keys()], [...files.map((f) => f.name), 'kustomization.yaml']);
  for (const f of files) {
    const text = rendered.get(f.name) ?? assert.fail(f.name);
    const docs = parseAllDocuments(text, { version: '1.1' });
    assert.deepEqual(
      docs.map((d) => d.toJS() as unknown),
      f.documents.map((d) => d.object),
      f.name,
    );
    assert.equal(text.split(/^---$/m).length - 1, f.documents.length);
  }
});

void test('operator manifests quote strings a Go reader would take for booleans or numbers', () => {
  const text = renderManifestDocument({ object: { metadata: { labels: { a: 'true', b: 'on', c: '' } } } });
  assert.match(text, /a: "true"/);
  assert.match(text, /b: "on"/);
  assert.match(text, /c: ""/);
});
