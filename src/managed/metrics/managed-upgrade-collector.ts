/**
 * MUO's CR-derived collector (docs/metrics.md#custom-cr-derived-metrics): the `managed_upgrade_*`
 * families, computed at scrape time from the current UpgradeConfig and ClusterVersion. MUO serves
 * them on their own endpoint (Service `managed-upgrade-operator-custom-metrics`, port 8089), so
 * they get their own `Registry`. The computation is the pure {@link managedUpgradeSeries}; the
 * class only puts its answer into prom-client gauges whose `collect()` runs on every scrape.
 */
import { Gauge, type Registry } from 'prom-client';
import type { ClusterVersion } from '../../api/openshift/config-v1/cluster-version.js';
import type {
  ManagedUpgradeConfig,
  UpgradeCondition,
  UpgradeHistory,
} from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import { parseRfc3339 } from '../../lib/rfc3339.js';

/** What the collector reads on each scrape (typically the informer caches). */
export interface ManagedUpgradeCollectorInput {
  /** The acted-upon UpgradeConfig; absent ⇒ no series. */
  config?: ManagedUpgradeConfig | undefined;
  /** ClusterVersion `version`; absent ⇒ label `version` is `unknown`. */
  clusterVersion?: ClusterVersion | undefined;
}

/** Called on every scrape; may throw (the scrape then reports `managed_upgrade_collector_scrape_failed 1`). */
export type ManagedUpgradeCollectorSource = () => ManagedUpgradeCollectorInput;

/** One series of a family: its labels and value. */
export interface CollectedSeries {
  labels: Record<string, string>;
  value: number;
}

/** Condition type → the `<x>` of `managed_upgrade_condition_<x>_timestamp`, with our help text. */
export const CONDITION_METRICS: Readonly<Record<string, { x: string; help: string }>> = {
  StartedNotificationSent: { x: 'notification_start', help: 'the upgrade-started notification step' },
  ClusterHealthyBeforeUpgrade: { x: 'health_check', help: 'the pre-upgrade cluster health check' },
  ExternalDependenciesAvailable: { x: 'external_dep_check', help: 'the external dependency availability check' },
  ComputeCapacityReserved: { x: 'capacity_added', help: 'the reservation of extra worker capacity' },
  ControlPlaneMaintenanceWindowCreated: {
    x: 'control_plane_maint_start',
    help: 'the creation of the control plane maintenance window',
  },
  UpgradeCommenced: { x: 'control_plane_upgrade_start', help: 'the start of the control plane upgrade' },
  ControlPlaneUpgraded: { x: 'control_plane_completion', help: 'the completion of the control plane upgrade' },
  ControlPlaneMaintenanceWindowRemoved: {
    x: 'control_plane_maint_removed',
    help: 'the removal of the control plane maintenance window',
  },
  WorkersMaintenanceWindowCreated: { x: 'workers_maint_start', help: 'the creation of the worker maintenance window' },
  WorkerNodesUpgraded: { x: 'workers_upgraded', help: 'the upgrade of all worker nodes' },
  ComputeCapacityRemoved: { x: 'capacity_removed', help: 'the removal of the extra worker capacity' },
  WorkersMaintenanceWindowRemoved: { x: 'workers_maint_removed', help: 'the removal of the worker maintenance window' },
  ClusterHealthyAfterUpgrade: { x: 'post_upgrade_healthcheck', help: 'the post-upgrade cluster health check' },
  CompletedNotificationSent: { x: 'notification_complete', help: 'the upgrade-completed notification step' },
};

/** Family names of the collector. */
export const CollectorMetricName = {
  scheduled: 'managed_upgrade_upgrade_scheduled',
  pdbTimeout: 'managed_upgrade_upgrade_pdb_timeout_minutes',
  startTimestamp: 'managed_upgrade_upgrade_start_timestamp',
  completeTimestamp: 'managed_upgrade_upgrade_complete_timestamp',
  scrapeFailed: 'managed_upgrade_collector_scrape_failed',
} as const;

/** `managed_upgrade_condition_<x>_timestamp` for a condition type, or undefined when it has none. */
export function conditionMetricName(conditionType: string): string | undefined {
  const m = CONDITION_METRICS[conditionType];
  return m ? `managed_upgrade_condition_${m.x}_timestamp` : undefined;
}

/** Whole Unix seconds of an RFC 3339 time (Go's `time.Unix()`), or undefined when absent or malformed. */
function unixSeconds(text: string | null | undefined): number | undefined {
  const ms = text ? parseRfc3339(text) : undefined;
  return ms === undefined ? undefined : Math.floor(ms / 1000);
}

/** Completed ClusterVersion history versions, newest completion first. */
function completedVersions(cv: ClusterVersion | undefined): string[] {
  const done = (cv?.status?.history ?? [])
    .filter((h) => h.state === 'Completed')
    .map((h) => ({ version: h.version, at: unixSeconds(h.completionTime) ?? Number.NEGATIVE_INFINITY }));
  done.sort((a, b) => b.at - a.at);
  return done.map((d) => d.version);
}

/**
 * Label `version` of the collector: the cluster's current version (newest Completed history
 * entry), or the one before it once the desired version has become current, so the series of one
 * upgrade keep their labels. `unknown` when ClusterVersion does not say.
 */
export function collectorVersionLabel(cv: ClusterVersion | undefined, desiredVersion: string | undefined): string {
  const [current, previous] = completedVersions(cv);
  if (current === undefined) return 'unknown';
  if (current !== (desiredVersion ?? '')) return current;
  return previous ?? 'unknown';
}

function historyFor(config: ManagedUpgradeConfig, version: string): UpgradeHistory | undefined {
  return (config.status?.history ?? []).find((h) => (h.version ?? '') === version);
}

function conditionValue(upgradeCondition: UpgradeCondition): number | undefined {
  switch (upgradeCondition.status) {
    case 'True':
      return unixSeconds(upgradeCondition.completeTime);
    case 'False':
    case 'Unknown':
      return unixSeconds(upgradeCondition.startTime);
    default:
      return undefined;
  }
}

/**
 * Every series of the collector's families for one UpgradeConfig and ClusterVersion, keyed by
 * family name (families without series are absent). Pure. Nothing is emitted without a config or
 * without a history entry for its desired version. A missing or malformed time leaves out just
 * the series that needs it (MUO fails the whole scrape instead).
 */
export function managedUpgradeSeries(input: ManagedUpgradeCollectorInput): Map<string, CollectedSeries[]> {
  const out = new Map<string, CollectedSeries[]>();
  const { config } = input;
  if (!config?.spec) return out;
  const desired = config.spec.desired.version ?? '';
  const history = historyFor(config, desired);
  if (!history) return out;
  const version = collectorVersionLabel(input.clusterVersion, desired);
  const add = (family: string, labels: Record<string, string>, value: number | undefined): void => {
    if (value === undefined) return;
    const list = out.get(family) ?? [];
    const ordered: Record<string, string> = {};
    for (const key of Object.keys(labels).sort()) ordered[key] = labels[key]!;
    list.push({ labels: ordered, value });
    out.set(family, list);
  };
  const withPhase = { version, desired_version: desired, phase: history.phase };
  add(CollectorMetricName.scheduled, withPhase, unixSeconds(config.spec.upgradeAt));
  add(CollectorMetricName.pdbTimeout, { version, desired_version: desired }, config.spec.PDBForceDrainTimeout);
  add(CollectorMetricName.startTimestamp, withPhase, unixSeconds(history.startTime));
  add(CollectorMetricName.completeTimestamp, withPhase, unixSeconds(history.completeTime));
  const seen = new Set<string>();
  for (const c of history.conditions ?? []) {
    const family = conditionMetricName(c.type);
    // Conditions are newest first; a duplicated type keeps its first (newest) entry.
    if (!family || seen.has(family)) continue;
    seen.add(family);
    add(
      family,
      { upgradeconfig_name: config.metadata?.name ?? '', version, desired_version: desired, condition: c.status },
      conditionValue(c),
    );
  }
  return out;
}

/** The result of one scrape: the series, or the error the source threw. */
type Snapshot = { ok: true; series: Map<string, CollectedSeries[]> } | { ok: false; error: unknown };

/**
 * Registers the `managed_upgrade_*` families on `registry` and fills them from `source` on every
 * scrape. A source that throws yields `managed_upgrade_collector_scrape_failed 1` and no other
 * series, instead of failing the scrape; otherwise that family is 0.
 */
export class ManagedUpgradeCollector {
  readonly #source: ManagedUpgradeCollectorSource;
  #snapshot: Snapshot | undefined;
  #lastError: unknown;

  constructor(registry: Registry, source: ManagedUpgradeCollectorSource) {
    this.#source = source;
    const registers = [registry];
    const families: { name: string; help: string; labelNames: string[] }[] = [
      {
        name: CollectorMetricName.scheduled,
        help: 'Unix time at which the upgrade is scheduled to start (spec.upgradeAt).',
        labelNames: ['version', 'desired_version', 'phase'],
      },
      {
        name: CollectorMetricName.pdbTimeout,
        help: 'Minutes a PodDisruptionBudget may block a node drain before pods are removed (spec.PDBForceDrainTimeout).',
        labelNames: ['version', 'desired_version'],
      },
      {
        name: CollectorMetricName.startTimestamp,
        help: 'Unix time at which the upgrade started.',
        labelNames: ['version', 'desired_version', 'phase'],
      },
      {
        name: CollectorMetricName.completeTimestamp,
        help: 'Unix time at which the whole upgrade completed.',
        labelNames: ['version', 'desired_version', 'phase'],
      },
      ...Object.values(CONDITION_METRICS).map((m) => ({
        name: `managed_upgrade_condition_${m.x}_timestamp`,
        help: `Unix time at which ${m.help} completed (condition True) or started (otherwise).`,
        labelNames: ['upgradeconfig_name', 'version', 'desired_version', 'condition'],
      })),
    ];
    // prom-client calls collect() with the gauge as `this`; the snapshot comes through `take`.
    const take = (): Snapshot => this.#take();
    for (const f of families) {
      const name = f.name;
      new Gauge({
        ...f,
        registers,
        collect(this: Gauge) {
          this.reset();
          const snap = take();
          if (!snap.ok) return;
          for (const s of snap.series.get(name) ?? []) this.set(s.labels, s.value);
        },
      });
    }
    new Gauge({
      name: CollectorMetricName.scrapeFailed,
      help: '1 when the last scrape could not read the UpgradeConfig or ClusterVersion, else 0.',
      registers,
      collect(this: Gauge) {
        this.set(take().ok ? 0 : 1);
      },
    });
  }

  /** The error the source threw at the last scrape, or undefined after a good one (for logging). */
  get lastError(): unknown {
    return this.#lastError;
  }

  /**
   * The snapshot of the current scrape. prom-client calls every family's `collect()` in the same
   * synchronous turn, so the source is read once per scrape; the cache is dropped at the next
   * microtask.
   */
  #take(): Snapshot {
    if (this.#snapshot) return this.#snapshot;
    let snap: Snapshot;
    try {
      snap = { ok: true, series: managedUpgradeSeries(this.#source()) };
      this.#lastError = undefined;
    } catch (error) {
      snap = { ok: false, error };
      this.#lastError = error;
    }
    this.#snapshot = snap;
    queueMicrotask(() => {
      this.#snapshot = undefined;
    });
    return snap;
  }
}
