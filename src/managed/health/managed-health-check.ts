/**
 * MUO's health checks put together (docs/design/managed-flow.md#health-checks): the pre-upgrade
 * check in its two modes (feature gate `PreHealthCheck` off: critical alerts then
 * ClusterOperators, the first failure stops; on: every check, failures collected) and the
 * post-upgrade check (critical alerts then ClusterOperators). Reads go through the injected
 * functions, so a caller can answer them from informer caches; decisions are the pure checks.
 */
import type { ClusterOperator } from '../../api/openshift/config-v1/cluster-operator.js';
import type { MachineSet } from '../../api/openshift/machine-v1beta1/machine-set.js';
import type { PrometheusApi } from '../../integrations/prometheus-api.js';
import type { Node } from 'kubernetes-types/core/v1.js';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import { capacityReservationUnknown, checkCapacityReservation } from './capacity.js';
import { checkClusterOperators, clusterOperatorsUnknown } from '../../engine/cluster-operators.js';
import { checkCriticalAlerts } from './critical-alerts.js';
import { checkDeploymentValidation } from './deployment-validation.js';
import type { DvoMetricsSource } from './deployment-validation.js';
import { CHECK_METRIC_REASONS, CHECK_NAMES } from '../../engine/health-check.js';
import type { CheckName, CheckResult, HealthcheckReasonName, HealthFailure } from '../../engine/health-check.js';
import { checkCordonedNodes, checkNodePressure, nodesUnknown } from './nodes.js';
import { checkPodDisruptionBudgets, podDisruptionBudgetsUnknown } from './pod-disruption-budgets.js';

/** What the health checks read. Every function rejects when it cannot answer. */
export interface HealthCheckDeps {
  prometheus: PrometheusApi;
  listClusterOperators(signal?: AbortSignal): Promise<ClusterOperator[]>;
  /** Every node of the cluster (the checks select workers themselves). */
  listNodes(signal?: AbortSignal): Promise<Node[]>;
  /** Every PodDisruptionBudget of the cluster (the check filters namespaces itself). */
  listPodDisruptionBudgets(signal?: AbortSignal): Promise<PodDisruptionBudget[]>;
  /** MachineSets in `openshift-machine-api` labelled `hive.openshift.io/machine-pool=worker`. */
  listWorkerMachineSets(signal?: AbortSignal): Promise<MachineSet[]>;
  /** DVO's metrics, or `'not-installed'` to skip that check. */
  dvo: DvoMetricsSource;
}

/** Settings shared by both health checks. */
export interface HealthCheckOptions {
  /** `healthCheck.ignoredNamespaces`. */
  ignoredNamespaces?: readonly string[];
  /** `healthCheck.ignoredCriticals`. */
  ignoredAlerts?: readonly string[];
  /** Evaluation time of the alert query, epoch ms (default: Prometheus' now). */
  time?: number;
  signal?: AbortSignal;
}

/** Settings of the pre-upgrade check. */
export interface PreUpgradeHealthCheckOptions extends HealthCheckOptions {
  /** Feature gate `PreHealthCheck` is enabled. */
  preHealthCheck: boolean;
  /** `spec.capacityReservation`: also check that a worker MachineSet exists. */
  capacityReservation: boolean;
}

/** The outcome of a health check run. */
export interface HealthCheckResult {
  /** No check failed. */
  healthy: boolean;
  /** Some failure blocks an upgrade in progress (critical alerts or ClusterOperators). */
  blocking: boolean;
  /** The failures, in check order. */
  failures: HealthFailure[];
  /** The checks that ran (passed or failed), in check order. */
  checked: CheckName[];
}

/** Pure: the result of a set of check outcomes. */
export function combine(results: readonly CheckResult[]): HealthCheckResult {
  const order = (c: CheckName): number => CHECK_NAMES.indexOf(c);
  const sorted = [...results].sort((a, b) => order(a.check) - order(b.check));
  const failures = sorted.flatMap((r) => (r.healthy ? [] : [r.failure]));
  return {
    healthy: failures.length === 0,
    blocking: failures.some((f) => f.blocking),
    failures,
    checked: sorted.map((r) => r.check),
  };
}

/** Awaits a read; a rejection becomes the check's "unknown" verdict unless `signal` aborted. */
async function fromRead<T>(
  read: (signal?: AbortSignal) => Promise<T>,
  signal: AbortSignal | undefined,
  decide: (value: T) => CheckResult[],
  unknown: (err: unknown) => CheckResult[],
): Promise<CheckResult[]> {
  let value: T;
  try {
    value = await read(signal);
  } catch (err) {
    if (signal?.aborted) throw err;
    return unknown(err);
  }
  return decide(value);
}

function alerts(deps: Pick<HealthCheckDeps, 'prometheus'>, options: HealthCheckOptions): Promise<CheckResult> {
  return checkCriticalAlerts(deps.prometheus, {
    ...(options.ignoredNamespaces ? { ignoredNamespaces: options.ignoredNamespaces } : {}),
    ...(options.ignoredAlerts ? { ignoredAlerts: options.ignoredAlerts } : {}),
    ...(options.time !== undefined ? { time: options.time } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

async function operators(
  deps: Pick<HealthCheckDeps, 'listClusterOperators'>,
  signal: AbortSignal | undefined,
): Promise<CheckResult> {
  const [r] = await fromRead(
    (s) => deps.listClusterOperators(s),
    signal,
    (cos) => [checkClusterOperators(cos)],
    (err) => [clusterOperatorsUnknown(err)],
  );
  return r!;
}

/** Critical alerts, then ClusterOperators; stops at the first failure (MUO's legacy mode and post-upgrade check). */
async function alertsThenOperators(
  deps: Pick<HealthCheckDeps, 'prometheus' | 'listClusterOperators'>,
  options: HealthCheckOptions,
): Promise<HealthCheckResult> {
  const first = await alerts(deps, options);
  if (!first.healthy) return combine([first]);
  return combine([first, await operators(deps, options.signal)]);
}

/**
 * MUO's PreUpgradeHealthCheck decision (without the service log, which the caller sends from
 * `muoFailureList`). Gate off: critical alerts then ClusterOperators, the first failure stops.
 * Gate on: every check — capacity only when reservation is requested, DVO only when installed —
 * run concurrently, failures collected. Rejects only when `options.signal` aborts.
 */
export async function runPreUpgradeHealthCheck(
  deps: HealthCheckDeps,
  options: PreUpgradeHealthCheckOptions,
): Promise<HealthCheckResult> {
  const { signal } = options;
  if (!options.preHealthCheck) return alertsThenOperators(deps, options);
  const dvo = deps.dvo;
  const runs: Promise<CheckResult[]>[] = [
    alerts(deps, options).then((r) => [r]),
    operators(deps, signal).then((r) => [r]),
    options.capacityReservation
      ? fromRead(
          (s) => deps.listWorkerMachineSets(s),
          signal,
          (ms) => [checkCapacityReservation(ms)],
          (err) => [capacityReservationUnknown(err)],
        )
      : Promise.resolve([]),
    fromRead(
      (s) => deps.listNodes(s),
      signal,
      (nodes) => [checkCordonedNodes(nodes), checkNodePressure(nodes)],
      (err) => [nodesUnknown('cordoned-nodes', err), nodesUnknown('node-pressure', err)],
    ),
    fromRead(
      (s) => deps.listPodDisruptionBudgets(s),
      signal,
      (pdbs) => [checkPodDisruptionBudgets(pdbs)],
      (err) => [podDisruptionBudgetsUnknown(err)],
    ),
    dvo === 'not-installed'
      ? Promise.resolve([])
      : checkDeploymentValidation(dvo, signal ? { signal } : {}).then((r) => (r ? [r] : [])),
  ];
  const results = (await Promise.all(runs)).flat();
  signal?.throwIfAborted();
  return combine(results);
}

/** MUO's PostUpgradeHealthCheck: critical alerts, then ClusterOperators; the first failure stops. */
export async function runPostUpgradeHealthCheck(
  deps: Pick<HealthCheckDeps, 'prometheus' | 'listClusterOperators'>,
  options: HealthCheckOptions = {},
): Promise<HealthCheckResult> {
  return alertsThenOperators(deps, options);
}

/**
 * Pure: one line for conditions and Events, e.g.
 * `2 health checks failing: critical alert(s) firing: KubeAPIDown; cluster operators degraded: dns: …`.
 */
export function summary(result: HealthCheckResult): string {
  const n = result.failures.length;
  if (n === 0) {
    const c = result.checked.length;
    return c === 0
      ? 'no health checks ran'
      : `${c === 1 ? '1 health check' : `all ${c} health checks`} passed: ${result.checked.join(', ')}`;
  }
  return `${n} health check${n === 1 ? '' : 's'} failing: ${result.failures.map((f) => f.message).join('; ')}`;
}

/** Pure: MUO's failure list as its service logs carry it (items joined by `,`). */
export function muoFailureList(result: HealthCheckResult): string {
  return result.failures.map((f) => f.muoText).join(',');
}

/**
 * Pure: the `upgradeoperator_healthcheck_failed` reasons to reset to 0 after a run: those of
 * the checks that ran, minus the ones a failure of this run set to 1. Sorted.
 */
export function metricReasonsToClear(result: HealthCheckResult): HealthcheckReasonName[] {
  const set = new Set(result.failures.map((f) => f.metricReason));
  const clear = new Set(result.checked.flatMap((c) => CHECK_METRIC_REASONS[c]).filter((r) => !set.has(r)));
  return [...clear].sort();
}
