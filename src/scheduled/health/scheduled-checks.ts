/**
 * The pure verdicts of the scheduled flow's health checks
 * (docs/design/scheduled-flow.md#health-checks, issue 5): the ClusterVersion conditions the shipped
 * controller reads (fixed to read `Failing`, the condition the CVO really sets), degraded
 * ClusterOperators, critical alerts and custom PromQL queries, each with its exclusions. No I/O:
 * `scheduled-health-check.ts` reads Prometheus and bounds the run with its timeout.
 */
import type { ClusterOperator } from '../../api/openshift/config-v1/cluster-operator.js';
import type { ClusterOperatorStatusCondition, ClusterVersion } from '../../api/openshift/config-v1/cluster-version.js';
import { CLUSTER_VERSION_NAME } from '../../api/openshift/config-v1/cluster-version.js';
import type { PromSample } from '../../integrations/prometheus-api.js';
import { isIntegrationError } from '../../integrations/integration-error.js';
import { checkClusterOperators } from '../../engine/cluster-operators.js';
import { errorMessage, oneLine, truncate } from '../../engine/health-check.js';

/** The checks of the scheduled flow, in the order their reasons are reported. */
export const SCHEDULED_CHECK_NAMES = [
  'settings',
  'cluster-version',
  'degraded-operators',
  'critical-alerts',
  'custom-query',
  'timeout',
] as const;
/** One check of the scheduled flow (`settings`: the check could not run as configured). */
export type ScheduledCheckName = (typeof SCHEDULED_CHECK_NAMES)[number];

/** Why the cluster is unhealthy, as one check sees it. */
export interface ScheduledHealthReason {
  check: ScheduledCheckName;
  /** One line naming the offending objects. */
  message: string;
}

/**
 * The query of the critical-alert check: every firing critical alert. Exclusions are applied
 * to the answer ({@link evaluateCriticalAlerts}) rather than written into the query, so names
 * holding regex or quote characters need no escaping and the verdict is a pure function.
 */
export const CRITICAL_ALERTS_QUERY = 'ALERTS{alertstate="firing",severity="critical"}';

/** ClusterVersion conditions that mean unhealthy when True: shipped `Degraded`, and `Failing`, which the CVO sets. */
export const UNHEALTHY_CLUSTER_VERSION_CONDITIONS: readonly string[] = ['Failing', 'Degraded'];

/** Condition and query texts longer than this are cut, so one object cannot flood a condition message. */
const MAX_DETAIL = 300;
/** At most this many alerts or series are named in one reason. */
const MAX_LISTED = 20;

function describeCondition(statusCondition: ClusterOperatorStatusCondition): string {
  const detail = [
    statusCondition.reason,
    statusCondition.message === undefined ? undefined : truncate(oneLine(statusCondition.message), MAX_DETAIL),
  ]
    .filter((s): s is string => s !== undefined && s !== '')
    .join(': ');
  return detail === ''
    ? `${statusCondition.type}=${statusCondition.status}`
    : `${statusCondition.type}=${statusCondition.status} (${detail})`;
}

/** `a, b, c` or, past `max`, `a, b, … and 3 more`. */
function listed(items: readonly string[], max = MAX_LISTED): string {
  if (items.length <= max) return items.join(', ');
  return `${items.slice(0, max).join(', ')} and ${items.length - max} more`;
}

/**
 * Pure: the shipped check (docs/design/scheduled-flow.md#health-checks), fixed: the ClusterVersion
 * is unhealthy when its `Failing` or `Degraded` condition is True. `Failing=Unknown` (the CVO's
 * `SlowClusterOperator`) is not a failure. An absent ClusterVersion is unhealthy (never "healthy"
 * when unknown).
 */
export function evaluateClusterVersion(clusterVersion: ClusterVersion | undefined): ScheduledHealthReason | undefined {
  if (clusterVersion === undefined) {
    return { check: 'cluster-version', message: `ClusterVersion "${CLUSTER_VERSION_NAME}" not found` };
  }
  const conditions = clusterVersion.status?.conditions ?? [];
  const bad = UNHEALTHY_CLUSTER_VERSION_CONDITIONS.flatMap((type) =>
    conditions.filter((c) => c.type === type && c.status === 'True'),
  );
  if (bad.length === 0) return undefined;
  const name = clusterVersion.metadata?.name ?? CLUSTER_VERSION_NAME;
  return { check: 'cluster-version', message: `ClusterVersion "${name}": ${bad.map(describeCondition).join(', ')}` };
}

/**
 * Pure: degraded ClusterOperators (`Degraded=True` or `Available=False`, as the managed flow
 * judges them: {@link checkClusterOperators}), those named in `excludeOperators` left out.
 */
export function evaluateDegradedOperators(
  operators: readonly ClusterOperator[],
  excludeOperators: readonly string[] = [],
): ScheduledHealthReason | undefined {
  const excluded = new Set(excludeOperators);
  const result = checkClusterOperators(operators.filter((co) => !excluded.has(co.metadata?.name ?? '')));
  return result.healthy ? undefined : { check: 'degraded-operators', message: result.failure.message };
}

/** Exclusions of the critical-alert check. */
export interface CriticalAlertExclusions {
  /** Alert names (`excludeAlerts[].alertname`) left out. */
  excludeAlerts?: readonly string[];
  /** Alerts whose `namespace` label is one of these are left out. */
  excludeNamespaces?: readonly string[];
}

/** Pure: the samples of firing critical alerts that no exclusion removes. */
export function unexcludedAlerts(
  samples: readonly PromSample[],
  exclusions: CriticalAlertExclusions = {},
): PromSample[] {
  const names = new Set(exclusions.excludeAlerts ?? []);
  const namespaces = new Set(exclusions.excludeNamespaces ?? []);
  return samples.filter((promSample) => {
    const alertname = promSample.metric['alertname'];
    const namespace = promSample.metric['namespace'];
    return (
      !(alertname !== undefined && names.has(alertname)) && !(namespace !== undefined && namespaces.has(namespace))
    );
  });
}

/**
 * Pure: the verdict on the answer to {@link CRITICAL_ALERTS_QUERY}. The message names each
 * alert with its namespace, since namespaces are what a user can exclude:
 * `critical alerts firing: ClusterOperatorDown (namespace openshift-cluster-version), Foo`.
 */
export function evaluateCriticalAlerts(
  samples: readonly PromSample[],
  exclusions: CriticalAlertExclusions = {},
): ScheduledHealthReason | undefined {
  const firing = unexcludedAlerts(samples, exclusions);
  if (firing.length === 0) return undefined;
  const names = [
    ...new Set(
      firing.map((promSample) => {
        const name = promSample.metric['alertname'] ?? '(no alertname)';
        const namespace = promSample.metric['namespace'];
        return namespace === undefined || namespace === '' ? name : `${name} (namespace ${namespace})`;
      }),
    ),
  ].sort();
  return { check: 'critical-alerts', message: `critical alerts firing: ${listed(names)}` };
}

/** A series as PromQL writes it: `up{instance="a",job="b"}`, labels sorted, the name in front. */
export function formatSeries(metric: Readonly<Record<string, string>>): string {
  const name = metric['__name__'] ?? '';
  const labels = Object.keys(metric)
    .filter((k) => k !== '__name__')
    .sort()
    .map((k) => `${k}=${JSON.stringify(metric[k])}`);
  return `${name}{${labels.join(',')}}`;
}

/** The query text as it appears in messages: quoted, on one line, cut when very long. */
export function quoteQuery(query: string): string {
  return JSON.stringify(truncate(oneLine(query), MAX_DETAIL));
}

/**
 * Pure: the verdict on a custom query's answer — any sample means unhealthy. The message names
 * the query and the series: `custom query "up != 1" returned 2 series: up{job="a"} 0, …`.
 */
export function evaluateCustomQuery(query: string, samples: readonly PromSample[]): ScheduledHealthReason | undefined {
  if (samples.length === 0) return undefined;
  const series = samples.map((s) => `${formatSeries(s.metric)} ${s.value}`);
  return {
    check: 'custom-query',
    message: `custom query ${quoteQuery(query)} returned ${samples.length} series: ${listed(series, 5)}`,
  };
}

/**
 * Why a Prometheus query failed, for a reason message: the integration's failure kind
 * (`Unreachable`, `Timeout`, `HttpStatus`, `BadResponse`) and its message.
 */
export function prometheusFailure(err: unknown): string {
  return isIntegrationError(err)
    ? `Prometheus query failed (${err.reason}): ${err.message}`
    : `Prometheus query failed: ${errorMessage(err)}`;
}
