/**
 * Compiles the benchmark's child processes (the API server and the operator-runtime process)
 * to JavaScript with tsc, so that they run without tsx and their RSS is their own. Output goes
 * to node_modules/.cache/bench/out (ignored by git), marked as ES modules.
 */
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * Runs tsc -p tsconfig.bench.json in `root`; resolves to the folder holding the compiled
 * test/bench files. BENCH_BUILD_DIR moves the output (and tsc's build info) elsewhere: the
 * default folder is shared by every checkout that links the same node_modules, so a test that
 * runs the runner compiles into a folder of its own. It must lie inside the project's
 * node_modules (as the default does), so that the compiled files find their packages.
 */
export async function compileBenchChildren(root: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const buildDir = env.BENCH_BUILD_DIR;
  const outDir = buildDir ? join(buildDir, 'out') : join(root, 'node_modules', '.cache', 'bench', 'out');
  const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
  const relocate = buildDir
    ? ['--outDir', outDir, '--tsBuildInfoFile', join(buildDir, 'tsconfig.bench.tsbuildinfo')]
    : [];
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [tsc, '-p', join(root, 'tsconfig.bench.json'), ...relocate], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`tsc -p tsconfig.bench.json failed (code ${code ?? 'none'}, signal ${signal ?? 'none'})`));
    });
  });
  // Node decides the module format from the nearest package.json, and does not look past a
  // node_modules folder for it: without this file the compiled ESM would load as CommonJS.
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, 'package.json'), '{ "type": "module", "private": true }\n');
  return join(outDir, 'test', 'bench');
}
