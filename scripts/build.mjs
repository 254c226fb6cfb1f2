#!/usr/bin/env node
// Builds dist/ (`npm run build`, and `npm ci` through `prepare`): tsc compiles src/, then esbuild
// bundles the two packages every command loads at start-up, yaml and commander, each into the
// one module of ours that re-exports it (src/lib/yaml-package.ts, src/cli/commander-package.ts),
// replacing tsc's output of it. Loading a package as one file instead of its many CommonJS files
// takes a third off `hook-env`'s start-up (docs/design/command-line.md#lazy-commands).
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
await build({
  absWorkingDir: root,
  entryPoints: ['src/lib/yaml-package.ts', 'src/cli/commander-package.ts'],
  outbase: 'src',
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  // The packages are CommonJS: their require() of Node's modules needs a require in an ES module.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
