/**
 * Runs the real `upgrade-operator` entry as a child process, for the tests that check a command's
 * exit code and output as a user would see them: {@link runBinary} through tsx from `src/main.ts`,
 * {@link spawnBuilt} as installed (`bin/upgrade-operator.js` on `dist/`), which starts in a third of
 * the time and is what the tests that start many processes use.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUNDLED_PACKAGES, codeCachePath } from '../lib/bundled-package.js';

/** The repository's root folder. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** What the process wrote and how it ended. */
export interface BinaryResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `upgrade-operator <args>` from the repository root with the extra environment given. */
export function runBinary(args: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<BinaryResult> {
  return runToEnd(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], env);
}

/** The installed entry point. */
export const BUILT_BINARY = join(ROOT, 'bin', 'upgrade-operator.js');

/** Runs the installed `upgrade-operator <args>` to its end (call {@link ensureBuilt} first). */
export function runBuilt(args: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<BinaryResult> {
  return runToEnd(process.execPath, [BUILT_BINARY, ...args], env);
}

// In dist/ itself, not in node_modules/.cache: node_modules may be shared by several checkouts
// (git worktrees), and another checkout's build says nothing about this one's dist/.
const STAMP = join(ROOT, 'dist', '.build-stamp');
const LOCK = join(ROOT, 'node_modules', '.cache', 'upgrade-operator-dist.lock');

/** Newest modification time (ms) of the files under `dir` that `keep` selects (0 when none). */
function newestMtime(dir: string, keep: (path: string) => boolean): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'testdata') newest = Math.max(newest, newestMtime(path, keep));
    } else if (keep(path)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function mtimeOr0(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * True when `dist/` is older than a shipped source file. tsc re-emits only what changed, so a
 * file touched without a change keeps an older output: a build by this module leaves a stamp
 * that counts as new too.
 */
function distIsStale(): boolean {
  const source = (path: string): boolean => path.endsWith('.ts') && !/\.test(-support)?\.ts$/.test(path);
  const sources = Math.max(newestMtime(join(ROOT, 'src'), source), mtimeOr0(join(ROOT, 'tsconfig.json')));
  const built = Math.max(
    mtimeOr0(STAMP),
    existsSync(join(ROOT, 'dist')) ? newestMtime(join(ROOT, 'dist'), (path) => /\.m?js$/.test(path)) : 0,
  );
  return sources > built || !bundled();
}

/** False when dist/ is not the layout scripts/build.mjs makes (the bundle, its metafile, the packages' bundles and their code caches). */
function bundled(): boolean {
  const packages = Object.values(BUNDLED_PACKAGES).flatMap(({ file }) => [
    join('dist', file),
    codeCachePath(join('dist', file)),
  ]);
  return ['dist/main.mjs', '.build/bundle-meta.json', ...packages].every((path) => existsSync(join(ROOT, path)));
}

/**
 * Makes sure `dist/` is built from the current `src/` (`node scripts/build.mjs`, as `npm run build`,
 * when a source is newer), one build at a time across the suite's processes, and returns the entry point.
 */
export async function ensureBuilt(): Promise<string> {
  mkdirSync(join(ROOT, 'node_modules', '.cache'), { recursive: true });
  let stale: boolean;
  try {
    stale = distIsStale();
  } catch {
    stale = true;
  }
  if (!stale) return BUILT_BINARY;
  const deadline = performance.now() + 5 * 60_000;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      // Another test process builds: wait for it (a lock older than five minutes was abandoned).
      const now = performance.timeOrigin + performance.now();
      if (performance.now() > deadline || now - mtimeOr0(LOCK) > 5 * 60_000)
        rmSync(LOCK, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    if (distIsStale()) {
      // What `npm run build` runs: tsc, then the packages bundled (scripts/build.mjs).
      const built = await runToEnd(process.execPath, [join(ROOT, 'scripts', 'build.mjs')]);
      if (built.status !== 0)
        throw new Error(`building dist/ failed (node scripts/build.mjs):\n${built.stdout}${built.stderr}`);
      writeFileSync(STAMP, '');
    }
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
  return BUILT_BINARY;
}

/** Runs a command from the repository root to its end. */
function runToEnd(
  command: string,
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<BinaryResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => void (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => void (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * Starts the installed `upgrade-operator <args>` (call {@link ensureBuilt} first); stdout and
 * stderr are piped, the working directory is the repository root unless `options.cwd` says.
 */
export function spawnBuilt(args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  return spawn(process.execPath, [BUILT_BINARY, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], ...options });
}
