#!/usr/bin/env node
// The `upgrade-operator` executable: runs the compiled CLI (built by `npm run build`, which
// `npm ci`/`npm install` run through the `prepare` script).
import { existsSync } from 'node:fs';
import module from 'node:module';

// Node.js 22 and later keep the code they compile in a cache on disk (in the system's temporary
// folder, or $NODE_COMPILE_CACHE; NODE_DISABLE_COMPILE_CACHE=1 turns it off), so that the next
// start of a command compiles nothing it ran before (docs/design/command-line.md#the-build).
// Node.js 20 has no such cache; where the folder cannot be written, nothing is cached.
module.enableCompileCache?.();

const entry = new URL('../dist/main.mjs', import.meta.url);
if (!existsSync(entry)) {
  console.error('upgrade-operator: dist/main.mjs is missing; run `npm run build` (or `npm ci`) first');
  process.exit(1);
}
await import(entry.href);
