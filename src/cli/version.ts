/** The version of this build, from package.json. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../lib/package-root.js';

let cached: string | undefined;

/** The package version, e.g. 0.1.0. */
export function version(): string {
  if (cached === undefined) {
    const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as {
      version?: string;
    };
    cached = pkg.version ?? '0.0.0';
  }
  return cached;
}

/** The User-Agent every HTTP client of ours sends: upgrade-operator/<version> (<os>/<arch>). */
export function userAgent(): string {
  return `upgrade-operator/${version()} (${process.platform}/${process.arch})`;
}
