/**
 * The unit of the upgrade engine (docs/design/engine.md#steps): a step is
 * `{ name, condition, run(ctx) }` and `run` answers done, pending or failed. A pending (or failed)
 * step says what it waits for — a time, a change of some watched kind, or both — so the controller
 * wakes exactly then and never polls on a fixed period. Steps are idempotent: they are run again
 * from the first one on every pass, and a step that already did its work answers done without doing
 * it again.
 */

/**
 * What a step waits for before it is worth running again. Both may be given: whichever comes
 * first wakes the controller. An empty WaitFor means "only an outside change of the object
 * itself" (for example a spec edit).
 */
export interface WaitFor {
  /** Epoch ms at which the step should run again. */
  until?: number;
  /** Kinds (`ClusterVersion`, `MachineConfigPool`, `Node`, `MachineSet`, …) whose changes should wake it. */
  kinds?: readonly string[];
}

/** The step has done its work (now or on an earlier pass). */
export interface StepDone {
  status: 'done';
}

/** The step cannot finish yet; nothing is wrong. */
export interface StepPending {
  status: 'pending';
  waitFor: WaitFor;
  /** Why it waits, in words an SRE understands (for Events, logs and the explanatory condition). */
  why?: string;
  /** A stable CamelCase reason for the wait (`WaitingForControlPlane`, `HealthCheckFailed`, …). */
  reason?: string;
  /**
   * The wait needs someone's attention (a timeout passed, a check failed, a refusal): its Event
   * is a Warning, as a failure's is. Waiting for time or for the cluster to move is not.
   */
  attention?: boolean;
}

/** The step failed; the runner stops here and the step is retried. */
export interface StepFailed {
  status: 'failed';
  /** The error text (MUO writes it as the step condition's message). */
  error: string;
  /** A stable CamelCase reason (`HealthCheckFailed`, `AlertmanagerUnavailable`, …). */
  reason?: string;
  /** When to retry; absent means rate-limited backoff. */
  waitFor?: WaitFor;
}

/** What one run of a step answers. */
export type StepOutcome = StepDone | StepPending | StepFailed;

/** One step of an upgrader. `C` is the flow's context (what the step may read and do). */
export interface Step<C> {
  /** The step's name (MUO: the name in the condition texts, e.g. `ControlPlaneUpgraded`). */
  readonly name: string;
  /** The condition type the step is recorded under (two steps may share one, as MUO's do). */
  readonly condition: string;
  run(ctx: C, signal: AbortSignal): Promise<StepOutcome>;
}

/** Outcome constructors, so steps read as sentences. */
export const outcome = {
  done(): StepDone {
    return { status: 'done' };
  },
  pending(waitFor: WaitFor, why?: string, reason?: string): StepPending {
    return {
      status: 'pending',
      waitFor,
      ...(why !== undefined ? { why } : {}),
      ...(reason !== undefined ? { reason } : {}),
    };
  },
  /** A wait that needs someone's attention (a timeout, a failed check): its Event is a Warning. */
  attention(waitFor: WaitFor, why: string, reason: string): StepPending {
    return { status: 'pending', waitFor, why, reason, attention: true };
  },
  failed(error: string, options: { reason?: string; waitFor?: WaitFor } = {}): StepFailed {
    return {
      status: 'failed',
      error,
      ...(options.reason !== undefined ? { reason: options.reason } : {}),
      ...(options.waitFor ? { waitFor: options.waitFor } : {}),
    };
  },
} as const;

/** The earlier of two wake-ups and the union of their kinds. */
export function mergeWaitFor(left: WaitFor | undefined, right: WaitFor | undefined): WaitFor {
  const until =
    left?.until === undefined
      ? right?.until
      : right?.until === undefined
        ? left.until
        : Math.min(left.until, right.until);
  const kinds = [...new Set([...(left?.kinds ?? []), ...(right?.kinds ?? [])])].sort();
  return { ...(until !== undefined ? { until } : {}), ...(kinds.length > 0 ? { kinds } : {}) };
}
