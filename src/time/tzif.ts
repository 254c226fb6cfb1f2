/**
 * The Time Zone Information Format (TZif, RFC 8536, versions 1 to 4): the files of a system's
 * zoneinfo directory, which Go's `time.LoadLocation` reads. Written by hand: no maintained npm
 * package parses TZif (docs/design/dependencies.md#time-zones).
 *
 * A pure function over the file's bytes. Version 1 files are read from their 32-bit data block;
 * version 2 and later from the 64-bit block that follows it, with the footer (a POSIX TZ string
 * for instants after the last transition, see posix-tz.ts). Leap-second records and the
 * standard/wall and UT/local indicators are checked for size and skipped, as Go skips them.
 * Malformed input yields an error text, never an exception.
 */

/** A local time type: an offset, whether it is daylight saving time, and its abbreviation. */
export interface LocalTimeType {
  /** Offset east of UTC, in seconds. */
  readonly offsetSeconds: number;
  readonly isDst: boolean;
  /** The designation as the file holds it (`CET`, `+0530`, `-03`). */
  readonly abbreviation: string;
}

/** The content of a TZif file that time computations need. */
export interface TzifData {
  /** 1 to 4 (a NUL version byte is 1). */
  readonly version: number;
  /** Transition instants in Unix seconds, strictly ascending. */
  readonly transitions: readonly number[];
  /** For each transition, the index in `types` in force from it on. */
  readonly transitionTypes: readonly number[];
  /** At least one. */
  readonly types: readonly LocalTimeType[];
  /** The footer's TZ string (version 2 and later; may be empty); undefined for version 1. */
  readonly footer: string | undefined;
}

export type TzifResult = { ok: true; data: TzifData } | { ok: false; error: string };

const HEADER_BYTES = 44;
/** Type indices are one octet: more types than this could never be referenced. */
const MAX_TYPES = 256;

class TzifError extends Error {}

function latin1(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return s;
}

/** Reads big-endian fields off the bytes, failing with a TzifError past their end. */
class Reader {
  private readonly bytes: Uint8Array;
  private readonly view: DataView;
  offset = 0;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  need(count: number, what: string): void {
    if (this.offset + count > this.bytes.length) {
      throw new TzifError(
        `truncated: ${what} needs ${count} bytes at offset ${this.offset}, the file has ${this.bytes.length}`,
      );
    }
  }

  u8(): number {
    this.need(1, 'a byte');
    return this.bytes[this.offset++] ?? 0;
  }

  i32(): number {
    this.need(4, 'a 32-bit value');
    const v = this.view.getInt32(this.offset);
    this.offset += 4;
    return v;
  }

  u32(): number {
    this.need(4, 'a 32-bit value');
    const v = this.view.getUint32(this.offset);
    this.offset += 4;
    return v;
  }

  i64(): number {
    this.need(8, 'a 64-bit value');
    const v = this.view.getBigInt64(this.offset);
    this.offset += 8;
    // Instants beyond ±2^53 s (far outside any real transition) are clamped, keeping their order.
    return v > BigInt(Number.MAX_SAFE_INTEGER)
      ? Number.MAX_SAFE_INTEGER
      : v < BigInt(Number.MIN_SAFE_INTEGER)
        ? Number.MIN_SAFE_INTEGER
        : Number(v);
  }

  slice(count: number, what: string): Uint8Array {
    this.need(count, what);
    const s = this.bytes.subarray(this.offset, this.offset + count);
    this.offset += count;
    return s;
  }
}

interface Header {
  readonly version: number;
  readonly isutcnt: number;
  readonly isstdcnt: number;
  readonly leapcnt: number;
  readonly timecnt: number;
  readonly typecnt: number;
  readonly charcnt: number;
}

function readHeader(reader: Reader): Header {
  reader.need(HEADER_BYTES, 'the header');
  const magic = String.fromCharCode(reader.u8(), reader.u8(), reader.u8(), reader.u8());
  if (magic !== 'TZif') throw new TzifError('bad magic: not a TZif file');
  const v = reader.u8();
  let version: number;
  if (v === 0) version = 1;
  else if (v >= 0x32 && v <= 0x34) version = v - 0x30;
  else throw new TzifError(`unsupported version byte 0x${v.toString(16).padStart(2, '0')}`);
  reader.offset += 15;
  const [isutcnt = 0, isstdcnt = 0, leapcnt = 0, timecnt = 0, typecnt = 0, charcnt = 0] = [
    reader.u32(),
    reader.u32(),
    reader.u32(),
    reader.u32(),
    reader.u32(),
    reader.u32(),
  ];
  if (typecnt === 0) throw new TzifError('typecnt is zero');
  if (typecnt > MAX_TYPES) throw new TzifError(`typecnt ${typecnt} is above ${MAX_TYPES}`);
  if (charcnt === 0) throw new TzifError('charcnt is zero');
  if (isutcnt !== 0 && isutcnt !== typecnt) throw new TzifError(`isutcnt ${isutcnt} is neither 0 nor typecnt`);
  if (isstdcnt !== 0 && isstdcnt !== typecnt) throw new TzifError(`isstdcnt ${isstdcnt} is neither 0 nor typecnt`);
  return { version, isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt };
}

/** Size of a data block, to check counts against the file before reading them. */
function blockBytes(header: Header, timeBytes: number): number {
  return (
    header.timecnt * timeBytes +
    header.timecnt +
    header.typecnt * 6 +
    header.charcnt +
    header.leapcnt * (timeBytes + 4) +
    header.isstdcnt +
    header.isutcnt
  );
}

function readBlock(reader: Reader, header: Header, wide: boolean): Omit<TzifData, 'version' | 'footer'> {
  reader.need(blockBytes(header, wide ? 8 : 4), 'the data block its header announces');
  const transitions: number[] = [];
  for (let i = 0; i < header.timecnt; i++) {
    const t = wide ? reader.i64() : reader.i32();
    const prev = transitions[i - 1];
    if (prev !== undefined && t <= prev) throw new TzifError(`transition ${i} is not after the one before it`);
    transitions.push(t);
  }
  const transitionTypes: number[] = [];
  for (let i = 0; i < header.timecnt; i++) {
    const idx = reader.u8();
    if (idx >= header.typecnt) throw new TzifError(`transition ${i} names type ${idx}, the file has ${header.typecnt}`);
    transitionTypes.push(idx);
  }
  const raw: { offsetSeconds: number; isDst: boolean; abbrIndex: number }[] = [];
  for (let i = 0; i < header.typecnt; i++) {
    const offsetSeconds = reader.i32();
    const dst = reader.u8();
    const abbrIndex = reader.u8();
    if (offsetSeconds === -2_147_483_648) throw new TzifError(`type ${i} has offset -2^31`);
    if (dst > 1) throw new TzifError(`type ${i} has isdst ${dst}`);
    if (abbrIndex >= header.charcnt)
      throw new TzifError(`type ${i} names designation ${abbrIndex}, charcnt is ${header.charcnt}`);
    raw.push({ offsetSeconds, isDst: dst === 1, abbrIndex });
  }
  const chars = reader.slice(header.charcnt, 'the designations');
  const types = raw.map(({ offsetSeconds, isDst, abbrIndex }, index): LocalTimeType => {
    const end = chars.indexOf(0, abbrIndex);
    if (end < 0) throw new TzifError(`type ${index}: designation is not NUL-terminated`);
    return { offsetSeconds, isDst, abbreviation: latin1(chars.subarray(abbrIndex, end)) };
  });
  // Leap-second records and the indicators: sized above, not used.
  reader.offset += header.leapcnt * (wide ? 12 : 8) + header.isstdcnt + header.isutcnt;
  return { transitions, transitionTypes, types };
}

function readFooter(reader: Reader, bytes: Uint8Array): string {
  if (reader.u8() !== 0x0a) throw new TzifError('footer does not start with a newline');
  const end = bytes.indexOf(0x0a, reader.offset);
  if (end < 0) throw new TzifError('footer does not end with a newline');
  const text = bytes.subarray(reader.offset, end);
  for (const c of text) {
    if (c < 0x20 || c > 0x7e) throw new TzifError('footer holds a byte that is not printable ASCII');
  }
  reader.offset = end + 1;
  return latin1(text);
}

/** Parses a TZif file. */
export function parseTzif(bytes: Uint8Array): TzifResult {
  try {
    const r = new Reader(bytes);
    const h1 = readHeader(r);
    if (h1.version === 1) {
      return { ok: true, data: { version: 1, ...readBlock(r, h1, false), footer: undefined } };
    }
    r.need(blockBytes(h1, 4), 'the version 1 data block its header announces');
    r.offset += blockBytes(h1, 4);
    const h2 = readHeader(r);
    const block = readBlock(r, h2, true);
    const footer = readFooter(r, bytes);
    return { ok: true, data: { version: h1.version, ...block, footer } };
  } catch (err) {
    return { ok: false, error: `invalid TZif data: ${err instanceof Error ? err.message : String(err)}` };
  }
}
