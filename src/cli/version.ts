/** The version of this build, from package.json. */
import { readFileSync } from 'node:fs';

let cached: string | undefined;

/** The package version, e.g. 0.1.0. */
export function version(): string {
  if (cached === undefined) {
    // src/cli/ and dist/cli/ are both two levels below the package root.
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
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
