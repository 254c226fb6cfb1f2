/**
 * The npm packages that dist/ carries bundled, each one CommonJS file next to the chunks
 * (`scripts/build.mjs`; docs/design/command-line.md#the-build): yaml and commander, which every
 * light command loads. They are compiled here with V8's code cache, which the build wrote next to
 * each file after running the package once (`<file>.v8cache`): V8 then starts from the bytecode of
 * the functions that run, instead of parsing the file and compiling them again. That takes about
 * two thirds off loading yaml and parsing a first document. Node 22 caches compiled code itself
 * (`module.enableCompileCache`); Node 20, which we still run on, has only `vm.Script`'s
 * `cachedData`, so this is written by hand for the two files that matter.
 *
 * A cache V8 refuses (another Node.js version; other V8 flags, where Node 20 counts even the heap
 * sizes of the Deployments' `NODE_OPTIONS` and Node 24 does not; a text of another length) is
 * ignored: the file is then compiled as `require` would. V8 tells texts apart by their length only, so the build empties dist/ before
 * it writes each bundle and then its cache: no cache outlives its bundle. Run from
 * src/ (tsx, the tests) there is no bundle, and the package itself is required.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

/** A bundled package: its file in dist/ and the package it was built from. */
export interface BundledPackage {
  /** The file name next to the chunks, e.g. `yaml-bundle.cjs`. */
  readonly file: string;
  /** The npm package, required instead when there is no bundle (running from src/). */
  readonly name: string;
}

/** The two packages dist/ carries bundled; scripts/build.mjs writes their files and code caches. */
export const BUNDLED_PACKAGES = {
  yaml: { file: 'yaml-bundle.cjs', name: 'yaml' },
  commander: { file: 'commander-bundle.cjs', name: 'commander' },
} as const satisfies Record<string, BundledPackage>;

const loaded = new Map<string, unknown>();

/** The path of `file` next to this module (in dist/, next to the chunks). */
function besideThisModule(file: string): string {
  return fileURLToPath(new URL(`./${file}`, import.meta.url));
}

/** The code-cache file of a bundle. */
export function codeCachePath(bundlePath: string): string {
  return `${bundlePath}.v8cache`;
}

/** A compiled bundle: the script (whose code cache can be written) and the module's exports. */
interface CompiledBundle {
  readonly script: Script;
  readonly exports: unknown;
}

/** A bundle's exports, and what became of its code cache. */
export interface LoadedBundle {
  readonly exports: unknown;
  /** `none`: no cache file; `rejected`: V8 refused it (compiled without). */
  readonly codeCache: 'accepted' | 'rejected' | 'none';
}

/** Compiles and runs the CommonJS file at `path` (absolute) with its code cache, if it has one. */
export function loadBundleFile(path: string): LoadedBundle {
  const cache = codeCachePath(path);
  if (!existsSync(cache)) return { exports: compileBundle(path, undefined).exports, codeCache: 'none' };
  const compiled = compileBundle(path, readFileSync(cache));
  return {
    exports: compiled.exports,
    codeCache: compiled.script.cachedDataRejected === true ? 'rejected' : 'accepted',
  };
}

/** Compiles and runs a CommonJS file as Node's `require` does, with `cachedData` when given. */
function compileBundle(path: string, cachedData: Buffer | undefined): CompiledBundle {
  const source = readFileSync(path, 'utf8');
  // Node's own wrapper for a CommonJS module; the code cache is valid for this exact text.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n});`, {
    filename: path,
    ...(cachedData !== undefined ? { cachedData } : {}),
  });
  const wrapper = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: { exports: unknown },
    filename: string,
    dirname: string,
  ) => void;
  const module = { exports: {} as unknown };
  wrapper.call(module.exports, module.exports, createRequire(path), module, path, dirname(path));
  return { script, exports: module.exports };
}

/** The package's exports: its bundle when dist/ has one, the package otherwise; one copy per process. */
export function requireBundled<T>(pkg: BundledPackage): T {
  let exports = loaded.get(pkg.file);
  if (exports === undefined) {
    const path = besideThisModule(pkg.file);
    exports = existsSync(path) ? loadBundleFile(path).exports : (createRequire(import.meta.url)(pkg.name) as unknown);
    loaded.set(pkg.file, exports);
  }
  return exports as T;
}

/**
 * For the build: compiles the bundle at `path` afresh, runs `exercise` on its exports (so that
 * the functions a command runs get compiled), and writes the code cache V8 then holds.
 */
export function writeCodeCache(path: string, exercise: (exports: unknown) => void): void {
  const compiled = compileBundle(path, undefined);
  exercise(compiled.exports);
  writeFileSync(codeCachePath(path), compiled.script.createCachedData());
}
