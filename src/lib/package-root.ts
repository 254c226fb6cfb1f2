/**
 * The installed package's root folder, the one holding our package.json: `version()` reads it, and
 * `simulate` finds the named scenarios next to it. A module sits at different depths below the
 * root when run from src/ (tests, tsx) and from dist/ (the bundle, scripts/build.mjs), so the root
 * is found by walking up from here.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/** The folder of the nearest package.json above this module. */
export function packageRoot(): string {
  if (cached !== undefined) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
  cached = dir;
  return dir;
}
