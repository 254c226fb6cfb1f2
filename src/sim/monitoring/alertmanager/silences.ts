/**
 * Silences as Alertmanager 0.25 keeps them (`silence/silence.go`, `api/v2/api.go`): create,
 * update in place or replace, expire, states by the clock, retention of expired silences, and
 * which active silences mute a label set. Pure apart from the injected Clock and Random.
 */
import type { Clock } from '../../../lib/clock.js';
import type { JsonObject } from '../../../lib/json.js';
import type { Random } from '../../../lib/random.js';
import { matchesLabels, type CompiledMatcher, type LabelMatcher } from '../label-matcher.js';
import { amText } from './am-error.js';
import {
  compileApiMatcher,
  MatcherError,
  silenceMatchesFilter,
  validateSilenceMatchers,
  type ApiMatcher,
  type SilenceMatcher,
} from './matchers.js';

/** A silence's state at a given instant. */
export type SilenceState = 'pending' | 'active' | 'expired';

/** What `POST /api/v2/silences` carries, times in epoch milliseconds. */
export interface SilenceInput {
  id?: string;
  matchers: readonly ApiMatcher[];
  startsAt: number;
  endsAt: number;
  createdBy: string;
  comment: string;
}

/** A stored silence. */
export interface Silence {
  readonly id: string;
  readonly matchers: readonly SilenceMatcher[];
  readonly startsAt: number;
  readonly endsAt: number;
  readonly updatedAt: number;
  readonly createdBy: string;
  readonly comment: string;
}

/** Alertmanager's default `--data.retention`: 120 h. */
export const DEFAULT_RETENTION_MS = 120 * 3600 * 1000;

export interface SilenceStoreOptions {
  clock: Clock;
  /** Drives the silence ids (UUID v4). */
  random: Random;
  /** How long an expired silence stays listed; default 120 h. */
  retentionMs?: number;
}

interface Entry {
  silence: Silence;
  compiled: CompiledMatcher[];
  seq: number;
}

/** The state of `s` at `now`: pending before startsAt, expired from endsAt on. */
export function silenceState(silence: Pick<Silence, 'startsAt' | 'endsAt'>, now: number): SilenceState {
  if (now < silence.startsAt) return 'pending';
  if (now >= silence.endsAt) return 'expired';
  return 'active';
}

/**
 * `canUpdate`: may `next` overwrite `prev` in place? Only with identical matchers (same
 * order); an active silence keeps its start (compared in whole seconds) and must not end in
 * the past; a pending one must not start in the past; an expired one never.
 */
export function canUpdateInPlace(
  prev: Silence,
  next: SilenceInput & { matchers: readonly SilenceMatcher[] },
  now: number,
): boolean {
  if (prev.matchers.length !== next.matchers.length) return false;
  for (let i = 0; i < prev.matchers.length; i++) {
    const a = prev.matchers[i]!;
    const b = next.matchers[i]!;
    if (a.name !== b.name || a.value !== b.value || a.isRegex !== b.isRegex || a.isEqual !== b.isEqual) return false;
  }
  switch (silenceState(prev, now)) {
    case 'active':
      return Math.floor(next.startsAt / 1000) === Math.floor(prev.startsAt / 1000) && next.endsAt >= now;
    case 'pending':
      return next.startsAt >= now;
    case 'expired':
      return false;
  }
}

/** A random UUID v4 from the given source. */
export function uuidV4(random: Random): string {
  const bytes: number[] = [];
  for (let i = 0; i < 16; i++) bytes.push(Math.floor(random.next() * 256));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The silences of one Alertmanager. */
export class SilenceStore {
  readonly #clock: Clock;
  readonly #random: Random;
  readonly #retentionMs: number;
  readonly #entries = new Map<string, Entry>();
  #seq = 0;

  constructor(options: SilenceStoreOptions) {
    this.#clock = options.clock;
    this.#random = options.random;
    this.#retentionMs = options.retentionMs ?? DEFAULT_RETENTION_MS;
  }

  /**
   * `POST /api/v2/silences`: creates a silence, or updates the one named by `id` (in place
   * when allowed, else it is expired and a new one created). Returns the silence id. Throws
   * an AmError with Alertmanager's status and text: 400 for bad times or matchers, 404 for an
   * unknown id. Like Alertmanager, an update with invalid matchers still expires the old one.
   */
  post(input: SilenceInput): string {
    const now = this.#clock.now();
    this.#gc(now);
    if (input.startsAt >= input.endsAt)
      throw amText(400, 'Failed to create silence: start time must be before end time');
    if (input.endsAt < now) throw amText(400, "Failed to create silence: end time can't be in the past");
    const prev = input.id === undefined || input.id === '' ? undefined : this.#entries.get(input.id);
    if (input.id !== undefined && input.id !== '' && !prev) throw amText(404, 'silence not found');
    const matchers = input.matchers.map((m) => ({
      name: m.name,
      value: m.value,
      isRegex: m.isRegex,
      isEqual: m.isEqual ?? true,
    }));
    if (prev) {
      if (canUpdateInPlace(prev.silence, { ...input, matchers }, now)) {
        this.#store(prev.silence.id, input, now, prev.seq);
        return prev.silence.id;
      }
      if (silenceState(prev.silence, now) !== 'expired') this.#expireEntry(prev, now);
    }
    const id = uuidV4(this.#random);
    this.#store(id, { ...input, startsAt: Math.max(input.startsAt, now) }, now, this.#seq++);
    return id;
  }

  /** `DELETE /api/v2/silence/{id}`: expires it (a no-op when already expired). 500 when unknown, as Alertmanager 0.25. */
  expire(id: string): void {
    const now = this.#clock.now();
    this.#gc(now);
    const entry = this.#entries.get(id);
    if (!entry) throw amText(500, 'silence not found');
    if (silenceState(entry.silence, now) !== 'expired') this.#expireEntry(entry, now);
  }

  /** One silence, if known (expired ones until their retention ends). */
  get(id: string): Silence | undefined {
    this.#gc(this.#clock.now());
    return this.#entries.get(id)?.silence;
  }

  /**
   * All silences whose matchers include every filter matcher (compared, not evaluated), in
   * Alertmanager's order: active by end, pending by start, then expired, latest end first.
   */
  list(filter: readonly LabelMatcher[] = []): Silence[] {
    const now = this.#clock.now();
    this.#gc(now);
    const rank: Record<SilenceState, number> = { active: 0, pending: 1, expired: 2 };
    const key = (entry: Entry): number => {
      const st = silenceState(entry.silence, now);
      return st === 'active' ? entry.silence.endsAt : st === 'pending' ? entry.silence.startsAt : -entry.silence.endsAt;
    };
    return [...this.#entries.values()]
      .filter((e) => silenceMatchesFilter(e.silence.matchers, filter))
      .sort((left, right) => {
        const ra = rank[silenceState(left.silence, now)];
        const rb = rank[silenceState(right.silence, now)];
        return ra - rb || key(left) - key(right) || left.seq - right.seq;
      })
      .map((e) => e.silence);
  }

  /** The state of a silence now. */
  state(silence: Silence): SilenceState {
    return silenceState(silence, this.#clock.now());
  }

  /** Ids (sorted) of the active silences that mute this label set. */
  mutedBy(labels: Readonly<Record<string, string>>): string[] {
    const now = this.#clock.now();
    const ids: string[] = [];
    for (const e of this.#entries.values()) {
      if (silenceState(e.silence, now) === 'active' && matchesLabels(e.compiled, labels)) ids.push(e.silence.id);
    }
    return ids.sort();
  }

  /** The silence as `GET /api/v2/silence/{id}` returns it (gettableSilence). */
  toGettable(silence: Silence): JsonObject {
    return {
      id: silence.id,
      status: { state: this.state(silence) },
      updatedAt: new Date(silence.updatedAt).toISOString(),
      comment: silence.comment,
      createdBy: silence.createdBy,
      endsAt: new Date(silence.endsAt).toISOString(),
      matchers: silence.matchers.map((m) => ({ isEqual: m.isEqual, isRegex: m.isRegex, name: m.name, value: m.value })),
      startsAt: new Date(silence.startsAt).toISOString(),
    };
  }

  /** Validates (`setSilence`) and stores. */
  #store(id: string, input: SilenceInput, now: number, seq: number): void {
    let matchers: SilenceMatcher[];
    try {
      matchers = validateSilenceMatchers(input.matchers);
    } catch (err) {
      if (err instanceof MatcherError) throw amText(400, `silence invalid: ${err.message}`);
      throw err;
    }
    const silence: Silence = {
      id,
      matchers,
      startsAt: input.startsAt,
      endsAt: input.endsAt,
      updatedAt: now,
      createdBy: input.createdBy,
      comment: input.comment,
    };
    this.#entries.set(id, { silence, compiled: matchers.map(compileApiMatcher), seq });
  }

  #expireEntry(entry: Entry, now: number): void {
    const s = entry.silence;
    const startsAt = silenceState(s, now) === 'pending' ? now : s.startsAt;
    entry.silence = { ...s, startsAt, endsAt: now, updatedAt: now };
  }

  /** Drops expired silences whose retention has passed. */
  #gc(now: number): void {
    for (const [id, e] of this.#entries) {
      if (e.silence.endsAt + this.#retentionMs < now) this.#entries.delete(id);
    }
  }
}
