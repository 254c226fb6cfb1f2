#!/usr/bin/env node
// The `upgrade-operator` executable: runs the compiled CLI (built by `npm run build`, which
// `npm ci`/`npm install` run through the `prepare` script).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/main.mjs', import.meta.url);
if (!existsSync(entry)) {
  console.error('upgrade-operator: dist/main.mjs is missing; run `npm run build` (or `npm ci`) first');
  process.exit(1);
}
await import(entry.href);
