/**
 * APPUiO's UpgradeConfig gauges (docs/design/scheduled-flow.md#metrics): `upgradeconfig_info`,
 * `upgradeconfig_pin_version_window_seconds` and
 * `upgradeconfig_next_possible_schedule_timestamp_seconds`, under the namespace
 * `openshift_upgrade_controller`. Names and label names are APPUiO's, exactly; help texts are
 * ours. Like APPUiO they are computed at scrape time from the cached UpgradeConfigs (the pure
 * {@link scheduledUpgradeConfigSeries}); the class puts them into prom-client gauges on the
 * `Registry` handed in ({@link registerScrapeGauges}: a failing source blanks only these families).
 * As in APPUiO there is no namespace label: two configs of one name in two
 * namespaces share their series (the later one listed wins).
 */
import type { Registry } from 'prom-client';
import type { ScheduledUpgradeConfig } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-config.js';
import { parseGoDuration, SECOND } from '../../lib/go-duration.js';
import {
  registerScrapeGauges,
  utcTime,
  type GaugeFamily,
  type MetricSeries,
  type ScrapeCollectorOptions,
} from './scrape-gauges.js';

/** Family names, APPUiO's spelling. */
export const ScheduledUpgradeConfigMetricName = {
  info: 'openshift_upgrade_controller_upgradeconfig_info',
  pinVersionWindow: 'openshift_upgrade_controller_upgradeconfig_pin_version_window_seconds',
  nextPossibleSchedule: 'openshift_upgrade_controller_upgradeconfig_next_possible_schedule_timestamp_seconds',
} as const;

/** Go's `Duration.Seconds()` of a Go duration text; 0 when empty; undefined when not a duration. */
function durationSeconds(text: string | undefined): number | undefined {
  if (text === undefined || text === '') return 0;
  const d = parseGoDuration(text);
  if (!d.ok) return undefined;
  return Number(d.nanoseconds / SECOND) + Number(d.nanoseconds % SECOND) / 1e9;
}

/**
 * Every series of the three families for the given configs, keyed by family name. Pure. A
 * `pinVersionWindow` that is no Go duration leaves out only that config's pin series (APPUiO
 * could not have decoded such an object at all); an unparsable schedule time only its entry.
 */
export function scheduledUpgradeConfigSeries(configs: readonly ScheduledUpgradeConfig[]): Map<string, MetricSeries[]> {
  const N = ScheduledUpgradeConfigMetricName;
  const out = new Map<string, MetricSeries[]>([
    [N.info, []],
    [N.pinVersionWindow, []],
    [N.nextPossibleSchedule, []],
  ]);
  const add = (family: string, labels: Record<string, string>, value: number): void => {
    out.get(family)?.push({ labels, value });
  };
  for (const c of configs) {
    const upgradeconfig = c.metadata?.name ?? '';
    const schedule = c.spec?.schedule;
    add(
      N.info,
      {
        upgradeconfig,
        cron: schedule?.cron ?? '',
        location: schedule?.location ?? '',
        suspended: schedule?.suspend === true ? 'true' : 'false',
      },
      1,
    );
    const pin = durationSeconds(c.spec?.pinVersionWindow);
    if (pin !== undefined) add(N.pinVersionWindow, { upgradeconfig }, pin);
    (c.status?.nextPossibleSchedules ?? []).forEach((text, count) => {
      const t = utcTime(text.time);
      if (t) add(N.nextPossibleSchedule, { upgradeconfig, n: String(count), timestamp: t.rfc3339 }, t.unix);
    });
  }
  return out;
}

/** Reads the UpgradeConfigs on every scrape (typically the controller's informer cache). */
export type ScheduledUpgradeConfigSource = () => readonly ScheduledUpgradeConfig[];

/** The families with their label names and our help texts. */
export const UPGRADE_CONFIG_FAMILIES: readonly GaugeFamily[] = [
  {
    name: ScheduledUpgradeConfigMetricName.info,
    help: 'Information about an UpgradeConfig: its cron schedule, location and whether scheduling is suspended. Always 1.',
    labelNames: ['upgradeconfig', 'cron', 'location', 'suspended'],
  },
  {
    name: ScheduledUpgradeConfigMetricName.pinVersionWindow,
    help: 'How long before a maintenance window the UpgradeConfig creates its UpgradeJob and pins the version, in seconds.',
    labelNames: ['upgradeconfig'],
  },
  {
    name: ScheduledUpgradeConfigMetricName.nextPossibleSchedule,
    help: 'Unix time of the n-th next maintenance window of the UpgradeConfig (status.nextPossibleSchedules; suspension ignored).',
    labelNames: ['upgradeconfig', 'n', 'timestamp'],
  },
];

/** Registers the three UpgradeConfig families on `registry`, filled from `source` at every scrape; a throwing source gives them no series. */
export class ScheduledUpgradeConfigCollector {
  /** Throws if one of the names is already registered on `registry`. */
  constructor(registry: Registry, source: ScheduledUpgradeConfigSource, options: ScrapeCollectorOptions) {
    registerScrapeGauges(
      registry,
      [{ families: UPGRADE_CONFIG_FAMILIES, series: () => scheduledUpgradeConfigSeries(source()) }],
      options.log,
    );
  }
}
