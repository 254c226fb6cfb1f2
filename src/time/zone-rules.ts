/**
 * A zone's rules read from its TZif file: the transitions, then the footer's TZ string for
 * instants after the last one. Looked up as Go's `Location.lookup` does, including which type
 * applies before the first transition (the first standard-time type, Go's `lookupFirstZone`).
 * A footer that does not parse makes the file unusable here (the caller falls back to Intl).
 */
import { parsePosixTz, posixTzAt, type PosixTz, type ZoneState } from './posix-tz.js';
import { parseTzif, type TzifData } from './tzif.js';

export interface ZoneRules {
  readonly tzif: TzifData;
  /** The parsed footer; undefined for version 1 files and empty footers. */
  readonly footer: PosixTz | undefined;
  /** The type index in force before the first transition. */
  readonly firstType: number;
}

export type ZoneRulesResult = { ok: true; rules: ZoneRules } | { ok: false; error: string };

/** Go's lookupFirstZone. */
function firstType(data: TzifData): number {
  if (!data.transitionTypes.includes(0)) return 0;
  const first = data.transitionTypes[0];
  if (first !== undefined && data.types[first]?.isDst) {
    for (let i = first - 1; i >= 0; i--) if (!data.types[i]?.isDst) return i;
  }
  const std = data.types.findIndex((t) => !t.isDst);
  return std < 0 ? 0 : std;
}

/** Reads a zone's rules from the bytes of its TZif file. */
export function zoneRulesFromTzif(bytes: Uint8Array): ZoneRulesResult {
  const parsed = parseTzif(bytes);
  if (!parsed.ok) return parsed;
  const data = parsed.data;
  let footer: PosixTz | undefined;
  if (data.footer !== undefined && data.footer !== '') {
    const tz = parsePosixTz(data.footer);
    if (!tz.ok) return { ok: false, error: `invalid TZif footer: ${tz.error}` };
    footer = tz.tz;
  }
  return { ok: true, rules: { tzif: data, footer, firstType: firstType(data) } };
}

function typeState(data: TzifData, index: number): ZoneState {
  const t = data.types[index] ?? data.types[0];
  return t ? { offsetSeconds: t.offsetSeconds, isDst: t.isDst, abbreviation: t.abbreviation } : UTC_STATE;
}

const UTC_STATE: ZoneState = { offsetSeconds: 0, isDst: false, abbreviation: 'UTC' };

/** What is in force at an instant (Unix seconds). */
export function zoneStateAt(rules: ZoneRules, unixSeconds: number): ZoneState {
  const { transitions, transitionTypes } = rules.tzif;
  const count = transitions.length;
  if (count === 0) return rules.footer ? posixTzAt(rules.footer, unixSeconds) : typeState(rules.tzif, 0);
  if (unixSeconds < (transitions[0] ?? 0)) return typeState(rules.tzif, rules.firstType);
  // The last transition at or before the instant.
  let lo = 0;
  let hi = count;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (unixSeconds < (transitions[mid] ?? 0)) hi = mid;
    else lo = mid;
  }
  if (lo === count - 1 && rules.footer) return posixTzAt(rules.footer, unixSeconds);
  return typeState(rules.tzif, transitionTypes[lo] ?? 0);
}
