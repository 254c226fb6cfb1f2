import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { startApiServer } from '../apiserver/server.js';
import { silentLogger } from '../lib/log.js';
import { buildProgram, COMMANDS } from './program.js';
import { version } from './version.js';
import {
  heavyModulesLoaded,
  loadedModules,
  loopbackRunArgs,
  startUpCommands,
  UPGRADE_JOB_YAML,
} from './loaded-modules.test-support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The modules of `dist/` a run loaded, relative to it. */
function distModules(urls: readonly string[]): string[] {
  return urls.flatMap((u) => {
    const m = /\/dist\/(.*)$/.exec(u);
    return m?.[1] !== undefined ? [m[1]] : [];
  });
}

void test('--version and --help load the command definitions only, no action module; a lone --version not even commander', async () => {
  for (const args of [['--version'], ['--help'], ['preview', '--help']]) {
    const run = await loadedModules(args, { cwd: ROOT });
    assert.equal(run.status, 0, run.stderr);
    const actions = distModules(run.urls).filter(
      (m) =>
        m.startsWith('cli/') &&
        !m.startsWith('cli/commands/') &&
        !['cli/program.js', 'cli/version.js', 'cli/commander-package.js'].includes(m),
    );
    assert.deepEqual(actions, [], args.join(' '));
    assert.deepEqual(heavyModulesLoaded(run.urls), [], args.join(' '));
    if (args.join(' ') === '--version') {
      assert.equal(run.stdout.trim(), version());
      assert.deepEqual(
        // Packages load from node_modules, yaml and commander from their bundles (scripts/build.mjs).
        run.urls.filter((u) => u.includes('/node_modules/') || /\/dist\/[a-z]+-bundle\.[mc]js$/.test(u)),
        [],
        'a lone --version loads no package, not even commander',
      );
    }
  }
});

void test('the command tree: every command of COMMANDS under its name, or the one asked for alone', async () => {
  const names = COMMANDS.map((c) => c.name);
  assert.deepEqual(
    (await buildProgram()).commands.map((c) => c.name()),
    names,
  );
  for (const name of names)
    assert.deepEqual(
      (await buildProgram(name)).commands.map((c) => c.name()),
      [name],
    );
});

void test('preview, hook-env and validate load neither the simulation, PromQL, jq, the HTTP client nor TypeBox, and only their own command definition', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'lazy-commands-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const command of startUpCommands(dir)) {
    const run = await loadedModules(command.args, { cwd: ROOT });
    assert.equal(run.status, 0, `${command.id}: ${run.stderr}`);
    assert.notEqual(run.stdout, '', command.id);
    // hook-env and validate admit their files with the API server's schema validation
    // (src/apiserver/crd): the start-up benchmark measures what that costs. CEL is loaded only
    // when an object reaches an x-kubernetes-validations rule, which these files do not.
    const admits = command.id === 'hook-env' || command.id === 'validate';
    const heavy = heavyModulesLoaded(
      run.urls.filter(
        (u) => !admits || !/\/dist\/apiserver\/(crd\/|field-errors\.js|storage\/object-meta\.js)/.test(u),
      ),
    );
    assert.deepEqual(heavy, [], command.id);
    // Nor the HTTP client: none of them makes a request. hook-env and validate admit with the
    // CRDs as JSON (src/cli/crds/), so not TypeBox either; validate loads the rules of the kinds
    // in its files only (src/cli/validate-rules/), here the scheduled flow's UpgradeConfig.
    const notLoaded = [
      { what: 'undici', pattern: /\/node_modules\/undici\// },
      { what: 'TypeBox', pattern: /\/node_modules\/typebox\// },
      { what: 'the managed flow (src/managed/)', pattern: /\/dist\/managed\// },
      {
        what: 'the health checks (src/scheduled/health/scheduled-health-check.ts)',
        pattern: /\/scheduled-health-check\.js$/,
      },
      { what: 'semver', pattern: /\/node_modules\/semver\// },
      {
        what: 'the OpenShift API types (src/api/openshift/)',
        pattern: /\/dist\/api\/openshift\/(?!config-v1\/cluster-version\.js)/,
      },
      {
        what: 'the rules of kinds not in the file',
        pattern: /\/dist\/cli\/validate-rules\/(?!findings|job-config|scheduled-upgrade-config)/,
      },
    ];
    // node:net is loaded for an IP or CIDR field, jq's worker for a podJQSelector, re2js for a
    // pattern the native fast path leaves to it (src/lib/go-regexp-native.ts; the CRDs' are native).
    notLoaded.push(
      // yaml and commander come bundled, one file each (scripts/build.mjs), not as their CommonJS files.
      { what: 'yaml unbundled', pattern: /\/node_modules\/yaml\// },
      { what: 'commander unbundled', pattern: /\/node_modules\/commander\// },
      { what: 'node:net', pattern: /^node:net$/ },
      { what: 'the jq selector (src/integrations/jq-selector.ts)', pattern: /\/dist\/integrations\/jq-selector/ },
    );
    notLoaded.push({ what: 're2js', pattern: /\/node_modules\/re2js\// });
    assert.deepEqual(heavyModulesLoaded(run.urls, notLoaded), [], command.id);
    // What they do load of the packages comes as the bundles (seen by the recorder too).
    if (command.id !== '--version')
      assert.ok(
        run.urls.some((u) => u.endsWith('/dist/commander-bundle.cjs')),
        command.id,
      );
    if (admits)
      assert.ok(
        run.urls.some((u) => u.endsWith('/dist/yaml-bundle.cjs')),
        command.id,
      );
    // A command loads its own definition only (src/cli/program.ts); --help all of them.
    const definitions = distModules(run.urls).filter(
      (m) => m.startsWith('cli/commands/') && m !== 'cli/commands/flags.js',
    );
    const expected =
      command.id === '--help'
        ? COMMANDS.map((c) => `cli/commands/${c.name}.js`)
        : command.id === '--version'
          ? []
          : [`cli/commands/${command.id}.js`];
    assert.deepEqual(definitions.sort(), expected.sort(), command.id);
  }
});

void test('validate loads CEL when an object reaches an x-kubernetes-validations rule, and reports the rule', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'lazy-commands-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'upgrade-job.yaml');
  writeFileSync(
    file,
    UPGRADE_JOB_YAML.replace(
      '  config:\n',
      '  desiredVersion: {version: 4.15.3, image: "quay.io/x@sha256:1", architecture: Multi}\n  config:\n',
    ),
  );
  const run = await loadedModules(['validate', '-f', file], { cwd: ROOT });
  assert.equal(run.status, 1, run.stderr);
  assert.match(
    run.stdout,
    /error \[apiserver FieldValueInvalid\] spec\.desiredVersion: Invalid value: "object": cannot set both Architecture and Image/,
  );
  assert.deepEqual(
    heavyModulesLoaded(run.urls).map((h) => h.slice(0, h.indexOf(':'))),
    ['the embedded API server (src/apiserver/)', 'CEL (@bufbuild/cel)'],
  );
});

void test('status and run (each flow alone) load neither the simulation, the API server, CEL, PromQL nor jq; one flow never loads the other', async (t) => {
  const server = await startApiServer({ port: 0, logger: silentLogger() });
  const dir = mkdtempSync(join(tmpdir(), 'lazy-commands-'));
  t.after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const kubeconfig = join(dir, 'kubeconfig');
  await server.writeKubeconfig(kubeconfig);
  // run reads a kubeconfig in JSON (as the Deployment reads its in-cluster config): no YAML parser.
  const jsonKubeconfig = join(dir, 'kubeconfig.json');
  writeFileSync(jsonKubeconfig, JSON.stringify(parseYaml(readFileSync(kubeconfig, 'utf8'))));

  const status = await loadedModules(['status', '--kubeconfig', kubeconfig], { cwd: ROOT });
  assert.equal(status.status, 0, status.stderr);
  assert.deepEqual(heavyModulesLoaded(status.urls), [], 'status');
  // The kube client and the outside APIs' client are on node:http (src/lib/http/), not undici.
  const undici = [{ what: 'undici', pattern: /\/node_modules\/undici\// }];
  assert.deepEqual(heavyModulesLoaded(status.urls, undici), [], 'status');

  for (const [flow, other] of [
    ['managed', 'scheduled'],
    ['scheduled', 'managed'],
  ] as const) {
    const run = await loadedModules(loopbackRunArgs(flow, jsonKubeconfig), {
      cwd: ROOT,
      env: { POD_NAMESPACE: 'default' },
      stopWhen: { stderrIncludes: 'upgrade-operator starting', afterMs: 1_000, timeoutMs: 30_000 },
    });
    assert.match(run.stderr, /upgrade-operator starting/, `run --flows ${flow}`);
    assert.deepEqual(heavyModulesLoaded(run.urls), [], `run --flows ${flow}`);
    assert.deepEqual(
      heavyModulesLoaded(run.urls, [
        ...undici,
        { what: 'yaml', pattern: /\/node_modules\/yaml\/|\/yaml-bundle\.cjs$/ },
      ]),
      [],
      `run --flows ${flow}`,
    );
    const modules = distModules(run.urls);
    assert.ok(
      modules.some((m) => m.startsWith(`${flow}/`)),
      `run --flows ${flow} loads its flow`,
    );
    assert.deepEqual(
      modules.filter((m) => m.startsWith(`${other}/`) || m === `cli/${other}-operator.js`),
      [],
      `run --flows ${flow} loads nothing of the ${other} flow`,
    );
  }
});
