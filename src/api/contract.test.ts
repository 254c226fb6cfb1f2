/**
 * The operator's runtime imports descriptors and constants from the `*-contract.ts` files and
 * the OpenShift kinds' types; neither may load TypeBox (~20 MiB) as a value, directly or
 * through a schema module.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const apiDir = fileURLToPath(new URL('./', import.meta.url));

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) files(p, out);
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

/** OpenShift modules that build schemas and CRDs (simulator and tests only). */
function isOpenShiftSchema(rel: string): boolean {
  return rel.endsWith('-schema.ts') || rel === 'openshift/schema-common.ts' || rel === 'openshift/crds.ts';
}

/** Modules the runtime may load: contracts, group constants, descriptors, OpenShift types. */
function isCheap(rel: string): boolean {
  return (
    rel.endsWith('-contract.ts') ||
    rel.endsWith('/group.ts') ||
    rel === 'resource.ts' ||
    rel === 'builtin.ts' ||
    (rel.startsWith('openshift/') && !isOpenShiftSchema(rel))
  );
}

/** Value (non-type) import specifiers of a module. */
function valueImports(text: string): string[] {
  const out: string[] = [];
  const re = /^\s*(import|export)\s+(?!type\b)[^'";]*?from\s+['"]([^'"]+)['"]/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push(m[2]!);
  return out;
}

void test('contract modules and OpenShift types load no TypeBox and no schema module', () => {
  const cheap = files(apiDir).filter((f) => isCheap(relative(apiDir, f)));
  assert.ok(cheap.length >= 15, `found ${cheap.length} cheap modules`);
  for (const file of cheap) {
    for (const spec of valueImports(readFileSync(file, 'utf8'))) {
      const rel = relative(apiDir, file);
      assert.ok(!spec.startsWith('typebox'), `${rel} imports ${spec} as a value`);
      if (spec.startsWith('.')) {
        const target = relative(apiDir, join(file, '..', spec.replace(/\.js$/, '.ts')));
        assert.ok(isCheap(target), `${rel} imports ${target} as a value; use import type`);
      }
    }
  }
});

void test('the import scan sees value imports and skips type imports', () => {
  const text =
    "import { a } from './x.js';\nimport type { B } from './y.js';\nexport { c } from 'typebox';\nimport { type D } from './z.js';\n";
  assert.deepEqual(valueImports(text), ['./x.js', 'typebox', './z.js']);
});
