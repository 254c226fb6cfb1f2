#!/usr/bin/env node
// Runs the whole test suite on node's built-in runner.
//
// Node 20's `node --test <folder>` finds no .ts file and exits 0 having run nothing, so this
// script lists the test files itself and fails when the runner reports zero tests.
// Usage: node scripts/run-tests.mjs [path-prefix ...]   (default: everything under src/ and test/)
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const prefixes = process.argv.slice(2);

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'testdata' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (name.endsWith('.test.ts')) out.push(relative(root, path));
  }
  return out;
}

/** A path prefix matches whole path segments: src/api does not select src/apiserver. */
function matchesPrefix(file, prefix) {
  return file === prefix || file.startsWith(`${prefix}/`) || file.startsWith(`${prefix}.`);
}

const files = [...walk(join(root, 'src'), []), ...walk(join(root, 'test'), [])]
  .filter(
    (f) => prefixes.length === 0 || prefixes.some((p) => matchesPrefix(f, p.replace(/^\.\//, '').replace(/\/$/, ''))),
  )
  .sort();
if (files.length === 0) {
  console.error('run-tests: no test files found');
  process.exit(1);
}

const args = ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', ...files];
const child = spawn(process.execPath, args, {
  cwd: root,
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, NODE_ENV: 'test' },
});
let tail = '';
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  tail = (tail + chunk.toString()).slice(-4096);
});
child.on('close', (code, signal) => {
  const count = (label) => Number((tail.match(new RegExp(`\u2139 ${label} (\\d+)`)) ?? [])[1] ?? 0);
  const tests = count('tests');
  if (tests === 0) {
    console.error('run-tests: the runner reported zero tests; failing on purpose');
    process.exit(1);
  }
  process.exit(code ?? (signal ? 1 : 0));
});
