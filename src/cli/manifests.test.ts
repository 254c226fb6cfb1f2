/** Golden test of deploy/operator/ and the `manifests` command. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderCrdFiles, renderOperatorFiles } from '../api/manifests.js';
import { manifestsCommand, operatorManifestOptions } from './manifests.js';
import { LEADER_ELECTION_ID } from './run.js';
import { version } from './version.js';

const operatorDir = fileURLToPath(new URL('../../deploy/operator/', import.meta.url));

void test('deploy/operator matches the generated manifests (run `npm run manifests` after changing them or the version)', async () => {
  const expected = renderOperatorFiles(operatorManifestOptions());
  const committed = (await readdir(operatorDir)).filter((f) => f.endsWith('.yaml')).sort();
  assert.deepEqual(committed, [...expected.keys()], 'deploy/operator has other files than the generated ones; run `npm run manifests`');
  for (const [name, text] of expected) {
    const onDisk = await readFile(join(operatorDir, name), 'utf8');
    assert.ok(onDisk === text, `deploy/operator/${name} is stale; run \`npm run manifests\` and commit the result`);
  }
});

void test('the committed manifests use this build\'s version and the Lease of `run`', () => {
  assert.deepEqual(operatorManifestOptions(), { version: version(), leaseName: LEADER_ELECTION_ID });
});

void test('`manifests --out DIR` writes DIR/crds and DIR/operator', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'manifests-'));
  const out: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  try {
    process.stdout.write = ((chunk: string | Uint8Array) => {
      out.push(String(chunk));
      return true;
    });
    try {
      await manifestsCommand().parseAsync(['--out', dir], { from: 'user' });
    } finally {
      process.stdout.write = write;
    }
    for (const [sub, files] of [['crds', renderCrdFiles()], ['operator', renderOperatorFiles(operatorManifestOptions())]] as const) {
      assert.deepEqual((await readdir(join(dir, sub))).sort(), [...files.keys()]);
      for (const [name, text] of files) assert.equal(await readFile(join(dir, sub, name), 'utf8'), text);
    }
    assert.equal(out.join('').trim().split('\n').length, renderCrdFiles().size + renderOperatorFiles(operatorManifestOptions()).size);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
