/** Golden test of deploy/crds/ and the YAML rendering of CRDs. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { crdFileName, customResourceDefinitions, renderCrdFiles, renderCrdYaml, writeCrdFiles } from './manifests.js';

const crdDir = fileURLToPath(new URL('../../deploy/crds/', import.meta.url));

void test('deploy/crds matches the CRDs generated from src/api (run `npm run manifests` after changing a schema)', async () => {
  const expected = renderCrdFiles();
  const committed = (await readdir(crdDir)).filter((f) => f.endsWith('.yaml')).sort();
  assert.deepEqual(committed, [...expected.keys()], 'deploy/crds has other files than the generated ones; run `npm run manifests`');
  for (const [name, text] of expected) {
    const onDisk = await readFile(join(crdDir, name), 'utf8');
    assert.ok(onDisk === text, `deploy/crds/${name} is stale; run \`npm run manifests\` and commit the result`);
  }
});

void test('file names follow controller-gen: <group>_<plural>.yaml', () => {
  assert.deepEqual([...renderCrdFiles().keys()], [
    'managedupgrade.appuio.io_clusterversions.yaml',
    'managedupgrade.appuio.io_nodeforcedrains.yaml',
    'managedupgrade.appuio.io_upgradeconfigs.yaml',
    'managedupgrade.appuio.io_upgradejobhooks.yaml',
    'managedupgrade.appuio.io_upgradejobs.yaml',
    'managedupgrade.appuio.io_upgradesuspensionwindows.yaml',
    'upgrade.managed.openshift.io_upgradeconfigs.yaml',
  ]);
});

void test('rendered YAML starts with ---, reads back as the same object, and is stable', () => {
  for (const crd of customResourceDefinitions()) {
    const text = renderCrdYaml(crd);
    assert.ok(text.startsWith('---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n'), crdFileName(crd));
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
    assert.equal(paths.length, 7);
    for (const [name, text] of renderCrdFiles()) assert.equal(await readFile(join(dir, 'nested', name), 'utf8'), text);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
