/**
 * docs/metrics.md stays true: its promtool commands pass, its table of alerts is the shipped rules, every family
 * it documents exists with that name, and every APPUiO family is documented with its type and
 * label names.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Registry } from 'prom-client';
import { ManagedUpgradeMetrics } from '../../src/managed/metrics/managed-upgrade-metrics.js';
import { ManagedUpgradeCollector } from '../../src/managed/metrics/managed-upgrade-collector.js';
import { NodeForceDrainMetrics } from '../../src/scheduled/metrics/node-force-drain-metrics.js';
import { ScheduledUpgradeConfigCollector } from '../../src/scheduled/metrics/scheduled-upgrade-metrics.js';
import { UpgradeJobCollector } from '../../src/scheduled/metrics/upgrade-job-metrics.js';
import { SuspensionWindowCollector } from '../../src/scheduled/metrics/suspension-window-metrics.js';
import { ClusterVersionCollector } from '../../src/scheduled/metrics/cluster-version-metrics.js';
import { ClusterStateCollector } from '../../src/scheduled/metrics/cluster-state-metrics.js';
import { silentLogger } from '../../src/lib/log.js';
import { NotificationMetrics } from '../../src/engine/notifications/notification-metrics.js';
import { parseExposition } from '../../src/kube/metrics-exposition.test-support.js';
import { RuntimeMetrics, processMetricsRegistry } from '../../src/kube/runtime-metrics.js';
import { isAlertRule, shippedRuleGroups } from '../../src/api/deploy/alert-rules.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const doc = readFileSync(fileURLToPath(new URL('../../docs/metrics.md', import.meta.url)), 'utf8');

test('the promtool commands of docs/metrics.md pass as written', () => {
  const section = doc.slice(doc.indexOf('## Shipped alerts'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(block, 'commands present');
  const commands = block.trim().split('\n');
  assert.equal(commands.length, 2);
  for (const line of commands) {
    const [cmd, ...args] = line.split(' ');
    assert.equal(cmd, 'promtool');
    const r = spawnSync('promtool', args, { encoding: 'utf8', cwd: ROOT, timeout: 60_000 });
    assert.equal(r.error, undefined, String(r.error));
    assert.equal(r.status, 0, `${line}\n${r.stdout}${r.stderr}`);
  }
});

test('the table of shipped alerts is the shipped rules', () => {
  const rows = [...doc.matchAll(/^\| \[(\w+)\]\(runbooks\.md#(\w+)\) \| `([\w-]+)` \| `(.+)` \| (\S+) \| (\w+) \|$/gm)];
  const expected = shippedRuleGroups().flatMap((g) =>
    g.rules
      .filter(isAlertRule)
      .map((r) => [r.alert, r.alert.toLowerCase(), g.name, r.expr, r.for ?? '–', r.labels.severity]),
  );
  assert.deepEqual(
    rows.map((m) => [m[1], m[2], m[3], m[4]!.replaceAll('\\|', '|'), m[5], m[6]]),
    expected,
  );
});

test('every family exposed is documented, and every documented family is exposed', async () => {
  const gauges = new Registry();
  const custom = new Registry();
  new ManagedUpgradeMetrics(gauges);
  new ManagedUpgradeCollector(custom, () => ({}));
  const notifications = new NotificationMetrics(gauges);
  notifications.delivered('scheduled', 'sre', 'started');
  notifications.failed('scheduled', 'sre', 'started');
  const exposed = [
    ...parseExposition(await gauges.metrics()).keys(),
    ...parseExposition(await custom.metrics()).keys(),
  ];
  for (const name of exposed) {
    const conditionX = /^managed_upgrade_condition_(.+)_timestamp$/.exec(name)?.[1];
    if (conditionX) assert.ok(doc.includes(`\`${conditionX}\``), name);
    else assert.ok(doc.includes(`\`${name}\``), name);
  }
  const documented = new Set(
    [...doc.matchAll(/^\| `((?:upgradeoperator|upgrade|managed_upgrade)_[a-z_]+)`/gm)].map((m) => m[1]!),
  );
  for (const name of documented) {
    if (name !== 'managed_upgrade_condition_') assert.ok(exposed.includes(name), name);
  }
  assert.ok(documented.size >= 20);
});

/** The two NodeForceDrain counters, built in node-force-drain-metrics.ts (named here literally). */

/** One object of every kind, so that every APPUiO gauge family has a sample to read its label names from. */
function appuioRegistry(): Registry {
  const registry = new Registry();
  const log = silentLogger();
  const meta = { name: 'x', namespace: 'appuio' };
  new ScheduledUpgradeConfigCollector(
    registry,
    () => [
      {
        metadata: meta,
        spec: {
          schedule: { cron: '0 22 * * 2', location: 'UTC' },
          pinVersionWindow: '1h',
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
        status: { nextPossibleSchedules: [{ time: '2024-03-05T22:00:00Z' }] },
      },
    ],
    { log },
  );
  new UpgradeJobCollector(
    registry,
    {
      jobs: () => [
        {
          metadata: meta,
          spec: {
            startAfter: '2024-03-05T22:00:00Z',
            startBefore: '2024-03-05T23:00:00Z',
            config: {
              upgradeTimeout: '12h',
              preUpgradeHealthChecks: { timeout: '1h' },
              postUpgradeHealthChecks: { timeout: '1h' },
            },
          },
        },
      ],
      hooks: () => [],
    },
    { log },
  );
  new SuspensionWindowCollector(
    registry,
    () => [
      {
        metadata: meta,
        spec: { start: '2024-01-01T00:00:00Z', end: '2024-01-02T00:00:00Z', reason: 'r' },
        status: { matchingConfigs: [{ name: 'x' }] },
      },
    ],
    { log },
  );
  new ClusterVersionCollector(
    registry,
    () => ({
      metadata: meta,
      status: { current: { clusterID: 'id' }, overlays: [{ from: '2024-01-01T00:00:00Z', preview: {} }] },
    }),
    { log },
  );
  new ClusterStateCollector(
    registry,
    {
      clusterVersion: () => ({ metadata: { name: 'version' }, spec: { clusterID: 'id' } }),
      machineConfigPools: () => [{ metadata: { name: 'worker' }, spec: {} }],
      nodes: () => [{ metadata: { name: 'n' } }],
      machines: () => [{ metadata: { name: 'm', namespace: 'openshift-machine-api' } }],
    },
    { log },
  );
  const forceDrain = new NodeForceDrainMetrics(registry);
  const pod = { node_force_drain: 'x', node: 'n', namespace: 'ns', pod_name: 'p', pod_uid: 'u' };
  forceDrain.podDeleted(pod);
  forceDrain.podTerminated(pod);
  return registry;
}

test('every APPUiO family is documented with its type and labels, and every documented one exists', async () => {
  const rows = new Map(
    [...doc.matchAll(/^\| `(openshift_upgrade_controller_[a-z_]+)` \| (gauge|counter) \| ([^|]*) \|/gm)].map((m) => [
      m[1]!,
      { type: m[2]!, labels: [...m[3]!.matchAll(/`([a-z_]+)`/g)].map((l) => l[1]!) },
    ]),
  );
  const exposed = parseExposition(await appuioRegistry().metrics());
  for (const [name, family] of exposed) {
    const row = rows.get(name);
    assert.ok(row, `${name} is documented`);
    assert.equal(row.type, family.type, name);
    const sample = family.samples[0];
    assert.ok(sample, `${name} has a sample in the fixture`);
    assert.deepEqual(row.labels, Object.keys(sample.labels), `${name}: documented labels in exposition order`);
  }
  for (const name of rows.keys()) assert.ok(exposed.has(name), `${name} is documented but not exposed`);
  assert.equal(rows.size, 19);
  assert.equal(exposed.size, 19);
});

test('every controller-runtime family is documented with its type and labels, and every process family by name', async () => {
  const rows = new Map(
    [
      ...doc.matchAll(
        /^\| `((?:controller_runtime|workqueue|rest_client|leader_election)_[a-z_]+)` \| (gauge|counter|histogram) \| ([^|]*) \|/gm,
      ),
    ].map((m) => [m[1]!, { type: m[2]!, labels: [...m[3]!.matchAll(/`([a-z_]+)`/g)].map((l) => l[1]!) }]),
  );
  const runtime = new RuntimeMetrics();
  const controller = runtime.controller('upgradeconfig');
  controller.started(1);
  controller.reconcileStarted();
  controller.reconcileDone('success', 1);
  const queue = controller.workQueue(() => ({ depth: 0, unfinishedMs: 0, longestRunningMs: 0 }));
  queue.queued(1);
  queue.worked(1);
  runtime.requests('200', 'GET', 'api:6443');
  runtime.leaderElection('lease');
  const exposed = parseExposition(await runtime.registry.metrics());
  for (const [name, family] of exposed) {
    const row = rows.get(name);
    assert.ok(row, `${name} is documented`);
    assert.equal(row.type, family.type, name);
    const sample = family.samples[0];
    assert.ok(sample, `${name} has a sample`);
    const labels = Object.keys(sample.labels).filter((l) => l !== 'le');
    assert.deepEqual(row.labels, labels, `${name}: documented labels in exposition order`);
  }
  for (const name of rows.keys()) assert.ok(exposed.has(name), `${name} is documented but not exposed`);
  assert.equal(rows.size, 14);
  for (const name of parseExposition(await processMetricsRegistry().metrics()).keys())
    assert.ok(doc.includes(`\`${name}\``), `${name} is documented`);
});
