/**
 * APPUiO's UpgradeConfig gauges (reference/appuio.md §7): `upgradeconfig_info`,
 * `upgradeconfig_pin_version_window_seconds` and
 * `upgradeconfig_next_possible_schedule_timestamp_seconds`, under the namespace
 * `openshift_upgrade_controller`. Names and label names are APPUiO's, exactly; help texts are
 * ours. Like APPUiO they are computed at scrape time from the cached UpgradeConfigs (the pure
 * {@link scheduledUpgradeConfigSeries}); the class puts them into prom-client gauges on the
 * `Registry` handed in. As in APPUiO there is no namespace label: two configs of one name in two
 * namespaces share their series (the later one listed wins).
 */
import { Gauge, type Registry } from 'prom-client';
import type { ScheduledUpgradeConfig } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-config.js';
import { parseGoDuration, SECOND } from '../lib/go-duration.js';

/** Family names, APPUiO's spelling. */
export const ScheduledUpgradeConfigMetricName = {
  info: 'openshift_upgrade_controller_upgradeconfig_info',
  pinVersionWindow: 'openshift_upgrade_controller_upgradeconfig_pin_version_window_seconds',
  nextPossibleSchedule: 'openshift_upgrade_controller_upgradeconfig_next_possible_schedule_timestamp_seconds',
} as const;

/** One series: labels and value. */
export interface ConfigSeries {
  labels: Record<string, string>;
  value: number;
}

/** Go's `Duration.Seconds()` of a Go duration text; 0 when empty; undefined when not a duration. */
function durationSeconds(text: string | undefined): number | undefined {
  if (text === undefined || text === '') return 0;
  const d = parseGoDuration(text);
  if (!d.ok) return undefined;
  return Number(d.nanoseconds / SECOND) + Number(d.nanoseconds % SECOND) / 1e9;
}

/** RFC 3339 UTC with seconds (Go's `t.UTC().Format(time.RFC3339)`) and Unix seconds, or undefined. */
function utcTime(text: string): { rfc3339: string; unix: number } | undefined {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return undefined;
  const s = Math.floor(ms / 1000);
  return { rfc3339: new Date(s * 1000).toISOString().replace('.000Z', 'Z'), unix: s };
}

/**
 * Every series of the three families for the given configs, keyed by family name. Pure. A
 * `pinVersionWindow` that is no Go duration leaves out only that config's pin series (APPUiO
 * could not have decoded such an object at all); an unparsable schedule time only its entry.
 */
export function scheduledUpgradeConfigSeries(configs: readonly ScheduledUpgradeConfig[]): Map<string, ConfigSeries[]> {
  const N = ScheduledUpgradeConfigMetricName;
  const out = new Map<string, ConfigSeries[]>([[N.info, []], [N.pinVersionWindow, []], [N.nextPossibleSchedule, []]]);
  const add = (family: string, labels: Record<string, string>, value: number): void => {
    out.get(family)?.push({ labels, value });
  };
  for (const c of configs) {
    const upgradeconfig = c.metadata?.name ?? '';
    const schedule = c.spec?.schedule;
    add(N.info, { upgradeconfig, cron: schedule?.cron ?? '', location: schedule?.location ?? '', suspended: schedule?.suspend === true ? 'true' : 'false' }, 1);
    const pin = durationSeconds(c.spec?.pinVersionWindow);
    if (pin !== undefined) add(N.pinVersionWindow, { upgradeconfig }, pin);
    (c.status?.nextPossibleSchedules ?? []).forEach((s, n) => {
      const t = utcTime(s.time);
      if (t) add(N.nextPossibleSchedule, { upgradeconfig, n: String(n), timestamp: t.rfc3339 }, t.unix);
    });
  }
  return out;
}

/** Reads the UpgradeConfigs on every scrape (typically the controller's informer cache). */
export type ScheduledUpgradeConfigSource = () => readonly ScheduledUpgradeConfig[];

const HELP: Record<string, string> = {
  [ScheduledUpgradeConfigMetricName.info]: 'Information about an UpgradeConfig: its cron schedule, location and whether scheduling is suspended. Always 1.',
  [ScheduledUpgradeConfigMetricName.pinVersionWindow]: 'How long before a maintenance window the UpgradeConfig creates its UpgradeJob and pins the version, in seconds.',
  [ScheduledUpgradeConfigMetricName.nextPossibleSchedule]: 'Unix time of the n-th next maintenance window of the UpgradeConfig (status.nextPossibleSchedules; suspension ignored).',
};

const LABELS: Record<string, string[]> = {
  [ScheduledUpgradeConfigMetricName.info]: ['upgradeconfig', 'cron', 'location', 'suspended'],
  [ScheduledUpgradeConfigMetricName.pinVersionWindow]: ['upgradeconfig'],
  [ScheduledUpgradeConfigMetricName.nextPossibleSchedule]: ['upgradeconfig', 'n', 'timestamp'],
};

/** Registers the three UpgradeConfig families on `registry`, filled from `source` at every scrape. */
export class ScheduledUpgradeConfigCollector {
  readonly #source: ScheduledUpgradeConfigSource;
  #snapshot: Map<string, ConfigSeries[]> | undefined;

  /** Throws if one of the names is already registered on `registry`. */
  constructor(registry: Registry, source: ScheduledUpgradeConfigSource) {
    this.#source = source;
    // prom-client calls collect() with the gauge as `this`; the series come through `take`.
    const take = (): Map<string, ConfigSeries[]> => this.#take();
    for (const name of Object.values(ScheduledUpgradeConfigMetricName)) {
      new Gauge({
        name,
        help: HELP[name] ?? '',
        labelNames: LABELS[name] ?? [],
        registers: [registry],
        collect(this: Gauge) {
          this.reset();
          for (const s of take().get(name) ?? []) this.set(s.labels, s.value);
        },
      });
    }
  }

  /** The series of the current scrape: every family's collect() runs in one synchronous turn, so the source is read once. */
  #take(): Map<string, ConfigSeries[]> {
    if (this.#snapshot) return this.#snapshot;
    const snap = scheduledUpgradeConfigSeries(this.#source());
    this.#snapshot = snap;
    queueMicrotask(() => {
      this.#snapshot = undefined;
    });
    return snap;
  }
}
