/**
 * Typed reading of one YAML mapping into settings, collecting {@link ConfigProblem}s instead of
 * throwing. Types are checked the way gopkg.in/yaml.v2 decodes into MUO's structs: a quoted
 * number is not a number, `yes` is a boolean, a scalar is not a list; but where MUO would
 * refuse the whole configuration, only the one value falls back to its default.
 */
import type { ConfigProblem, ConfigProblemSeverity } from './config-problem.js';

/** A YAML mapping as plain data. */
export type Mapping = Readonly<Record<string, unknown>>;

/** Range a duration must be in. */
export type DurationRange = 'positive' | 'nonNegative';

const MINUTE_MS = 60_000;

/** Reads the keys of one mapping, under a dotted path prefix, into one shared problem list. */
export class FieldReader {
  readonly #problems: ConfigProblem[];
  readonly #map: Mapping;
  readonly #prefix: string;

  constructor(problems: ConfigProblem[], map: Mapping, prefix = '') {
    this.#problems = problems;
    this.#map = map;
    this.#prefix = prefix;
  }

  /** The dotted path of `key` under this reader. */
  path(key: string): string {
    return this.#prefix === '' ? key : `${this.#prefix}.${key}`;
  }

  /** Records a problem for `key` of this mapping (or a sub-path such as `urls[2]`). */
  report(key: string, message: string, severity: ConfigProblemSeverity = 'error'): void {
    this.#problems.push({ key: this.path(key), message, severity });
  }

  /** The raw value of `key`; YAML null counts as absent (go-yaml leaves the zero value). */
  raw(key: string): unknown {
    const v = this.#map[key];
    return v === null ? undefined : v;
  }

  /** Warns about every key not in `known`, suggesting the known key that differs only in case. */
  unknownKeys(known: readonly string[]): void {
    for (const key of Object.keys(this.#map)) {
      if (known.includes(key)) continue;
      const near = known.find((k) => k.toLowerCase() === key.toLowerCase());
      // An empty key, or one with dots, spaces or control characters, is shown quoted (JSON):
      // `""` says more than nothing and a newline must not break the log line it lands in.
      this.report(
        /^[\w-]+$/.test(key) ? key : JSON.stringify(key),
        near === undefined ? 'unknown key (ignored)' : `unknown key (ignored); did you mean ${near}?`,
        'warning',
      );
    }
  }

  /**
   * A nested mapping: a reader over it (over an empty mapping when absent or not a mapping),
   * after warning about unknown keys in it.
   */
  section(key: string, known: readonly string[]): FieldReader {
    const v = this.raw(key);
    if (v !== undefined && !isMapping(v)) {
      this.report(key, 'must be a mapping; using the defaults of all its keys');
    }
    const reader = new FieldReader(this.#problems, isMapping(v) ? v : {}, this.path(key));
    reader.unknownKeys(known);
    return reader;
  }

  /**
   * A duration in minutes, returned in milliseconds. `required` (a key MUO refuses to run
   * without) makes its absence a warning.
   */
  minutes(key: string, options: { default: number; range: DurationRange; required?: boolean }): number {
    return this.#duration(key, 'minutes', MINUTE_MS, options);
  }

  /** A duration in seconds, returned in milliseconds. */
  seconds(key: string, options: { default: number; range: DurationRange; required?: boolean }): number {
    return this.#duration(key, 'seconds', 1000, options);
  }

  #duration(
    key: string,
    unit: string,
    unitMs: number,
    options: { default: number; range: DurationRange; required?: boolean },
  ): number {
    const v = this.raw(key);
    const fallback = options.default * unitMs;
    const kind = options.range === 'positive' ? 'a positive' : 'a non-negative';
    if (v === undefined) {
      if (options.required === true) this.report(key, `not set; using the default ${options.default}`, 'warning');
      return fallback;
    }
    const ok = typeof v === 'number' && Number.isFinite(v) && (options.range === 'positive' ? v > 0 : v >= 0);
    if (!ok) {
      const got = typeof v === 'string' ? ` (got the string ${JSON.stringify(v)})` : '';
      this.report(key, `must be ${kind} number of ${unit}${got}; using the default ${options.default}`);
      return fallback;
    }
    return v * unitMs;
  }

  /** A boolean (YAML 1.1: `true`, `yes`, `on` …). */
  bool(key: string, fallback: boolean): boolean {
    const v = this.raw(key);
    if (v === undefined) return fallback;
    if (typeof v === 'boolean') return v;
    this.report(key, `must be true or false; using the default ${fallback}`);
    return fallback;
  }

  /** A string; a number or boolean is read as its text, as go-yaml does. */
  string(key: string): string | undefined {
    const v = this.raw(key);
    if (v === undefined) return undefined;
    const s = scalarText(v);
    if (s === undefined) this.report(key, 'must be a string; ignored');
    return s;
  }

  /**
   * A list of strings, each passed through `check` (which returns an error message to drop the
   * item). Items that are not scalars are dropped too.
   */
  stringList(key: string, check?: (item: string) => string | undefined): string[] {
    const v = this.raw(key);
    if (v === undefined) return [];
    if (!Array.isArray(v)) {
      this.report(key, 'must be a list; using an empty list');
      return [];
    }
    const out: string[] = [];
    v.forEach((item: unknown, index) => {
      const s = item === null ? undefined : scalarText(item);
      if (s === undefined) {
        this.report(`${key}[${index}]`, 'must be a string; dropped');
        return;
      }
      const problem = check?.(s);
      if (problem !== undefined) {
        this.report(`${key}[${index}]`, `${problem}; dropped`);
        return;
      }
      out.push(s);
    });
    return out;
  }
}

/** True for a YAML mapping read as a plain object. */
export function isMapping(value: unknown): value is Mapping {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return undefined;
}
