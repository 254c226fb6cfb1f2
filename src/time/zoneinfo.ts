/**
 * Where Go finds a zone's TZif file, and what its `time.Local` is (zoneinfo_unix.go,
 * zoneinfo.go):
 * - `time.LoadLocation(name)` reads `$ZONEINFO/name` when $ZONEINFO is set (Go also reads a zip
 *   there; a path ending in `.zip` is skipped here), then `name` under /usr/share/zoneinfo/,
 *   /usr/share/lib/zoneinfo/, /usr/lib/locale/TZ/ and /etc/zoneinfo/, the first valid file winning;
 * - `time.Local`: $TZ unset → /etc/localtime; `""` or `UTC` → UTC; a leading `:` is dropped; an
 *   absolute path is read as a file; anything else is a zone name looked up as above; what cannot
 *   be read is UTC.
 * The decisions are pure; the file system is the injected {@link ZoneinfoFs}, {@link systemZoneinfo}
 * in production.
 */
import { readFileSync, readlinkSync } from 'node:fs';

/** The file reads zone loading needs. */
export interface ZoneinfoFs {
  /** The file's bytes, or undefined when it cannot be read (missing, a directory, denied). */
  readFile(path: string): Uint8Array | undefined;
  /** A symbolic link's target as stored, or undefined when the path is no symbolic link. */
  readLink(path: string): string | undefined;
}

/** The environment variables Go's zone loading reads. */
export interface ZoneinfoEnv {
  readonly TZ?: string | undefined;
  readonly ZONEINFO?: string | undefined;
}

/** Where zone files are looked for, in order (platformZoneSources in Go). */
export const PLATFORM_ZONEINFO_DIRS: readonly string[] = [
  '/usr/share/zoneinfo/',
  '/usr/share/lib/zoneinfo/',
  '/usr/lib/locale/TZ/',
  '/etc/zoneinfo/',
];

/** The files that may hold zone `name`, in the order Go tries them. */
export function zoneFileCandidates(name: string, env: ZoneinfoEnv): string[] {
  const dirs = [...PLATFORM_ZONEINFO_DIRS];
  const custom = env.ZONEINFO;
  if (custom !== undefined && custom !== '' && !custom.endsWith('.zip')) {
    dirs.unshift(custom.endsWith('/') ? custom : `${custom}/`);
  }
  return dirs.map((dir) => `${dir}${name}`);
}

/** What `time.Local` is read from. */
export type LocalZoneSource =
  | { readonly kind: 'utc' }
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'name'; readonly name: string };

/** Go's initLocal decision from $TZ. */
export function localZoneSource(env: ZoneinfoEnv): LocalZoneSource {
  let tz = env.TZ;
  if (tz === undefined) return { kind: 'file', path: '/etc/localtime' };
  if (tz.startsWith(':')) tz = tz.slice(1);
  if (tz === '' || tz === 'UTC') return { kind: 'utc' };
  if (tz.startsWith('/')) return { kind: 'file', path: tz };
  return { kind: 'name', name: tz };
}

/** A name that may stand for a zone file under a zoneinfo folder: it starts with a letter and never climbs out. */
export function isZoneName(name: string): boolean {
  return /^[A-Za-z]/.test(name) && !name.includes('..');
}

/**
 * The zone name a zone file's path stands for: what follows `/zoneinfo/` in the path or in its
 * symbolic link's target (`/etc/localtime -> /usr/share/zoneinfo/Europe/Zurich`), if any.
 */
export function zoneNameOfPath(path: string, linkTarget: string | undefined): string | undefined {
  for (const p of [linkTarget, path]) {
    const at = p?.lastIndexOf('/zoneinfo/') ?? -1;
    if (p !== undefined && at >= 0) {
      const name = p.slice(at + '/zoneinfo/'.length);
      if (isZoneName(name)) return name;
    }
  }
  return undefined;
}

/** The node:fs reads (synchronous: a zone file is a few kB, read once per process). */
export const systemZoneinfo: ZoneinfoFs = {
  readFile(path) {
    try {
      return readFileSync(path);
    } catch {
      return undefined;
    }
  },
  readLink(path) {
    try {
      return readlinkSync(path);
    } catch {
      return undefined;
    }
  },
};
