/**
 * MUO's status bookkeeping (docs/design/managed-flow.md#history-and-conditions,
 * docs/design/managed-flow.md#step-conditions): history entries keyed by version, newest first; one
 * condition per step, a new one prepended (so `conditions[0]` is the step that started last, which
 * the printer columns show); `lastProbeTime` stamped on every write, `lastTransitionTime` only on a
 * status change; `completeTime` set once. The recorder turns the engine's step outcomes into MUO's
 * exact texts.
 */
import type {
  UpgradeCondition,
  UpgradeHistory,
} from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import { UpgradeConditionType as C } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import type { StepIdentity, StepRecorder } from '../../engine/runner.js';
import type { StepFailed, StepPending } from '../../engine/step.js';
import { formatTime } from '../../lib/clock.js';

/** MUO's condition texts for a step recorded under condition type `c`. */
export const conditionText = {
  notDone: (c: string): string => `${c} not done`,
  done: (c: string): string => `${c} done`,
  started: (c: string): string => `${c} has started`,
  inProgress: (c: string): string => `${c} still in progress`,
  completed: (c: string): string => `${c} is completed`,
} as const;

/** The history entry for `version`, if any (MUO's `GetHistory`: the first match). */
export function historyFor(
  history: readonly UpgradeHistory[] | undefined,
  version: string | undefined,
): UpgradeHistory | undefined {
  return (history ?? []).find((h) => h.version === version);
}

/** Replaces the entry with the same version or prepends a new one (MUO's `SetHistory`). */
export function setHistory(history: readonly UpgradeHistory[] | undefined, entry: UpgradeHistory): UpgradeHistory[] {
  const list = [...(history ?? [])];
  const i = list.findIndex((h) => h.version === entry.version);
  if (i >= 0) list[i] = entry;
  else list.unshift(entry);
  return list;
}

/** `entry` has a condition of `type` whose status is True. */
export function conditionTrue(entry: Pick<UpgradeHistory, 'conditions'>, type: string): boolean {
  return entry.conditions?.some((c) => c.type === type && c.status === 'True') === true;
}

/**
 * The first step condition of `entry` that is not True, in step order (what the delayed and
 * failed notifications describe); FailedUpgrade itself never counts.
 */
export function firstFalseCondition(entry: UpgradeHistory): { type: string; message?: string } | undefined {
  const c = [...(entry.conditions ?? [])].reverse().find((x) => x.status !== 'True' && x.type !== C.FailedUpgrade);
  return c ? { type: c.type, ...(c.message !== undefined ? { message: c.message } : {}) } : undefined;
}

/** MUO's `SetCondition` on a list, returning the new list (the input is not modified). */
export function setCondition(
  conditions: readonly UpgradeCondition[] | undefined,
  next: UpgradeCondition,
  now: number,
): UpgradeCondition[] {
  const list = [...(conditions ?? [])];
  const stamp = formatTime(now);
  const i = list.findIndex((c) => c.type === next.type);
  if (i < 0) {
    list.unshift({ ...next, lastProbeTime: stamp, lastTransitionTime: stamp });
    return list;
  }
  const prev = list[i]!;
  list[i] = {
    ...next,
    lastProbeTime: stamp,
    lastTransitionTime: prev.status === next.status && prev.lastTransitionTime ? prev.lastTransitionTime : stamp,
  };
  return list;
}

/** Records steps into a history entry (mutated in place; the controller writes it back). */
export class HistoryStepRecorder implements StepRecorder {
  readonly #entry: UpgradeHistory;

  constructor(entry: UpgradeHistory) {
    this.#entry = entry;
  }

  #get(type: string): UpgradeCondition | undefined {
    return this.#entry.conditions?.find((c) => c.type === type);
  }

  #set(next: UpgradeCondition, now: number): void {
    this.#entry.conditions = setCondition(this.#entry.conditions, next, now);
  }

  begin(step: StepIdentity, now: number): void {
    const c = step.condition;
    if (this.#get(c)) return;
    this.#set(
      {
        type: c,
        status: 'False',
        reason: conditionText.notDone(c),
        message: conditionText.started(c),
        startTime: formatTime(now),
      },
      now,
    );
  }

  done(step: StepIdentity, now: number): void {
    const c = step.condition;
    const prev = this.#get(c);
    this.#set(
      {
        ...withoutComplete(prev),
        type: c,
        status: 'True',
        reason: conditionText.done(c),
        message: conditionText.completed(c),
        completeTime: prev?.completeTime ?? formatTime(now),
      },
      now,
    );
  }

  pending(step: StepIdentity, now: number, _outcome: StepPending): void {
    const c = step.condition;
    this.#set(
      {
        ...withoutComplete(this.#get(c)),
        type: c,
        status: 'False',
        reason: conditionText.notDone(c),
        message: conditionText.inProgress(c),
      },
      now,
    );
  }

  failed(step: StepIdentity, now: number, outcome: StepFailed): void {
    const c = step.condition;
    this.#set(
      {
        ...withoutComplete(this.#get(c)),
        type: c,
        status: 'False',
        reason: conditionText.notDone(c),
        message: outcome.error,
      },
      now,
    );
  }
}

function withoutComplete(upgradeCondition: UpgradeCondition | undefined): Partial<UpgradeCondition> {
  if (!upgradeCondition) return {};
  const { completeTime: _drop, ...rest } = upgradeCondition;
  return rest;
}
