/**
 * Alerting rules evaluated on the injected Clock every 30 s (OpenShift's interval), with
 * Prometheus' semantics (`rules/alerting.go`): a new result is `pending` from its activeAt;
 * it turns `firing` once it has been pending for the rule's `for` (at once without `for`);
 * a pending alert that disappears is dropped, a firing one is resolved. Every evaluation writes
 * `ALERTS{alertname, alertstate, …}` = 1 and `ALERTS_FOR_STATE{…}` = activeAt (seconds) for the
 * active alerts and stale markers for the series that went away, and pushes firing and newly
 * resolved alerts to an Alertmanager-like {@link AlertSink}.
 */
import { NO_ACTIVITY } from '../../lib/activity.js';
import type { ActivityTracker } from '../../lib/activity.js';
import type { Clock, Timer } from '../../lib/clock.js';
import { expandTemplate } from './alert-template.js';
import type { Expr } from './promql/ast.js';
import { evaluate } from './promql/engine.js';
import { PromqlError } from './promql/errors.js';
import { parseDurationMs, parsePromql } from './promql/parse.js';
import { labelsKey } from './promql/values.js';
import type { Labels, Sample } from './promql/values.js';
import type { Tsdb } from './tsdb.js';

/** An alerting rule, as in a PrometheusRule. */
export interface AlertingRule {
  /** The alert name (`alert:`). */
  name: string;
  expr: string;
  /** A Prometheus duration such as `10m`; absent or `0s`: fire at once. */
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** A rule group (one per PrometheusRule group in OpenShift). */
export interface RuleGroup {
  name: string;
  /** The rule file Prometheus reports (OpenShift: `/etc/prometheus/rules/…/<ns>-<name>.yaml`). */
  file: string;
  rules: AlertingRule[];
}

/** An alert as Alertmanager's v2 API accepts it (`postableAlert`). */
export interface PostableAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  /** RFC 3339. */
  startsAt: string;
  endsAt?: string;
  generatorURL?: string;
}

/** Where firing and resolved alerts go (the simulated Alertmanager implements it). */
export interface AlertSink {
  push(alerts: PostableAlert[]): void;
}

/** The state of an alert instance. */
export type AlertState = 'inactive' | 'pending' | 'firing';

/** One alert instance of a rule. */
export interface Alert {
  readonly labels: Labels;
  annotations: Record<string, string>;
  state: AlertState;
  value: number;
  /** ms */
  activeAt: number;
  firedAt: number | undefined;
  resolvedAt: number | undefined;
}

/**
 * A change of an alert instance's state, for reports and the invariant
 * (docs/design/cluster-model.md#invariants) that an alert was pending for its rule's `for` before
 * it fired: `pending` (a new alert that did not fire in the same evaluation), `firing`, `resolved`
 * (a firing alert whose expression stopped returning it), `dropped` (a pending alert that went away
 * before it fired).
 */
export interface AlertTransition {
  /** Virtual ms of the evaluation. */
  readonly at: number;
  readonly alertname: string;
  /** The alert's labels (with `alertname`, without external labels). */
  readonly labels: Readonly<Record<string, string>>;
  readonly state: 'pending' | 'firing' | 'resolved' | 'dropped';
  /** When the alert became active (ms). */
  readonly activeAt: number;
  /** The rule's `for` (ms). */
  readonly forMs: number;
}

/** The state of one rule after its last evaluation. */
export interface RuleStatus {
  readonly rule: AlertingRule;
  readonly group: RuleGroup;
  readonly forMs: number;
  readonly alerts: readonly Alert[];
  /** The rule's state: the most severe state of its active alerts. */
  readonly state: AlertState;
  readonly health: 'ok' | 'err' | 'unknown';
  readonly lastError: string | undefined;
  /** ms, undefined before the first evaluation. */
  readonly lastEvaluation: number | undefined;
}

/** Options of {@link RuleEvaluator}. */
export interface RuleEvaluatorOptions {
  tsdb: Tsdb;
  clock: Clock;
  groups: RuleGroup[];
  /** Evaluation interval in ms (default 30 s). */
  intervalMs?: number;
  sink?: AlertSink;
  /** Added to alerts sent to the sink (OpenShift: `prometheus="openshift-monitoring/k8s"`). */
  externalLabels?: Record<string, string>;
  /** Base of `generatorURL`. */
  externalUrl?: string;
  activity?: ActivityTracker;
  /** Called at every tick before the rules are evaluated (e.g. to write the scraped samples). */
  beforeEvaluation?: (time: number) => void;
}

/** Prometheus keeps resolved alerts this long (and keeps sending them as resolved). */
const RESOLVED_RETENTION_MS = 15 * 60_000;

interface RuleRuntime {
  rule: AlertingRule;
  group: RuleGroup;
  expr: Expr;
  forMs: number;
  active: Map<string, Alert>;
  health: 'ok' | 'err' | 'unknown';
  lastError: string | undefined;
  lastEvaluation: number | undefined;
}

/** Evaluates the rule groups; {@link start} schedules it on the clock. */
export class RuleEvaluator {
  readonly #o: RuleEvaluatorOptions;
  readonly #rules: RuleRuntime[];
  readonly #intervalMs: number;
  /** ALERTS / ALERTS_FOR_STATE series written by the previous evaluation, by key. */
  #previousSeries = new Map<string, Labels>();
  #timer: Timer | undefined;
  readonly #transitions: AlertTransition[] = [];
  readonly #transitionListeners = new Set<() => void>();

  /** Throws a `bad_data` PromqlError when a rule's expression or `for` is invalid. */
  constructor(options: RuleEvaluatorOptions) {
    this.#o = options;
    this.#intervalMs = options.intervalMs ?? 30_000;
    this.#rules = options.groups.flatMap((group) =>
      group.rules.map((rule) => ({
        rule,
        group,
        expr: parsePromql(rule.expr),
        forMs: rule.for ? parseDurationMs(rule.for) : 0,
        active: new Map<string, Alert>(),
        health: 'unknown' as const,
        lastError: undefined,
        lastEvaluation: undefined,
      })),
    );
  }

  /** The evaluation interval in ms. */
  get intervalMs(): number {
    return this.#intervalMs;
  }

  /** Evaluates at once and then every interval, until {@link stop}. */
  start(): void {
    if (this.#timer) return;
    const tick = (): void => {
      const end = (this.#o.activity ?? NO_ACTIVITY).begin('prometheus rule evaluation');
      try {
        const t = this.#o.clock.now();
        this.#o.beforeEvaluation?.(t);
        this.evaluate(t);
      } finally {
        end();
      }
      this.#timer = this.#o.clock.setTimer(this.#intervalMs, tick);
    };
    this.#timer = this.#o.clock.setTimer(0, tick);
  }

  /** Stops the periodic evaluation. */
  stop(): void {
    this.#timer?.cancel();
    this.#timer = undefined;
  }

  /** One evaluation of every rule at `t` (ms). */
  evaluate(time: number): void {
    const transitionsBefore = this.#transitions.length;
    const series = new Map<string, { labels: Labels; v: number }>();
    const toSend: PostableAlert[] = [];
    for (const r of this.#rules) {
      this.#evalRule(r, time);
      for (const a of r.active.values()) {
        if (a.state === 'pending' || a.state === 'firing') {
          const alerts = { ...a.labels, __name__: 'ALERTS', alertstate: a.state };
          series.set(labelsKey(alerts), { labels: alerts, v: 1 });
          const forState = { ...a.labels, __name__: 'ALERTS_FOR_STATE' };
          series.set(labelsKey(forState), { labels: forState, v: a.activeAt / 1000 });
        }
        if (a.state === 'firing' || (a.state === 'inactive' && a.resolvedAt === time))
          toSend.push(this.#postable(r, a, time));
      }
    }
    for (const { labels, v } of series.values()) this.#o.tsdb.append(labels, v, time);
    for (const [key, labels] of this.#previousSeries) if (!series.has(key)) this.#o.tsdb.markStale(labels, time);
    this.#previousSeries = new Map([...series].map(([k, s]) => [k, s.labels]));
    if (toSend.length > 0) this.#o.sink?.push(toSend);
    if (this.#transitions.length > transitionsBefore) for (const listener of this.#transitionListeners) listener();
  }

  /** Calls `listener` after each evaluation in which an alert changed state; returns the unsubscribe. */
  onTransitions(listener: () => void): () => void {
    this.#transitionListeners.add(listener);
    return () => void this.#transitionListeners.delete(listener);
  }

  #evalRule(ruleRuntime: RuleRuntime, time: number): void {
    ruleRuntime.lastEvaluation = time;
    let samples: Sample[];
    try {
      const v = evaluate(this.#o.tsdb, ruleRuntime.expr, time);
      if (v.type !== 'vector') throw new PromqlError('execution', `rule result is not a vector but ${v.type}`);
      samples = v.samples;
      ruleRuntime.health = 'ok';
      ruleRuntime.lastError = undefined;
    } catch (err) {
      ruleRuntime.health = 'err';
      ruleRuntime.lastError = err instanceof Error ? err.message : String(err);
      return;
    }
    const seen = new Set<string>();
    for (const s of samples) {
      const external = this.#o.externalLabels ?? {};
      const data = { labels: s.metric, externalLabels: external, value: s.v };
      const labels: Record<string, string> = { ...s.metric };
      delete labels['__name__'];
      for (const [k, v] of Object.entries(ruleRuntime.rule.labels ?? {})) {
        const expanded = expandTemplate(v, data);
        if (expanded === '') delete labels[k];
        else labels[k] = expanded;
      }
      labels['alertname'] = ruleRuntime.rule.name;
      const annotations: Record<string, string> = {};
      for (const [k, v] of Object.entries(ruleRuntime.rule.annotations ?? {})) annotations[k] = expandTemplate(v, data);
      const key = labelsKey(labels);
      if (seen.has(key)) {
        ruleRuntime.health = 'err';
        ruleRuntime.lastError = 'vector contains metrics with the same labelset after applying alert labels';
        return;
      }
      seen.add(key);
      const existing = ruleRuntime.active.get(key);
      if (existing && existing.state !== 'inactive') {
        existing.value = s.v;
        existing.annotations = annotations;
        continue;
      }
      ruleRuntime.active.set(key, {
        labels,
        annotations,
        state: 'pending',
        value: s.v,
        activeAt: time,
        firedAt: undefined,
        resolvedAt: undefined,
      });
    }
    const log = (a: Alert, state: AlertTransition['state']): void =>
      void this.#transitions.push({
        at: time,
        alertname: ruleRuntime.rule.name,
        labels: { ...a.labels },
        state,
        activeAt: a.activeAt,
        forMs: ruleRuntime.forMs,
      });
    for (const [key, a] of ruleRuntime.active) {
      if (!seen.has(key)) {
        if (a.state === 'pending') log(a, 'dropped');
        if (
          a.state === 'pending' ||
          (a.state === 'inactive' && a.resolvedAt !== undefined && time - a.resolvedAt > RESOLVED_RETENTION_MS)
        ) {
          ruleRuntime.active.delete(key);
        } else if (a.state === 'firing') {
          a.state = 'inactive';
          a.resolvedAt = time;
          log(a, 'resolved');
        }
        continue;
      }
      if (a.state === 'pending' && time - a.activeAt >= ruleRuntime.forMs) {
        a.state = 'firing';
        a.firedAt = time;
        log(a, 'firing');
      } else if (a.state === 'pending' && a.activeAt === time) {
        log(a, 'pending');
      }
    }
  }

  /** Every alert state change so far, oldest first. */
  transitions(): readonly AlertTransition[] {
    return this.#transitions;
  }

  #postable(ruleRuntime: RuleRuntime, alert: Alert, time: number): PostableAlert {
    const labels: Record<string, string> = { ...(this.#o.externalLabels ?? {}), ...alert.labels };
    const validFor = 4 * Math.max(60_000, this.#intervalMs);
    const base = (this.#o.externalUrl ?? 'http://prometheus-k8s.openshift-monitoring.svc:9091').replace(/\/$/, '');
    return {
      labels,
      annotations: { ...alert.annotations },
      startsAt: rfc3339Nano(alert.firedAt ?? alert.activeAt),
      endsAt: rfc3339Nano(alert.state === 'inactive' ? (alert.resolvedAt ?? time) : time + validFor),
      generatorURL: `${base}/graph?g0.expr=${encodeURIComponent(ruleRuntime.rule.expr)}&g0.tab=1`,
    };
  }

  /** The rules' states (for `/api/v1/rules` and `/api/v1/alerts`). */
  status(): RuleStatus[] {
    return this.#rules.map((ruleRuntime) => {
      const alerts = [...ruleRuntime.active.values()].filter((a) => a.state !== 'inactive').map((a) => ({ ...a }));
      const state: AlertState = alerts.some((a) => a.state === 'firing')
        ? 'firing'
        : alerts.length > 0
          ? 'pending'
          : 'inactive';
      return {
        rule: ruleRuntime.rule,
        group: ruleRuntime.group,
        forMs: ruleRuntime.forMs,
        alerts,
        state,
        health: ruleRuntime.health,
        lastError: ruleRuntime.lastError,
        lastEvaluation: ruleRuntime.lastEvaluation,
      };
    });
  }

  /** Every pending or firing alert. */
  activeAlerts(): Alert[] {
    return this.status().flatMap((s) => [...s.alerts]);
  }
}

/** Go's RFC3339Nano (UTC): fractional seconds with trailing zeros trimmed. */
export function rfc3339Nano(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/\.?0+Z$/, 'Z')
    .replace(/\.Z$/, 'Z');
}
