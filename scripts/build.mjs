#!/usr/bin/env node
// Builds dist/ (`npm run build`, and `npm ci` through `prepare`; docs/design/command-line.md#the-build):
// 1. tsc compiles src/ into .build/tsc/ (type-checked, one file per module);
// 2. esbuild bundles that output into dist/: the entry `main.mjs` (and jq's worker,
//    `jq-selector-worker.mjs`) with code splitting, so that each command's dynamic `import()`
//    stays lazy and loads chunks instead of dozens of modules (the ES module loader's cost per file
//    was a sixth of `validate`'s start-up). The bundle's metafile, `.build/bundle-meta.json`, says
//    which source modules each chunk holds: the start-up tests read it
//    (src/cli/loaded-modules.test-support.ts).
// 3. The npm packages stay in node_modules, except two that every command loads, each bundled
//    into one minified CommonJS file of its own next to the chunks:
//    - yaml, as `yaml-bundle.cjs`, from the package's ES module build so that only what we use is
//      kept (src/lib/yaml-runtime.ts's `YamlPackage`);
//    - commander, as `commander-bundle.cjs`, with its `node:child_process` (used only for
//      stand-alone executable subcommands, which we have none of) required at first use.
// 4. Each of those two gets V8's code cache, `<file>.v8cache`, which src/lib/bundled-package.ts
//    compiles it with.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const TSC_OUT = '.build/tsc';

/** What the code caches are made from: the bundles run as the light commands run them. */
const BUNDLED_PACKAGE_MODULE = pathToFileURL(join(root, TSC_OUT, 'lib/bundled-package.js')).href;
const WARM_UP = `
import { join } from 'node:path';
import { BUNDLED_PACKAGES, writeCodeCache } from ${JSON.stringify(BUNDLED_PACKAGE_MODULE)};
const dist = ({ file }) => join(${JSON.stringify(join(root, 'dist'))}, file);
writeCodeCache(dist(BUNDLED_PACKAGES.yaml), (yaml) => {
  const text = 'apiVersion: v1\\nkind: List\\nitems:\\n- {a: 1, b: [x, "y"], c: null, d: true}\\n- &x\\n  e: |\\n    text\\n  f: 1.5\\n- *x\\n---\\ng: h\\n';
  for (const doc of yaml.parseAllDocuments(text, { version: '1.1' })) doc.toJS();
  yaml.parse('a: b');
  yaml.parseDocument('a: [1, 2]').toJS();
  yaml.stringify({ a: [1, { b: 'c' }], d: 'e: f' });
});
writeCodeCache(dist(BUNDLED_PACKAGES.commander), ({ Command, Option }) => {
  const program = new Command('x').exitOverride().configureOutput({ writeOut: () => {}, writeErr: () => {} });
  program.command('sub').description('d').option('-f, --file <path>', 'f', (v, p) => [...p, v], []).addOption(new Option('-o, --output <format>').choices(['text', 'json']).default('text')).action(() => {});
  program.parse(['node', 'x', 'sub', '-f', 'a', '-o', 'json']);
  program.helpInformation();
  program.commands[0].helpInformation();
});
`;
const require = createRequire(import.meta.url);

const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
  cwd: root,
  stdio: 'inherit',
});
if (tsc.status !== 0) process.exit(tsc.status ?? 1);

const { build } = await import('esbuild');
/** The bundled packages' files (src/lib/bundled-package.ts), from tsc's output. */
const { BUNDLED_PACKAGES } = await import(BUNDLED_PACKAGE_MODULE);
rmSync(join(root, 'dist'), { recursive: true, force: true });
const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
};

/** What our modules use of yaml: the names of `YamlPackage` in src/lib/yaml-runtime.ts. */
const YAML_EXPORTS = /type YamlPackage = Pick<\s*typeof Yaml,([^>]*)>/
  .exec(readFileSync(join(root, 'src/lib/yaml-runtime.ts'), 'utf8'))[1]
  .split('|')
  .map((name) => name.trim().replace(/^'|'$/g, ''))
  .filter((name) => name !== '');
await build({
  ...common,
  stdin: {
    // The ES module build: esbuild keeps only what these exports reach. It differs from the
    // CommonJS build only in printing warnings with console.warn instead of process.emitWarning.
    contents: `export { ${YAML_EXPORTS.join(', ')} } from ${JSON.stringify(join(dirname(require.resolve('yaml/package.json')), 'browser/dist/index.js'))};`,
    resolveDir: root,
    loader: 'js',
  },
  format: 'cjs',
  outfile: join('dist', BUNDLED_PACKAGES.yaml.file),
  // Half the bytes for V8 to read (measured: about 0.04× `node -e 0` off `validate` and `--help`
  // with commander's); the source maps keep their stack traces readable.
  minify: true,
});

/** commander's `require('node:child_process')`, deferred to the first use of the module. */
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, () => ({ path: 'child_process', namespace: 'lazy' }));
    b.onLoad({ filter: /.*/, namespace: 'lazy' }, () => ({
      contents:
        "let m; const load = () => (m ??= require('node:child_process'));\n" +
        'module.exports = new Proxy({}, { get: (_, key) => load()[key], has: (_, key) => key in load() });',
      loader: 'js',
    }));
  },
};
await build({
  ...common,
  stdin: {
    contents: "module.exports = require('commander');",
    resolveDir: root,
    loader: 'js',
  },
  format: 'cjs',
  outfile: join('dist', BUNDLED_PACKAGES.commander.file),
  plugins: [lazyChildProcess],
  minify: true,
});

/** The packages stay in node_modules (yaml and commander are required as the bundles above). */
const packagesOutside = {
  name: 'packages-outside',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => ({ path: args.path, external: true }));
  },
};
const bundle = await build({
  ...common,
  entryPoints: { main: `${TSC_OUT}/main.js`, 'jq-selector-worker': `${TSC_OUT}/integrations/jq-selector-worker.js` },
  format: 'esm',
  splitting: true,
  outdir: 'dist',
  chunkNames: '[name]-[hash]',
  // .mjs: Node knows an ES module by its extension, without looking for a package.json.
  outExtension: { '.js': '.mjs' },
  plugins: [packagesOutside],
  metafile: true,
});
writeFileSync(join(root, '.build', 'bundle-meta.json'), JSON.stringify(bundle.metafile));

// The bundles' code caches (src/lib/bundled-package.ts), written by a process that runs like a
// command does (no NODE_OPTIONS: V8 refuses a cache made under flags that change the code), after
// running what commands run: reading and writing YAML, and building and parsing a command line.
const warm = spawnSync(process.execPath, ['--input-type=module', '-e', WARM_UP], {
  cwd: root,
  env: Object.fromEntries(Object.entries(process.env).filter(([key]) => key !== 'NODE_OPTIONS')),
  stdio: 'inherit',
});
if (warm.status !== 0) process.exit(warm.status ?? 1);
