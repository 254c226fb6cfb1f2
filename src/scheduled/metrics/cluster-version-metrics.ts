/**
 * APPUiO's managed ClusterVersion gauges (docs/design/scheduled-flow.md#clusterversion,
 * docs/design/scheduled-flow.md#metrics): `cluster_version_info` from `status.current` (the spec
 * applied now) and `cluster_version_overlay_timestamp_seconds`, one per `status.overlays[]`
 * preview, valued at its `from`. Names and label names are APPUiO's; help texts are ours. Computed
 * at scrape time from the one managed (managedupgrade.appuio.io/v1beta1) ClusterVersion the
 * operator reconciles (the pure {@link clusterVersionSeries}).
 */
import type { Registry } from 'prom-client';
import type { ManagedClusterVersion } from '../../api/managedupgrade.appuio.io/v1beta1/cluster-version.js';
import type { ClusterVersionSpec } from '../../api/openshift/config-v1/cluster-version.js';
import {
  registerScrapeGauges,
  utcTime,
  type GaugeFamily,
  type MetricSeries,
  type ScrapeCollectorOptions,
} from './scrape-gauges.js';

/** Family names, APPUiO's spelling. */
export const ClusterVersionMetricName = {
  info: 'openshift_upgrade_controller_cluster_version_info',
  overlay: 'openshift_upgrade_controller_cluster_version_overlay_timestamp_seconds',
} as const;

const SPEC_LABELS = ['baseline_capability_set', 'channel', 'cluster_id', 'upstream'] as const;

/** The families with their label names and our help texts. */
export const CLUSTER_VERSION_FAMILIES: readonly GaugeFamily[] = [
  {
    name: ClusterVersionMetricName.info,
    help: 'The ClusterVersion spec the managed ClusterVersion applies now (status.current). Always 1.',
    labelNames: ['cluster_version', ...SPEC_LABELS],
  },
  {
    name: ClusterVersionMetricName.overlay,
    help: 'The ClusterVersion spec that applies from an overlay of the managed ClusterVersion on (status.overlays), valued at that time as a Unix time in seconds.',
    labelNames: ['cluster_version', 'from', ...SPEC_LABELS],
  },
];

/** The spec labels; absent fields (and an absent spec) are empty, as Go's zero values. */
function specLabels(spec: Partial<ClusterVersionSpec> | undefined): Record<(typeof SPEC_LABELS)[number], string> {
  return {
    baseline_capability_set: spec?.capabilities?.baselineCapabilitySet ?? '',
    channel: spec?.channel ?? '',
    cluster_id: spec?.clusterID ?? '',
    upstream: spec?.upstream ?? '',
  };
}

/**
 * Every series of the two families, keyed by family name. Pure. No object gives no series; an
 * object without status gives an info series with empty spec labels, as in APPUiO; an overlay
 * whose `from` does not parse is left out.
 */
export function clusterVersionSeries(cv: ManagedClusterVersion | undefined): Map<string, MetricSeries[]> {
  const N = ClusterVersionMetricName;
  const out = new Map<string, MetricSeries[]>([
    [N.info, []],
    [N.overlay, []],
  ]);
  if (!cv) return out;
  const cluster_version = cv.metadata?.name ?? '';
  out.get(N.info)?.push({ labels: { cluster_version, ...specLabels(cv.status?.current) }, value: 1 });
  for (const o of cv.status?.overlays ?? []) {
    const from = utcTime(o.from);
    if (from)
      out
        .get(N.overlay)
        ?.push({ labels: { cluster_version, from: from.rfc3339, ...specLabels(o.preview.spec) }, value: from.unix });
  }
  return out;
}

/** Reads the managed ClusterVersion named by the configuration on every scrape; undefined when it does not exist. */
export type ManagedClusterVersionSource = () => ManagedClusterVersion | undefined;

/** Registers the two ClusterVersion families on `registry`; if the source throws, they have no series. */
export class ClusterVersionCollector {
  /** Throws if one of the names is already registered on `registry`. */
  constructor(registry: Registry, source: ManagedClusterVersionSource, options: ScrapeCollectorOptions) {
    registerScrapeGauges(
      registry,
      [{ families: CLUSTER_VERSION_FAMILIES, series: () => clusterVersionSeries(source()) }],
      options.log,
    );
  }
}
