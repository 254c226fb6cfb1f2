/**
 * The scrape-time machinery the APPUiO collectors share (docs/design/scheduled-flow.md#metrics:
 * "all gauges are computed at scrape time from the cache"): gauge families filled from pure series
 * functions once per scrape, and a failing source giving its families no series, instead of
 * prom-client failing the whole scrape (which `metrics-server.ts` answers with 500) or a label-less
 * gauge reporting 0.
 */
import { Gauge, type Registry } from 'prom-client';
import type { Logger } from '../../lib/log.js';
import { parseRfc3339 } from '../../lib/rfc3339.js';

/** One series of a family: labels and value. */
export interface MetricSeries {
  labels: Record<string, string>;
  value: number;
}

/** A gauge family: APPUiO's name and label names, our help text. */
export interface GaugeFamily {
  name: string;
  help: string;
  labelNames: readonly string[];
}

/**
 * Families computed together from the same sources. `series` runs once per scrape; when it
 * throws, every family of the group has no series in that scrape.
 */
export interface FamilyGroup {
  families: readonly GaugeFamily[];
  series: () => ReadonlyMap<string, readonly MetricSeries[]>;
}

/**
 * Registers the groups' families as gauges on `registry`, filled at every scrape. A group whose
 * `series` throws shows its families with no samples at all (a label-less gauge too, which
 * prom-client would otherwise report as 0), so nothing healthy-looking is reported and the other
 * families of the scrape are unaffected. The failure is logged at error level when it starts or
 * its message changes, and recovery at info level. Throws if a name is already registered.
 */
export function registerScrapeGauges(registry: Registry, groups: readonly FamilyGroup[], log: Logger): void {
  for (const group of groups) {
    const take = scrapeSnapshot(group, log);
    for (const family of group.families) {
      const name = family.name;
      new Gauge({
        name,
        help: family.help,
        labelNames: [...family.labelNames],
        registers: [registry],
        collect(this: Gauge) {
          this.reset();
          if (family.labelNames.length === 0) this.remove({});
          for (const s of take().get(name) ?? []) this.set(boundedLabels(s.labels), s.value);
        },
      });
    }
  }
}

/**
 * The longest label value exported, in characters. Some label values are free text from a user's
 * object (an UpgradeSuspensionWindow's reason, a ClusterVersion template's upstream): one of
 * 70,000 characters would be stored in every sample of every scrape.
 */
export const MAX_LABEL_VALUE_LENGTH = 256;

/**
 * A label value as exported: control characters (a NUL, a newline) replaced by U+FFFD, and cut
 * to {@link MAX_LABEL_VALUE_LENGTH} characters ending in `…` when longer.
 */
export function boundedLabelValue(value: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is replaced
  const clean = value.replace(/[\u0000-\u001f\u007f]/g, '\ufffd');
  if (clean.length <= MAX_LABEL_VALUE_LENGTH) return clean; // UTF-16 units never undercount characters
  const chars = Array.from(clean);
  return chars.length <= MAX_LABEL_VALUE_LENGTH ? clean : `${chars.slice(0, MAX_LABEL_VALUE_LENGTH - 1).join('')}…`;
}

function boundedLabels(labels: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(labels)) out[name] = boundedLabelValue(value);
  return out;
}

/**
 * The group's series for the current scrape: prom-client runs every family's collect() in one
 * synchronous turn, so the snapshot lives until the next microtask and the sources are read once.
 */
function scrapeSnapshot(group: FamilyGroup, log: Logger): () => ReadonlyMap<string, readonly MetricSeries[]> {
  let snapshot: ReadonlyMap<string, readonly MetricSeries[]> | undefined;
  let failing: string | undefined;
  const families = group.families.map((f) => f.name);
  return () => {
    if (snapshot) return snapshot;
    try {
      snapshot = group.series();
      if (failing !== undefined) log.info({ families }, 'metrics source readable again');
      failing = undefined;
    } catch (error) {
      snapshot = new Map();
      const message = error instanceof Error ? error.message : String(error);
      if (failing !== message)
        log.error({ err: error, families }, 'metrics source failed: these families have no series until it recovers');
      failing = message;
    }
    const snap = snapshot;
    queueMicrotask(() => {
      snapshot = undefined;
    });
    return snap;
  };
}

/**
 * An RFC 3339 time as Go's `t.UTC().Format(time.RFC3339)` (whole seconds, `Z`) and `t.Unix()`
 * (whole seconds, rounded down), or undefined when absent or malformed.
 */
export function utcTime(text: string | null | undefined): { rfc3339: string; unix: number } | undefined {
  const ms = text ? parseRfc3339(text) : undefined;
  if (ms === undefined) return undefined;
  const unix = Math.floor(ms / 1000);
  return { rfc3339: new Date(unix * 1000).toISOString().replace('.000Z', 'Z'), unix };
}

/** Go's zero `time.Time` as APPUiO exports it: `t.UTC().Format(time.RFC3339)` and `t.Unix()`. */
export const GO_ZERO_TIME: Readonly<{ rfc3339: string; unix: number }> = {
  rfc3339: '0001-01-01T00:00:00Z',
  unix: -62135596800,
};

/**
 * A metav1.Time field as APPUiO's Go code sees it: absent or `null` decodes to the zero time
 * ({@link GO_ZERO_TIME}); otherwise {@link utcTime} (undefined when it does not parse, which Go
 * could not have decoded at all).
 */
export function goTime(text: string | null | undefined): { rfc3339: string; unix: number } | undefined {
  return text === undefined || text === null ? GO_ZERO_TIME : utcTime(text);
}

/** Options of the APPUiO collectors. */
export interface ScrapeCollectorOptions {
  /** Where a failing source is reported. */
  log: Logger;
}
