/**
 * The scheduled flow's health check (docs/design/scheduled-flow.md#health-checks and issue 5): one
 * run of the pre- or post-upgrade check of an UpgradeJob. What ships — the ClusterVersion
 * conditions, skipped by `skipDegradedOperatorsCheck` — reading `Failing` as well as `Degraded`,
 * plus what the design promised: `checkCriticalAlerts`, `checkDegradedOperators`, `excludeAlerts`,
 * `excludeNamespaces`, `excludeOperators` and `customQueries`. The whole run is bounded by
 * `timeout` on the injected Clock; a timeout, an unreachable Prometheus or an object that could not
 * be read is unhealthy with its reason, never healthy.
 *
 * The job-level window of docs/design/scheduled-flow.md#health-checks (fail with
 * `Health checks timed out after <dur>` once the `…HealthCheckDone=False` condition is older than
 * `timeout`) belongs to the UpgradeJob reconciler; {@link healthCheckTimedOutMessage} gives it the
 * shipped words.
 */
import type { ClusterOperator } from '../../api/openshift/config-v1/cluster-operator.js';
import type { ClusterVersion } from '../../api/openshift/config-v1/cluster-version.js';
import type { PrometheusApi, PromSample } from '../../integrations/prometheus-api.js';
import type { Clock, Timer } from '../../lib/clock.js';
import { formatGoDurationMs } from '../../lib/go-duration.js';
import {
  CRITICAL_ALERTS_QUERY,
  evaluateClusterVersion,
  evaluateCriticalAlerts,
  evaluateCustomQuery,
  evaluateDegradedOperators,
  prometheusFailure,
  quoteQuery,
  SCHEDULED_CHECK_NAMES,
} from './scheduled-checks.js';
import type { ScheduledCheckName, ScheduledHealthReason } from './scheduled-checks.js';
import { healthCheckTimeoutMs } from './health-check-timeout.js';

export type { ScheduledCheckName, ScheduledHealthReason } from './scheduled-checks.js';

export { DEFAULT_HEALTH_CHECK_TIMEOUT, healthCheckTimeoutMs } from './health-check-timeout.js';

/** The condition message of a passed check (docs/design/scheduled-flow.md#upgradejob-conditions). */
export const HEALTH_CHECKS_OK_MESSAGE = 'Health checks ok';

/**
 * `preUpgradeHealthChecks` / `postUpgradeHealthChecks` as the design document writes them
 * (docs/design/scheduled-flow.md#what-the-design-promised). The shipped CRD has only `timeout` and
 * `skipDegradedOperatorsCheck`; the added checks are off unless asked for, so a shipped job
 * runs exactly the shipped check (with `Failing` read too).
 */
export interface ScheduledHealthCheckSettings {
  /** Go duration bounding the run (default `1h`). */
  timeout?: string;
  /** Skip the ClusterVersion `Failing`/`Degraded` check (shipped field). */
  skipDegradedOperatorsCheck?: boolean;
  /** Query Prometheus for firing alerts with `severity="critical"`. */
  checkCriticalAlerts?: boolean;
  /** Check every ClusterOperator for `Degraded=True` or `Available=False`. */
  checkDegradedOperators?: boolean;
  /** Alerts left out of the critical-alert check, by name. */
  excludeAlerts?: ReadonlyArray<{ alertname: string }>;
  /** Alerts whose `namespace` label is one of these are left out of the critical-alert check. */
  excludeNamespaces?: readonly string[];
  /** ClusterOperators (by name) left out of the degraded-operator check. */
  excludeOperators?: readonly string[];
  /** PromQL queries; any result series means unhealthy. */
  customQueries?: ReadonlyArray<{ query: string }>;
}

/** Options of one run: the settings, the clock that bounds it, and query details. */
export interface ScheduledHealthCheckOptions extends ScheduledHealthCheckSettings {
  clock: Clock;
  /**
   * Bound of this run in ms, instead of `timeout` (e.g. what is left of the job's health-check
   * window). Zero or less: the Prometheus checks time out at once.
   */
  timeoutMs?: number;
  /** Evaluation time of the queries, epoch ms (default: Prometheus' now). */
  time?: number;
  /** Aborting it rejects the run with the signal's reason (no verdict). */
  signal?: AbortSignal;
}

/** What the check reads. */
export interface ScheduledHealthCheckInput {
  /** The upstream ClusterVersion `version`; undefined when it does not exist. */
  clusterVersion: ClusterVersion | undefined;
  /** Every ClusterOperator; needed for `checkDegradedOperators` (absent then: unhealthy). */
  clusterOperators?: readonly ClusterOperator[];
  /** The cluster's Prometheus; needed for critical alerts and custom queries (absent then: unhealthy). */
  prometheus?: PrometheusApi;
}

/** The verdict of one run. */
export interface ScheduledHealthCheckResult {
  healthy: boolean;
  /** Every reason the cluster is unhealthy, in check order (empty when healthy). */
  reasons: ScheduledHealthReason[];
  /** `Health checks ok`, or `Health checks failed: <reason>; <reason>`. */
  message: string;
}

/** The shipped failure message of a health check whose window passed: `Health checks timed out after 1h0m0s`. */
export function healthCheckTimedOutMessage(timeoutMs: number): string {
  return `Health checks timed out after ${formatGoDurationMs(timeoutMs)}`;
}

/** Pure: the result of a set of reasons, sorted into check order (stable within a check). */
export function combineReasons(reasons: readonly ScheduledHealthReason[]): ScheduledHealthCheckResult {
  const order = (c: ScheduledCheckName): number => SCHEDULED_CHECK_NAMES.indexOf(c);
  const sorted = [...reasons].sort((a, b) => order(a.check) - order(b.check));
  if (sorted.length === 0) return { healthy: true, reasons: [], message: HEALTH_CHECKS_OK_MESSAGE };
  return {
    healthy: false,
    reasons: sorted,
    message: `Health checks failed: ${sorted.map((r) => r.message).join('; ')}`,
  };
}

/** One Prometheus query of the run and the verdict on its answer. */
interface QueryCheck {
  /** Names the query in the timeout reason. */
  label: string;
  query: string;
  verdict(samples: PromSample[]): ScheduledHealthReason | undefined;
  /** The reason when the query failed. */
  failure(err: unknown): ScheduledHealthReason;
}

function queryChecks(options: ScheduledHealthCheckOptions): QueryCheck[] {
  const checks: QueryCheck[] = [];
  if (options.checkCriticalAlerts === true) {
    const exclusions = {
      excludeAlerts: (options.excludeAlerts ?? []).map((a) => a.alertname),
      excludeNamespaces: options.excludeNamespaces ?? [],
    };
    checks.push({
      label: 'critical-alerts',
      query: CRITICAL_ALERTS_QUERY,
      verdict: (samples) => evaluateCriticalAlerts(samples, exclusions),
      failure: (err) => ({
        check: 'critical-alerts',
        message: `cannot check critical alerts: ${prometheusFailure(err)}`,
      }),
    });
  }
  for (const { query } of options.customQueries ?? []) {
    checks.push({
      label: `custom query ${quoteQuery(query)}`,
      query,
      verdict: (samples) => evaluateCustomQuery(query, samples),
      failure: (err) => ({
        check: 'custom-query',
        message: `custom query ${quoteQuery(query)} failed: ${prometheusFailure(err)}`,
      }),
    });
  }
  return checks;
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error('health check aborted', { cause: reason });
}

/**
 * Runs the Prometheus checks side by side, bounded by `timeoutMs` on `clock`. Checks still
 * unanswered at the deadline give one `timeout` reason naming them; their queries are aborted.
 */
async function runQueryChecks(
  prometheus: PrometheusApi,
  checks: readonly QueryCheck[],
  options: ScheduledHealthCheckOptions,
  timeoutMs: number,
): Promise<ScheduledHealthReason[]> {
  const timeoutReason = (pending: readonly string[]): ScheduledHealthReason => ({
    check: 'timeout',
    message: `${healthCheckTimedOutMessage(Math.max(0, timeoutMs))} (no answer from: ${pending.join(', ')})`,
  });
  if (timeoutMs <= 0) return [timeoutReason(checks.map((c) => c.label))];

  const abort = new AbortController();
  const caller = options.signal;
  let callerAborted: () => void = () => undefined;
  const aborted = new Promise<'aborted'>((resolve) => {
    callerAborted = () => resolve('aborted');
  });
  const onCallerAbort = (): void => {
    abort.abort(caller?.reason);
    callerAborted();
  };
  caller?.addEventListener('abort', onCallerAbort, { once: true });
  const results: Array<ScheduledHealthReason | undefined> = [];
  const pending = new Set(checks.map((c) => c.label));
  let timer: Timer | undefined;
  try {
    const all = Promise.all(
      checks.map(async (check, index) => {
        let reason: ScheduledHealthReason | undefined;
        try {
          const samples = await prometheus.query(check.query, {
            signal: abort.signal,
            ...(options.time !== undefined ? { time: options.time } : {}),
          });
          reason = check.verdict(samples);
        } catch (err) {
          reason = check.failure(err);
        }
        if (abort.signal.aborted) return;
        results[index] = reason;
        pending.delete(check.label);
      }),
    );
    const deadline = new Promise<'timeout'>((resolve) => {
      timer = options.clock.setTimer(timeoutMs, () => resolve('timeout'));
    });
    const outcome = await Promise.race([all.then(() => 'done' as const), deadline, aborted]);
    if (outcome === 'aborted' && caller) throw abortError(caller);
    const done = results.filter((r): r is ScheduledHealthReason => r !== undefined);
    if (outcome === 'timeout') {
      const stillPending = checks.map((c) => c.label).filter((l) => pending.has(l));
      abort.abort(new Error(healthCheckTimedOutMessage(timeoutMs)));
      return [...done, timeoutReason(stillPending)];
    }
    return done;
  } finally {
    timer?.cancel();
    caller?.removeEventListener('abort', onCallerAbort);
    if (!abort.signal.aborted) abort.abort();
  }
}

/**
 * One run of a scheduled-flow health check. The ClusterVersion and ClusterOperator verdicts are
 * pure; critical alerts and custom queries go to Prometheus in parallel, bounded by `timeout`
 * (or `timeoutMs`). Every failure becomes a reason: an unparsable timeout, a missing
 * ClusterVersion, ClusterOperators or Prometheus, a failed query, the deadline.
 * Rejects only when `signal` aborts.
 */
export async function runScheduledHealthCheck(
  input: ScheduledHealthCheckInput,
  options: ScheduledHealthCheckOptions,
): Promise<ScheduledHealthCheckResult> {
  if (options.signal?.aborted) throw abortError(options.signal);
  const reasons: ScheduledHealthReason[] = [];

  if (options.skipDegradedOperatorsCheck !== true) {
    const cv = evaluateClusterVersion(input.clusterVersion);
    if (cv) reasons.push(cv);
  }
  if (options.checkDegradedOperators === true) {
    if (input.clusterOperators === undefined) {
      reasons.push({
        check: 'settings',
        message: 'checkDegradedOperators is set but the ClusterOperators were not read',
      });
    } else {
      const operators = evaluateDegradedOperators(input.clusterOperators, options.excludeOperators);
      if (operators) reasons.push(operators);
    }
  }

  let timeoutMs = options.timeoutMs;
  if (timeoutMs === undefined) {
    const parsed = healthCheckTimeoutMs(options);
    if (parsed.ok) timeoutMs = parsed.ms;
    else reasons.push({ check: 'settings', message: `invalid health check timeout: ${parsed.error}` });
  }
  const checks = queryChecks(options);
  if (checks.length > 0) {
    if (input.prometheus === undefined) {
      reasons.push({
        check: 'settings',
        message: `no Prometheus is configured to run: ${checks.map((c) => c.label).join(', ')}`,
      });
    } else if (timeoutMs !== undefined) {
      reasons.push(...(await runQueryChecks(input.prometheus, checks, options, timeoutMs)));
    }
  }
  return combineReasons(reasons);
}
