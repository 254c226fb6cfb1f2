import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import type { ScheduledUpgradeConfig } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-config.js';
import { silentLogger } from '../../lib/log.js';
import { parseExposition, samplesOf, valueOf } from '../../kube/metrics-exposition.test-support.js';
import {
  ScheduledUpgradeConfigCollector,
  ScheduledUpgradeConfigMetricName as N,
  scheduledUpgradeConfigSeries,
} from './scheduled-upgrade-metrics.js';

function config(
  name: string,
  extra: { pin?: string; suspend?: boolean; schedules?: string[]; location?: string } = {},
): ScheduledUpgradeConfig {
  return {
    metadata: { name, namespace: 'appuio' },
    spec: {
      schedule: {
        cron: '0 22 * * 2',
        location: extra.location ?? 'Europe/Zurich',
        ...(extra.suspend === undefined ? {} : { suspend: extra.suspend }),
      },
      ...(extra.pin === undefined ? {} : { pinVersionWindow: extra.pin }),
      maxSchedulingDelay: '1h',
      maxUpgradeStartDelay: '1h',
      jobTemplate: {
        spec: {
          config: {
            upgradeTimeout: '12h',
            preUpgradeHealthChecks: { timeout: '1h' },
            postUpgradeHealthChecks: { timeout: '1h' },
          },
        },
      },
    },
    ...(extra.schedules ? { status: { nextPossibleSchedules: extra.schedules.map((time) => ({ time })) } } : {}),
  };
}

void test("exposes APPUiO's three UpgradeConfig families with their exact names, labels and values", async () => {
  const registry = new Registry();
  let configs = [
    config('weekly', { pin: '1h30m', suspend: true, schedules: ['2024-03-05T21:00:00Z', '2024-03-12T21:00:00Z'] }),
    config('plain', { location: 'Local' }),
  ];
  new ScheduledUpgradeConfigCollector(registry, () => configs, { log: silentLogger() });
  const text = await registry.metrics();
  const f = parseExposition(text);
  for (const name of Object.values(N)) {
    assert.equal(f.get(name)?.type, 'gauge', name);
    assert.ok((f.get(name)?.help ?? '') !== '', name);
  }
  assert.equal(
    valueOf(f, N.info, { upgradeconfig: 'weekly', cron: '0 22 * * 2', location: 'Europe/Zurich', suspended: 'true' }),
    1,
  );
  assert.equal(
    valueOf(f, N.info, { upgradeconfig: 'plain', cron: '0 22 * * 2', location: 'Local', suspended: 'false' }),
    1,
  );
  assert.equal(valueOf(f, N.pinVersionWindow, { upgradeconfig: 'weekly' }), 5400);
  assert.equal(valueOf(f, N.pinVersionWindow, { upgradeconfig: 'plain' }), 0);
  assert.deepEqual(samplesOf(f, N.nextPossibleSchedule), [
    {
      name: N.nextPossibleSchedule,
      labels: { n: '0', timestamp: '2024-03-05T21:00:00Z', upgradeconfig: 'weekly' },
      value: Date.parse('2024-03-05T21:00:00Z') / 1000,
    },
    {
      name: N.nextPossibleSchedule,
      labels: { n: '1', timestamp: '2024-03-12T21:00:00Z', upgradeconfig: 'weekly' },
      value: Date.parse('2024-03-12T21:00:00Z') / 1000,
    },
  ]);
  assert.match(
    text,
    /^openshift_upgrade_controller_upgradeconfig_next_possible_schedule_timestamp_seconds\{upgradeconfig="weekly",n="0",timestamp="2024-03-05T21:00:00Z"\} 1709672400$/m,
  );

  // Computed at scrape time: a deleted config's series disappear.
  configs = [configs[1]!];
  const after = parseExposition(await registry.metrics());
  assert.deepEqual(samplesOf(after, N.nextPossibleSchedule), []);
  assert.equal(samplesOf(after, N.info).length, 1);
});

void test('series: fractional pins as Go seconds, a bad pin or time leaves out only that series', () => {
  const s = scheduledUpgradeConfigSeries([
    config('a', { pin: '1500ms', schedules: ['nonsense', '2024-03-05T22:00:00+01:00'] }),
    config('b', { pin: '1d' }),
  ]);
  assert.deepEqual(s.get(N.pinVersionWindow), [{ labels: { upgradeconfig: 'a' }, value: 1.5 }]);
  assert.deepEqual(s.get(N.nextPossibleSchedule), [
    { labels: { upgradeconfig: 'a', n: '1', timestamp: '2024-03-05T21:00:00Z' }, value: 1709672400 },
  ]);
  assert.equal(s.get(N.info)?.length, 2);
});

void test('registering twice on one registry throws; two registries are independent', () => {
  const registry = new Registry();
  new ScheduledUpgradeConfigCollector(registry, () => [], { log: silentLogger() });
  assert.throws(
    () => new ScheduledUpgradeConfigCollector(registry, () => [], { log: silentLogger() }),
    /already been registered/,
  );
  assert.doesNotThrow(() => new ScheduledUpgradeConfigCollector(new Registry(), () => [], { log: silentLogger() }));
});
