/** Golden tests of deploy/managed/ and deploy/scheduled/ (kustomize bases), and the `manifests` command. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  renderCrdFiles,
  renderOlmBundle,
  renderOperatorFiles,
  renderRuleFiles,
  renderSnapshotFiles,
  renderScheduledOperatorFiles,
} from '../api/manifests.js';
import { manifestsCommand } from './commands/manifests.js';
import { operatorManifestOptions, scheduledOperatorManifestOptions } from './manifests.js';
import { LEADER_ELECTION_ID, SCHEDULED_LEADER_ELECTION_ID } from './commands/run.js';
import { version } from './version.js';

const operatorDir = fileURLToPath(new URL('../../deploy/managed', import.meta.url));
const scheduledDir = fileURLToPath(new URL('../../deploy/scheduled', import.meta.url));

void test('deploy/managed matches the generated manifests (run `npm run manifests` after changing them or the version)', async () => {
  const expected = renderOperatorFiles(operatorManifestOptions());
  const committed = (await readdir(operatorDir)).filter((f) => f.endsWith('.yaml')).sort();
  assert.deepEqual(
    committed,
    [...expected.keys()].sort(),
    'deploy/managed has other files than the generated ones; run `npm run manifests`',
  );
  for (const [name, text] of expected) {
    const onDisk = await readFile(join(operatorDir, name), 'utf8');
    assert.ok(onDisk === text, `deploy/managed/${name} is stale; run \`npm run manifests\` and commit the result`);
  }
});

void test('deploy/snapshot matches the generated ClusterRole (run `npm run manifests` after changing it)', async () => {
  const dir = fileURLToPath(new URL('../../deploy/snapshot', import.meta.url));
  const files = renderSnapshotFiles();
  assert.deepEqual((await readdir(dir)).sort(), [...files.keys()].sort());
  for (const [name, text] of files)
    assert.ok(
      (await readFile(join(dir, name), 'utf8')) === text,
      `deploy/snapshot/${name} is stale; run \`npm run manifests\``,
    );
});

void test('deploy/scheduled matches the generated manifests (run `npm run manifests` after changing them or the version)', async () => {
  const expected = renderScheduledOperatorFiles(scheduledOperatorManifestOptions());
  const committed = (await readdir(scheduledDir)).filter((f) => f.endsWith('.yaml')).sort();
  assert.deepEqual(
    committed,
    [...expected.keys()].sort(),
    'deploy/scheduled has other files than the generated ones; run `npm run manifests`',
  );
  for (const [name, text] of expected) {
    const onDisk = await readFile(join(scheduledDir, name), 'utf8');
    assert.ok(onDisk === text, `deploy/scheduled/${name} is stale; run \`npm run manifests\` and commit the result`);
  }
});

void test("the committed manifests use this build's version and the Lease of `run` for their flows", () => {
  assert.deepEqual(operatorManifestOptions(), { version: version(), leaseName: LEADER_ELECTION_ID });
  assert.deepEqual(scheduledOperatorManifestOptions(), { version: version(), leaseName: SCHEDULED_LEADER_ELECTION_ID });
});

void test('`manifests --out DIR --bundle BUNDLE` writes DIR/crds, DIR/managed, DIR/scheduled, DIR/prometheus and the OLM bundle', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'manifests-'));
  const out: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  try {
    process.stdout.write = (chunk: string | Uint8Array) => {
      out.push(String(chunk));
      return true;
    };
    try {
      await manifestsCommand().parseAsync(['--out', dir, '--bundle', join(dir, 'bundle')], { from: 'user' });
    } finally {
      process.stdout.write = write;
    }
    const sets = [
      ['crds', renderCrdFiles()],
      ['managed', renderOperatorFiles(operatorManifestOptions())],
      ['scheduled', renderScheduledOperatorFiles(scheduledOperatorManifestOptions())],
      ['prometheus', renderRuleFiles()],
      ['snapshot', renderSnapshotFiles()],
    ] as const;
    for (const [sub, files] of sets) {
      assert.deepEqual((await readdir(join(dir, sub))).sort(), [...files.keys()].sort());
      for (const [name, text] of files) assert.equal(await readFile(join(dir, sub, name), 'utf8'), text);
    }
    const bundle = renderOlmBundle(operatorManifestOptions());
    for (const [path, text] of bundle) assert.equal(await readFile(join(dir, 'bundle', path), 'utf8'), text);
    assert.equal(
      out.join('').trim().split('\n').length,
      sets.reduce((n, [, files]) => n + files.size, bundle.size),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
