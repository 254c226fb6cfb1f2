/**
 * Zone files for tests, independent of the machine's zoneinfo: src/time/testdata (tzdata 2025b)
 * served at /usr/share/zoneinfo/, plus files and symbolic links a test adds.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ZoneSource } from './zone.js';
import type { ZoneinfoEnv, ZoneinfoFs } from './zoneinfo.js';

export const FIXTURE_DIR = fileURLToPath(new URL('testdata/', import.meta.url));

/** The bytes of a fixture file (`zoneinfo/Europe/Zurich`, `slim/Europe/Zurich`). */
export function fixtureBytes(relative: string): Uint8Array {
  return readFileSync(`${FIXTURE_DIR}${relative}`);
}

/** A file system with the fixtures at /usr/share/zoneinfo/ and `extra` files and `links`. */
export function fixtureFs(
  extra: Readonly<Record<string, Uint8Array>> = {},
  links: Readonly<Record<string, string>> = {},
): ZoneinfoFs & { readonly reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    readFile(path) {
      reads.push(path);
      const file = extra[path];
      if (file) return file;
      const prefix = '/usr/share/zoneinfo/';
      if (!path.startsWith(prefix)) return undefined;
      try {
        return fixtureBytes(`zoneinfo/${path.slice(prefix.length)}`);
      } catch {
        return undefined;
      }
    },
    readLink: (path) => links[path],
  };
}

/** A machine without any zoneinfo: every zone comes from Intl. */
export const NO_ZONEINFO: ZoneSource = {
  fs: { readFile: () => undefined, readLink: () => undefined },
  env: {},
};

/** The fixtures as the machine's zoneinfo, with `env` as the environment. */
export function fixtureSource(env: ZoneinfoEnv = {}, fs: ZoneinfoFs = fixtureFs()): ZoneSource {
  return { fs, env };
}
