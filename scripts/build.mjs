#!/usr/bin/env node
// Builds dist/ (`npm run build`, and `npm ci` through `prepare`): tsc compiles src/, then esbuild
// bundles the two packages every command loads at start-up, each into one file, as loading one
// file instead of a package's many CommonJS files takes a third off `hook-env`'s start-up
// (docs/design/command-line.md#lazy-commands):
// - yaml into dist/lib/yaml-bundle.cjs, which src/lib/yaml-runtime.ts requires on first use, and
//   which dist/lib/yaml-package.js (src/lib/yaml-package.ts: the modules that import yaml
//   statically) re-exports, so a process holds one copy;
// - commander into dist/cli/commander-package.js, replacing tsc's output of
//   src/cli/commander-package.ts.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);

const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
  cwd: root,
  stdio: 'inherit',
});
if (tsc.status !== 0) process.exit(tsc.status ?? 1);

const { build } = await import('esbuild');
const common = { absWorkingDir: root, bundle: true, platform: 'node', target: 'node20', sourcemap: true };
await build({
  ...common,
  // Every export of the package by name, so that Node finds them in the CommonJS file when an ES
  // module imports it (esbuild annotates them).
  stdin: {
    contents: `export { ${Object.keys(require('yaml')).join(', ')} } from 'yaml';`,
    resolveDir: root,
    loader: 'js',
  },
  format: 'cjs',
  outfile: 'dist/lib/yaml-bundle.cjs',
  logLevel: 'warning',
});
// The static importers of yaml get the bundle above: `yaml` resolves to it, left outside.
const yamlToBundle = {
  name: 'yaml-to-bundle',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^yaml$/ }, () => ({ path: './yaml-bundle.cjs', external: true }));
  },
};
await build({
  ...common,
  entryPoints: ['src/lib/yaml-package.ts'],
  format: 'esm',
  outfile: 'dist/lib/yaml-package.js',
  plugins: [yamlToBundle],
  logLevel: 'warning',
});
await build({
  ...common,
  entryPoints: ['src/cli/commander-package.ts'],
  format: 'esm',
  outfile: 'dist/cli/commander-package.js',
  // commander is CommonJS: its require() of Node's modules needs a require in an ES module.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
