import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../lib/clock.js';
import { runSteps, waitOf, type StepIdentity, type StepRecorder } from './runner.js';
import { mergeWaitFor, outcome, type Step, type StepOutcome } from './step.js';

function recorder(): StepRecorder & { log: string[] } {
  const log: string[] = [];
  return {
    log,
    begin: (s: StepIdentity) => log.push(`begin ${s.name}`),
    done: (s: StepIdentity) => log.push(`done ${s.name}`),
    pending: (s: StepIdentity, _n: number, o) => log.push(`pending ${s.name} ${o.why ?? ''}`),
    failed: (s: StepIdentity, _n: number, o) => log.push(`failed ${s.name} ${o.error}`),
  };
}

function step(name: string, answer: () => StepOutcome | Promise<StepOutcome>, runs: string[] = []): Step<unknown> {
  return { name, condition: name, run: async () => (runs.push(name), answer()) };
}

void test('walks from the first step and stops at the first that is not done', async () => {
  const runs: string[] = [];
  const rec = recorder();
  const steps = [
    step('A', () => outcome.done(), runs),
    step('B', () => outcome.pending({ until: 5 }, 'waiting for B'), runs),
    step('C', () => outcome.done(), runs),
  ];
  const result = await runSteps(
    steps,
    {},
    { recorder: rec, clock: new ManualClock(0), signal: new AbortController().signal },
  );
  assert.equal(result.finished, false);
  assert.deepEqual(runs, ['A', 'B']);
  assert.deepEqual(rec.log, ['begin A', 'done A', 'begin B', 'pending B waiting for B']);
  assert.deepEqual(waitOf(result), { until: 5 });
});

void test('all done finishes; a second pass runs every step again (steps are idempotent)', async () => {
  const runs: string[] = [];
  const steps = [step('A', () => outcome.done(), runs), step('B', () => outcome.done(), runs)];
  const opts = { recorder: recorder(), clock: new ManualClock(0), signal: new AbortController().signal };
  assert.deepEqual(await runSteps(steps, {}, opts), { finished: true });
  assert.deepEqual(await runSteps(steps, {}, opts), { finished: true });
  assert.deepEqual(runs, ['A', 'B', 'A', 'B']);
});

void test('a step that throws is a failed step, not a crash', async () => {
  const rec = recorder();
  const steps = [
    step('A', () => {
      throw new Error('boom');
    }),
    step('B', () => outcome.done()),
  ];
  const result = await runSteps(
    steps,
    {},
    { recorder: rec, clock: new ManualClock(0), signal: new AbortController().signal },
  );
  assert.equal(result.finished, false);
  assert.ok(!result.finished && result.outcome.status === 'failed' && result.outcome.error === 'boom');
  assert.deepEqual(rec.log, ['begin A', 'failed A boom']);
});

void test('an aborted signal stops the pass before the next step', async () => {
  const ac = new AbortController();
  const runs: string[] = [];
  const steps = [step('A', () => (ac.abort(), outcome.done()), runs), step('B', () => outcome.done(), runs)];
  const result = await runSteps(steps, {}, { recorder: recorder(), clock: new ManualClock(0), signal: ac.signal });
  assert.equal(result.finished, false);
  assert.deepEqual(runs, ['A']);
});

void test('mergeWaitFor keeps the earlier time and the union of kinds', () => {
  assert.deepEqual(mergeWaitFor({ until: 10, kinds: ['Node'] }, { until: 5, kinds: ['ClusterVersion', 'Node'] }), {
    until: 5,
    kinds: ['ClusterVersion', 'Node'],
  });
  assert.deepEqual(mergeWaitFor(undefined, { kinds: ['Node'] }), { kinds: ['Node'] });
  assert.deepEqual(mergeWaitFor({}, {}), {});
});
