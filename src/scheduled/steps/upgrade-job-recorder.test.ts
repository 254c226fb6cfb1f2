import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import { runSteps } from '../../engine/runner.js';
import { outcome, type Step } from '../../engine/step.js';
import { ManualClock } from '../../lib/clock.js';
import { goQuote, setStatusCondition } from './upgrade-job-conditions.js';
import { healthWindow } from './upgrade-job-health-step.js';
import { endJob, endsJob, UpgradeJobStepRecorder } from './upgrade-job-recorder.js';

const T = Date.parse('2026-03-03T22:00:00Z');

function job(): UpgradeJob {
  return { metadata: { name: 'j', namespace: 'ns' } };
}

function conditions(j: UpgradeJob): string[] {
  return (j.status?.conditions ?? []).map(
    (c) => `${c.type}=${c.status}/${c.reason}/${c.message}@${c.lastTransitionTime}`,
  );
}

void test('SetStatusCondition: appended; lastTransitionTime kept while the status stays; reason and message follow', () => {
  const a = setStatusCondition(undefined, { type: 'X', status: 'False', reason: 'InProgress', message: 'm' }, T);
  assert.equal(a.changed, true);
  const b = setStatusCondition(a.conditions, { type: 'X', status: 'False', reason: 'Other', message: 'n' }, T + 60_000);
  assert.equal(b.conditions[0]!.lastTransitionTime, '2026-03-03T22:00:00Z');
  assert.equal(b.conditions[0]!.reason, 'Other');
  const c = setStatusCondition(b.conditions, { type: 'X', status: 'True', reason: 'Other', message: 'n' }, T + 60_000);
  assert.equal(c.conditions[0]!.lastTransitionTime, '2026-03-03T22:01:00Z');
  assert.equal(
    setStatusCondition(c.conditions, { type: 'X', status: 'True', reason: 'Other', message: 'n' }, T + 120_000).changed,
    false,
  );
  const d = setStatusCondition(c.conditions, { type: 'Y', status: 'True', reason: 'R', message: '' }, T);
  assert.deepEqual(
    d.conditions.map((x) => x.type),
    ['X', 'Y'],
  );
});

void test('the recorder writes the shipped types, reasons and messages through the engine', async () => {
  const j = job();
  const clock = new ManualClock(T);
  const step = (
    name: string,
    condition: string,
    answer: () =>
      ReturnType<typeof outcome.done> | ReturnType<typeof outcome.pending> | ReturnType<typeof outcome.failed>,
  ): Step<null> => ({ name, condition, run: async () => answer() });
  let healthy = false;
  const steps: Step<null>[] = [
    step('gate', 'Started', () => outcome.done()),
    step('hooks', 'StartHooks', () => outcome.done()),
    step('pre', 'PreHealthCheckDone', () =>
      healthy ? outcome.done() : outcome.pending({ until: clock.now() + 60_000 }, 'unhealthy'),
    ),
    step('upgrade', 'UpgradeCompleted', () => outcome.done()),
    step('done', 'Succeeded', () => outcome.done()),
  ];
  const recorder = new UpgradeJobStepRecorder(j);
  const signal = new AbortController().signal;
  await runSteps(steps, null, { recorder, clock, signal });
  assert.deepEqual(conditions(j), [
    'Started=True/Started/Upgrade started at 2026-03-03T22:00:00Z@2026-03-03T22:00:00Z',
    'PreHealthCheckDone=False/InProgress/Health checks started@2026-03-03T22:00:00Z',
  ]);
  await clock.advance(5 * 60_000);
  healthy = true;
  await runSteps(steps, null, { recorder, clock, signal });
  assert.deepEqual(conditions(j), [
    'Started=True/Started/Upgrade started at 2026-03-03T22:00:00Z@2026-03-03T22:00:00Z',
    'PreHealthCheckDone=True/Completed/Health checks ok@2026-03-03T22:05:00Z',
    'UpgradeCompleted=True/Completed/Upgrade completed@2026-03-03T22:05:00Z',
    'Succeeded=True/Succeeded/Upgrade succeeded@2026-03-03T22:05:00Z',
  ]);
  // Final: nothing more is recorded.
  recorder.failed(
    { name: 'x', condition: 'x' },
    clock.now(),
    endJob.failed('TimedOut', 'Upgrade timed out after 12h0m0s'),
  );
  assert.equal(
    j.status?.conditions?.some((c) => c.type === 'Failed'),
    false,
  );
});

void test('ending outcomes: Skipped → Succeeded/Skipped, final reasons → Failed/<reason>; transient failures record nothing', () => {
  const skipped = job();
  new UpgradeJobStepRecorder(skipped).failed(
    { name: 'gate', condition: 'Started' },
    T,
    endJob.skipped({ name: 'freeze', reason: 'holidays' }),
  );
  assert.deepEqual(conditions(skipped), [
    'Succeeded=True/Skipped/Upgrade job skipped by UpgradeSuspensionWindow "freeze", reason: "holidays"@2026-03-03T22:00:00Z',
  ]);
  const failed = job();
  new UpgradeJobStepRecorder(failed).failed(
    { name: 'hooks', condition: 'StartHooks' },
    T,
    endJob.failed('HookFailed', 'hook "a" failed: boom'),
  );
  assert.deepEqual(conditions(failed), ['Failed=True/HookFailed/hook "a" failed: boom@2026-03-03T22:00:00Z']);
  const transient = job();
  const o = outcome.failed('409 Conflict', { reason: 'StepError' });
  assert.equal(endsJob(o), false);
  new UpgradeJobStepRecorder(transient).failed({ name: 'lock', condition: 'ClusterVersionLock' }, T, o);
  assert.deepEqual(conditions(transient), []);
});

void test('health window: from the False condition, a run bounded by what is left (5 s to 1 min), passed strictly after', () => {
  assert.deepEqual(healthWindow(0, 600_000, 0), { endsAt: 600_000, runTimeoutMs: 60_000, passed: false });
  assert.deepEqual(healthWindow(0, 600_000, 590_000), { endsAt: 600_000, runTimeoutMs: 10_000, passed: false });
  assert.deepEqual(healthWindow(0, 600_000, 600_000), { endsAt: 600_000, runTimeoutMs: 5_000, passed: false });
  assert.equal(healthWindow(0, 600_000, 600_001).passed, true);
});

void test('Go %q for names in messages', () => {
  assert.equal(goQuote('worker'), '"worker"');
  assert.equal(goQuote('a "b"\\\n\u0001ü'), '"a \\"b\\"\\\\\\n\\x01ü"');
});
