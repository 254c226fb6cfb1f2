/**
 * MUO's operator gauges (docs/metrics.md#operator-gauges): the `upgradeoperator_*` families (and
 * the unprefixed `upgrade_notification_failed`) that SRE alerting rules are written against. Names
 * and label names are MUO's, exactly; help texts are ours. The gauges live on the `Registry` handed
 * in (one per operator instance, never prom-client's global one), and callers use typed methods
 * instead of raw gauges so a label can never be misspelt.
 */
import { Gauge, type Registry } from 'prom-client';
import { upgradeStream, type UpgradeStream } from './upgrade-result.js';

/** Every family name this class registers, MUO's spelling. */
export const ManagedUpgradeMetricName = {
  validationFailed: 'upgradeoperator_upgradeconfig_validation_failed',
  scalingFailed: 'upgradeoperator_scaling_failed',
  upgradeWindowBreached: 'upgradeoperator_upgrade_window_breached',
  controlPlaneTimeout: 'upgradeoperator_controlplane_timeout',
  healthCheckFailed: 'upgradeoperator_healthcheck_failed',
  workerTimeout: 'upgradeoperator_worker_timeout',
  nodeDrainTimeout: 'upgradeoperator_node_drain_timeout',
  notificationSent: 'upgradeoperator_upgrade_notification',
  /** No `upgradeoperator_` prefix: MUO's spelling. */
  notificationFailed: 'upgrade_notification_failed',
  syncTimestamp: 'upgradeoperator_upgradeconfig_sync_timestamp',
  upgradeStarted: 'upgradeoperator_upgrade_started_timestamp',
  upgradeCompleted: 'upgradeoperator_upgrade_completed_timestamp',
  controlPlaneUpgradeStarted: 'upgradeoperator_controlplane_upgrade_started_timestamp',
  controlPlaneUpgradeCompleted: 'upgradeoperator_controlplane_upgrade_completed_timestamp',
  workerNodeUpgradeStarted: 'upgradeoperator_workernode_upgrade_started_timestamp',
  workerNodeUpgradeCompleted: 'upgradeoperator_workernode_upgrade_completed_timestamp',
  upgradeResult: 'upgradeoperator_upgrade_result',
} as const;

/** Values of the `reason` label of `upgradeoperator_healthcheck_failed` (MUO's list). */
export const HealthCheckFailureReason = {
  QueryFailed: 'healthcheck_query_failed',
  CriticalAlertsFiring: 'critical_alerts_firing',
  ClusterOperatorsDegraded: 'cluster_operators_degraded',
  ClusterOperatorStatusFailed: 'cluster_operator_status_failed',
  DefaultWorkerMachinePoolNotFound: 'default_worker_machinepool_not_found',
  NodeQueryFailed: 'cluster_node_query_failed',
  NodeManuallyCordoned: 'cluster_node_manually_cordoned',
  NodeTaintUnschedulable: 'cluster_node_taint_unschedulable',
  InvalidPdb: 'cluster_invalid_pdb',
  InvalidPdbConfiguration: 'cluster_invalid_pdb_configuration',
  PdbQueryFailed: 'pdb_query_failed',
  DvoClientCreationFailed: 'dvo_client_creation_failed',
  DvoMetricsQueryFailed: 'dvo_metrics_query_failed',
} as const;
/** A `reason` label value of `upgradeoperator_healthcheck_failed`. */
export type HealthCheckFailureReasonName = (typeof HealthCheckFailureReason)[keyof typeof HealthCheckFailureReason];

/** The six lifecycle timestamps; the family is `upgradeoperator_<kind>_timestamp`. */
export type UpgradeTimestampKind =
  | 'upgrade_started'
  | 'upgrade_completed'
  | 'controlplane_upgrade_started'
  | 'controlplane_upgrade_completed'
  | 'workernode_upgrade_started'
  | 'workernode_upgrade_completed';

const TIMESTAMP_KINDS: readonly UpgradeTimestampKind[] = [
  'upgrade_started',
  'upgrade_completed',
  'controlplane_upgrade_started',
  'controlplane_upgrade_completed',
  'workernode_upgrade_started',
  'workernode_upgrade_completed',
];

const TIMESTAMP_HELP: Record<UpgradeTimestampKind, string> = {
  upgrade_started: 'Unix time at which the upgrade started (the started notification was sent).',
  upgrade_completed: 'Unix time at which the whole upgrade completed (the completed notification was sent).',
  controlplane_upgrade_started:
    'Unix time at which the cluster version operator was told to upgrade the control plane.',
  controlplane_upgrade_completed: 'Unix time at which the control plane upgrade was seen completed.',
  workernode_upgrade_started:
    'Unix time at which the worker nodes started to upgrade (the control plane had completed).',
  workernode_upgrade_completed: 'Unix time at which all worker nodes had upgraded.',
};

/** Labels identifying one lifecycle timestamp series. */
export interface UpgradeTimestampLabels {
  /** Cluster ID (`clusterversion.spec.clusterID`); empty or absent ⇒ `unknown`, as MUO writes. */
  id?: string | undefined;
  /** UpgradeConfig name. */
  name: string;
  /** Desired version of the upgrade. */
  version: string;
}

/** Labels of one `upgradeoperator_healthcheck_failed` series. */
export interface HealthCheckLabels {
  /** UpgradeConfig name. */
  name: string;
  /** Phase of the upgrade when the check ran (`New`, `Upgrading`, …). */
  state: string;
  /** Current cluster version, or `unknown`. */
  version: string;
  reason: HealthCheckFailureReasonName;
}

/** One upgrade's outcome for `upgradeoperator_upgrade_result`. */
export interface UpgradeResult {
  /** UpgradeConfig name. */
  name: string;
  /** `status.history[].precedingVersion`. */
  precedingVersion: string;
  /** Default: {@link upgradeStream} of `precedingVersion` → `version`. */
  stream?: UpgradeStream | undefined;
  /** The upgrade's desired version. */
  version: string;
  /** Paging alerts that fired during the upgrade; written comma-joined into the `alerts` label. */
  alerts: readonly string[];
}

/** Builds a label object with its keys in sorted order, so exposition matches Go's output. */
function sorted<T extends string>(labels: Record<T, string>): Record<T, string> {
  const out = {} as Record<T, string>;
  for (const key of (Object.keys(labels) as T[]).sort()) out[key] = labels[key];
  return out;
}

type ResultLabel = 'upgradeconfig_name' | 'preceding_version' | 'stream' | 'version' | 'alerts';

function flag(on: boolean): number {
  return on ? 1 : 0;
}

/** MUO's `upgradeoperator_*` gauges on one registry, behind typed setters. */
export class ManagedUpgradeMetrics {
  readonly #validationFailed: Gauge<'upgradeconfig_name'>;
  readonly #scalingFailed: Gauge<'upgradeconfig_name'>;
  readonly #windowBreached: Gauge<'upgradeconfig_name'>;
  readonly #controlPlaneTimeout: Gauge<'upgradeconfig_name' | 'version'>;
  readonly #healthCheckFailed: Gauge<'upgradeconfig_name' | 'state' | 'version' | 'reason'>;
  readonly #workerTimeout: Gauge<'upgradeconfig_name' | 'version'>;
  readonly #nodeDrainTimeout: Gauge<'node_name'>;
  readonly #notificationSent: Gauge<'upgradeconfig_name' | 'event' | 'version'>;
  readonly #notificationFailed: Gauge<'upgradeconfig_name' | 'event'>;
  readonly #syncTimestamp: Gauge<'upgradeconfig_name'>;
  readonly #timestamps: Record<UpgradeTimestampKind, Gauge<'_id' | 'upgradeconfig_name' | 'version'>>;
  readonly #upgradeResult: Gauge<ResultLabel>;
  /** Label set currently written for each (name, version) of upgrade_result, to replace it on change. */
  readonly #resultSeries = new Map<string, Record<ResultLabel, string>>();

  /** Registers every family on `registry`; throws if one of the names is already registered there. */
  constructor(registry: Registry) {
    const gauge = <L extends string>(name: string, help: string, labelNames: L[]): Gauge<L> =>
      new Gauge({ name, help, labelNames, registers: [registry] });
    const N = ManagedUpgradeMetricName;
    this.#validationFailed = gauge(
      N.validationFailed,
      '1 when the UpgradeConfig failed validation while pending, 0 once it validates.',
      ['upgradeconfig_name'],
    );
    this.#scalingFailed = gauge(
      N.scalingFailed,
      '1 when the extra capacity-reservation workers did not become ready in time, 0 when they did.',
      ['upgradeconfig_name'],
    );
    this.#windowBreached = gauge(
      N.upgradeWindowBreached,
      '1 when the upgrade failed because it could not be commenced within the upgrade window, 0 once commenced.',
      ['upgradeconfig_name'],
    );
    this.#controlPlaneTimeout = gauge(
      N.controlPlaneTimeout,
      '1 while the control plane upgrade runs longer than the control plane maintenance time.',
      ['upgradeconfig_name', 'version'],
    );
    this.#healthCheckFailed = gauge(
      N.healthCheckFailed,
      '1 for each cluster health check that failed (reason label), 0 once it passes.',
      ['reason', 'state', 'upgradeconfig_name', 'version'],
    );
    this.#workerTimeout = gauge(
      N.workerTimeout,
      '1 while worker nodes are still upgrading and no maintenance silence covers them.',
      ['upgradeconfig_name', 'version'],
    );
    this.#nodeDrainTimeout = gauge(
      N.nodeDrainTimeout,
      '1 for a node whose drain failed despite the drain strategies, 0 once it drains.',
      ['node_name'],
    );
    this.#notificationSent = gauge(
      N.notificationSent,
      '1 once the notification of an upgrade event was sent for that version.',
      ['event', 'upgradeconfig_name', 'version'],
    );
    this.#notificationFailed = gauge(
      N.notificationFailed,
      '1 when sending the notification of an upgrade event failed, 0 when the last attempt succeeded.',
      ['event', 'upgradeconfig_name'],
    );
    this.#syncTimestamp = gauge(
      N.syncTimestamp,
      'Unix time of the last successful sync of the UpgradeConfig from its policy provider.',
      ['upgradeconfig_name'],
    );
    const timestamps = {} as Record<UpgradeTimestampKind, Gauge<'_id' | 'upgradeconfig_name' | 'version'>>;
    for (const kind of TIMESTAMP_KINDS) {
      timestamps[kind] = gauge(`upgradeoperator_${kind}_timestamp`, TIMESTAMP_HELP[kind], [
        '_id',
        'upgradeconfig_name',
        'version',
      ]);
    }
    this.#timestamps = timestamps;
    this.#upgradeResult = gauge(
      N.upgradeResult,
      '1 when no paging alert fired during the upgrade, 0 when one did (alerts label); kept across upgrades.',
      ['alerts', 'preceding_version', 'stream', 'upgradeconfig_name', 'version'],
    );
  }

  /** `upgradeoperator_upgradeconfig_validation_failed`: set by the UpgradeConfig controller in Pending. */
  setValidationFailed(name: string, failed: boolean): void {
    this.#validationFailed.set({ upgradeconfig_name: name }, flag(failed));
  }

  /** `upgradeoperator_scaling_failed`: set by the capacity-reservation step. */
  setScalingFailed(name: string, failed: boolean): void {
    this.#scalingFailed.set({ upgradeconfig_name: name }, flag(failed));
  }

  /** `upgradeoperator_upgrade_window_breached`: 1 on window failure, 0 at CommenceUpgrade. */
  setUpgradeWindowBreached(name: string, breached: boolean): void {
    this.#windowBreached.set({ upgradeconfig_name: name }, flag(breached));
  }

  /** `upgradeoperator_controlplane_timeout{name,version}`. */
  setControlPlaneTimeout(name: string, version: string, on: boolean): void {
    this.#controlPlaneTimeout.set(sorted({ upgradeconfig_name: name, version }), flag(on));
  }

  /** `upgradeoperator_healthcheck_failed{name,state,version,reason}`: one series per check. */
  setHealthCheckFailed(labels: HealthCheckLabels, failed: boolean): void {
    const { name, state, version, reason } = labels;
    this.#healthCheckFailed.set(sorted({ reason, state, upgradeconfig_name: name, version }), flag(failed));
  }

  /** `upgradeoperator_worker_timeout{name,version}`. */
  setWorkerTimeout(name: string, version: string, on: boolean): void {
    this.#workerTimeout.set(sorted({ upgradeconfig_name: name, version }), flag(on));
  }

  /** `upgradeoperator_node_drain_timeout{node_name}`: 1 when the drain failed, 0 to reset one node. */
  setNodeDrainTimeout(node: string, on: boolean): void {
    this.#nodeDrainTimeout.set({ node_name: node }, flag(on));
  }

  /** Removes every `upgradeoperator_node_drain_timeout` series (MUO's ResetAllMetricNodeDrainFailed). */
  resetNodeDrainTimeouts(): void {
    this.#nodeDrainTimeout.reset();
  }

  /** `upgradeoperator_upgrade_notification{name,event,version} = 1` after a successful send. */
  setNotificationSent(name: string, event: string, version: string): void {
    this.#notificationSent.set(sorted({ event, upgradeconfig_name: name, version }), 1);
  }

  /** `upgrade_notification_failed{name,event}`: 1 when a send failed, 0 after a successful one. */
  setNotificationFailed(name: string, event: string, failed: boolean): void {
    this.#notificationFailed.set(sorted({ event, upgradeconfig_name: name }), flag(failed));
  }

  /** `upgradeoperator_upgradeconfig_sync_timestamp{name}`: Unix seconds of the last successful provider sync. */
  setSyncTimestamp(name: string, unixSeconds: number): void {
    this.#syncTimestamp.set({ upgradeconfig_name: name }, Math.floor(unixSeconds));
  }

  /** `upgradeoperator_<kind>_timestamp{_id,name,version}` in whole Unix seconds. */
  setTimestamp(kind: UpgradeTimestampKind, labels: UpgradeTimestampLabels, unixSeconds: number): void {
    const id = labels.id ? labels.id : 'unknown';
    this.#timestamps[kind].set(
      sorted({ _id: id, upgradeconfig_name: labels.name, version: labels.version }),
      Math.floor(unixSeconds),
    );
  }

  /**
   * `upgradeoperator_upgrade_result`: 1 when `ok` (no paging alert fired), else 0. One series per
   * (name, version): a later call for the same upgrade replaces the series instead of leaving the
   * old label set behind, as MUO does.
   */
  setUpgradeResult(result: UpgradeResult, ok: boolean): void {
    const labels = sorted({
      alerts: result.alerts.join(','),
      preceding_version: result.precedingVersion,
      stream: result.stream ?? upgradeStream(result.precedingVersion, result.version),
      upgradeconfig_name: result.name,
      version: result.version,
    });
    const key = JSON.stringify([result.name, result.version]);
    const previous = this.#resultSeries.get(key);
    if (previous && JSON.stringify(previous) !== JSON.stringify(labels)) this.#upgradeResult.remove(previous);
    this.#resultSeries.set(key, labels);
    this.#upgradeResult.set(labels, flag(ok));
  }

  /**
   * Clears every ephemeral family, i.e. all but `upgradeoperator_upgrade_result` (MUO's
   * ResetEphemeralMetrics, run when the UpgradeConfig is gone).
   */
  resetEphemeral(): void {
    for (const gauge of [
      this.#validationFailed,
      this.#scalingFailed,
      this.#windowBreached,
      this.#controlPlaneTimeout,
      this.#healthCheckFailed,
      this.#workerTimeout,
      this.#nodeDrainTimeout,
      this.#notificationSent,
      this.#notificationFailed,
      this.#syncTimestamp,
      ...Object.values(this.#timestamps),
    ]) {
      gauge.reset();
    }
  }

  /**
   * Clears the families that describe a failed attempt so the next attempt starts clean (MUO's
   * ResetFailureMetrics, run on an upgrade-window failure): validation, scaling, control-plane
   * timeout, health checks, worker timeout, node drain, notification sent/failed and the
   * upgrade-started timestamp.
   */
  resetFailureMetrics(): void {
    for (const gauge of [
      this.#validationFailed,
      this.#scalingFailed,
      this.#controlPlaneTimeout,
      this.#healthCheckFailed,
      this.#workerTimeout,
      this.#nodeDrainTimeout,
      this.#notificationSent,
      this.#notificationFailed,
      this.#timestamps.upgrade_started,
    ]) {
      gauge.reset();
    }
  }
}
