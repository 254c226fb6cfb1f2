/**
 * The unit tests of every shipped alert (src/api/deploy/alert-rules.ts), as `promtool test rules`
 * files: for each alert, input series on which it fires, an evaluation just before it may fire
 * (before its `for` has elapsed, or before its condition holds when it has none) and one at which
 * it fires, with its labels and rendered annotations; and input series on which it must not fire.
 * alerts.test.ts runs them and keeps the committed files in test/alerts/ equal to what
 * {@link renderPromtoolTests} writes.
 */
import { stringify } from 'yaml';
import type { AlertRule, RuleGroup } from '../../src/api/deploy/alert-rules.js';

/** One input series in promtool's notation (`values`: expanding notation, `_` for no sample). */
export interface Series {
  series: string;
  values: string;
}

/** What one alert is tested with. */
export interface AlertCase {
  alert: string;
  /** Input on which the alert fires. */
  fires: Series[];
  /** An evaluation time on that input at which it does not fire yet (promtool duration). */
  quietAt: string;
  /** An evaluation time on that input at which it fires. */
  firesAt: string;
  /** The alert's labels at firesAt, besides `alertname` and `severity`. */
  labels: Record<string, string>;
  /** Inputs on which it never fires, each evaluated at `at`. */
  never: Array<{ why: string; input: Series[]; at: string }>;
}

const CONFIG = 'upgradeconfig_name="osd-upgrade-config"';

function flapping(samples: number): string {
  return Array.from({ length: samples }, (_, i) => String((i + 1) % 2)).join(' ');
}

/** The managed flow's alerts. */
export const MANAGED_CASES: AlertCase[] = [
  {
    alert: 'UpgradeConfigValidationFailedSRE',
    fires: [{ series: `upgradeoperator_upgradeconfig_validation_failed{${CONFIG}}`, values: '1x40' }],
    quietAt: '9m',
    firesAt: '11m',
    labels: { upgradeconfig_name: 'osd-upgrade-config' },
    never: [
      {
        why: 'valid',
        input: [{ series: `upgradeoperator_upgradeconfig_validation_failed{${CONFIG}}`, values: '0x40' }],
        at: '30m',
      },
      {
        why: 'failing on every other pass only',
        input: [{ series: `upgradeoperator_upgradeconfig_validation_failed{${CONFIG}}`, values: flapping(40) }],
        at: '30m',
      },
    ],
  },
  {
    alert: 'UpgradeClusterCheckFailedSRE',
    fires: [
      {
        series: `upgradeoperator_healthcheck_failed{${CONFIG},state="Upgrading",version="4.14.10",reason="critical_alerts_firing"}`,
        values: '1x40',
      },
    ],
    quietAt: '9m',
    firesAt: '11m',
    labels: { upgradeconfig_name: 'osd-upgrade-config', reason: 'critical_alerts_firing' },
    never: [
      {
        why: 'the check passes',
        input: [
          {
            series: `upgradeoperator_healthcheck_failed{${CONFIG},state="Upgrading",version="4.14.10",reason="critical_alerts_firing"}`,
            values: '0x40',
          },
        ],
        at: '30m',
      },
      {
        why: 'failing for 5 minutes, then passing',
        input: [
          {
            series: `upgradeoperator_healthcheck_failed{${CONFIG},state="Upgrading",version="4.14.10",reason="cluster_operators_degraded"}`,
            values: '1x5 0x35',
          },
        ],
        at: '30m',
      },
    ],
  },
  {
    alert: 'UpgradeNodeScalingFailedSRE',
    fires: [{ series: `upgradeoperator_scaling_failed{${CONFIG}}`, values: '1x40' }],
    quietAt: '9m',
    firesAt: '11m',
    labels: { upgradeconfig_name: 'osd-upgrade-config' },
    never: [
      { why: 'scaled', input: [{ series: `upgradeoperator_scaling_failed{${CONFIG}}`, values: '0x40' }], at: '30m' },
    ],
  },
  {
    alert: 'UpgradeControlPlaneUpgradeTimeoutSRE',
    fires: [{ series: `upgradeoperator_controlplane_timeout{${CONFIG},version="4.14.10"}`, values: '1x40' }],
    quietAt: '9m',
    firesAt: '11m',
    labels: { upgradeconfig_name: 'osd-upgrade-config', version: '4.14.10' },
    never: [
      {
        why: 'within the maintenance time',
        input: [{ series: `upgradeoperator_controlplane_timeout{${CONFIG},version="4.14.10"}`, values: '0x40' }],
        at: '30m',
      },
    ],
  },
  {
    alert: 'UpgradeNodeUpgradeTimeoutSRE',
    fires: [{ series: `upgradeoperator_worker_timeout{${CONFIG},version="4.14.10"}`, values: '1x40' }],
    quietAt: '9m',
    firesAt: '11m',
    labels: { upgradeconfig_name: 'osd-upgrade-config', version: '4.14.10' },
    never: [
      {
        why: 'a silence is active',
        input: [{ series: `upgradeoperator_worker_timeout{${CONFIG},version="4.14.10"}`, values: '0x40' }],
        at: '30m',
      },
    ],
  },
  {
    alert: 'UpgradeNodeDrainFailedSRE',
    fires: [{ series: 'upgradeoperator_node_drain_timeout{node_name="worker-1"}', values: '1x40' }],
    quietAt: '9m',
    firesAt: '11m',
    labels: { node_name: 'worker-1' },
    never: [
      {
        why: 'drained',
        input: [{ series: 'upgradeoperator_node_drain_timeout{node_name="worker-1"}', values: '0x40' }],
        at: '30m',
      },
    ],
  },
  {
    alert: 'UpgradeWindowBreached',
    fires: [{ series: `upgradeoperator_upgrade_window_breached{${CONFIG}}`, values: '0 0 0 1x10' }],
    quietAt: '2m',
    firesAt: '3m',
    labels: { upgradeconfig_name: 'osd-upgrade-config' },
    never: [
      {
        why: 'commenced in time',
        input: [{ series: `upgradeoperator_upgrade_window_breached{${CONFIG}}`, values: '0x10' }],
        at: '10m',
      },
    ],
  },
  {
    alert: 'UpgradeConfigSyncFailureOver4HrSRE',
    // Last synced at the epoch, never again: 4 h pass at 4h00m, the rule holds from 4h01m.
    fires: [{ series: `upgradeoperator_upgradeconfig_sync_timestamp{${CONFIG}}`, values: '0x300' }],
    quietAt: '4h10m',
    firesAt: '4h12m',
    labels: { upgradeconfig_name: 'osd-upgrade-config' },
    never: [
      {
        why: 'synced every minute',
        input: [{ series: `upgradeoperator_upgradeconfig_sync_timestamp{${CONFIG}}`, values: '0+60x300' }],
        at: '4h30m',
      },
    ],
  },
  {
    alert: 'UpgradeNotificationFailing',
    fires: [{ series: `upgrade_notification_failed{${CONFIG},event="StartedNotificationSent"}`, values: '1x40' }],
    quietAt: '29m',
    firesAt: '31m',
    labels: { upgradeconfig_name: 'osd-upgrade-config', event: 'StartedNotificationSent' },
    never: [
      {
        why: 'sent',
        input: [{ series: `upgrade_notification_failed{${CONFIG},event="StartedNotificationSent"}`, values: '0x40' }],
        at: '35m',
      },
    ],
  },
  {
    alert: 'UpgradeScheduledButNotStarted',
    // upgradeAt at the epoch: an hour late at 1h00m, the rule holds from 1h01m.
    fires: [
      {
        series: 'managed_upgrade_upgrade_scheduled{version="4.14.9",desired_version="4.14.10",phase="Pending"}',
        values: '0x100',
      },
    ],
    quietAt: '1h10m',
    firesAt: '1h12m',
    labels: { version: '4.14.9', desired_version: '4.14.10', phase: 'Pending' },
    never: [
      {
        why: 'the upgrade has started',
        input: [
          {
            series: 'managed_upgrade_upgrade_scheduled{version="4.14.9",desired_version="4.14.10",phase="Upgrading"}',
            values: '0x100',
          },
        ],
        at: '1h30m',
      },
    ],
  },
  {
    alert: 'UpgradeMetricsCollectorFailing',
    fires: [{ series: 'managed_upgrade_collector_scrape_failed', values: '1x30' }],
    quietAt: '14m',
    firesAt: '16m',
    labels: {},
    never: [
      {
        why: 'scrapes succeed',
        input: [{ series: 'managed_upgrade_collector_scrape_failed', values: '0x30' }],
        at: '20m',
      },
    ],
  },
  {
    alert: 'ManagedUpgradeOperatorDown',
    fires: [{ series: 'up{job="managed-upgrade-operator-metrics",instance="10.128.0.5:8383"}', values: '0x30' }],
    quietAt: '14m',
    firesAt: '16m',
    labels: {},
    never: [
      {
        why: 'scraped',
        input: [{ series: 'up{job="managed-upgrade-operator-metrics",instance="10.128.0.5:8383"}', values: '1x30' }],
        at: '20m',
      },
    ],
  },
];

/** The scheduled flow's alerts. */
export const SCHEDULED_CASES: AlertCase[] = [
  {
    alert: 'NodeDrainStuck',
    fires: [{ series: 'openshift_upgrade_controller_node_draining{node="worker-1"}', values: '1x30' }],
    quietAt: '14m',
    firesAt: '16m',
    labels: { node: 'worker-1' },
    never: [
      {
        why: 'drained within 10 minutes',
        input: [{ series: 'openshift_upgrade_controller_node_draining{node="worker-1"}', values: '1x10 0x20' }],
        at: '25m',
      },
    ],
  },
  {
    alert: 'MaintenanceInProgress',
    fires: [
      {
        series: 'openshift_upgrade_controller_upgradejob_state{upgradejob="upgrade-1",state="pending"}',
        values: '1 1',
      },
      {
        series: 'openshift_upgrade_controller_upgradejob_state{upgradejob="upgrade-1",state="active"}',
        values: '_ _ 1x10',
      },
    ],
    quietAt: '1m',
    firesAt: '3m',
    labels: { upgradejob: 'upgrade-1', state: 'active' },
    never: [
      {
        why: 'the job has succeeded',
        input: [
          {
            series:
              'openshift_upgrade_controller_upgradejob_state{upgradejob="upgrade-1",state="succeeded",reason="Succeeded"}',
            values: '1x10',
          },
        ],
        at: '5m',
      },
    ],
  },
  {
    alert: 'PausedMachineConfigPool',
    fires: [{ series: 'openshift_upgrade_controller_machine_config_pools_paused{pool="worker"}', values: '1x150' }],
    quietAt: '1h59m',
    firesAt: '2h1m',
    labels: { pool: 'worker' },
    never: [
      {
        why: 'paused by an active UpgradeJob',
        input: [
          { series: 'openshift_upgrade_controller_machine_config_pools_paused{pool="worker"}', values: '1x150' },
          {
            series: 'openshift_upgrade_controller_upgradejob_state{upgradejob="upgrade-1",state="active"}',
            values: '1x150',
          },
        ],
        at: '2h30m',
      },
      {
        why: 'not paused',
        input: [{ series: 'openshift_upgrade_controller_machine_config_pools_paused{pool="worker"}', values: '0x150' }],
        at: '2h30m',
      },
    ],
  },
  {
    alert: 'UpgradeJobFailed',
    fires: [
      { series: 'openshift_upgrade_controller_upgradejob_state{upgradejob="upgrade-1",state="active"}', values: '1 1' },
      {
        series:
          'openshift_upgrade_controller_upgradejob_state{upgradejob="upgrade-1",state="failed",reason="HookFailed"}',
        values: '_ _ 1x10',
      },
    ],
    quietAt: '1m',
    firesAt: '3m',
    labels: { upgradejob: 'upgrade-1', state: 'failed', reason: 'HookFailed' },
    never: [
      {
        why: 'the job has succeeded',
        input: [
          {
            series:
              'openshift_upgrade_controller_upgradejob_state{upgradejob="upgrade-1",state="succeeded",reason="Succeeded"}',
            values: '1x10',
          },
        ],
        at: '5m',
      },
    ],
  },
  {
    alert: 'UpgradeMetricsSourceMissing',
    fires: [{ series: 'openshift_upgrade_controller_node_draining{node="worker-1"}', values: '0x30' }],
    quietAt: '14m',
    firesAt: '16m',
    labels: {},
    never: [
      {
        why: 'readable',
        input: [{ series: 'openshift_upgrade_controller_cluster_upgrading', values: '0x30' }],
        at: '20m',
      },
    ],
  },
  {
    alert: 'ScheduledUpgradeOperatorDown',
    fires: [{ series: 'up{job="upgrade-operator-metrics",instance="10.128.0.7:8080"}', values: '0x30' }],
    quietAt: '14m',
    firesAt: '16m',
    labels: {},
    never: [
      {
        why: 'scraped',
        input: [{ series: 'up{job="upgrade-operator-metrics",instance="10.128.0.7:8080"}', values: '1x30' }],
        at: '20m',
      },
    ],
  },
];

/** Fills `{{ $labels.x }}` as Prometheus' templates do (a missing label is empty). */
export function fillLabels(template: string, labels: Record<string, string>): string {
  return template.replace(/\{\{ \$labels\.([A-Za-z_][A-Za-z0-9_]*) \}\}/g, (_, name: string) => labels[name] ?? '');
}

/** A promtool test file for one group's rules file (`rulesPath` relative to the test file). */
export function renderPromtoolTests(group: RuleGroup, rulesPath: string, cases: readonly AlertCase[]): string {
  const rules = new Map(group.rules.filter((r): r is AlertRule => 'alert' in r).map((r) => [r.alert, r] as const));
  const tests = cases.flatMap((c) => {
    const rule = rules.get(c.alert);
    if (!rule) throw new Error(`no alert ${c.alert} in group ${group.name}`);
    const labels = { ...c.labels, severity: rule.labels.severity };
    const annotations = Object.fromEntries(
      Object.entries(rule.annotations).map(([k, v]) => [k, fillLabels(v, labels)]),
    );
    return [
      {
        name: `${c.alert} fires${rule.for !== undefined ? `, not before its for (${rule.for})` : ''}`,
        interval: '1m',
        input_series: c.fires,
        alert_rule_test: [
          { eval_time: c.quietAt, alertname: c.alert, exp_alerts: [] },
          {
            eval_time: c.firesAt,
            alertname: c.alert,
            exp_alerts: [{ exp_labels: labels, exp_annotations: annotations }],
          },
        ],
      },
      ...c.never.map((n) => ({
        name: `${c.alert} does not fire: ${n.why}`,
        interval: '1m',
        input_series: n.input,
        alert_rule_test: [{ eval_time: n.at, alertname: c.alert, exp_alerts: [] }],
      })),
    ];
  });
  const header = `# Unit tests of the ${group.name} alerts; generated from test/alerts/alert-cases.test-support.ts.\n# Run: promtool test rules <this file>\n`;
  return header + stringify({ rule_files: [rulesPath], evaluation_interval: '1m', tests }, { lineWidth: 0 });
}
