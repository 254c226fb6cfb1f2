/**
 * Steps 4 and 15 (docs/design/managed-flow.md#health-checks): the pre-upgrade health check (two
 * modes by feature gate `PreHealthCheck`) and the post-upgrade one. Each check's metric is set
 * (failed 1, passed 0); failures are explained in words an SRE can act on. Prometheus unreachable
 * is a failure, never "healthy".
 */
import {
  FeatureGate,
  UpgradeConditionType as C,
} from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { isFeatureGateEnabled } from '../config/managed-operator-config.js';
import { outcome, type Step } from '../../engine/step.js';
import type { HealthCheckDeps, HealthCheckResult } from '../health/managed-health-check.js';
import {
  metricReasonsToClear,
  muoFailureList,
  runPostUpgradeHealthCheck,
  runPreUpgradeHealthCheck,
  summary,
} from '../health/managed-health-check.js';
import { currentVersion } from '../cluster-version/cluster-version-state.js';
import { isWorkerPoolMachineSet } from '../health/capacity.js';
import { WatchedKind, configName, type StepContext } from './step-context.js';
import { commenced, PROMETHEUS_RETRY_MS } from './step-support.js';

/** The health checks' reads, answered from the context's caches. */
export function healthDeps(ctx: StepContext): HealthCheckDeps {
  return {
    prometheus: ctx.prometheus,
    listClusterOperators: async () => ctx.cluster.clusterOperators(),
    listNodes: async () => ctx.cluster.nodes(),
    listPodDisruptionBudgets: async () => ctx.cluster.podDisruptionBudgets(),
    listWorkerMachineSets: async () => ctx.cluster.machineSets().filter(isWorkerPoolMachineSet),
    dvo: ctx.dvo,
  };
}

/** Sets `upgradeoperator_healthcheck_failed` for every check that ran. */
export function recordHealthMetrics(ctx: StepContext, result: HealthCheckResult, phase: string): void {
  const version = currentVersion(ctx.cluster.clusterVersion()) ?? 'unknown';
  const name = configName(ctx);
  for (const reason of metricReasonsToClear(result))
    ctx.metrics.setHealthCheckFailed({ name, state: phase, version, reason }, false);
  for (const f of result.failures)
    ctx.metrics.setHealthCheckFailed({ name, state: phase, version, reason: f.metricReason }, true);
}

/** Runs the pre-upgrade check for `phase` (New: the early check; Upgrading: step 4). */
export async function preUpgradeHealthCheck(
  ctx: StepContext,
  phase: string,
  signal: AbortSignal,
): Promise<HealthCheckResult> {
  const result = await runPreUpgradeHealthCheck(healthDeps(ctx), {
    preHealthCheck: isFeatureGateEnabled(ctx.config, FeatureGate.PreHealthCheck),
    capacityReservation: ctx.upgradeConfig.spec?.capacityReservation === true,
    ignoredNamespaces: ctx.config.healthCheck.ignoredNamespaces,
    ignoredAlerts: ctx.config.healthCheck.ignoredCriticals,
    signal,
  });
  recordHealthMetrics(ctx, result, phase);
  return result;
}

const HEALTH_WAIT = {
  kinds: [WatchedKind.ClusterOperator, WatchedKind.Node, WatchedKind.PodDisruptionBudget],
} as const;

/** 4 PreUpgradeHealthCheck. */
export const preUpgradeHealthCheckStep: Step<StepContext> = {
  name: 'PreUpgradeHealthCheck',
  condition: C.ClusterHealthyBeforeUpgrade,
  async run(ctx, signal) {
    if (commenced(ctx)) return outcome.done();
    const result = await preUpgradeHealthCheck(ctx, 'Upgrading', signal);
    if (result.healthy) return outcome.done();
    const why = summary(result);
    const waitFor = { ...HEALTH_WAIT, until: ctx.clock.now() + PROMETHEUS_RETRY_MS };
    if (!isFeatureGateEnabled(ctx.config, FeatureGate.PreHealthCheck)) {
      return outcome.failed(result.failures[0]?.message ?? why, { reason: 'HealthCheckFailed', waitFor });
    }
    await ctx.notify('StateHealthCheckSL', signal, muoFailureList(result));
    if (result.blocking) return outcome.attention(waitFor, why, 'HealthCheckFailed');
    ctx.event('Warning', 'HealthCheckWarning', `continuing the upgrade despite: ${why}`);
    return outcome.done();
  },
};

/** 15 PostUpgradeHealthCheck (runs on every pass until it passes; no commencement gate). */
export const postUpgradeHealthCheckStep: Step<StepContext> = {
  name: 'PostUpgradeHealthCheck',
  condition: C.ClusterHealthyAfterUpgrade,
  async run(ctx, signal) {
    const result = await runPostUpgradeHealthCheck(healthDeps(ctx), {
      ignoredNamespaces: ctx.config.healthCheck.ignoredNamespaces,
      ignoredAlerts: ctx.config.healthCheck.ignoredCriticals,
      signal,
    });
    recordHealthMetrics(ctx, result, 'Upgrading');
    if (!result.healthy) {
      return outcome.failed(result.failures[0]?.message ?? summary(result), {
        reason: 'HealthCheckFailed',
        waitFor: { ...HEALTH_WAIT, until: ctx.clock.now() + PROMETHEUS_RETRY_MS },
      });
    }
    ctx.metrics.resetNodeDrainTimeouts();
    return outcome.done();
  },
};
