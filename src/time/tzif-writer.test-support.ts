/** Writes TZif files from parts, for tests of the reader (valid ones and deliberately broken ones). */
export interface TzifSpec {
  readonly version?: number;
  readonly transitions?: readonly number[];
  readonly transitionTypes?: readonly number[];
  readonly types?: readonly (readonly [offset: number, dst: number, abbrIndex: number])[];
  readonly chars?: string;
  readonly footer?: string;
  /** Overrides of the six header counts (isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt). */
  readonly counts?: Partial<Record<'isut' | 'isstd' | 'leap' | 'time' | 'type' | 'char', number>>;
}

/** Writes a TZif file: the v1 block with 32-bit times, and for version 2+ the 64-bit one. */
export function tzif(spec: TzifSpec): Uint8Array {
  const version = spec.version ?? 2;
  const transitions = spec.transitions ?? [];
  const transitionTypes = spec.transitionTypes ?? transitions.map(() => 0);
  const types = spec.types ?? [[0, 0, 0]];
  const chars = spec.chars ?? 'UTC\0';
  const out: number[] = [];
  const u32 = (n: number): void => void out.push((n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255);
  const i64 = (n: number): void => {
    const b = new DataView(new ArrayBuffer(8));
    b.setBigInt64(0, BigInt(n));
    for (let i = 0; i < 8; i++) out.push(b.getUint8(i));
  };
  const block = (wide: boolean): void => {
    out.push(
      ...[...'TZif'].map((c) => c.charCodeAt(0)),
      version === 1 ? 0 : 0x30 + version,
      ...new Array<number>(15).fill(0),
    );
    const c = spec.counts ?? {};
    for (const n of [
      c.isut ?? 0,
      c.isstd ?? 0,
      c.leap ?? 0,
      c.time ?? transitions.length,
      c.type ?? types.length,
      c.char ?? chars.length,
    ]) {
      u32(n);
    }
    for (const t of transitions) (wide ? i64 : u32)(t);
    out.push(...transitionTypes);
    for (const [offset, dst, idx] of types) {
      u32(offset);
      out.push(dst, idx);
    }
    out.push(...[...chars].map((ch) => ch.charCodeAt(0)));
  };
  block(false);
  if (version >= 2) {
    block(true);
    out.push(10, ...[...(spec.footer ?? 'UTC0')].map((ch) => ch.charCodeAt(0)), 10);
  }
  return Uint8Array.from(out);
}
