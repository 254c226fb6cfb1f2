/**
 * End to end, the operator against a failing API server (docs/simulation.md#faults): the scenarios
 * `managed-api-faults` (about 5 % of its requests fail, its watches are cut) and
 * `sno-managed-upgrade` (the single node's API server is down while it reboots). Checked
 * through what a user can read: the API, Alertmanager's silences, Events and the operator's log.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { MachineSetResource } from '../../src/api/openshift/machine-v1beta1/machine-set.js';
import { runCheckedScenario } from '../../src/api/deploy/operator-requests.test-support.js';
import { environmentFor, loadScenario, type ScenarioOutcome } from '../../src/cli/scenarios/catalog.js';
import { startSimEnvironment } from '../../src/cli/scenarios/sim-environment.js';
import type { ApiFaultCounts } from '../../src/apiserver/faults.js';
import { capturedLogger } from '../../src/lib/log.test-support.js';
import { events, silences } from './scenario.test-support.js';

interface LogLine {
  level: string;
  msg: string;
  err?: string;
  controller?: string;
  informer?: string;
}

/** Runs a named scenario with seed 1, keeping the log lines (as `kubectl logs` would show them). */
async function runWithLog(
  t: TestContext,
  name: string,
): Promise<ScenarioOutcome & { log: LogLine[]; faults: ApiFaultCounts }> {
  const { file } = loadScenario(name);
  const { logger, lines: log } = capturedLogger<LogLine>('info');
  const env = await startSimEnvironment({ ...environmentFor(file, 1), logger });
  t.after(() => env.close());
  const outcome = await runCheckedScenario(env, name, file, { seed: 1 });
  t.after(() => outcome.run.close());
  const server = env.server;
  assert.ok(server, 'the embedded API server');
  return { ...outcome, log, faults: server.faults.counts() };
}

void test('managed-api-faults: Upgraded through 5 % failing requests and cut watches; no duplicate silence, MachineSet or Event storm; the log says what failed', async (t) => {
  const { ok, summary, run, log, faults } = await runWithLog(t, 'managed-api-faults');
  assert.ok(ok, summary);
  assert.equal(run.upgradeConfig()?.status?.history?.[0]?.phase, 'Upgraded');
  assert.equal(run.operatorStarts, 1, 'the operator never crashed');

  // The faults did happen, of every kind asked for.
  const errors = Object.values(faults.errors).reduce((a, b) => a + b, 0);
  assert.ok(errors >= 20, `errors injected: ${JSON.stringify(faults)}`);
  for (const kind of ['internal', 'unavailable', 'throttled', 'timeout'] as const)
    assert.ok((faults.errors[kind] ?? 0) > 0, `${kind}: ${JSON.stringify(faults)}`);
  assert.ok(faults.disconnects > 10 && faults.gone > 0, JSON.stringify(faults));

  // Side effects carry an identity: one control-plane silence, worker windows never duplicated, all ended.
  const ours = (await silences(run)).filter((s) => s.createdBy === 'managed-upgrade-operator');
  assert.equal(
    ours.filter((s) => s.comment === 'Silence for OSD control plane upgrade to version 4.15.38').length,
    1,
    JSON.stringify(ours.map((s) => s.comment)),
  );
  const workers = ours
    .filter((s) => s.comment.startsWith('Silence for OSD worker node upgrade to version 4.15.38'))
    .map((s) => s.comment);
  assert.equal(new Set(workers).size, workers.length, JSON.stringify(workers));
  assert.deepEqual(
    ours.filter((s) => s.status.state === 'active'),
    [],
  );

  // Capacity: exactly one clone per worker MachineSet joined the pool (three), and none is left.
  assert.equal(Math.max(...run.timeline.map((p) => p.pools['worker']?.[1] ?? 0)), 6);
  const clones = await run.env.client.list(MachineSetResource, {
    namespace: 'openshift-machine-api',
    labelSelector: 'upgrade.managed.openshift.io=true',
  });
  assert.equal(clones.items.length, 0);

  // No Event storm: the operator's Events stay few, and the completion is told once.
  const ev = await events(run, run.namespace);
  assert.ok(ev.length < 40 && ev.every((e) => e.count < 30), JSON.stringify(ev));
  assert.equal(ev.filter((e) => e.reason === 'UpgradeCompleted').length, 1);
  // …and a step that failed on a request says which in its StepError Event (whether a step's own
  // request draws a fault depends on the seed's timing; failures elsewhere are in the log, below).
  const stepErrors = ev.filter((e) => e.reason === 'StepError').map((e) => e.message);
  const injected =
    /etcdserver: request timed out|Timeout: request did not complete|apiserver is shutting down|Too many requests|the object has been modified/;
  for (const m of stepErrors) assert.match(m, injected);

  // The log names the failures and says they are retried.
  const retried = log
    .filter((l) => l.msg === 'reconcile failed; will retry' && l.controller === 'upgradeconfig')
    .map((l) => l.err ?? '');
  assert.ok(
    retried.some((e) => e.startsWith('Internal error occurred: etcdserver: request timed out')),
    retried.join('\n'),
  );
  assert.ok(
    retried.some((e) => e.startsWith('Timeout: request did not complete within requested timeout')),
    retried.join('\n'),
  );
  assert.ok(
    log.some((l) => l.msg === 'resourceVersion expired; re-listing' && l.informer !== undefined),
    'an informer re-listed after a 410',
  );
});

void test('sno-managed-upgrade: the API server is down for the operator while the single node reboots; the operator carries on to Upgraded', async (t) => {
  const { ok, summary, run, log, faults } = await runWithLog(t, 'sno-managed-upgrade');
  assert.ok(ok, summary);
  const h = run.upgradeConfig()?.status?.history?.[0];
  assert.equal(h?.phase, 'Upgraded');
  assert.ok(
    (h?.conditions ?? []).every((c) => c.status === 'True'),
    JSON.stringify(h?.conditions),
  );
  assert.equal(run.operatorStarts, 1, 'the same operator process throughout');
  assert.deepEqual(Object.keys(faults.errors), [], 'no errors at a rate in this scenario');

  // One outage, while the node was NotReady; the operator's requests were refused during it.
  const begins = log.filter((l) => l.msg === 'API outage begins').length;
  const ends = log.filter((l) => l.msg === 'API outage ends').length;
  assert.deepEqual([begins, ends], [1, 1]);
  assert.ok(faults.refused > 0, JSON.stringify(faults));
  const outageAt = log.findIndex((l) => l.msg === 'API outage begins');
  const backAt = log.findIndex((l) => l.msg === 'API outage ends');
  const during = log.slice(outageAt, backAt);
  assert.ok(
    during.some(
      (l) => l.msg === 'list/watch failed; retrying' && /other side closed|socket|ECONNRESET/i.test(l.err ?? ''),
    ),
    'the informers saw the connections drop',
  );
  // After the outage the operator went on: its completion came after the API was back.
  const completedAt = log.findIndex((l) => l.msg.startsWith('Upgrade-State: StateCompleted'));
  assert.ok(completedAt > backAt, `completion (${completedAt}) after the outage (${backAt})`);
  assert.equal((await events(run, run.namespace, 'UpgradeCompleted')).length, 1);
});
