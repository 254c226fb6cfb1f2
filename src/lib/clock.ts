/**
 * Time, injected. No logic in this project reads the wall clock or calls setTimeout directly:
 * it asks a Clock. Production uses {@link RealClock}; tests use {@link ManualClock}; the
 * simulation uses a virtual clock built on the same interface, and a rehearsal's operator (`run
 * --rehearsal`) the {@link ScaledClock} the simulation's scaled mode is built on.
 */
import { suspendActivityOf } from './activity.js';

/** A pending timer; cancel() is idempotent. */
export interface Timer {
  cancel(): void;
}

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Runs fn once, ms milliseconds from now (0 or less: on the next turn). */
  setTimer(ms: number, fn: () => void): Timer;
  /** Resolves after ms milliseconds; rejects with the signal's reason if it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The longest delay node's setTimeout accepts; longer timers are chained. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** The wall clock. */
export class RealClock implements Clock {
  now(): number {
    // The one place that reads the wall clock.
    // eslint-disable-next-line no-restricted-syntax
    return Date.now();
  }

  setTimer(ms: number, fn: () => void): Timer {
    const due = this.now() + Math.max(0, ms);
    let handle: NodeJS.Timeout | undefined;
    let cancelled = false;
    const arm = (): void => {
      const left = due - this.now();
      if (left > MAX_TIMEOUT_MS) {
        handle = setTimeout(arm, MAX_TIMEOUT_MS);
      } else {
        handle = setTimeout(
          () => {
            if (!cancelled) fn();
          },
          Math.max(0, left),
        );
      }
    };
    arm();
    return {
      cancel: () => {
        cancelled = true;
        if (handle) clearTimeout(handle);
      },
    };
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleepOn(this, ms, signal);
  }
}

/**
 * Scaled real time: virtual time `start` at wall time `realOrigin`, running `scale` virtual ms
 * per wall ms. Processes that share one scaling agree on the time (`simulate` against an external
 * API server and the `run --rehearsal` paired with it).
 */
export interface ClockScaling {
  /** Virtual time (epoch ms) at `realOrigin`. */
  readonly start: number;
  /** Wall time (epoch ms) at which virtual time was `start`. */
  readonly realOrigin: number;
  /** Virtual ms per wall ms (above 0). */
  readonly scale: number;
}

/** Virtual time at wall time `wallNow`: start + (wallNow − realOrigin) × scale, in whole ms. */
export function scaledNow(scaling: ClockScaling, wallNow: number): number {
  return Math.floor(scaling.start + (wallNow - scaling.realOrigin) * scaling.scale);
}

/**
 * A clock on scaled real time ({@link scaledNow}). A timer is a wall timer of the delay scaled
 * down; one that fires a little early against the floor of the scaled time is armed again, so no
 * timer ever fires before its virtual due time.
 */
export class ScaledClock implements Clock {
  readonly scaling: ClockScaling;
  readonly #wall: Clock;

  constructor(scaling: ClockScaling, wall: Clock = new RealClock()) {
    if (!(scaling.scale > 0) || !Number.isFinite(scaling.scale))
      throw new Error(`ScaledClock: scale must be a positive number, got ${scaling.scale}`);
    this.scaling = { start: scaling.start, realOrigin: scaling.realOrigin, scale: scaling.scale };
    this.#wall = wall;
  }

  now(): number {
    return scaledNow(this.scaling, this.#wall.now());
  }

  setTimer(ms: number, fn: () => void): Timer {
    const due = this.now() + Math.max(0, ms);
    let wallTimer: Timer | undefined;
    let done = false;
    const arm = (): void => {
      const left = due - this.now();
      wallTimer = this.#wall.setTimer(Math.max(0, Math.ceil(left / this.scaling.scale)), () => {
        if (done) return;
        if (this.now() < due) {
          arm();
          return;
        }
        done = true;
        fn();
      });
    };
    arm();
    return {
      cancel: () => {
        done = true;
        wallTimer?.cancel();
      },
    };
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleepOn(this, ms, signal);
  }
}

/**
 * sleep() for any Clock, built on its setTimer. Waiting for time is no work: when the signal
 * belongs to a unit of work ({@link signalOfActivity}), the unit is suspended for the sleep.
 */
export function sleepOn(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const resume = suspendActivityOf(signal);
    const onAbort = (): void => {
      timer.cancel();
      resume();
      reject(abortReason(signal));
    };
    const timer = clock.setTimer(ms, () => {
      signal?.removeEventListener('abort', onAbort);
      resume();
      resolve();
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function abortReason(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error) return reason;
  return new Error(typeof reason === 'string' ? reason : 'aborted', { cause: reason });
}

interface ManualTimer {
  due: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

/**
 * A clock that moves only when told to. Timers fire in due order (then creation order) during
 * advance(); between timers the microtask queue is drained, so promise chains started by one
 * timer run before the next fires.
 */
export class ManualClock implements Clock {
  #now: number;
  #seq = 0;
  #timers: ManualTimer[] = [];

  constructor(start: number | string | Date = Date.UTC(2026, 0, 1)) {
    this.#now = typeof start === 'number' ? start : new Date(start).getTime();
  }

  now(): number {
    return this.#now;
  }

  setTimer(ms: number, fn: () => void): Timer {
    const timer: ManualTimer = { due: this.#now + Math.max(0, ms), seq: this.#seq++, fn, cancelled: false };
    this.#timers.push(timer);
    return {
      cancel: () => {
        timer.cancelled = true;
      },
    };
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleepOn(this, ms, signal);
  }

  /** Number of timers not yet fired or cancelled. */
  get pending(): number {
    return this.#timers.filter((t) => !t.cancelled).length;
  }

  /** Due time of the earliest live timer, if any. */
  nextDue(): number | undefined {
    let best: number | undefined;
    for (const t of this.#timers) if (!t.cancelled && (best === undefined || t.due < best)) best = t.due;
    return best;
  }

  /** Moves time forward by ms, firing every timer that falls due on the way. */
  async advance(ms: number): Promise<void> {
    await this.advanceTo(this.#now + ms);
  }

  /** Moves time forward to the given instant, firing due timers in order. */
  async advanceTo(target: number): Promise<void> {
    await flushMicrotasks();
    for (;;) {
      const next = this.#popDue(target);
      if (!next) break;
      this.#now = Math.max(this.#now, next.due);
      next.fn();
      await flushMicrotasks();
    }
    this.#now = Math.max(this.#now, target);
  }

  #popDue(limit: number): ManualTimer | undefined {
    this.#timers = this.#timers.filter((t) => !t.cancelled);
    let best: ManualTimer | undefined;
    for (const t of this.#timers) {
      if (t.due > limit) continue;
      if (!best || t.due < best.due || (t.due === best.due && t.seq < best.seq)) best = t;
    }
    if (best) best.cancelled = true;
    return best;
  }
}

/** Lets pending promise callbacks (and one macrotask turn) run. */
export async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** The last formatTime answer. */
let lastFormatted = { second: Number.NaN, text: '' };

/** RFC 3339 with second precision, as Kubernetes writes metav1.Time: 2026-01-01T00:00:00Z. */
export function formatTime(ms: number): string {
  const second = Math.floor(ms / 1000);
  // Writes come in bursts within one second: keep the last answer (a hot path of the API server).
  if (second !== lastFormatted.second)
    lastFormatted = { second, text: new Date(second * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') };
  return lastFormatted.text;
}

/** RFC 3339 with microseconds, as Kubernetes writes metav1.MicroTime: 2026-01-01T00:00:00.000000Z. */
export function formatMicroTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
