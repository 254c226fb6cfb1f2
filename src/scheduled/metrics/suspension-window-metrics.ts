/**
 * APPUiO's UpgradeSuspensionWindow gauges (docs/design/scheduled-flow.md#metrics):
 * `upgradesuspensionwindow_info`, `…_start_timestamp_seconds`, `…_end_timestamp_seconds` and
 * `…_matching_config`, under the namespace `openshift_upgrade_controller`. Names and label names
 * are APPUiO's; help texts are ours (APPUiO's end metric wrongly says "start",
 * docs/design/scheduled-flow.md#12-metrics-without-a-namespace). Computed at scrape time from the
 * cached windows (the pure {@link suspensionWindowSeries}). No namespace label, as in APPUiO.
 */
import type { Registry } from 'prom-client';
import type { UpgradeSuspensionWindow } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-suspension-window.js';
import {
  registerScrapeGauges,
  utcTime,
  type GaugeFamily,
  type MetricSeries,
  type ScrapeCollectorOptions,
} from './scrape-gauges.js';

/** Family names, APPUiO's spelling. */
export const SuspensionWindowMetricName = {
  info: 'openshift_upgrade_controller_upgradesuspensionwindow_info',
  start: 'openshift_upgrade_controller_upgradesuspensionwindow_start_timestamp_seconds',
  end: 'openshift_upgrade_controller_upgradesuspensionwindow_end_timestamp_seconds',
  matchingConfig: 'openshift_upgrade_controller_upgradesuspensionwindow_matching_config',
} as const;

/** The families with their label names and our help texts. */
export const SUSPENSION_WINDOW_FAMILIES: readonly GaugeFamily[] = [
  {
    name: SuspensionWindowMetricName.info,
    help: 'An UpgradeSuspensionWindow and its reason. Always 1.',
    labelNames: ['upgradesuspensionwindow', 'reason'],
  },
  {
    name: SuspensionWindowMetricName.start,
    help: "The UpgradeSuspensionWindow's spec.start as a Unix time in seconds.",
    labelNames: ['upgradesuspensionwindow'],
  },
  {
    name: SuspensionWindowMetricName.end,
    help: "The UpgradeSuspensionWindow's spec.end as a Unix time in seconds.",
    labelNames: ['upgradesuspensionwindow'],
  },
  {
    name: SuspensionWindowMetricName.matchingConfig,
    help: 'An UpgradeConfig the UpgradeSuspensionWindow selects (status.matchingConfigs). Always 1.',
    labelNames: ['upgradesuspensionwindow', 'config'],
  },
];

/**
 * Every series of the four families, keyed by family name. Pure. A start or end that does not
 * parse leaves out only that series.
 */
export function suspensionWindowSeries(windows: readonly UpgradeSuspensionWindow[]): Map<string, MetricSeries[]> {
  const N = SuspensionWindowMetricName;
  const out = new Map<string, MetricSeries[]>([
    [N.info, []],
    [N.start, []],
    [N.end, []],
    [N.matchingConfig, []],
  ]);
  const add = (family: string, labels: Record<string, string>, value: number): void =>
    void out.get(family)?.push({ labels, value });
  for (const w of windows) {
    const upgradesuspensionwindow = w.metadata?.name ?? '';
    add(N.info, { upgradesuspensionwindow, reason: w.spec?.reason ?? '' }, 1);
    const start = utcTime(w.spec?.start);
    if (start) add(N.start, { upgradesuspensionwindow }, start.unix);
    const end = utcTime(w.spec?.end);
    if (end) add(N.end, { upgradesuspensionwindow }, end.unix);
    for (const c of w.status?.matchingConfigs ?? [])
      add(N.matchingConfig, { upgradesuspensionwindow, config: c.name }, 1);
  }
  return out;
}

/** Reads the UpgradeSuspensionWindows on every scrape (typically an informer cache). */
export type SuspensionWindowSource = () => readonly UpgradeSuspensionWindow[];

/** Registers the four UpgradeSuspensionWindow families on `registry`; if the source throws, they have no series. */
export class SuspensionWindowCollector {
  /** Throws if one of the names is already registered on `registry`. */
  constructor(registry: Registry, source: SuspensionWindowSource, options: ScrapeCollectorOptions) {
    registerScrapeGauges(
      registry,
      [{ families: SUSPENSION_WINDOW_FAMILIES, series: () => suspensionWindowSeries(source()) }],
      options.log,
    );
  }
}
