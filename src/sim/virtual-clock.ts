/**
 * Virtual time for the simulation (docs/design/engine.md#quiescence-and-virtual-time): one clock
 * shared by every simulated controller, the embedded API server and the operator in one process.
 *
 * - `event` mode: time stands still while anything is busy. run() jumps to the next due timer
 *   only when the whole system is quiet: the quiescence tracker reports nothing outstanding,
 *   and it stays so across a settle period (a few event-loop turns, each polling I/O; on
 *   request also one real setTimeout(0)) in which nothing new began. That lets data already
 *   written to a loopback socket, and the promise chains it starts, reach something that
 *   reports activity (a work queue, an HTTP request) before time moves. One timer fires per
 *   quiet step, in (due, creation) order, so a run replays exactly. Zero-delay timers do not
 *   move time: they fire on the next turn without waiting for quiet, and count as activity
 *   until then. Caveat: work that holds an activity unit while it sleeps on this clock for a
 *   positive delay can never see that sleep end (run() logs what is outstanding), unless the
 *   sleep is given the signal of that unit (`signalOfActivity` in src/lib/activity.ts: every
 *   reconcile's), which suspends the unit for the sleep.
 * - `scaled` mode: virtual time = start + (wall elapsed since realOrigin) × scale, so several
 *   processes that share start, realOrigin and scale agree on the time; timers are wall
 *   timers scaled down. It is the {@link ScaledClock} of src/lib/clock.ts (the one `run
 *   --rehearsal` keeps), plus the bookkeeping run() needs.
 *
 * Hand-written: no library offers a clock driven by a quiescence tracker.
 */
import { setTimeout as realTimeout } from 'node:timers/promises';
import { ActivityCounter } from '../lib/activity.js';
import { RealClock, ScaledClock, sleepOn, type Clock, type ClockScaling, type Timer } from '../lib/clock.js';
import { silentLogger, type Logger } from '../lib/log.js';

/** An ActivityCounter that also counts every begin() (its epoch), so a settle period can tell that work came and went. */
export class QuiescenceTracker extends ActivityCounter {
  #epoch = 0;

  override begin(what: string): () => void {
    this.#epoch++;
    return super.begin(what);
  }

  /** Number of begin() calls so far. */
  get epoch(): number {
    return this.#epoch;
  }
}

interface CommonOptions {
  /** Virtual time at the start (event mode) or at realOrigin (scaled mode); default 2026-01-01T00:00:00Z. */
  start?: number | string | Date;
  /** Shared with everything that does work; a new one by default (see {@link VirtualClock.activity}). */
  activity?: QuiescenceTracker;
  logger?: Logger;
  /** The wall clock (scaled time, stall warnings); a RealClock by default. */
  wall?: Clock;
}

export interface EventClockOptions extends CommonOptions {
  mode: 'event';
  /** Event-loop turns (setImmediate) in a settle period (default 5, at least 1). */
  settleTurns?: number;
  /**
   * Also wait one real setTimeout(0) (≥ 1 ms) in a settle period (default false). Only work
   * scheduled on real timers needs it, and nothing in the project may use them (every delay
   * goes through a Clock); socket data and promise chains are covered by the turns.
   */
  settleTimeout?: boolean;
  /** Real ms without quiet after which run() logs what is outstanding, checked every as long (default 10 s). */
  stallWarnMs?: number;
}

export interface ScaledClockOptions extends CommonOptions {
  mode: 'scaled';
  /** Virtual ms per wall ms (e.g. 60: one virtual minute per second). */
  scale: number;
  /** Wall time (epoch ms) at which virtual time was `start`; default: the wall time at construction. */
  realOrigin?: number;
  /** Wall ms between checks of a run() condition (default 50). */
  pollMs?: number;
  /**
   * Run at the wall clock's pace (×1) until {@link VirtualClock.beginScaledTime}, then at `scale`:
   * a set-up that takes wall seconds costs seconds of virtual time, not hours (default false).
   */
  wallPaceUntilBegun?: boolean;
}

export type VirtualClockOptions = EventClockOptions | ScaledClockOptions;

export interface RunOptions {
  /** Stop at this virtual time, or once this holds (checked whenever the system is quiet). */
  until?: number | (() => boolean);
  /** Stop after this many timers fired. */
  maxEvents?: number;
  signal?: AbortSignal;
}

export interface RunResult {
  /** Why run() returned: condition held, time reached, no timer left, maxEvents fired, or aborted. */
  reason: 'condition' | 'time' | 'no-timers' | 'max-events' | 'aborted';
  /** Virtual time at return. */
  now: number;
  /** Timers fired during this run. */
  events: number;
}

interface PendingTimer {
  due: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
  /** Scaled mode: the ScaledClock's timer behind it. */
  scaled?: Timer;
}

const DEFAULT_START = Date.UTC(2026, 0, 1);

/** The shared simulation clock. */
export class VirtualClock implements Clock {
  readonly mode: 'event' | 'scaled';
  /** The quiescence tracker everything in the simulation reports to. */
  readonly activity: QuiescenceTracker;
  readonly #o: VirtualClockOptions;
  readonly #log: Logger;
  readonly #wall: Clock;
  /** Scaled mode: the time itself (replaced once by beginScaledTime). */
  #scaledClock: ScaledClock | undefined;
  #now: number;
  #seq = 0;
  /** Event mode: live and cancelled timers, sorted latest first (the next due is last). */
  #queue: PendingTimer[] = [];
  #cancelledInQueue = 0;
  /** Scaled mode: live timers. */
  readonly #scaled = new Set<PendingTimer>();
  #immediates = 0;
  #running = false;
  /** Wall time the system was last seen quiet (stall warnings). */
  #quietAt = 0;
  /** Scaled mode: called after each timer fires (run()'s checks). */
  #afterFire: (() => void) | undefined;

  constructor(options: VirtualClockOptions) {
    this.#o = options;
    this.mode = options.mode;
    this.activity = options.activity ?? new QuiescenceTracker();
    this.#log = (options.logger ?? silentLogger()).child({ component: 'virtual-clock' });
    this.#wall = options.wall ?? new RealClock();
    const start = options.start ?? DEFAULT_START;
    this.#now = typeof start === 'number' ? start : new Date(start).getTime();
    if (options.mode === 'scaled' && !(options.scale > 0))
      throw new Error(`VirtualClock: scale must be positive, got ${options.scale}`);
    this.#scaledClock =
      options.mode === 'scaled'
        ? new ScaledClock(
            {
              start: this.#now,
              realOrigin: options.realOrigin ?? this.#wall.now(),
              scale: options.wallPaceUntilBegun === true ? 1 : options.scale,
            },
            this.#wall,
          )
        : undefined;
  }

  /**
   * Scaled mode with `wallPaceUntilBegun`: from now on virtual time runs at its scale, continuing
   * from where the wall pace took it (one segment from here: `scaling` then has this instant as its
   * origin). Pending timers are armed again for the new pace, their virtual due times kept.
   * Otherwise (event mode, or begun already) nothing changes.
   */
  beginScaledTime(): void {
    const o = this.#o;
    const current = this.#scaledClock;
    if (o.mode !== 'scaled' || !current || current.scaling.scale === o.scale) return;
    const next = new ScaledClock({ start: current.now(), realOrigin: this.#wall.now(), scale: o.scale }, this.#wall);
    this.#scaledClock = next;
    for (const t of this.#scaled) {
      t.scaled?.cancel();
      t.scaled = next.setTimer(t.due - next.now(), () => this.#fireScaled(t));
    }
  }

  now(): number {
    return this.#scaledClock ? this.#scaledClock.now() : this.#now;
  }

  /** Scaled mode: its start, wall origin and scale (what another process needs to agree on the time); undefined in event mode. */
  get scaling(): ClockScaling | undefined {
    return this.#scaledClock?.scaling;
  }

  setTimer(ms: number, fn: () => void): Timer {
    if (this.#scaledClock) return this.#scaledTimer(ms, fn, this.#scaledClock);
    if (ms <= 0) return this.#immediateTimer(fn);
    const t: PendingTimer = { due: this.#now + ms, seq: this.#seq++, fn, cancelled: false };
    this.#insert(t);
    return {
      cancel: () => {
        if (t.cancelled) return;
        t.cancelled = true;
        this.#cancelledInQueue++;
        if (this.#cancelledInQueue > 64 && this.#cancelledInQueue > this.#queue.length / 2) this.#compact();
      },
    };
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleepOn(this, ms, signal);
  }

  /** Timers not yet fired or cancelled. */
  get pendingTimers(): number {
    if (this.mode === 'scaled') return this.#scaled.size;
    return this.#queue.length - this.#cancelledInQueue + this.#immediates;
  }

  /** Due time of the earliest live timer, if any (zero-delay timers are due now). */
  nextDue(): number | undefined {
    if (this.mode === 'scaled') {
      let best: number | undefined;
      for (const t of this.#scaled) if (best === undefined || t.due < best) best = t.due;
      return best;
    }
    if (this.#immediates > 0) return this.#now;
    return this.#peek()?.due;
  }

  /** What is outstanding, by label (why the system is not quiet). */
  busySnapshot(): Record<string, number> {
    return this.activity.snapshot();
  }

  /**
   * Drives time until the condition holds, the time is reached, maxEvents timers fired, no
   * timer is left (only without a numeric `until`: with one, time then jumps to it) or the
   * signal aborts. One run() at a time.
   */
  async run(options: RunOptions = {}): Promise<RunResult> {
    if (this.#running) throw new Error('VirtualClock.run() is already running');
    this.#running = true;
    try {
      return this.#o.mode === 'event'
        ? await this.#runEvents(options, this.#o)
        : await this.#runScaled(options, this.#o);
    } finally {
      this.#running = false;
    }
  }

  /** Resolves true once the system is quiet and stays so across a settle period; false if aborted. */
  async waitQuiet(signal?: AbortSignal): Promise<boolean> {
    const o = this.#o;
    // At least one turn: with none, a run would fire timer after timer without ever polling I/O.
    const turns = Math.max(1, o.mode === 'event' ? (o.settleTurns ?? 5) : 5);
    const withTimeout = o.mode === 'event' && o.settleTimeout === true;
    for (;;) {
      if (signal?.aborted) return false;
      if (this.activity.busy > 0) {
        if (!(await idleOrAbort(this.activity, signal))) return false;
        continue;
      }
      const epoch = this.activity.epoch;
      await eventLoopTurns(turns);
      if (withTimeout) await realTimeout(0);
      if (this.activity.busy === 0 && this.activity.epoch === epoch) {
        this.#quietAt = this.#wall.now();
        return true;
      }
    }
  }

  async #runEvents(options: RunOptions, eventOptions: EventClockOptions): Promise<RunResult> {
    const { until, signal } = options;
    const maxEvents = options.maxEvents ?? Infinity;
    let events = 0;
    const result = (reason: RunResult['reason']): RunResult => ({ reason, now: this.#now, events });
    // One wall timer per run reports a system that has not been quiet for stallMs.
    const stallMs = eventOptions.stallWarnMs ?? 10_000;
    this.#quietAt = this.#wall.now();
    const check = (): void => {
      const waited = this.#wall.now() - this.#quietAt;
      if (waited >= stallMs) {
        this.#log.warn(
          { busy: this.busySnapshot(), virtualTime: new Date(this.#now).toISOString(), waitingMs: waited },
          'system not quiet; virtual time cannot move',
        );
      }
      stall = this.#wall.setTimer(stallMs, check);
    };
    let stall = this.#wall.setTimer(stallMs, check);
    try {
      for (;;) {
        if (!(await this.waitQuiet(signal))) return result('aborted');
        if (typeof until === 'function' && until()) return result('condition');
        if (events >= maxEvents) return result('max-events');
        const next = this.#peek();
        if (typeof until === 'number' && (next === undefined || next.due > until)) {
          this.#now = Math.max(this.#now, until);
          return result('time');
        }
        if (next === undefined) return result('no-timers');
        this.#queue.pop();
        this.#now = Math.max(this.#now, next.due);
        events++;
        next.cancelled = true;
        next.fn();
      }
    } finally {
      stall.cancel();
    }
  }

  async #runScaled(options: RunOptions, scaledOptions: ScaledClockOptions): Promise<RunResult> {
    const { until, signal } = options;
    const maxEvents = options.maxEvents ?? Infinity;
    let events = 0;
    return new Promise<RunResult>((resolve) => {
      let poll: Timer | undefined;
      let deadline: Timer | undefined;
      const finish = (reason: RunResult['reason']): void => {
        poll?.cancel();
        deadline?.cancel();
        this.#afterFire = undefined;
        signal?.removeEventListener('abort', onAbort);
        resolve({ reason, now: this.now(), events });
      };
      const onAbort = (): void => finish('aborted');
      const check = (): boolean => {
        if (typeof until === 'function' && until()) finish('condition');
        else if (typeof until === 'number' && this.now() >= until) finish('time');
        else if (events >= maxEvents) finish('max-events');
        else if (until === undefined || typeof until === 'function') {
          if (this.#scaled.size === 0 && this.activity.busy === 0) finish('no-timers');
          else return false;
        } else return false;
        return true;
      };
      if (signal?.aborted) {
        finish('aborted');
        return;
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#afterFire = () => {
        events++;
        check();
      };
      if (check()) return;
      const tick = (): void => {
        if (!check()) poll = this.#wall.setTimer(scaledOptions.pollMs ?? 50, tick);
      };
      poll = this.#wall.setTimer(scaledOptions.pollMs ?? 50, tick);
      if (typeof until === 'number') {
        const arm = (): void => {
          deadline = this.#wall.setTimer(Math.max(0, Math.ceil((until - this.now()) / scaledOptions.scale)), () => {
            if (!check()) arm();
          });
        };
        arm();
      }
    });
  }

  #immediateTimer(fn: () => void): Timer {
    const end = this.activity.begin('timer (zero delay)');
    this.#immediates++;
    let state: 'pending' | 'done' = 'pending';
    const settle = (): boolean => {
      if (state === 'done') return false;
      state = 'done';
      this.#immediates--;
      end();
      return true;
    };
    setImmediate(() => {
      if (settle()) fn();
    });
    return { cancel: () => void settle() };
  }

  #scaledTimer(ms: number, fn: () => void, scaledClock: ScaledClock): Timer {
    const t: PendingTimer = { due: this.now() + Math.max(0, ms), seq: this.#seq++, fn, cancelled: false };
    this.#scaled.add(t);
    t.scaled = scaledClock.setTimer(ms, () => this.#fireScaled(t));
    return {
      cancel: () => {
        t.cancelled = true;
        t.scaled?.cancel();
        this.#scaled.delete(t);
      },
    };
  }

  #fireScaled(timer: PendingTimer): void {
    if (timer.cancelled) return;
    timer.cancelled = true;
    this.#scaled.delete(timer);
    timer.fn();
    this.#afterFire?.();
  }

  /** Inserts keeping the queue sorted by (due, seq) descending, so the next timer is last. */
  #insert(pendingTimer: PendingTimer): void {
    const q = this.#queue;
    let lo = 0;
    let hi = q.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const m = q[mid]!;
      // Later (or equal due and later seq) goes before.
      if (m.due > pendingTimer.due || (m.due === pendingTimer.due && m.seq > pendingTimer.seq)) lo = mid + 1;
      else hi = mid;
    }
    q.splice(lo, 0, pendingTimer);
  }

  /** The next live timer (drops cancelled ones from the end). */
  #peek(): PendingTimer | undefined {
    const q = this.#queue;
    for (;;) {
      const last = q[q.length - 1];
      if (!last?.cancelled) return last;
      q.pop();
      this.#cancelledInQueue--;
    }
  }

  #compact(): void {
    this.#queue = this.#queue.filter((t) => !t.cancelled);
    this.#cancelledInQueue = 0;
  }
}

/** Lets the event loop go round `turns` times (each turn polls I/O and runs the microtasks it starts). */
function eventLoopTurns(turns: number): Promise<void> {
  return new Promise<void>((resolve) => {
    let left = turns;
    const step = (): void => {
      if (left-- <= 0) resolve();
      else setImmediate(step);
    };
    step();
  });
}

/** Resolves true when the tracker is idle, false if the signal aborts first. */
function idleOrAbort(activity: ActivityCounter, signal: AbortSignal | undefined): Promise<boolean> {
  if (!signal) return activity.idle().then(() => true);
  return new Promise<boolean>((resolve) => {
    const onAbort = (): void => resolve(false);
    signal.addEventListener('abort', onAbort, { once: true });
    void activity.idle().then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    });
  });
}
