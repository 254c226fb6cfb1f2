/**
 * The step runner shared by both flows (docs/design/engine.md#the-runner,
 * docs/design/managed-flow.md#step-conditions): on every pass it walks the ordered list from the
 * first step; each step is recorded (through the flow's own recorder) before it runs and after it
 * answers; the first step that is not done stops the pass. A step that throws is a failed step,
 * never a crashed controller.
 */
import type { Clock } from '../lib/clock.js';
import type { Step, StepFailed, StepOutcome, StepPending, WaitFor } from './step.js';
import { errorMessage } from '../lib/errors.js';

/** How a flow records its steps (MUO: conditions in the history entry; APPUiO: job conditions). */
export interface StepRecorder {
  /** Before the step runs (MUO adds the condition the first time it is seen). */
  begin(step: StepIdentity, now: number): void;
  /** The step answered done. */
  done(step: StepIdentity, now: number): void;
  /** The step answered pending. */
  pending(step: StepIdentity, now: number, outcome: StepPending): void;
  /** The step answered failed (or threw). */
  failed(step: StepIdentity, now: number, outcome: StepFailed): void;
}

/** What a recorder knows of a step. */
export interface StepIdentity {
  readonly name: string;
  readonly condition: string;
}

/** The result of one pass. */
export type RunResult = { finished: true } | { finished: false; step: StepIdentity; outcome: StepPending | StepFailed };

/** Runs one pass over `steps`. Resolves when a step is not done or all are. */
export async function runSteps<C>(
  steps: ReadonlyArray<Step<C>>,
  ctx: C,
  options: { recorder: StepRecorder; clock: Clock; signal: AbortSignal },
): Promise<RunResult> {
  const { recorder, clock, signal } = options;
  for (const step of steps) {
    if (signal.aborted) {
      return {
        finished: false,
        step,
        outcome: { status: 'failed', error: 'the operator is stopping', reason: 'Stopping', waitFor: {} },
      };
    }
    recorder.begin(step, clock.now());
    const answer = await runGuarded(step, ctx, signal);
    const now = clock.now();
    switch (answer.status) {
      case 'done':
        recorder.done(step, now);
        continue;
      case 'pending':
        recorder.pending(step, now, answer);
        return { finished: false, step, outcome: answer };
      case 'failed':
        recorder.failed(step, now, answer);
        return { finished: false, step, outcome: answer };
    }
  }
  return { finished: true };
}

async function runGuarded<C>(step: Step<C>, ctx: C, signal: AbortSignal): Promise<StepOutcome> {
  try {
    return await step.run(ctx, signal);
  } catch (err) {
    return { status: 'failed', error: errorMessage(err), reason: 'StepError' };
  }
}

/** What a pass waits for: the stopping step's wait, or nothing when finished. */
export function waitOf(result: RunResult): WaitFor | undefined {
  return result.finished ? undefined : result.outcome.waitFor;
}
