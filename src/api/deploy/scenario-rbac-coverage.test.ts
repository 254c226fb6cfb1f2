/**
 * The RBAC check covers every scenario: each test that runs a scenario in-process checks its
 * operator's requests against the shipped RBAC where it runs (`runCheckedScenario`), so what must
 * hold is that no test runs one unchecked and that every named scenario with an operator is run by
 * some test. Both are read from the test sources (the test files run in separate processes, so no
 * single run sees them all): a static guard, like the layering lint.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadScenario, scenarioNames } from '../../cli/scenarios/catalog.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CHECK_MODULE = fileURLToPath(new URL('./operator-requests.test-support.ts', import.meta.url));
/** The unchecked runners: the catalogue's (`simulate`'s) and the scenario runner under it. */
const RUNNERS = new Map([
  [fileURLToPath(new URL('../../cli/scenarios/catalog.ts', import.meta.url)), 'runScenario'],
  [fileURLToPath(new URL('../../cli/scenarios/scenario-runner.ts', import.meta.url)), 'runScenarioFile'],
]);

/** Test files and test support under src/ and test/ (not the benchmarks, which are not tests). */
function testSources(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'testdata' || entry.startsWith('.')) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) {
      if (relative(ROOT, path) !== join('test', 'bench')) testSources(path, out);
    } else if (/\.test(-support)?\.ts$/.test(entry)) out.push(path);
  }
  return out;
}

interface Source {
  path: string;
  text: string;
  /** Value imports: resolved module path → imported names. */
  imports: Map<string, string[]>;
}

function parse(path: string): Source {
  const text = readFileSync(path, 'utf8');
  const imports = new Map<string, string[]>();
  for (const m of text.matchAll(/import\s+(type\s+)?(\{[^}]*\}|\*\s+as\s+\w+)\s+from\s+'([^']+)'/g)) {
    if (m[1] !== undefined || !m[3]?.startsWith('.')) continue;
    const module = resolve(dirname(path), m[3].replace(/\.js$/, '.ts'));
    const names = (m[2] ?? '').startsWith('*')
      ? ['*']
      : (m[2] ?? '')
          .slice(1, -1)
          .split(',')
          .map((n) => n.trim())
          .filter((n) => n !== '' && !n.startsWith('type '))
          .map((n) => n.split(/\s+as\s+/)[0] ?? n);
    imports.set(module, [...(imports.get(module) ?? []), ...names]);
  }
  return { path, text, imports };
}

const sources = [...testSources(join(ROOT, 'src')), ...testSources(join(ROOT, 'test'))].map(parse);
const rel = (source: Source): string => relative(ROOT, source.path);

void test('no test runs a scenario in-process without checking its requests against the shipped RBAC', () => {
  assert.ok(sources.length > 50, `only ${sources.length} test sources found`);
  const unchecked = sources
    .filter((s) => s.path !== CHECK_MODULE)
    .flatMap((s) =>
      [...RUNNERS]
        .filter(([module, runner]) => s.imports.get(module)?.some((n) => n === runner || n === '*'))
        .map(([module, runner]) => `${rel(s)} imports ${runner} from ${relative(ROOT, module)}`),
    );
  assert.deepEqual(
    unchecked,
    [],
    'run scenarios through runCheckedScenario (src/api/deploy/operator-requests.test-support.ts)',
  );
});

void test('every named scenario that runs the operator is run by a test that checks its requests', () => {
  // Test support that runs scenarios through the check (e.g. test/e2e/scenario.test-support.ts), and the check itself.
  const checkedRunners = new Set([
    CHECK_MODULE,
    ...sources
      .filter((s) => s.imports.get(CHECK_MODULE)?.includes('runCheckedScenario') && s.path.endsWith('.test-support.ts'))
      .map((s) => s.path),
  ]);
  const running = sources.filter(
    (s) => s.path.endsWith('.test.ts') && [...s.imports.keys()].some((m) => checkedRunners.has(m)),
  );
  const withOperator = scenarioNames().filter((name) => loadScenario(name).file.operator !== undefined);
  assert.ok(
    withOperator.includes('managed-osd-upgrade') && withOperator.includes('scheduled-upgrade'),
    withOperator.join(', '),
  );
  const where = new Map(
    withOperator.map((name) => [name, running.filter((s) => s.text.includes(`'${name}'`)).map(rel)]),
  );
  assert.deepEqual(
    [...where].filter(([, files]) => files.length === 0).map(([name]) => name),
    [],
    'named scenarios with an operator that no test runs with the RBAC check: run each from a test (e.g. runScenario of test/e2e/scenario.test-support.ts)',
  );
});
