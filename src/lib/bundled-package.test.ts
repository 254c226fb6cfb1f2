import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUNDLED_PACKAGES, codeCachePath, loadBundleFile, requireBundled, writeCodeCache } from './bundled-package.js';

/** A CommonJS file like a bundle: it requires a Node module and exports functions. */
const BUNDLE = `'use strict';
const { join } = require('node:path');
let loads = (globalThis.__bundledPackageLoads ?? 0) + 1;
globalThis.__bundledPackageLoads = loads;
module.exports = { twice: (n) => n * 2, joined: (a, b) => join(a, b), file: __filename, self: this === module.exports };
`;

function withBundle(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'bundled-package-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'thing-bundle.cjs');
  writeFileSync(path, BUNDLE);
  return path;
}

interface Thing {
  twice(n: number): number;
  joined(a: string, b: string): string;
  file: string;
  self: boolean;
}

void test('a bundle runs as CommonJS: its own require, __filename, this as exports', (t) => {
  const path = withBundle(t);
  const loaded = loadBundleFile(path);
  assert.equal(loaded.codeCache, 'none');
  const thing = loaded.exports as Thing;
  assert.equal(thing.twice(21), 42);
  assert.equal(thing.joined('a', 'b'), join('a', 'b'));
  assert.equal(thing.file, path);
  assert.equal(thing.self, true);
});

void test('the code cache written after a warm-up is accepted, and a damaged or stale one is refused but the bundle still runs', (t) => {
  const path = withBundle(t);
  writeCodeCache(path, (exports) => assert.equal((exports as Thing).twice(2), 4));
  assert.ok(existsSync(codeCachePath(path)));
  // V8 keeps what a process compiled, keyed by text and file name, and then does not read a cache
  // at all: each load here is of a copy under a name of its own, as a new process would load it.
  let copies = 0;
  const copy = (text: string, cache: Buffer): string => {
    const to = path.replace(/\.cjs$/, `-${++copies}.cjs`);
    writeFileSync(to, text);
    writeFileSync(codeCachePath(to), cache);
    return to;
  };
  const cache = readFileSync(codeCachePath(path));

  const cached = loadBundleFile(copy(BUNDLE, cache));
  assert.equal(cached.codeCache, 'accepted');
  assert.equal((cached.exports as Thing).twice(5), 10);

  const damaged = loadBundleFile(copy(BUNDLE, Buffer.from('not a code cache')));
  assert.equal(damaged.codeCache, 'rejected');
  assert.equal((damaged.exports as Thing).twice(6), 12);

  // A cache made for another text is refused too. V8 tells texts apart by their length only;
  // the build empties dist/ before it writes a bundle and then its cache, so none outlives its bundle.
  const stale = loadBundleFile(copy(BUNDLE.replace('n * 2', 'n * 1 + n'), cache));
  assert.equal(stale.codeCache, 'rejected');
  assert.equal((stale.exports as Thing).twice(7), 14);
});

void test('without a bundle next to it (run from src/), the package itself is required, once', () => {
  const first = requireBundled<{ parse: (text: string) => unknown }>(BUNDLED_PACKAGES.yaml);
  assert.deepEqual(first.parse('a: [1]'), { a: [1] });
  assert.equal(requireBundled(BUNDLED_PACKAGES.yaml), first);
});
