import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { JsonObject } from '../../lib/json.js';
import { CRD_JSON_SOURCES } from './crd-builders.js';

const STALE = 'stale: run `npm run manifests` (scripts/generate-crd-json.ts)';

void test('every generated CRD module holds exactly the CRD its builder makes', async () => {
  for (const source of CRD_JSON_SOURCES) {
    const generated = (await import(`./${source.file}.generated.js`)) as { CRD: JsonObject };
    assert.deepEqual(generated.CRD, source.build(), `${source.file}: ${STALE}`);
  }
});

void test('src/cli/crds/ holds a generated module for every source and no other', () => {
  const dir = fileURLToPath(new URL('.', import.meta.url));
  const generated = readdirSync(dir)
    .filter((f) => f.endsWith('.generated.ts'))
    .map((f) => f.slice(0, -'.generated.ts'.length))
    .sort();
  assert.deepEqual(generated, CRD_JSON_SOURCES.map((s) => s.file).sort(), STALE);
});
