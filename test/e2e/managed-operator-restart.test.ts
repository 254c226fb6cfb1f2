/**
 * End to end, the operator process killed and started again during an upgrade: scenario
 * `managed-operator-restart` (five points of an OSD upgrade: it finishes exactly once, with no
 * two silences for the same window and one capacity clone per worker MachineSet) and
 * `ocm-policy-upgrade-restart` (every OCM policy state reported exactly once).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { events, runScenario, silences } from './scenario.test-support.js';

void test('managed-operator-restart: five restarts, finished once, no duplicate silence or MachineSet', async (t) => {
  const { ok, summary, run } = await runScenario(t, 'managed-operator-restart');
  assert.ok(ok, summary);
  assert.deepEqual(
    run.actionsRun.map((a) => a.name),
    [
      'restart while Pending',
      'restart while capacity is added',
      'restart after the control-plane silence',
      'restart while the control plane upgrades',
      'restart while the workers upgrade',
    ],
  );
  assert.equal(run.operatorStarts, 6);
  const h = run.upgradeConfig()?.status?.history?.[0];
  assert.equal(h?.phase, 'Upgraded');
  assert.equal(h?.conditions?.filter((c) => c.status === 'True').length, 16);
  assert.ok(h?.workerStartTime && h.workerCompleteTime, 'worker times recorded across restarts');
  // One clone per worker MachineSet: the pool never had more than 3 + 3 machines.
  assert.equal(Math.max(...run.timeline.map((p) => p.pools['worker']?.[1] ?? 0)), 6);
  const ours = (await silences(run)).filter((s) => s.createdBy === 'managed-upgrade-operator');
  assert.equal(
    ours.filter((s) => s.comment === 'Silence for OSD control plane upgrade to version 4.15.38').length,
    1,
    'one control-plane silence',
  );
  // The worker window is replaced as the remaining count falls: one silence per count, never two.
  const workers = ours
    .filter((s) => s.comment.startsWith('Silence for OSD worker node upgrade to version 4.15.38'))
    .map((s) => s.comment);
  assert.ok(
    workers.length >= 1 && new Set(workers).size === workers.length,
    `one worker silence per remaining count: ${JSON.stringify(workers)}`,
  );
  assert.deepEqual(
    ours.filter((s) => s.status.state === 'active'),
    [],
  );
  const started = await events(run, run.namespace, 'UpgradeStarted');
  const completed = await events(run, run.namespace, 'UpgradeCompleted');
  assert.deepEqual(
    [started.reduce((n, e) => n + e.count, 0), completed.reduce((n, e) => n + e.count, 0)],
    [1, 1],
    'started and completed once',
  );
  const sent: unknown = JSON.parse(
    run.upgradeConfig()?.metadata?.annotations?.['upgrade-operator.io/notifications-sent'] ?? '[]',
  );
  assert.ok(
    Array.isArray(sent) && new Set(sent).size === sent.length && sent.length >= 2,
    `each notification once: ${JSON.stringify(sent)}`,
  );
});

void test('ocm-policy-upgrade-restart: with three operator restarts, each policy state goes back to OCM exactly once', async (t) => {
  const { ok, summary, run } = await runScenario(t, 'ocm-policy-upgrade-restart');
  assert.ok(ok, summary);
  assert.equal(run.operatorStarts, 4);
  const policy = run.ocm?.ocm.state.policies(run.ocm.clusterId)[0];
  const changes = policy ? (run.ocm?.ocm.state.stateHistory(policy.id) ?? []) : [];
  assert.deepEqual(
    changes.map((c) => c.value),
    ['scheduled', 'started', 'completed'],
  );
  assert.equal(run.upgradeConfig()?.status?.history?.[0]?.phase, 'Upgraded');
});
