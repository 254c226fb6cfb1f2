/**
 * The critical-alert health check (docs/design/managed-flow.md#health-checks): an instant query of
 * the in-cluster Prometheus for critical alerts firing in platform namespaces. Any result fails the
 * check; a failed query fails it too (fail closed,
 * docs/design/engine.md#fail-closed-explain-always).
 */
import type { PrometheusApi, PromSample } from '../../integrations/prometheus-api.js';
import { errorMessage, failed, HealthcheckReason, passed } from '../../engine/health-check.js';
import type { CheckResult } from '../../engine/health-check.js';

/** Settings of the critical-alert check (ConfigMap `healthCheck.*`). */
export interface CriticalAlertsOptions {
  /** `healthCheck.ignoredNamespaces`: alerts from these namespaces are not considered. */
  ignoredNamespaces?: readonly string[];
  /** `healthCheck.ignoredCriticals`: these alert names are not considered. */
  ignoredAlerts?: readonly string[];
  /** Evaluation time, epoch ms (default: Prometheus' now). */
  time?: number;
  signal?: AbortSignal;
}

/**
 * A PromQL double-quoted string body. MUO pastes the names in raw; escaping only changes names
 * holding `\` or `"` (which would otherwise break the query), so ordinary names give MUO's text.
 */
function promqlString(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/**
 * MUO's query: `ALERTS{alertstate="firing",severity="critical",namespace=~"^openshift.*|^kube-.*|^default$"`
 * then one `,namespace!="<ns>"` per ignored namespace, one `,alertname!="<a>"` per ignored alert, `}`.
 */
export function criticalAlertsQuery(
  ignoredNamespaces: readonly string[] = [],
  ignoredAlerts: readonly string[] = [],
): string {
  const namespaces = ignoredNamespaces.map((ns) => `,namespace!="${promqlString(ns)}"`).join('');
  const alerts = ignoredAlerts.map((a) => `,alertname!="${promqlString(a)}"`).join('');
  return `ALERTS{alertstate="firing",severity="critical",namespace=~"^openshift.*|^kube-.*|^default$"${namespaces}${alerts}}`;
}

/** Pure: the verdict on the query's answer. Alert names are unique and sorted. */
export function evaluateCriticalAlerts(samples: readonly PromSample[]): CheckResult {
  if (samples.length === 0) return passed('critical-alerts');
  const names = [...new Set(samples.map((s) => s.metric['alertname'] ?? '(no alertname)'))].sort();
  return failed(
    'critical-alerts',
    HealthcheckReason.CriticalAlertsFiring,
    'CriticalAlertsHealthcheckFailed',
    `critical alert(s) firing: ${names.join(', ')}`,
  );
}

/**
 * Runs the check. A query that fails (Prometheus down, timeout, error answer) is a failure with
 * reason `healthcheck_query_failed`, never "healthy". Rethrows only when `signal` was aborted.
 */
export async function checkCriticalAlerts(
  prometheus: PrometheusApi,
  options: CriticalAlertsOptions = {},
): Promise<CheckResult> {
  const query = criticalAlertsQuery(options.ignoredNamespaces, options.ignoredAlerts);
  let samples: PromSample[];
  try {
    samples = await prometheus.query(query, {
      ...(options.time !== undefined ? { time: options.time } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (err) {
    if (options.signal?.aborted) throw err;
    return failed(
      'critical-alerts',
      HealthcheckReason.QueryFailed,
      'CriticalAlertsHealthcheckFailed',
      `unable to query critical alerts: ${errorMessage(err)}`,
    );
  }
  return evaluateCriticalAlerts(samples);
}
