/**
 * End to end, the JSON report of `upgrade-operator simulate` (issue 3): one seed gives one
 * report, with the operator in the loop and without; and through the binary, `-o json` prints
 * the transitions of all four kinds, the alerts that fired and the final objects.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runBinary } from '../../src/cli/binary.test-support.js';
import { runCheckedScenario } from '../../src/api/deploy/operator-requests.test-support.js';
import { environmentFor, loadScenario } from '../../src/cli/scenarios/catalog.js';
import { startSimEnvironment } from '../../src/cli/scenarios/sim-environment.js';
import type { AlertEpisode, SilenceRecord } from '../../src/sim/recorder/alerts-report.js';
import type { FinalObjects, Transition } from '../../src/sim/recorder/cluster-recorder.js';

interface Run {
  ok: boolean;
  summary: string;
  report: Record<string, unknown>;
  lines: string[];
}

/** One run of a named scenario in a fresh environment: its report (as `-o json` prints it, without the wall time) and progress lines. */
async function reportOf(name: string, seed: number): Promise<Run> {
  const { file } = loadScenario(name);
  const env = await startSimEnvironment(environmentFor(file, seed));
  try {
    const lines: string[] = [];
    const outcome = await runCheckedScenario(env, name, file, { seed, onLine: (l) => lines.push(JSON.stringify(l)) });
    try {
      // Through JSON, as `simulate -o json` prints it.
      const report = JSON.parse(JSON.stringify(outcome.report)) as Record<string, unknown>;
      return { ok: outcome.ok, summary: outcome.summary, report, lines };
    } finally {
      await outcome.run.close();
    }
  } finally {
    await env.close();
  }
}

/** manual-minor-upgrade with seed 1 in this process, run once for the first and the last test. */
let manualRun: Promise<Run> | undefined;
function manualMinorUpgrade(): Promise<Run> {
  manualRun ??= reportOf('manual-minor-upgrade', 1);
  return manualRun;
}

async function assertReproducible(
  name: string,
  seed: number,
  firstRun?: Promise<Run>,
): Promise<Record<string, unknown>> {
  const first = await (firstRun ?? reportOf(name, seed));
  const second = await reportOf(name, seed);
  assert.ok(first.ok, first.summary);
  const { final: finalA, ...restA } = first.report;
  const { final: finalB, ...restB } = second.report;
  // Transitions, alerts and silences first, for a readable failure.
  for (const key of ['transitions', 'alerts', 'silences'] as const)
    assert.deepEqual(restB[key], restA[key], `${name}: ${key} differ`);
  assert.deepEqual(restB, restA);
  assert.deepEqual(finalB, finalA, `${name}: final objects differ`);
  assert.deepEqual(second.lines, first.lines);
  assert.equal(second.summary, first.summary);
  return first.report;
}

void test('same seed, same report: manual-minor-upgrade (no operator) twice gives identical transitions, alerts and silences', async () => {
  const report = await assertReproducible('manual-minor-upgrade', 1, manualMinorUpgrade());
  const transitions = report['transitions'] as Transition[];
  assert.ok(transitions.length > 0);
});

void test('same seed, same report: managed-aro-upgrade (the operator in the loop) twice gives identical transitions, alerts and silences', async () => {
  const report = await assertReproducible('managed-aro-upgrade', 7);
  // The operator's control-plane maintenance silence is in the report, ended by the time it is Upgraded.
  const silences = report['silences'] as SilenceRecord[];
  const ours = silences.filter((s) => s.createdBy === 'managed-upgrade-operator');
  assert.ok(
    ours.some((s) => s.comment === 'Silence for OSD control plane upgrade to version 4.14.45'),
    JSON.stringify(silences),
  );
  assert.deepEqual(
    ours.filter((s) => s.state !== 'expired'),
    [],
  );
  assert.ok(ours.every((s) => s.matchers.length > 0 && s.startsAt < s.endsAt));
  // What the operator said, and the window it worked in, for the picture (--html).
  const states = report['operatorStates'] as Array<{ phase: string; waitingReason: string }>;
  assert.deepEqual(
    [...new Set(states.map((s) => s.phase).filter((p) => p !== ''))],
    ['Pending', 'Upgrading', 'Upgraded'],
  );
  assert.ok(states.some((s) => s.waitingReason === 'WaitingForControlPlane'));
  const windows = report['windows'] as Array<{ kind: string; start: string; end: string | null }>;
  assert.deepEqual(
    windows.map((w) => w.kind),
    ['UpgradeConfig'],
  );
  const [window] = windows;
  assert.ok(window && window.end !== null && window.start < window.end, JSON.stringify(windows));
});

void test('simulate --scenario manual-minor-upgrade -o json: transitions of all four kinds, alerts that fired, the final objects; the same report as in this process', async () => {
  const r = await runBinary(['simulate', '--scenario', 'manual-minor-upgrade', '-o', 'json']);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout) as Record<string, unknown> & {
    ok: boolean;
    seed: number;
    transitions: Transition[];
    alerts: AlertEpisode[];
    silences: SilenceRecord[];
    final: FinalObjects;
    timeline: unknown[];
  };
  assert.equal(out.ok, true);
  assert.equal(out.seed, 1);
  // The binary (its own process, its own ports) and a run in this process tell one story.
  const here = await manualMinorUpgrade();
  for (const [key, value] of Object.entries(here.report)) assert.deepEqual(out[key], value, `${key} differs`);
  assert.deepEqual(
    out.timeline.map((l) => JSON.stringify(l)),
    here.lines,
  );
  const t = out.transitions;
  assert.deepEqual([...new Set(t.map((x) => x.kind))].sort(), [
    'ClusterOperator',
    'ClusterVersion',
    'MachineConfigPool',
    'Node',
  ]);
  // In time order, each with its virtual time and the time since the start.
  for (let i = 1; i < t.length; i++) assert.ok(t[i - 1]!.elapsedMs <= t[i]!.elapsedMs && t[i - 1]!.at <= t[i]!.at);
  assert.ok(t.every((x) => Date.parse(x.at) - x.elapsedMs === Date.parse(t[0]!.at) - t[0]!.elapsedMs));
  const has = (kind: string, field: string, to: unknown): boolean =>
    t.some((x) => x.kind === kind && x.field === field && x.to === to);
  assert.ok(has('ClusterVersion', 'spec.desiredUpdate.version', '4.15.38'));
  assert.ok(has('ClusterVersion', 'status.history[0].state', 'Completed'));
  assert.ok(
    t.some(
      (x) =>
        x.kind === 'ClusterVersion' &&
        x.field === 'condition/Progressing.message' &&
        String(x.to).startsWith('Working towards 4.15.38: '),
    ),
  );
  assert.ok(has('ClusterOperator', 'status.versions[operator]', '4.15.38'));
  assert.ok(
    t.some((x) => x.kind === 'MachineConfigPool' && x.name === 'worker' && x.field === 'status.updatedMachineCount'),
  );
  assert.ok(has('Node', 'machineconfiguration.openshift.io/state', 'Working'));
  assert.ok(has('Node', 'spec.unschedulable', true));

  // UpdateAvailable fires while 4.15 is offered and not yet taken; the loopback URL is a placeholder.
  const updateAvailable = out.alerts.find((a) => a.alertname === 'UpdateAvailable');
  assert.ok(updateAvailable?.firedAt, JSON.stringify(out.alerts));
  assert.equal(updateAvailable.labels['upstream'], '{update-service}/api/upgrades_info/v1/graph');
  assert.deepEqual(out.silences, []);

  assert.equal(out.final.clusterVersion?.status?.history?.[0]?.version, '4.15.38');
  assert.equal(out.final.clusterVersion.metadata?.managedFields, undefined);
  assert.ok(
    out.final.clusterOperators.length > 20 &&
      out.final.clusterOperators.every(
        (co) => co.status?.versions?.find((v) => v.name === 'operator')?.version === '4.15.38',
      ),
  );
  assert.deepEqual(
    out.final.machineConfigPools.map((p) => p.metadata?.name),
    ['master', 'worker'],
  );
  assert.equal(out.final.nodes.length, 6);
  assert.ok(out.final.nodes.every((n) => n.kind === 'Node' && n.status?.conditions?.some((c) => c.type === 'Ready')));
});

void test("simulate --until done runs to the scenario's end; --until 20m stops there and does not claim the end went as expected", async () => {
  const done = await runBinary(['simulate', '--scenario', 'manual-minor-upgrade', '--until', 'done', '-o', 'json']);
  assert.equal(done.status, 0, done.stderr);
  const full = JSON.parse(done.stdout) as { ok: boolean; ended: string; expectationsChecked: boolean };
  assert.deepEqual([full.ok, full.ended, full.expectationsChecked], [true, 'end condition', true]);

  const early = await runBinary(['simulate', '--scenario', 'manual-minor-upgrade', '--until', '20m']);
  assert.equal(early.status, 0, early.stderr);
  assert.match(
    early.stdout,
    /stopped by --until before its end \(expectations not checked\): .*20\.0 virtual minutes \(stopped: until\)/,
  );
  assert.doesNotMatch(early.stdout, /as expected:/);
});
