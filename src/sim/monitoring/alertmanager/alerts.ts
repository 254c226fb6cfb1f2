/**
 * Alerts as Alertmanager 0.25 receives and lists them (`api/v2/api.go`, `provider/mem`,
 * `types/types.go`): defaulted times, validation, merging of re-sent alerts, resolution by
 * `endsAt`, and the gettableAlert view with silences applied at read time. The rule evaluator
 * of the simulated Prometheus pushes here in process through {@link AlertSink}.
 */
import type { Clock } from '../../../lib/clock.js';
import type { GoRegexp } from '../../../lib/go-regexp.js';
import type { JsonObject } from '../../../lib/json.js';
import { matchesLabels, type CompiledMatcher } from '../label-matcher.js';
import { amText } from './am-error.js';
import { goQuote, isValidLabelName } from './matchers.js';
import type { SilenceStore } from './silences.js';
import { parseDateTime } from './wire-time.js';

/** An alert as `POST /api/v2/alerts` takes it (times RFC 3339). */
export interface PostableAlert {
  labels: Record<string, string>;
  annotations?: Record<string, string>;
  startsAt?: string;
  endsAt?: string;
  generatorURL?: string;
}

/** Where alerts are delivered: the simulated Alertmanager, in process. */
export interface AlertSink {
  /** Same semantics as `POST /api/v2/alerts`; throws an AmError (400) listing invalid alerts, after storing the valid ones. */
  push(alerts: readonly PostableAlert[]): void;
}

/** A stored alert. */
export interface StoredAlert {
  readonly fingerprint: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  readonly startsAt: number;
  readonly endsAt: number;
  readonly updatedAt: number;
  readonly generatorURL: string;
  /** endsAt was set by the resolve timeout, not by the sender. */
  readonly timeout: boolean;
}

/** Query parameters of `GET /api/v2/alerts` and `/alerts/groups`. */
export interface AlertQuery {
  active?: boolean;
  silenced?: boolean;
  inhibited?: boolean;
  unprocessed?: boolean;
  filter?: readonly CompiledMatcher[];
  /** Anchored receiver-name regex. */
  receiver?: GoRegexp;
}

export interface AlertStoreOptions {
  clock: Clock;
  silences: SilenceStore;
  /** `global.resolve_timeout`; default 5 min. */
  resolveTimeoutMs?: number;
  /** Receivers an alert routes to; default: the single receiver `null`. */
  receivers?: (labels: Readonly<Record<string, string>>) => string[];
  /** The route's `group_by` for `/alerts/groups`; default none (one group per receiver). */
  groupBy?: readonly string[];
}

const FNV64_OFFSET = 0xcbf29ce484222325n;
const FNV64_PRIME = 0x100000001b3n;
const MASK64 = 0xffffffffffffffffn;
/** Resolved alerts are garbage-collected every 30 min in Alertmanager. */
const RESOLVED_GC_MS = 30 * 60 * 1000;

/** `model.LabelSet.Fingerprint()` as 16 hex digits: FNV-1a 64 over sorted name/value pairs, 0xff-separated. */
export function fingerprint(labels: Readonly<Record<string, string>>): string {
  const names = Object.keys(labels).sort();
  let h = FNV64_OFFSET;
  const add = (bytes: Uint8Array): void => {
    for (const b of bytes) h = ((h ^ BigInt(b)) * FNV64_PRIME) & MASK64;
  };
  const enc = new TextEncoder();
  const sep = new Uint8Array([0xff]);
  for (const n of names) {
    add(enc.encode(n));
    add(sep);
    add(enc.encode(labels[n] ?? ''));
    add(sep);
  }
  return h.toString(16).padStart(16, '0');
}

/** Prometheus `LabelSet.Before`: fewer labels first, then by values over the union of names. */
export function labelSetBefore(
  left: Readonly<Record<string, string>>,
  right: Readonly<Record<string, string>>,
): number {
  const na = Object.keys(left).length;
  const nb = Object.keys(right).length;
  if (na !== nb) return na - nb;
  const names = [...new Set([...Object.keys(left), ...Object.keys(right)])].sort();
  for (const n of names) {
    const va = left[n] ?? '';
    const vb = right[n] ?? '';
    if (va !== vb) return va < vb ? -1 : 1;
  }
  return 0;
}

/** `types.AlertSlice` order: by job, then instance, then label set. */
function alertOrder(left: StoredAlert, right: StoredAlert): number {
  for (const key of ['job', 'instance']) {
    const va = left.labels[key];
    const vb = right.labels[key];
    if (va === undefined && vb === undefined) continue;
    if (va === undefined) return 1;
    if (vb === undefined) return -1;
    if (va !== vb) return va < vb ? -1 : 1;
  }
  return labelSetBefore(left.labels, right.labels);
}

/** Evaluates like swag.ConvertBool: only these spellings are true. */
export function goBool(value: string): boolean {
  return ['true', 'yes', 'ok', 'y', 'on', 'selected', 'checked', 't', 'enabled'].includes(value.toLowerCase());
}

/** `Alert.Merge`: `o` is the younger alert. */
function merge(storedAlert: StoredAlert, options: StoredAlert, now: number): StoredAlert {
  if (options.updatedAt < storedAlert.updatedAt) return merge(options, storedAlert, now);
  let { startsAt, endsAt } = options;
  if (storedAlert.startsAt < options.startsAt) startsAt = storedAlert.startsAt;
  if (options.endsAt < now) {
    if (storedAlert.endsAt < now && storedAlert.endsAt > options.endsAt) endsAt = storedAlert.endsAt;
  } else if (storedAlert.endsAt > options.endsAt && !storedAlert.timeout) {
    endsAt = storedAlert.endsAt;
  }
  return { ...options, startsAt, endsAt };
}

/** The alerts of one Alertmanager. */
export class AlertStore implements AlertSink {
  readonly #clock: Clock;
  readonly #silences: SilenceStore;
  readonly #resolveTimeoutMs: number;
  readonly #receivers: (labels: Readonly<Record<string, string>>) => string[];
  readonly #groupBy: readonly string[];
  readonly #alerts = new Map<string, StoredAlert>();

  constructor(options: AlertStoreOptions) {
    this.#clock = options.clock;
    this.#silences = options.silences;
    this.#resolveTimeoutMs = options.resolveTimeoutMs ?? 5 * 60 * 1000;
    this.#receivers = options.receivers ?? (() => ['null']);
    this.#groupBy = options.groupBy ?? [];
  }

  push(alerts: readonly PostableAlert[]): void {
    const now = this.#clock.now();
    this.#gc(now);
    const errors: string[] = [];
    for (const posted of alerts) {
      const labels = Object.fromEntries(Object.entries(posted.labels).filter(([, v]) => v !== ''));
      const annotations = { ...(posted.annotations ?? {}) };
      let startsAt = posted.startsAt === undefined ? 0 : parseDateTime(posted.startsAt);
      let endsAt = posted.endsAt === undefined ? 0 : parseDateTime(posted.endsAt);
      if (startsAt === 0) startsAt = endsAt === 0 ? now : endsAt;
      const timeout = endsAt === 0;
      if (timeout) endsAt = now + this.#resolveTimeoutMs;
      const problem = validateAlert(labels, annotations, startsAt, endsAt);
      if (problem) {
        errors.push(problem);
        continue;
      }
      const fp = fingerprint(labels);
      let alert: StoredAlert = {
        fingerprint: fp,
        labels,
        annotations,
        startsAt,
        endsAt,
        updatedAt: now,
        generatorURL: posted.generatorURL ?? '',
        timeout,
      };
      const old = this.#alerts.get(fp);
      if (
        old &&
        ((alert.endsAt > old.startsAt && alert.endsAt < old.endsAt) ||
          (alert.startsAt > old.startsAt && alert.startsAt < old.endsAt))
      ) {
        alert = merge(old, alert, now);
      }
      this.#alerts.set(fp, alert);
    }
    if (errors.length > 0) throw amText(400, errors.join('; '));
  }

  /** Every stored alert, resolved ones included until garbage collection (for reports). */
  all(): StoredAlert[] {
    this.#gc(this.#clock.now());
    return [...this.#alerts.values()];
  }

  /** `GET /api/v2/alerts`: unresolved alerts passing the query, by fingerprint. */
  list(query: AlertQuery = {}): JsonObject[] {
    return this.#select(query)
      .sort((a, b) => (a.alert.fingerprint < b.alert.fingerprint ? -1 : 1))
      .map((s) => s.json);
  }

  /** `GET /api/v2/alerts/groups`: one group per receiver and `group_by` label values. */
  groups(query: AlertQuery = {}): JsonObject[] {
    const groups = new Map<
      string,
      { labels: Record<string, string>; receiver: string; alerts: Array<{ alert: StoredAlert; json: JsonObject }> }
    >();
    for (const sel of this.#select(query)) {
      const labels: Record<string, string> = {};
      for (const n of this.#groupBy) if (sel.alert.labels[n] !== undefined) labels[n] = sel.alert.labels[n];
      for (const receiver of sel.receivers) {
        if (query.receiver && !query.receiver.test(receiver)) continue;
        const key = JSON.stringify([receiver, Object.entries(labels).sort()]);
        let g = groups.get(key);
        if (!g) groups.set(key, (g = { labels, receiver, alerts: [] }));
        g.alerts.push(sel);
      }
    }
    return [...groups.values()]
      .sort(
        (a, b) =>
          labelSetBefore(a.labels, b.labels) || (a.receiver < b.receiver ? -1 : a.receiver > b.receiver ? 1 : 0),
      )
      .map((g) => ({
        alerts: g.alerts.sort((x, y) => alertOrder(x.alert, y.alert)).map((s) => s.json),
        labels: g.labels,
        receiver: { name: g.receiver },
      }));
  }

  #select(query: AlertQuery): Array<{ alert: StoredAlert; json: JsonObject; receivers: string[] }> {
    const now = this.#clock.now();
    this.#gc(now);
    const out: Array<{ alert: StoredAlert; json: JsonObject; receivers: string[] }> = [];
    for (const alert of this.#alerts.values()) {
      if (alert.endsAt < now) continue;
      const receivers = this.#receivers(alert.labels);
      if (query.receiver && !receivers.some((r) => query.receiver!.test(r))) continue;
      const silencedBy = this.#silences.mutedBy(alert.labels);
      const state = silencedBy.length > 0 ? 'suppressed' : 'active';
      if (query.active === false && state === 'active') continue;
      if (query.silenced === false && silencedBy.length > 0) continue;
      if (query.filter && !matchesLabels(query.filter, alert.labels)) continue;
      const json: JsonObject = {
        annotations: { ...alert.annotations },
        endsAt: new Date(alert.endsAt).toISOString(),
        fingerprint: alert.fingerprint,
        receivers: receivers.map((name) => ({ name })),
        startsAt: new Date(alert.startsAt).toISOString(),
        status: { inhibitedBy: [], silencedBy, state },
        updatedAt: new Date(alert.updatedAt).toISOString(),
      };
      if (alert.generatorURL !== '') json['generatorURL'] = alert.generatorURL;
      json['labels'] = { ...alert.labels };
      out.push({ alert, json, receivers });
    }
    return out;
  }

  /** Forgets alerts resolved more than 30 min ago (Alertmanager's GC interval). */
  #gc(now: number): void {
    for (const [fp, a] of this.#alerts) if (a.endsAt + RESOLVED_GC_MS < now) this.#alerts.delete(fp);
  }
}

/** `Alert.Validate` after defaults, with Alertmanager's messages. */
function validateAlert(
  labels: Record<string, string>,
  annotations: Record<string, string>,
  startsAt: number,
  endsAt: number,
): string | undefined {
  if (endsAt < startsAt) return 'start time must be before end time';
  for (const name of Object.keys(labels))
    if (!isValidLabelName(name)) return `invalid label set: invalid name ${goQuote(name)}`;
  if (Object.keys(labels).length === 0) return 'at least one label pair required';
  for (const name of Object.keys(annotations))
    if (!isValidLabelName(name)) return `invalid annotations: invalid name ${goQuote(name)}`;
  return undefined;
}
