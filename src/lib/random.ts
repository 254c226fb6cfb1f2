/**
 * Seeded randomness. Jitter, simulated durations and scenario choices come from a Random
 * made from a seed, so that one seed reproduces one run.
 */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
}

/** mulberry32: small, fast, good enough for jitter and simulation (not for secrets). */
export class SeededRandom implements Random {
  #state: number;
  readonly #seed: number;

  constructor(seed: number | string) {
    this.#seed = typeof seed === 'number' ? seed >>> 0 : hashString(seed);
    this.#state = this.#seed;
  }

  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An independent stream derived from this seed and a name, so components don't disturb each other's draws. */
  fork(name: string): SeededRandom {
    return new SeededRandom((this.#seed ^ hashString(name)) >>> 0);
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** A value in [base*(1-fraction), base*(1+fraction)). */
  jitter(base: number, fraction: number): number {
    return base * (1 - fraction + 2 * fraction * this.next());
  }

  /**
   * A draw from the triangular distribution on [min, max] with its peak at mode (inverse CDF,
   * one next() per draw), as the simulation's (min, mode, max) durations use.
   */
  triangular(min: number, mode: number, max: number): number {
    if (!(min <= mode && mode <= max))
      throw new RangeError(`triangular: need min <= mode <= max, got (${min}, ${mode}, ${max})`);
    const u = this.next();
    const span = max - min;
    if (span === 0) return min;
    const split = (mode - min) / span;
    const draw = u < split ? min + Math.sqrt(u * span * (mode - min)) : max - Math.sqrt((1 - u) * span * (max - mode));
    // Rounding can put a draw just outside the range when the span is subnormal (about 1e-308).
    return Math.min(max, Math.max(min, draw));
  }
}

/** FNV-1a, 32 bit. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
