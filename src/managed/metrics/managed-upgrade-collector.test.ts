import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { Registry } from 'prom-client';
import type { ClusterVersion, UpdateHistory } from '../../api/openshift/config-v1/cluster-version.js';
import type {
  ManagedUpgradeConfig,
  UpgradeCondition,
} from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import { UpgradeConditionType } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import {
  CONDITION_METRICS,
  collectorVersionLabel,
  conditionMetricName,
  ManagedUpgradeCollector,
  managedUpgradeSeries,
  type ManagedUpgradeCollectorInput,
} from './managed-upgrade-collector.js';
import { parseExposition, samplesOf, valueOf } from '../../kube/metrics-exposition.test-support.js';

const T0 = Date.UTC(2026, 2, 1, 10, 0, 0);
const iso = (minutes: number): string => new Date(T0 + minutes * 60_000).toISOString().replace(/\.000Z$/, 'Z');
const unix = (minutes: number): number => (T0 + minutes * 60_000) / 1000;

function condition(type: string, status: string, startMin: number, completeMin?: number): UpgradeCondition {
  return {
    type,
    status,
    startTime: iso(startMin),
    ...(completeMin === undefined ? {} : { completeTime: iso(completeMin) }),
    reason: `${type} ${status === 'True' ? 'done' : 'not done'}`,
    message: '',
  };
}

function sampleConfig(): ManagedUpgradeConfig {
  return {
    apiVersion: 'upgrade.managed.openshift.io/v1alpha1',
    kind: 'UpgradeConfig',
    metadata: { name: 'managed-upgrade-config', namespace: 'openshift-managed-upgrade-operator' },
    spec: {
      desired: { version: '4.15.3', channel: 'stable-4.15' },
      upgradeAt: iso(0),
      PDBForceDrainTimeout: 60,
      type: 'OSD',
      capacityReservation: true,
    },
    status: {
      history: [
        {
          version: '4.15.3',
          precedingVersion: '4.15.1',
          phase: 'Upgrading',
          startTime: iso(1),
          conditions: [
            condition('ControlPlaneUpgraded', 'False', 12),
            condition('UpgradeCommenced', 'True', 11, 12),
            condition('ControlPlaneMaintenanceWindowCreated', 'True', 10, 11),
            condition('ComputeCapacityReserved', 'True', 4, 10),
            condition('ExternalDependenciesAvailable', 'True', 3, 4),
            condition('ClusterHealthyBeforeUpgrade', 'True', 2, 3),
            condition('IsClusterUpgradable', 'True', 2, 2),
            condition('StartedNotificationSent', 'True', 1, 2),
          ],
        },
        {
          version: '4.15.1',
          precedingVersion: '4.14.9',
          phase: 'Upgraded',
          startTime: iso(-9000),
          completeTime: iso(-8900),
        },
      ],
    },
  };
}

function cvEntry(version: string, state: 'Completed' | 'Partial', completedMin: number | null): UpdateHistory {
  return {
    state,
    version,
    startedTime: iso((completedMin ?? 0) - 60),
    completionTime: completedMin === null ? null : iso(completedMin),
    image: `quay.io/openshift-release-dev/ocp-release@sha256:${version}`,
    verified: true,
  };
}

function clusterVersion(history: UpdateHistory[]): ClusterVersion {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: { name: 'version' },
    spec: { clusterID: '0f6c1a5e-1b2c-4d5e-8f90-123456789abc', channel: 'stable-4.15' },
    status: {
      desired: { version: '4.15.3', image: 'x' },
      history,
      observedGeneration: 1,
      versionHash: 'h',
      availableUpdates: null,
    },
  };
}

const MID_UPGRADE_CV = clusterVersion([
  cvEntry('4.15.3', 'Partial', null),
  cvEntry('4.15.1', 'Completed', -8900),
  cvEntry('4.14.9', 'Completed', -20000),
]);
const AFTER_CP_CV = clusterVersion([
  cvEntry('4.15.3', 'Completed', 40),
  cvEntry('4.15.1', 'Completed', -8900),
  cvEntry('4.14.9', 'Completed', -20000),
]);

test("every condition type of a step with a metric maps to MUO's family name", () => {
  const expected: Record<string, string> = {
    StartedNotificationSent: 'notification_start',
    ClusterHealthyBeforeUpgrade: 'health_check',
    ExternalDependenciesAvailable: 'external_dep_check',
    ComputeCapacityReserved: 'capacity_added',
    ControlPlaneMaintenanceWindowCreated: 'control_plane_maint_start',
    UpgradeCommenced: 'control_plane_upgrade_start',
    ControlPlaneUpgraded: 'control_plane_completion',
    ControlPlaneMaintenanceWindowRemoved: 'control_plane_maint_removed',
    WorkersMaintenanceWindowCreated: 'workers_maint_start',
    WorkerNodesUpgraded: 'workers_upgraded',
    ComputeCapacityRemoved: 'capacity_removed',
    WorkersMaintenanceWindowRemoved: 'workers_maint_removed',
    ClusterHealthyAfterUpgrade: 'post_upgrade_healthcheck',
    CompletedNotificationSent: 'notification_complete',
  };
  assert.deepEqual(Object.fromEntries(Object.entries(CONDITION_METRICS).map(([k, v]) => [k, v.x])), expected);
  for (const type of Object.keys(expected))
    assert.ok(Object.values(UpgradeConditionType).includes(type as never), type);
  assert.equal(
    conditionMetricName('UpgradeCommenced'),
    'managed_upgrade_condition_control_plane_upgrade_start_timestamp',
  );
  for (const none of ['IsClusterUpgradable', 'PostUpgradeTasksCompleted', 'FailedUpgrade'])
    assert.equal(conditionMetricName(none), undefined);
});

test('version label: current cluster version, the previous one once the desired version is current', () => {
  assert.equal(collectorVersionLabel(MID_UPGRADE_CV, '4.15.3'), '4.15.1');
  assert.equal(collectorVersionLabel(AFTER_CP_CV, '4.15.3'), '4.15.1');
  assert.equal(collectorVersionLabel(AFTER_CP_CV, '4.16.0'), '4.15.3');
  assert.equal(collectorVersionLabel(undefined, '4.15.3'), 'unknown');
  assert.equal(collectorVersionLabel(clusterVersion([cvEntry('4.15.3', 'Completed', 1)]), '4.15.3'), 'unknown');
  // Ordered by completion time, not by list position.
  assert.equal(
    collectorVersionLabel(
      clusterVersion([cvEntry('4.14.9', 'Completed', 1), cvEntry('4.15.1', 'Completed', 5)]),
      '4.16.0',
    ),
    '4.15.1',
  );
});

test("collector exposes the CR's spec, status and conditions with MUO's names, labels and values", async () => {
  const registry = new Registry();
  new ManagedUpgradeCollector(registry, () => ({ config: sampleConfig(), clusterVersion: MID_UPGRADE_CV }));
  const f = parseExposition(await registry.metrics());
  const base = { version: '4.15.1', desired_version: '4.15.3' };
  assert.equal(valueOf(f, 'managed_upgrade_upgrade_scheduled', { ...base, phase: 'Upgrading' }), unix(0));
  assert.equal(valueOf(f, 'managed_upgrade_upgrade_pdb_timeout_minutes', base), 60);
  assert.equal(valueOf(f, 'managed_upgrade_upgrade_start_timestamp', { ...base, phase: 'Upgrading' }), unix(1));
  assert.deepEqual(samplesOf(f, 'managed_upgrade_upgrade_complete_timestamp'), []);
  const cond = (status: string) => ({ upgradeconfig_name: 'managed-upgrade-config', ...base, condition: status });
  assert.equal(valueOf(f, 'managed_upgrade_condition_notification_start_timestamp', cond('True')), unix(2));
  assert.equal(valueOf(f, 'managed_upgrade_condition_health_check_timestamp', cond('True')), unix(3));
  assert.equal(valueOf(f, 'managed_upgrade_condition_external_dep_check_timestamp', cond('True')), unix(4));
  assert.equal(valueOf(f, 'managed_upgrade_condition_capacity_added_timestamp', cond('True')), unix(10));
  assert.equal(valueOf(f, 'managed_upgrade_condition_control_plane_maint_start_timestamp', cond('True')), unix(11));
  assert.equal(valueOf(f, 'managed_upgrade_condition_control_plane_upgrade_start_timestamp', cond('True')), unix(12));
  // In progress (False) ⇒ its start time.
  assert.equal(valueOf(f, 'managed_upgrade_condition_control_plane_completion_timestamp', cond('False')), unix(12));
  for (const later of [
    'control_plane_maint_removed',
    'workers_maint_start',
    'workers_upgraded',
    'capacity_removed',
    'workers_maint_removed',
    'post_upgrade_healthcheck',
    'notification_complete',
  ]) {
    assert.deepEqual(samplesOf(f, `managed_upgrade_condition_${later}_timestamp`), [], later);
  }
  assert.equal(valueOf(f, 'managed_upgrade_collector_scrape_failed', {}), 0);
  for (const family of f.values()) assert.equal(family.type, 'gauge', family.name);
  assert.equal(f.size, 4 + 14 + 1);
});

test('a completed upgrade: complete timestamp, phase label, and the version label stays the preceding one', () => {
  const config = sampleConfig();
  const h = config.status!.history![0]!;
  h.phase = 'Upgraded';
  h.completeTime = iso(90);
  h.conditions = [
    condition('CompletedNotificationSent', 'True', 89, 90),
    condition('ClusterHealthyAfterUpgrade', 'Unknown', 80),
  ];
  const series = managedUpgradeSeries({ config, clusterVersion: AFTER_CP_CV });
  assert.deepEqual(series.get('managed_upgrade_upgrade_complete_timestamp'), [
    { labels: { desired_version: '4.15.3', phase: 'Upgraded', version: '4.15.1' }, value: unix(90) },
  ]);
  assert.deepEqual(series.get('managed_upgrade_condition_post_upgrade_healthcheck_timestamp'), [
    {
      labels: {
        condition: 'Unknown',
        desired_version: '4.15.3',
        upgradeconfig_name: 'managed-upgrade-config',
        version: '4.15.1',
      },
      value: unix(80),
    },
  ]);
});

test('no series without a CR or without a history entry for its desired version; odd data leaves out only its series', () => {
  assert.equal(managedUpgradeSeries({}).size, 0);
  const fresh = sampleConfig();
  fresh.status = {};
  assert.equal(managedUpgradeSeries({ config: fresh, clusterVersion: MID_UPGRADE_CV }).size, 0);
  const odd = sampleConfig();
  odd.spec!.upgradeAt = 'tomorrow';
  odd.status!.history![0]!.conditions = [
    { type: 'UpgradeCommenced', status: 'True', startTime: iso(1) }, // True without completeTime
    { type: 'ControlPlaneUpgraded', status: 'Maybe', startTime: iso(1) },
    condition('StartedNotificationSent', 'True', 1, 2),
    condition('StartedNotificationSent', 'False', 0), // older duplicate: ignored
  ];
  const series = managedUpgradeSeries({ config: odd, clusterVersion: MID_UPGRADE_CV });
  assert.equal(series.get('managed_upgrade_upgrade_scheduled'), undefined);
  assert.equal(series.get('managed_upgrade_condition_control_plane_upgrade_start_timestamp'), undefined);
  assert.equal(series.get('managed_upgrade_condition_control_plane_completion_timestamp'), undefined);
  assert.deepEqual(
    series.get('managed_upgrade_condition_notification_start_timestamp')?.map((s) => s.value),
    [unix(2)],
  );
  assert.ok(series.get('managed_upgrade_upgrade_pdb_timeout_minutes'));
});

test('a source that throws yields scrape_failed 1 and no other series, then recovers; read once per scrape', async () => {
  const registry = new Registry();
  let calls = 0;
  let input: ManagedUpgradeCollectorInput | Error = new Error('informer not synced');
  const collector = new ManagedUpgradeCollector(registry, () => {
    calls++;
    if (input instanceof Error) throw input;
    return input;
  });
  let f = parseExposition(await registry.metrics());
  assert.equal(valueOf(f, 'managed_upgrade_collector_scrape_failed', {}), 1);
  for (const family of f.values()) {
    if (family.name !== 'managed_upgrade_collector_scrape_failed') assert.equal(family.samples.length, 0, family.name);
  }
  assert.match(String(collector.lastError), /informer not synced/);
  assert.equal(calls, 1);

  input = { config: sampleConfig(), clusterVersion: MID_UPGRADE_CV };
  f = parseExposition(await registry.metrics());
  assert.equal(valueOf(f, 'managed_upgrade_collector_scrape_failed', {}), 0);
  assert.equal(samplesOf(f, 'managed_upgrade_upgrade_scheduled').length, 1);
  assert.equal(collector.lastError, undefined);
  assert.equal(calls, 2);

  // The CR disappears: its series disappear with it.
  input = {};
  f = parseExposition(await registry.metrics());
  assert.equal(samplesOf(f, 'managed_upgrade_upgrade_scheduled').length, 0);
  assert.equal(samplesOf(f, 'managed_upgrade_condition_notification_start_timestamp').length, 0);
  assert.equal(calls, 3);
});

test("promtool accepts the collector exposition (format; only the minutes-unit lint of MUO's name)", async () => {
  const registry = new Registry();
  new ManagedUpgradeCollector(registry, () => ({ config: sampleConfig(), clusterVersion: MID_UPGRADE_CV }));
  const r = spawnSync('promtool', ['check', 'metrics'], { input: await registry.metrics(), encoding: 'utf8' });
  assert.equal(r.error, undefined, String(r.error));
  const problems = `${r.stdout}${r.stderr}`.trim().split('\n').filter(Boolean);
  assert.deepEqual(problems, [
    'managed_upgrade_upgrade_pdb_timeout_minutes use base unit "seconds" instead of "minutes"',
  ]);
  assert.equal(r.status, 3, 'lint problems only, no parse error');
});
