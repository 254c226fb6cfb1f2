/**
 * Go's `time.ParseDuration` and `time.Duration.String()`, exactly: the anchors decode duration
 * fields (`pinVersionWindow`, `maxSchedulingDelay`, `@every 1h30m`, …) with Go, so a string
 * Go rejects must be rejected here with Go's wording, and one Go accepts must mean the same
 * number of nanoseconds. Written by hand: no npm package reproduces Go's grammar (units
 * `ns us µs μs ms s m h`, several segments, fractions, a bare `0`) and its int64 overflow rules.
 * Durations are bigint nanoseconds (an int64 in Go); helpers convert to milliseconds.
 */

/** Nanoseconds per unit, as in Go's `unitMap` (both micro signs are accepted). */
const UNITS: ReadonlyMap<string, bigint> = new Map([
  ['ns', 1n],
  ['us', 1_000n],
  ['\u00b5s', 1_000n], // U+00B5 micro sign
  ['\u03bcs', 1_000n], // U+03BC Greek small letter mu
  ['ms', 1_000_000n],
  ['s', 1_000_000_000n],
  ['m', 60_000_000_000n],
  ['h', 3_600_000_000_000n],
]);

/** 1<<63: the magnitude bound Go checks against while accumulating. */
const TWO_63 = 1n << 63n;
const MAX_INT64 = TWO_63 - 1n;
const NS_PER_MS = 1_000_000n;

/** Nanoseconds per second, minute and hour. */
export const NANOSECOND = 1n;
export const MICROSECOND = 1_000n;
export const MILLISECOND = 1_000_000n;
export const SECOND = 1_000_000_000n;
export const MINUTE = 60n * SECOND;
export const HOUR = 60n * MINUTE;

/** Outcome of {@link parseGoDuration}: nanoseconds, or Go's error message. */
export type GoDurationResult = { ok: true; nanoseconds: bigint } | { ok: false; error: string };

/**
 * Go's time package `quote`: ASCII printable characters as they are (with `"` and `\`
 * escaped), every byte of anything else as `\xNN`.
 */
export function goTimeQuote(text: string): string {
  let out = '"';
  const encoder = new TextEncoder();
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (code >= 0x80 || code < 0x20) {
      for (const byte of encoder.encode(ch)) out += `\\x${byte.toString(16).padStart(2, '0')}`;
    } else {
      if (ch === '"' || ch === '\\') out += '\\';
      out += ch;
    }
  }
  return `${out}"`;
}

function isDigit(char: string | undefined): boolean {
  return char !== undefined && char >= '0' && char <= '9';
}

/**
 * Parses a Go duration string like `1h30m`, `-1.5h`, `300ms` or `0`, exactly as Go's
 * `time.ParseDuration` does, including its error messages:
 * `time: invalid duration "x"`, `time: missing unit in duration "1"`,
 * `time: unknown unit "d" in duration "1d"`.
 */
export function parseGoDuration(text: string): GoDurationResult {
  const invalid: GoDurationResult = { ok: false, error: `time: invalid duration ${goTimeQuote(text)}` };
  let s = text;
  let neg = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return { ok: true, nanoseconds: 0n };
  if (s === '') return invalid;
  let total = 0n;
  while (s !== '') {
    if (!(s[0] === '.' || isDigit(s[0]))) return invalid;
    // Integer part: Go fails on overflow past 1<<63.
    let i = 0;
    let v = 0n;
    for (; i < s.length && isDigit(s[i]); i++) {
      if (v > TWO_63 / 10n) return invalid;
      v = v * 10n + BigInt(s.charCodeAt(i) - 48);
      if (v > TWO_63) return invalid;
    }
    const pre = i > 0;
    s = s.slice(i);
    // Fraction: stops gaining precision on overflow instead of failing.
    let f = 0n;
    let scale = 1;
    let post = false;
    if (s !== '' && s[0] === '.') {
      s = s.slice(1);
      let j = 0;
      let overflow = false;
      for (; j < s.length && isDigit(s[j]); j++) {
        if (overflow) continue;
        if (f > MAX_INT64 / 10n) {
          overflow = true;
          continue;
        }
        const y = f * 10n + BigInt(s.charCodeAt(j) - 48);
        if (y > TWO_63) {
          overflow = true;
          continue;
        }
        f = y;
        scale *= 10;
      }
      post = j > 0;
      s = s.slice(j);
    }
    if (!pre && !post) return invalid;
    let u = 0;
    while (u < s.length && !(s[u] === '.' || isDigit(s[u]))) u++;
    if (u === 0) return { ok: false, error: `time: missing unit in duration ${goTimeQuote(text)}` };
    const unitName = s.slice(0, u);
    s = s.slice(u);
    const unit = UNITS.get(unitName);
    if (unit === undefined) {
      return { ok: false, error: `time: unknown unit ${goTimeQuote(unitName)} in duration ${goTimeQuote(text)}` };
    }
    if (v > TWO_63 / unit) return invalid;
    v *= unit;
    if (f > 0n) {
      // Go computes the fraction in float64 (nanosecond-accurate up to hours), then truncates.
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > TWO_63) return invalid;
    }
    total += v;
    if (total > TWO_63) return invalid;
  }
  if (neg) return { ok: true, nanoseconds: -total };
  if (total > MAX_INT64) return invalid;
  return { ok: true, nanoseconds: total };
}

/**
 * A Go duration in whole milliseconds (truncated toward zero, like Go's `Milliseconds()`), or
 * Go's error message.
 */
export function parseGoDurationMs(text: string): { ok: true; ms: number } | { ok: false; error: string } {
  const r = parseGoDuration(text);
  return r.ok ? { ok: true, ms: nanosToMs(r.nanoseconds) } : r;
}

/** Nanoseconds → milliseconds, truncated toward zero. */
export function nanosToMs(nanoseconds: bigint): number {
  return Number(nanoseconds / NS_PER_MS);
}

/** `v / 10^prec` written with its fraction, trailing zeros and a bare point dropped. */
function withFraction(value: bigint, prec: number): string {
  const p = 10n ** BigInt(prec);
  const int = (value / p).toString();
  const frac = (value % p).toString().padStart(prec, '0').replace(/0+$/, '');
  return frac === '' ? int : `${int}.${frac}`;
}

/**
 * Formats a duration like Go's `Duration.String()`: `1h0m0s`, `1m30s`, `1.5s`, `500ms`,
 * `1.5µs`, `0s`. Accepts nanoseconds as a bigint, or a number of nanoseconds.
 */
export function formatGoDuration(nanoseconds: bigint | number): string {
  const d = typeof nanoseconds === 'bigint' ? nanoseconds : BigInt(Math.trunc(nanoseconds));
  const neg = d < 0n;
  const u = neg ? -d : d;
  let out: string;
  if (u === 0n) return '0s';
  if (u < SECOND) {
    if (u < MICROSECOND) out = `${u}ns`;
    else if (u < MILLISECOND) out = `${withFraction(u, 3)}\u00b5s`;
    else out = `${withFraction(u, 6)}ms`;
  } else {
    const seconds = u / SECOND;
    const frac = withFraction(u % SECOND, 9).replace(/^0/, '');
    const s = `${seconds % 60n}${frac}s`;
    const minutes = seconds / 60n;
    if (minutes === 0n) out = s;
    else {
      const hours = minutes / 60n;
      out = hours === 0n ? `${minutes % 60n}m${s}` : `${hours}h${minutes % 60n}m${s}`;
    }
  }
  return neg ? `-${out}` : out;
}

/** Formats whole milliseconds like Go's `Duration.String()` (`90000` → `1m30s`). */
export function formatGoDurationMs(ms: number): string {
  return formatGoDuration(BigInt(Math.trunc(ms)) * NS_PER_MS);
}

/** A duration string as a Go round trip writes it back (`12h` → `12h0m0s`); unparsable text unchanged. */
export function normalizeGoDuration(text: string): string {
  const r = parseGoDuration(text);
  return r.ok ? formatGoDuration(r.nanoseconds) : text;
}
