/**
 * The alerting and recording rules the install ships, one group per flow: `managed-upgrade`
 * (the managed flow's `upgradeoperator_*` and `managed_upgrade_*` families) and
 * `scheduled-upgrade` (the APPUiO families of the scheduled flow). Every alert has a `severity`
 * label and `summary`, `description` and `runbook_url` annotations; the runbook URL is
 * {@link RUNBOOK_BASE_URL} plus the anchor of the alert's section in docs/runbooks.md. The same
 * groups become a PrometheusRule per flow (`deploy/managed`, `deploy/scheduled`) and a plain
 * rules file for `promtool` (`deploy/prometheus/<group>.rules.yaml`); docs/metrics.md lists them.
 * Pure builders.
 */
import type { JsonObject } from '../../lib/json.js';
import { objectMeta } from './operator-objects.js';

/**
 * Where the runbooks are published: docs/runbooks.md of the project's repository. Each alert's
 * `runbook_url` is this plus `#<alert name in lower case>`, the anchor of its section. Change it
 * when the runbooks live elsewhere (a fork, an internal wiki) and regenerate (`npm run manifests`).
 */
export const RUNBOOK_BASE_URL = 'https://github.com/upgrade-operator/upgrade-operator/blob/main/docs/runbooks.md';

/** The severities the rules use (OpenShift's: critical pages, warning tickets, info informs). */
export type Severity = 'critical' | 'warning' | 'info';

/** One alerting rule. */
export interface AlertRule {
  alert: string;
  expr: string;
  /** Prometheus duration; unset: fires at the first evaluation that matches. */
  for?: string;
  labels: { severity: Severity } & Record<string, string>;
  annotations: { summary: string; description: string; runbook_url: string };
}

/** One recording rule. */
export interface RecordingRule {
  record: string;
  expr: string;
}

/** One rule group. */
export interface RuleGroup {
  name: string;
  rules: Array<AlertRule | RecordingRule>;
}

/** `runbook_url` of an alert: the section of docs/runbooks.md headed with its name. */
export function runbookUrl(alert: string): string {
  return `${RUNBOOK_BASE_URL}#${alert.toLowerCase()}`;
}

function alert(
  name: string,
  expr: string,
  forDuration: string | undefined,
  severity: Severity,
  summary: string,
  description: string,
): AlertRule {
  return {
    alert: name,
    expr,
    ...(forDuration !== undefined ? { for: forDuration } : {}),
    labels: { severity },
    annotations: { summary, description, runbook_url: runbookUrl(name) },
  };
}

/** The `job` label of the managed flow's gauges: Prometheus Operator names it after the Service. */
export const MANAGED_METRICS_JOB = 'managed-upgrade-operator-metrics';
/** The `job` label of the scheduled flow's metrics (Service `upgrade-operator-metrics`). */
export const SCHEDULED_METRICS_JOB = 'upgrade-operator-metrics';

/** The managed flow's group: OSD's upgrade alerts on MUO's families, ours, and duration records. */
export function managedUpgradeRuleGroup(): RuleGroup {
  return {
    name: 'managed-upgrade',
    rules: [
      alert(
        'UpgradeConfigValidationFailedSRE',
        'avg_over_time(upgradeoperator_upgradeconfig_validation_failed[10m]) == 1',
        '10m',
        'critical',
        'UpgradeConfig {{ $labels.upgradeconfig_name }} fails validation',
        'UpgradeConfig {{ $labels.upgradeconfig_name }} has failed validation on every pass for 20 minutes: the upgrade will not start at its upgradeAt. Its Waiting condition says why.',
      ),
      alert(
        'UpgradeClusterCheckFailedSRE',
        'max by (upgradeconfig_name, reason) (avg_over_time(upgradeoperator_healthcheck_failed[10m])) == 1',
        '10m',
        'critical',
        'Upgrade health check failing: {{ $labels.reason }}',
        'The health check {{ $labels.reason }} of UpgradeConfig {{ $labels.upgradeconfig_name }} has failed for 20 minutes; the upgrade may be held before or after the control plane upgrade.',
      ),
      alert(
        'UpgradeNodeScalingFailedSRE',
        'avg_over_time(upgradeoperator_scaling_failed[10m]) == 1',
        '10m',
        'critical',
        'Extra capacity for the upgrade did not come up; the upgrade continues without it',
        'The extra workers reserved for the upgrade of {{ $labels.upgradeconfig_name }} were not ready within scale.timeOut: workloads may lack room while nodes drain.',
      ),
      alert(
        'UpgradeControlPlaneUpgradeTimeoutSRE',
        'avg_over_time(upgradeoperator_controlplane_timeout[10m]) == 1',
        '10m',
        'critical',
        'Control plane upgrade to {{ $labels.version }} exceeds its maintenance time',
        'The control plane of the cluster has been upgrading to {{ $labels.version }} for longer than maintenance.controlPlaneTime; the upgrade goes on, the maintenance silence may have ended.',
      ),
      alert(
        'UpgradeNodeUpgradeTimeoutSRE',
        'avg_over_time(upgradeoperator_worker_timeout[10m]) == 1',
        '10m',
        'critical',
        'Workers still upgrading to {{ $labels.version }} after the worker maintenance window',
        'Worker nodes are still upgrading to {{ $labels.version }} and no maintenance silence of the operator is active any more.',
      ),
      alert(
        'UpgradeNodeDrainFailedSRE',
        'avg_over_time(upgradeoperator_node_drain_timeout[10m]) == 1',
        '10m',
        'critical',
        'Node {{ $labels.node_name }} cannot be drained',
        'Node {{ $labels.node_name }} failed to drain despite the drain strategies; its update waits until the blocking pods are gone.',
      ),
      alert(
        'UpgradeWindowBreached',
        'upgradeoperator_upgrade_window_breached == 1',
        undefined,
        'warning',
        'Upgrade of {{ $labels.upgradeconfig_name }} failed: not started within the upgrade window',
        'The upgrade of {{ $labels.upgradeconfig_name }} did not commence within upgradeWindow.timeOut after its upgradeAt and was given up; the cluster was not changed.',
      ),
      alert(
        'UpgradeConfigSyncFailureOver4HrSRE',
        'time() - upgradeoperator_upgradeconfig_sync_timestamp > 4 * 3600',
        '10m',
        'critical',
        'UpgradeConfig not synced from its policy provider for over 4 hours',
        'UpgradeConfig {{ $labels.upgradeconfig_name }} has not been synced from its policy provider (OCM or LOCAL) for over 4 hours: policy changes do not reach the cluster.',
      ),
      alert(
        'UpgradeNotificationFailing',
        'upgrade_notification_failed == 1',
        '30m',
        'warning',
        'Upgrade notification {{ $labels.event }} cannot be sent',
        'The {{ $labels.event }} notification of UpgradeConfig {{ $labels.upgradeconfig_name }} has failed to send for 30 minutes.',
      ),
      alert(
        'UpgradeScheduledButNotStarted',
        'time() - managed_upgrade_upgrade_scheduled{phase=~"New|Pending"} > 3600',
        '10m',
        'warning',
        'Upgrade to {{ $labels.desired_version }} is over an hour past its start time',
        'The upgrade to {{ $labels.desired_version }} was scheduled over an hour ago and has not started (phase {{ $labels.phase }}).',
      ),
      alert(
        'UpgradeMetricsCollectorFailing',
        'managed_upgrade_collector_scrape_failed == 1',
        '15m',
        'warning',
        'The upgrade operator cannot read its UpgradeConfig for metrics',
        'For 15 minutes the managed_upgrade_* collector could not read the UpgradeConfig or ClusterVersion; those series are missing.',
      ),
      alert(
        'ManagedUpgradeOperatorDown',
        `absent(up{job="${MANAGED_METRICS_JOB}"} == 1)`,
        '15m',
        'warning',
        'The managed upgrade operator is down or not scraped',
        `For 15 minutes Prometheus has had no successful scrape of job ${MANAGED_METRICS_JOB}: the operator is not running, not ready, or its ServiceMonitor is not picked up. Upgrades do not progress and the other upgrade alerts are blind.`,
      ),
      {
        record: 'upgradeoperator:upgrade_duration_seconds',
        expr: 'upgradeoperator_upgrade_completed_timestamp - on (_id, upgradeconfig_name, version) upgradeoperator_upgrade_started_timestamp',
      },
      {
        record: 'upgradeoperator:controlplane_upgrade_duration_seconds',
        expr: 'upgradeoperator_controlplane_upgrade_completed_timestamp - on (_id, upgradeconfig_name, version) upgradeoperator_controlplane_upgrade_started_timestamp',
      },
      {
        record: 'upgradeoperator:workernode_upgrade_duration_seconds',
        expr: 'upgradeoperator_workernode_upgrade_completed_timestamp - on (_id, upgradeconfig_name, version) upgradeoperator_workernode_upgrade_started_timestamp',
      },
      {
        record: 'upgradeoperator:clean_upgrade_ratio',
        expr: 'sum(upgradeoperator_upgrade_result) / count(upgradeoperator_upgrade_result)',
      },
    ],
  };
}

/** The scheduled flow's group: the alerts of APPUiO's component, and ours. */
export function scheduledUpgradeRuleGroup(): RuleGroup {
  return {
    name: 'scheduled-upgrade',
    rules: [
      alert(
        'NodeDrainStuck',
        'openshift_upgrade_controller_node_draining == 1',
        '15m',
        'warning',
        'Node {{ $labels.node }} has been draining for 15 minutes',
        'The machine-config daemon asked node {{ $labels.node }} to drain (or uncordon) 15 minutes ago and it is not done: its pool update waits.',
      ),
      alert(
        'MaintenanceInProgress',
        'openshift_upgrade_controller_upgradejob_state{state="active"} == 1',
        undefined,
        'info',
        'Cluster maintenance {{ $labels.upgradejob }} is in progress',
        'UpgradeJob {{ $labels.upgradejob }} has started and is not finished: the cluster is being upgraded.',
      ),
      alert(
        'PausedMachineConfigPool',
        'openshift_upgrade_controller_machine_config_pools_paused == 1 unless on () (count(openshift_upgrade_controller_upgradejob_state{state=~"active|paused"}) > 0)',
        '2h',
        'warning',
        'MachineConfigPool {{ $labels.pool }} is paused outside of a maintenance',
        'MachineConfigPool {{ $labels.pool }} has been paused for 2 hours while no UpgradeJob is active: its nodes get no updates, and the next UpgradeJob will wait for it.',
      ),
      alert(
        'UpgradeJobFailed',
        'openshift_upgrade_controller_upgradejob_state{state="failed"} == 1',
        undefined,
        'warning',
        'UpgradeJob {{ $labels.upgradejob }} failed: {{ $labels.reason }}',
        'UpgradeJob {{ $labels.upgradejob }} failed with reason {{ $labels.reason }} (HookFailed: one of its hooks failed). The alert fires until the job is deleted.',
      ),
      alert(
        'UpgradeMetricsSourceMissing',
        'absent(openshift_upgrade_controller_cluster_upgrading)',
        '15m',
        'warning',
        'The upgrade operator cannot read ClusterVersion or MachineConfigPools for its metrics',
        'For 15 minutes there has been no openshift_upgrade_controller_cluster_upgrading sample: the operator cannot read ClusterVersion or MachineConfigPools, or is not scraped.',
      ),
      alert(
        'ScheduledUpgradeOperatorDown',
        `absent(up{job="${SCHEDULED_METRICS_JOB}"} == 1)`,
        '15m',
        'warning',
        'The scheduled upgrade operator is down or not scraped',
        `For 15 minutes Prometheus has had no successful scrape of job ${SCHEDULED_METRICS_JOB}: the operator is not running, not ready, or its ServiceMonitor is not picked up. UpgradeJobs are not created or run.`,
      ),
    ],
  };
}

/** Every group the install ships, the managed flow's first. */
export function shippedRuleGroups(): RuleGroup[] {
  return [managedUpgradeRuleGroup(), scheduledUpgradeRuleGroup()];
}

/** True for alerting rules. */
export function isAlertRule(rule: AlertRule | RecordingRule): rule is AlertRule {
  return 'alert' in rule;
}

/** A PrometheusRule (monitoring.coreos.com/v1) of one group, for the platform Prometheus. */
export function prometheusRule(namespace: string, name: string, group: RuleGroup): JsonObject {
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: objectMeta(name, namespace),
    spec: { groups: [JSON.parse(JSON.stringify(group)) as JsonObject] },
  };
}

/** The plain rules file of one group, as Prometheus and `promtool` read it (`groups:` at the top). */
export function rulesFile(group: RuleGroup): JsonObject {
  return { groups: [JSON.parse(JSON.stringify(group)) as JsonObject] };
}
