/**
 * The layering rules of DESIGN.md §3, checked on the import graph: a layer imports only from
 * lower layers; no operator code imports the embedded API server or the simulation; the API
 * server imports only pure helpers and API types. Test files (`*.test.ts`) and test support
 * (`*.test-support.ts`, never shipped: tsconfig.build.json excludes them) may import anything.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const src = dirname(fileURLToPath(import.meta.url));

/** Top-level folder under src/ → layer number; separate trees get their own rules below. */
const layer: Record<string, number> = {
  lib: 0,
  time: 0,
  api: 1,
  kube: 1,
  integrations: 1,
  schedule: 2,
  health: 2,
  engine: 2,
  steps: 2,
  upgraders: 2,
  providers: 2,
  metrics: 2,
  config: 2,
  controllers: 3,
  cli: 4,
};
const operatorTrees = new Set(Object.keys(layer));
/** What the separate trees may import. */
const allowed: Record<string, Set<string>> = {
  apiserver: new Set(['apiserver', 'lib', 'time', 'api']),
  sim: new Set(['sim', 'lib', 'time', 'api', 'kube', 'integrations']),
};

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'testdata') sourceFiles(path, out);
    } else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.test-support.ts') && !name.endsWith('.d.ts')) {
      out.push(path);
    }
  }
  return out;
}

function treeOf(file: string): string {
  const rel = relative(src, file);
  return rel.includes('/') ? rel.slice(0, rel.indexOf('/')) : '';
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs: string[] = [];
  const re = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) specs.push((m[1] ?? m[2])!);
  return specs.filter((s) => s.startsWith('.'));
}

/** Pure: is `from` (a tree) allowed to import `to` (a tree)? Returns the reason when not. */
export function layeringViolation(from: string, to: string): string | undefined {
  if (from === to || from === '') return undefined;
  if (allowed[from]) return allowed[from].has(to) ? undefined : `${from}/ may import only ${[...allowed[from]].join(', ')}`;
  if (to === 'apiserver' || to === 'sim') {
    return from === 'cli' ? undefined : `operator code must not import ${to}/ (DESIGN.md principle 3)`;
  }
  const lf = layer[from];
  const lt = layer[to];
  if (lf === undefined) return `src/${from}/ is not a known layer: add it to src/layering.test.ts`;
  if (lt === undefined) return `src/${to}/ is not a known layer`;
  if (lt > lf) return `layer ${from} (${lf}) must not import ${to} (${lt})`;
  return undefined;
}

test('every import follows the layering rules', () => {
  const problems: string[] = [];
  for (const file of sourceFiles(src)) {
    const from = treeOf(file);
    for (const spec of importsOf(file)) {
      const target = resolve(dirname(file), spec);
      const to = treeOf(target);
      const why = layeringViolation(from, to);
      if (why) problems.push(`${relative(src, file)} imports ${spec}: ${why}`);
    }
  }
  assert.deepEqual(problems, []);
});

test('the rules reject what DESIGN.md forbids', () => {
  assert.match(layeringViolation('controllers', 'apiserver') ?? '', /must not import apiserver/);
  assert.match(layeringViolation('engine', 'sim') ?? '', /must not import sim/);
  assert.match(layeringViolation('apiserver', 'kube') ?? '', /may import only/);
  assert.match(layeringViolation('lib', 'kube') ?? '', /must not import/);
  assert.match(layeringViolation('kube', 'engine') ?? '', /must not import/);
  assert.match(layeringViolation('sim', 'engine') ?? '', /may import only/);
  assert.equal(layeringViolation('cli', 'apiserver'), undefined);
  assert.equal(layeringViolation('sim', 'kube'), undefined);
  assert.equal(layeringViolation('engine', 'kube'), undefined);
  assert.ok(operatorTrees.has('engine'));
});
