/**
 * Compiles the benchmark's child processes (the API server and the operator-runtime process)
 * to JavaScript with tsc, so that they run without tsx and their RSS is their own. Output goes
 * to node_modules/.cache/bench/out (ignored by git), marked as ES modules.
 */
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** Runs tsc -p tsconfig.bench.json in `root`; resolves to the folder holding the compiled test/bench files. */
export async function compileBenchChildren(root: string): Promise<string> {
  const outDir = join(root, 'node_modules', '.cache', 'bench', 'out');
  const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [tsc, '-p', join(root, 'tsconfig.bench.json')], {
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
