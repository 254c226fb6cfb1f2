/**
 * An in-memory sample store for the simulated Prometheus: series keyed by label set, a bounded
 * history per series, and staleness markers. Samples are kept as runs of equal values at a
 * regular interval (what a scrape of a mostly-constant metric produces), so a 500-node cluster
 * scraped every 30 s for hours stays small. Selection follows Prometheus 2.x: an instant
 * selector takes the newest sample in `[t - lookback, t]` unless it is a stale marker; a range
 * selector takes every non-stale sample in `[t - range, t]`.
 */
import { compileMatcher } from './label-matcher.js';
import type { CompiledMatcher, LabelMatcher } from './label-matcher.js';
import { labelsKey } from './promql/values.js';
import type { Labels, Point, Sample, Series } from './promql/values.js';

/** Samples `start + i*step` for `i < n`, all with value `v` (or all stale markers). */
interface Run {
  start: number;
  step: number;
  n: number;
  v: number;
  stale: boolean;
}

interface StoredSeries {
  readonly labels: Labels;
  readonly runs: Run[];
}

/** Options of {@link Tsdb}. */
export interface TsdbOptions {
  /** How far back samples are kept, in ms (default 24 h). */
  retentionMs?: number;
}

/** Prometheus' default lookback delta for instant selectors: 5 minutes. */
export const DEFAULT_LOOKBACK_MS = 5 * 60_000;

/** What the PromQL evaluator reads. */
export interface Queryable {
  /** The newest non-stale sample in `[t - lookbackMs, t]` of every matching series. */
  selectInstant(matchers: readonly LabelMatcher[], time: number, lookbackMs: number): Sample[];
  /** The non-stale samples in `[mint, maxt]` of every matching series that has any. */
  selectRange(matchers: readonly LabelMatcher[], mint: number, maxt: number): Series[];
}

function sameValue(left: number, right: number): boolean {
  return left === right || (Number.isNaN(left) && Number.isNaN(right));
}

function runEnd(run: Run): number {
  return run.start + (run.n - 1) * run.step;
}

/** The in-memory store. */
export class Tsdb implements Queryable {
  readonly #series = new Map<string, StoredSeries>();
  /** metric name → series keys, the only index (selectors nearly always name a metric). */
  readonly #byName = new Map<string, Set<string>>();
  readonly #retentionMs: number;

  constructor(options: TsdbOptions = {}) {
    this.#retentionMs = options.retentionMs ?? 24 * 3600_000;
  }

  /** Number of series held. */
  get seriesCount(): number {
    return this.#series.size;
  }

  /**
   * Appends one sample; `t` must not go back in time for that series (older samples are
   * ignored). `key`: `labelsKey(labels)` when the caller has it already.
   */
  append(labels: Labels, value: number, time: number, key = labelsKey(labels)): void {
    this.#add(key, labels, value, time, false);
  }

  /** Writes a staleness marker: the series ends at `t` for instant selectors. */
  markStale(labels: Labels, time: number, key = labelsKey(labels)): void {
    const s = this.#series.get(key);
    if (!s) return;
    const last = s.runs.at(-1);
    if (last?.stale) return;
    this.#add(key, labels, NaN, time, true);
  }

  /** The label sets of all series whose newest sample is not a stale marker. */
  liveSeries(): Labels[] {
    const out: Labels[] = [];
    for (const s of this.#series.values()) if (s.runs.at(-1)?.stale === false) out.push(s.labels);
    return out;
  }

  /** Drops samples older than the retention window, measured from `now`. */
  compact(now: number): void {
    const mint = now - this.#retentionMs;
    for (const [key, s] of this.#series) {
      let drop = 0;
      while (drop < s.runs.length && runEnd(s.runs[drop] as Run) < mint) drop++;
      if (drop > 0) s.runs.splice(0, drop);
      const first = s.runs[0];
      if (first && first.start < mint) {
        const skip = Math.ceil((mint - first.start) / first.step);
        first.start += skip * first.step;
        first.n -= skip;
      }
      if (s.runs.length === 0 || (s.runs.length === 1 && s.runs[0]?.stale === true)) {
        this.#series.delete(key);
        const name = s.labels['__name__'] ?? '';
        this.#byName.get(name)?.delete(key);
      }
    }
  }

  #add(key: string, labels: Labels, value: number, time: number, stale: boolean): void {
    let s = this.#series.get(key);
    if (!s) {
      s = { labels: { ...labels }, runs: [] };
      this.#series.set(key, s);
      const name = labels['__name__'] ?? '';
      let set = this.#byName.get(name);
      if (!set) this.#byName.set(name, (set = new Set()));
      set.add(key);
    }
    const last = s.runs.at(-1);
    if (last) {
      const end = runEnd(last);
      if (time <= end) {
        if (time === end && !stale && !last.stale) {
          // Same timestamp again: the newest value wins (the sample is replaced).
          if (last.n === 1) last.v = value;
          else if (!sameValue(last.v, value)) {
            last.n--;
            s.runs.push({ start: time, step: 0, n: 1, v: value, stale });
          }
        }
        return;
      }
      if (last.stale === stale && sameValue(last.v, value)) {
        if (last.n === 1) {
          last.step = time - last.start;
          last.n = 2;
          return;
        }
        if (time - end === last.step) {
          last.n++;
          return;
        }
      }
    }
    s.runs.push({ start: time, step: 0, n: 1, v: value, stale });
  }

  #matching(matchers: readonly LabelMatcher[]): StoredSeries[] {
    const compiled: CompiledMatcher[] = matchers.map((m) => compileMatcher(m));
    const byName = compiled.find((m) => m.name === '__name__' && m.type === '=');
    let candidates: Iterable<StoredSeries>;
    if (byName) {
      const keys = this.#byName.get(byName.value) ?? new Set<string>();
      candidates = [...keys].map((k) => this.#series.get(k)).filter((s): s is StoredSeries => s !== undefined);
    } else {
      candidates = this.#series.values();
    }
    const out: StoredSeries[] = [];
    for (const s of candidates) {
      if (compiled.every((m) => m.matches(s.labels[m.name] ?? ''))) out.push(s);
    }
    return out;
  }

  selectInstant(matchers: readonly LabelMatcher[], time: number, lookbackMs: number): Sample[] {
    const out: Sample[] = [];
    for (const s of this.#matching(matchers)) {
      const p = latestAtOrBefore(s.runs, time);
      if (!p || p.stale || p.t < time - lookbackMs) continue;
      out.push({ metric: s.labels, t: p.t, v: p.v });
    }
    return out;
  }

  selectRange(matchers: readonly LabelMatcher[], mint: number, maxt: number): Series[] {
    const out: Series[] = [];
    for (const s of this.#matching(matchers)) {
      const points: Point[] = [];
      for (const r of s.runs) {
        if (r.stale || runEnd(r) < mint || r.start > maxt) continue;
        const step = r.step || 1;
        const i0 = r.start >= mint ? 0 : Math.ceil((mint - r.start) / step);
        for (let i = i0; i < r.n; i++) {
          const t = r.start + i * r.step;
          if (t > maxt) break;
          points.push({ t, v: r.v });
        }
      }
      if (points.length > 0) out.push({ metric: s.labels, points });
    }
    return out;
  }
}

function latestAtOrBefore(runs: readonly Run[], time: number): { t: number; v: number; stale: boolean } | undefined {
  for (let i = runs.length - 1; i >= 0; i--) {
    const r = runs[i] as Run;
    if (r.start > time) continue;
    const k = r.step === 0 ? 0 : Math.min(r.n - 1, Math.floor((time - r.start) / r.step));
    return { t: r.start + k * r.step, v: r.v, stale: r.stale };
  }
  return undefined;
}

/** One scraped sample. */
export interface ScrapedSample {
  readonly labels: Labels;
  readonly value: number;
  /** `labelsKey(labels)`, when the producer computed it already. */
  readonly key?: string;
}

/**
 * Writes successive scrapes of one target: every sample at the scrape time, and a staleness
 * marker for each series the previous scrape had and this one lacks (as Prometheus does).
 */
export class ScrapeWriter {
  readonly #db: Tsdb;
  /** Series of the previous scrapes, with the number of the scrape that last had them. */
  readonly #seen = new Map<string, { labels: Labels; scrape: number }>();
  #scrape = 0;
  constructor(db: Tsdb) {
    this.#db = db;
  }

  /** Appends one scrape taken at `t`. */
  write(samples: readonly ScrapedSample[], time: number): void {
    const scrape = ++this.#scrape;
    for (const s of samples) {
      const key = s.key ?? labelsKey(s.labels);
      const seen = this.#seen.get(key);
      if (seen) seen.scrape = scrape;
      else this.#seen.set(key, { labels: s.labels, scrape });
      this.#db.append(s.labels, s.value, time, key);
    }
    for (const [key, seen] of this.#seen) {
      if (seen.scrape === scrape) continue;
      this.#db.markStale(seen.labels, time, key);
      this.#seen.delete(key);
    }
  }
}
