import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { Registry } from 'prom-client';
import {
  HealthCheckFailureReason,
  ManagedUpgradeMetricName,
  ManagedUpgradeMetrics,
} from './managed-upgrade-metrics.js';
import { parseExposition, samplesOf, valueOf, type ParsedFamily } from '../../kube/metrics-exposition.test-support.js';

const NAME = 'managed-upgrade-config';

async function exposed(registry: Registry): Promise<Map<string, ParsedFamily>> {
  return parseExposition(await registry.metrics());
}

/** Sets one series in every family. */
function fillAll(m: ManagedUpgradeMetrics): void {
  m.setValidationFailed(NAME, true);
  m.setScalingFailed(NAME, true);
  m.setUpgradeWindowBreached(NAME, true);
  m.setControlPlaneTimeout(NAME, '4.15.3', true);
  m.setHealthCheckFailed(
    { name: NAME, state: 'Upgrading', version: '4.14.9', reason: HealthCheckFailureReason.CriticalAlertsFiring },
    true,
  );
  m.setWorkerTimeout(NAME, '4.15.3', true);
  m.setNodeDrainTimeout('worker-a', true);
  m.setNotificationSent(NAME, 'started', '4.15.3');
  m.setNotificationFailed(NAME, 'started', true);
  m.setSyncTimestamp(NAME, 1_700_000_000);
  for (const kind of [
    'upgrade_started',
    'upgrade_completed',
    'controlplane_upgrade_started',
    'controlplane_upgrade_completed',
    'workernode_upgrade_started',
    'workernode_upgrade_completed',
  ] as const) {
    m.setTimestamp(kind, { id: 'cluster-1', name: NAME, version: '4.15.3' }, 1_700_000_100);
  }
  m.setUpgradeResult({ name: NAME, precedingVersion: '4.14.9', version: '4.15.3', alerts: [] }, true);
}

const ALL_FAMILIES = [
  'upgradeoperator_upgradeconfig_validation_failed',
  'upgradeoperator_scaling_failed',
  'upgradeoperator_upgrade_window_breached',
  'upgradeoperator_controlplane_timeout',
  'upgradeoperator_healthcheck_failed',
  'upgradeoperator_worker_timeout',
  'upgradeoperator_node_drain_timeout',
  'upgradeoperator_upgrade_notification',
  'upgrade_notification_failed',
  'upgradeoperator_upgradeconfig_sync_timestamp',
  'upgradeoperator_upgrade_started_timestamp',
  'upgradeoperator_upgrade_completed_timestamp',
  'upgradeoperator_controlplane_upgrade_started_timestamp',
  'upgradeoperator_controlplane_upgrade_completed_timestamp',
  'upgradeoperator_workernode_upgrade_started_timestamp',
  'upgradeoperator_workernode_upgrade_completed_timestamp',
  'upgradeoperator_upgrade_result',
];

test("registers exactly MUO's 17 gauge families, with help, and no series before anything is set", async () => {
  const registry = new Registry();
  new ManagedUpgradeMetrics(registry);
  const families = await exposed(registry);
  assert.deepEqual([...families.keys()].sort(), [...ALL_FAMILIES].sort());
  assert.deepEqual(Object.values(ManagedUpgradeMetricName).sort(), [...ALL_FAMILIES].sort());
  for (const f of families.values()) {
    assert.equal(f.type, 'gauge', f.name);
    assert.ok(f.help.length > 10, f.name);
    assert.equal(f.samples.length, 0, f.name);
  }
});

test("every setter writes its family with MUO's exact label names and values", async () => {
  const registry = new Registry();
  const m = new ManagedUpgradeMetrics(registry);
  fillAll(m);
  const f = await exposed(registry);
  const one = { upgradeconfig_name: NAME };
  assert.equal(valueOf(f, 'upgradeoperator_upgradeconfig_validation_failed', one), 1);
  assert.equal(valueOf(f, 'upgradeoperator_scaling_failed', one), 1);
  assert.equal(valueOf(f, 'upgradeoperator_upgrade_window_breached', one), 1);
  assert.equal(valueOf(f, 'upgradeoperator_controlplane_timeout', { ...one, version: '4.15.3' }), 1);
  assert.equal(
    valueOf(f, 'upgradeoperator_healthcheck_failed', {
      ...one,
      state: 'Upgrading',
      version: '4.14.9',
      reason: 'critical_alerts_firing',
    }),
    1,
  );
  assert.equal(valueOf(f, 'upgradeoperator_worker_timeout', { ...one, version: '4.15.3' }), 1);
  assert.equal(valueOf(f, 'upgradeoperator_node_drain_timeout', { node_name: 'worker-a' }), 1);
  assert.equal(valueOf(f, 'upgradeoperator_upgrade_notification', { ...one, event: 'started', version: '4.15.3' }), 1);
  assert.equal(valueOf(f, 'upgrade_notification_failed', { ...one, event: 'started' }), 1);
  assert.equal(valueOf(f, 'upgradeoperator_upgradeconfig_sync_timestamp', one), 1_700_000_000);
  for (const name of ALL_FAMILIES.filter((n) => /_upgrade_(started|completed)_timestamp$/.test(n))) {
    assert.equal(valueOf(f, name, { _id: 'cluster-1', ...one, version: '4.15.3' }), 1_700_000_100, name);
  }
  assert.equal(
    valueOf(f, 'upgradeoperator_upgrade_result', {
      ...one,
      preceding_version: '4.14.9',
      stream: 'y',
      version: '4.15.3',
      alerts: '',
    }),
    1,
  );
  // Exactly one series per family, no stray label sets.
  for (const name of ALL_FAMILIES) assert.equal(samplesOf(f, name).length, 1, name);
});

test('false/off values write 0 rather than removing the series; timestamps are whole seconds; empty id is "unknown"', async () => {
  const registry = new Registry();
  const m = new ManagedUpgradeMetrics(registry);
  m.setValidationFailed(NAME, true);
  m.setValidationFailed(NAME, false);
  m.setControlPlaneTimeout(NAME, '4.15.3', false);
  m.setWorkerTimeout(NAME, '4.15.3', false);
  m.setNodeDrainTimeout('worker-a', false);
  m.setNotificationFailed(NAME, 'completed', false);
  m.setHealthCheckFailed({ name: NAME, state: 'New', version: 'unknown', reason: 'cluster_operators_degraded' }, false);
  m.setTimestamp('upgrade_started', { id: '', name: NAME, version: '4.15.3' }, 1_700_000_000.9);
  m.setTimestamp('upgrade_completed', { name: NAME, version: '4.15.3' }, 1_700_000_001);
  const f = await exposed(registry);
  assert.equal(valueOf(f, 'upgradeoperator_upgradeconfig_validation_failed', { upgradeconfig_name: NAME }), 0);
  assert.equal(valueOf(f, 'upgradeoperator_controlplane_timeout', { upgradeconfig_name: NAME, version: '4.15.3' }), 0);
  assert.equal(valueOf(f, 'upgradeoperator_worker_timeout', { upgradeconfig_name: NAME, version: '4.15.3' }), 0);
  assert.equal(valueOf(f, 'upgradeoperator_node_drain_timeout', { node_name: 'worker-a' }), 0);
  assert.equal(valueOf(f, 'upgrade_notification_failed', { upgradeconfig_name: NAME, event: 'completed' }), 0);
  assert.equal(
    valueOf(f, 'upgradeoperator_healthcheck_failed', {
      upgradeconfig_name: NAME,
      state: 'New',
      version: 'unknown',
      reason: 'cluster_operators_degraded',
    }),
    0,
  );
  assert.equal(
    valueOf(f, 'upgradeoperator_upgrade_started_timestamp', {
      _id: 'unknown',
      upgradeconfig_name: NAME,
      version: '4.15.3',
    }),
    1_700_000_000,
  );
  assert.equal(
    valueOf(f, 'upgradeoperator_upgrade_completed_timestamp', {
      _id: 'unknown',
      upgradeconfig_name: NAME,
      version: '4.15.3',
    }),
    1_700_000_001,
  );
});

test('resetEphemeral clears everything but upgrade_result', async () => {
  const registry = new Registry();
  const m = new ManagedUpgradeMetrics(registry);
  fillAll(m);
  m.resetEphemeral();
  const f = await exposed(registry);
  for (const name of ALL_FAMILIES) {
    assert.equal(samplesOf(f, name).length, name === 'upgradeoperator_upgrade_result' ? 1 : 0, name);
  }
});

test("resetFailureMetrics clears exactly MUO's failure list", async () => {
  const registry = new Registry();
  const m = new ManagedUpgradeMetrics(registry);
  fillAll(m);
  m.resetFailureMetrics();
  const f = await exposed(registry);
  const cleared = new Set([
    'upgradeoperator_upgradeconfig_validation_failed',
    'upgradeoperator_scaling_failed',
    'upgradeoperator_controlplane_timeout',
    'upgradeoperator_healthcheck_failed',
    'upgradeoperator_worker_timeout',
    'upgradeoperator_node_drain_timeout',
    'upgradeoperator_upgrade_notification',
    'upgrade_notification_failed',
    'upgradeoperator_upgrade_started_timestamp',
  ]);
  for (const name of ALL_FAMILIES) assert.equal(samplesOf(f, name).length, cleared.has(name) ? 0 : 1, name);
});

test('resetNodeDrainTimeouts removes every node series and nothing else', async () => {
  const registry = new Registry();
  const m = new ManagedUpgradeMetrics(registry);
  m.setNodeDrainTimeout('worker-a', true);
  m.setNodeDrainTimeout('worker-b', false);
  m.setScalingFailed(NAME, true);
  m.resetNodeDrainTimeouts();
  const f = await exposed(registry);
  assert.equal(samplesOf(f, 'upgradeoperator_node_drain_timeout').length, 0);
  assert.equal(valueOf(f, 'upgradeoperator_scaling_failed', { upgradeconfig_name: NAME }), 1);
});

test('upgrade_result: stream derived from the versions, alerts comma-joined, one series per upgrade', async () => {
  const registry = new Registry();
  const m = new ManagedUpgradeMetrics(registry);
  m.setUpgradeResult({ name: NAME, precedingVersion: '4.15.1', version: '4.15.3', alerts: [] }, true);
  m.setUpgradeResult(
    {
      name: NAME,
      precedingVersion: '4.15.3',
      version: '4.16.0',
      alerts: ['UpgradeClusterCheckFailedSRE', 'UpgradeNodeDrainFailedSRE'],
    },
    false,
  );
  // Re-evaluated later with a different answer: replaces the 4.16.0 series.
  m.setUpgradeResult(
    { name: NAME, precedingVersion: '4.15.3', version: '4.16.0', alerts: ['UpgradeNodeDrainFailedSRE'] },
    false,
  );
  m.setUpgradeResult({ name: NAME, precedingVersion: '', stream: 'unknown', version: '4.16.1', alerts: [] }, true);
  const f = await exposed(registry);
  const series = samplesOf(f, 'upgradeoperator_upgrade_result');
  assert.deepEqual(
    series.map((s) => [s.labels, s.value]),
    [
      [{ alerts: '', preceding_version: '4.15.1', stream: 'z', upgradeconfig_name: NAME, version: '4.15.3' }, 1],
      [
        {
          alerts: 'UpgradeNodeDrainFailedSRE',
          preceding_version: '4.15.3',
          stream: 'y',
          upgradeconfig_name: NAME,
          version: '4.16.0',
        },
        0,
      ],
      [{ alerts: '', preceding_version: '', stream: 'unknown', upgradeconfig_name: NAME, version: '4.16.1' }, 1],
    ],
  );
});

test('label values are escaped in the exposition', async () => {
  const registry = new Registry();
  const m = new ManagedUpgradeMetrics(registry);
  m.setNotificationFailed('odd"name\\x', 'line\nbreak', true);
  const f = await exposed(registry);
  assert.equal(
    valueOf(f, 'upgrade_notification_failed', { upgradeconfig_name: 'odd"name\\x', event: 'line\nbreak' }),
    1,
  );
});

test('one instance per registry: two registries coexist, the same registry twice is refused', async () => {
  const a = new Registry();
  const b = new Registry();
  const ma = new ManagedUpgradeMetrics(a);
  new ManagedUpgradeMetrics(b);
  ma.setScalingFailed(NAME, true);
  assert.equal(samplesOf(await exposed(b), 'upgradeoperator_scaling_failed').length, 0);
  assert.equal(samplesOf(await exposed(a), 'upgradeoperator_scaling_failed').length, 1);
  assert.throws(() => new ManagedUpgradeMetrics(a), /already been registered/);
});

test('promtool accepts the exposition (format and lint)', async () => {
  const registry = new Registry();
  fillAll(new ManagedUpgradeMetrics(registry));
  const text = await registry.metrics();
  const r = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
  assert.equal(r.error, undefined, String(r.error));
  assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
});
