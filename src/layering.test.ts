/**
 * The layering rule (lint/layering.js): it refuses planted violations with a message that says
 * why, accepts what the design allows, and eslint.config.js applies it to every file of src/.
 * `npm run lint` runs it over the whole tree on every test run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint, Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import local, { layeringViolation, MAY_IMPORT } from '../lint/layering.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = join(root, 'src');

/** Lints `code` as the file `path` (relative to src/) with only the layering rule. */
function lintAs(path: string, code: string): string[] {
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser },
        plugins: { local },
        rules: { 'local/layering': ['error', { src }] },
      },
    ],
    { filename: join(src, path) },
  );
  return messages.map((m) => `${m.line}: ${m.message}`);
}

test('a planted import of the other flow is refused on its line, tests included', () => {
  const code =
    "import { cron } from '../schedule/cron.js';\nimport { osdSteps } from '../../managed/upgraders/osd-upgrader.js';\n";
  assert.deepEqual(lintAs('scheduled/steps/planted.ts', code), [
    '2: the scheduled flow must not import the managed flow: move what both need to engine/ (import of ../../managed/upgraders/osd-upgrader.js)',
  ]);
  assert.equal(
    lintAs('managed/steps/planted.test.ts', "export { x } from '../../scheduled/hooks/hook-env.js';\n").length,
    1,
  );
  assert.equal(
    lintAs('managed/steps/planted.ts', "const m = await import('../../scheduled/hooks/hook-env.js');\n").length,
    1,
  );
});

test('the engine imports only the infrastructure; no operator code imports apiserver/ or sim/', () => {
  assert.match(
    lintAs('engine/planted.ts', "import type { X } from '../managed/steps/step-context.js';\n")[0] ?? '',
    /engine\/ may import only lib, time, api, kube, integrations, not managed\//,
  );
  assert.match(
    lintAs('managed/planted.ts', "import { startApiServer } from '../apiserver/server.js';\n")[0] ?? '',
    /operator code must not import apiserver\//,
  );
  assert.match(
    lintAs('kube/planted.ts', "import { VirtualClock } from '../sim/virtual-clock.js';\n")[0] ?? '',
    /must not import sim\//,
  );
  assert.match(
    lintAs('apiserver/planted.ts', "import { KubeClient } from '../kube/client.js';\n")[0] ?? '',
    /apiserver\/ may import only lib, time, api, not kube\//,
  );
  assert.match(
    lintAs('lib/planted.ts', "import { zone } from '../time/zone.js';\n")[0] ?? '',
    /lib\/ may import only itself, not time\//,
  );
  assert.match(
    lintAs('managed/planted.ts', "import { x } from '../../test/bench/fixtures.js';\n")[0] ?? '',
    /shipped code imports only from src\//,
  );
  assert.match(
    lintAs('newfolder/planted.ts', "import { x } from '../lib/json.js';\n")[0] ?? '',
    /src\/newfolder\/ is not a known folder/,
  );
});

test('what the design allows passes: lower layers, one direction on a level, cli wiring, tests across layers', () => {
  assert.deepEqual(
    lintAs(
      'managed/steps/ok.ts',
      "import { runSteps } from '../../engine/runner.js';\nimport { KubeClient } from '../../kube/client.js';\nimport { x } from '../drain/node-drainer.js';\n",
    ),
    [],
  );
  assert.deepEqual(lintAs('kube/ok.ts', "import { ClusterVersionResource } from '../api/builtin.js';\n"), []);
  assert.deepEqual(
    lintAs(
      'cli/ok.ts',
      "import { a } from '../managed/x.js';\nimport { b } from '../scheduled/y.js';\nimport { c } from '../sim/z.js';\n",
    ),
    [],
  );
  assert.deepEqual(
    lintAs('kube/ok.test.ts', "import { a } from '../managed/metrics/managed-upgrade-metrics.js';\n"),
    [],
  );
  assert.deepEqual(
    lintAs('main.ts', "import { program } from './cli/program.js';\nimport { x } from 'commander';\n"),
    [],
  );
});

test('the table is acyclic: no two folders may import each other', () => {
  for (const [from, tos] of Object.entries(MAY_IMPORT)) {
    for (const to of tos) assert.ok(!(MAY_IMPORT[to] ?? []).includes(from), `${from} ↔ ${to}`);
  }
  assert.equal(layeringViolation('scheduled', 'managed', true)?.startsWith('the scheduled flow'), true);
});

test('eslint.config.js applies the rule to every file of src/', async () => {
  const eslint = new ESLint({ cwd: root });
  for (const file of [
    'src/managed/steps/worker-step.ts',
    'src/scheduled/hooks/hook-env.test.ts',
    'src/engine/runner.ts',
    'src/sim/cluster.ts',
  ]) {
    const config = (await eslint.calculateConfigForFile(join(root, file))) as { rules?: Record<string, unknown> };
    assert.deepEqual(config.rules?.['local/layering'], [2, { src }], file);
  }
});

test('shipped code may not name a parameter with one letter (outside expression-bodied lambdas); tests may', async () => {
  const eslint = new ESLint({ cwd: root });
  const selectors = async (file: string): Promise<string[]> => {
    const config = (await eslint.calculateConfigForFile(join(root, file))) as { rules?: Record<string, unknown[]> };
    return (config.rules?.['no-restricted-syntax'] ?? []).slice(1).map((r) => (r as { selector: string }).selector);
  };
  const shipped = await selectors('src/managed/steps/worker-step.ts');
  assert.ok(shipped.some((s) => s.includes('Identifier.params')));
  assert.ok(shipped.some((s) => s.includes("callee.object.name='Date'")));
  assert.ok(!(await selectors('src/managed/steps/worker-step.test.ts')).some((s) => s.includes('Identifier.params')));
  const rule = shipped.find((s) => s.includes('Identifier.params')) ?? '';
  const linter = new Linter({ configType: 'flat' });
  const verdicts = (code: string): number =>
    linter.verify(
      code,
      [
        {
          files: ['**/*.ts'],
          languageOptions: { parser: tseslint.parser },
          rules: { 'no-restricted-syntax': ['error', rule] },
        },
      ],
      { filename: join(src, 'lib/planted.ts') },
    ).length;
  assert.equal(verdicts('export function f(d: number): number { return d; }\n'), 1);
  assert.equal(verdicts('export const g = (d: number): number => { return d; };\n'), 1);
  assert.equal(verdicts('export const h = [1].map((x) => x + 1);\n'), 0);
  assert.equal(verdicts('export function k(deps: number): number { return deps; }\n'), 0);
});
