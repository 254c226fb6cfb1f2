#!/usr/bin/env node
// Builds dist/ (`npm run build`, and `npm ci` through `prepare`; docs/design/command-line.md#the-build):
// 1. tsc compiles src/ into .build/tsc/ (type-checked, one file per module);
// 2. esbuild bundles that output into dist/: the entry `main.js` (and jq's worker,
//    `jq-selector-worker.js`) with code splitting, so that each command's dynamic `import()` stays
//    lazy and loads a few chunks instead of dozens of modules (the ES module loader's cost per file
//    was a sixth of `validate`'s start-up). The npm packages stay in node_modules, except two that
//    every command loads, each bundled into one file of its own next to the chunks:
//    - yaml, as `yaml-bundle.cjs`, from the package's ES module build so that only what we use is
//      kept; src/lib/yaml-runtime.ts requires it on first use, and the modules that import yaml
//      statically (src/lib/yaml-package.ts) get that same file;
//    - commander, as `commander-bundle.mjs`, with its `node:child_process` (used only for
//      stand-alone executable subcommands, which we have none of) required at first use.
//    The bundle's metafile, `.build/bundle-meta.json`, says which source modules each chunk holds:
//    the start-up tests read it (src/cli/loaded-modules.test-support.ts).
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const TSC_OUT = '.build/tsc';

const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
  cwd: root,
  stdio: 'inherit',
});
if (tsc.status !== 0) process.exit(tsc.status ?? 1);

const { build } = await import('esbuild');
rmSync(join(root, 'dist'), { recursive: true, force: true });
const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
};

/**
 * What our modules use of yaml: the values src/lib/yaml-package.ts re-exports, which is also the
 * type src/lib/yaml-runtime.ts returns.
 */
const YAML_EXPORTS = /export \{([^}]*)\} from 'yaml'/
  .exec(readFileSync(join(root, 'src/lib/yaml-package.ts'), 'utf8'))[1]
  .split(',')
  .map((name) => name.trim())
  .filter((name) => name !== '' && !name.startsWith('type '));
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
  outfile: 'dist/yaml-bundle.cjs',
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
    contents: "export { Command, CommanderError, InvalidArgumentError, Option } from 'commander';",
    resolveDir: root,
    loader: 'js',
  },
  format: 'esm',
  outfile: 'dist/commander-bundle.mjs',
  plugins: [lazyChildProcess],
  // commander is CommonJS: its require() of Node's modules needs a require in an ES module.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
  },
});

/** yaml and commander resolve to their bundles above, next to the chunks; other packages stay outside. */
const packagesOutside = {
  name: 'packages-outside',
  setup(b) {
    b.onResolve({ filter: /^yaml$/ }, () => ({ path: './yaml-bundle.cjs', external: true }));
    b.onResolve({ filter: /^commander$/ }, () => ({ path: './commander-bundle.mjs', external: true }));
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
