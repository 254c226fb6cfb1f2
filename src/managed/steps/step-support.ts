/**
 * Helpers shared by the managed flow's steps: MUO's "commenced" short-circuit, retry intervals for outside APIs, and lifecycle timestamps.
 */
import { hasUpgradeCommenced } from '../cluster-version/cluster-version-state.js';
import type { UpgradeTimestampKind } from '../metrics/managed-upgrade-metrics.js';
import { configName, desiredVersion, type StepContext } from './step-context.js';

/** Retry interval for checks that read Prometheus (alerts have no watch): MUO's one minute. */
export const PROMETHEUS_RETRY_MS = 60_000;
/** Retry interval after an outside API (Alertmanager, an external dependency) failed. */
export const OUTSIDE_API_RETRY_MS = 30_000;

/**
 * MUO's `HasUpgradeCommenced` on the cached ClusterVersion; false when there is none yet.
 * Throws MUO's error when the spec names neither an image nor channel + version.
 */
export function commenced(ctx: StepContext): boolean {
  const cv = ctx.cluster.clusterVersion();
  return (
    cv !== undefined && ctx.upgradeConfig.spec !== undefined && hasUpgradeCommenced(cv, ctx.upgradeConfig.spec.desired)
  );
}

/** Sets one of the lifecycle timestamp gauges to now. */
export function stamp(ctx: StepContext, kind: UpgradeTimestampKind): void {
  ctx.metrics.setTimestamp(
    kind,
    { id: ctx.cluster.clusterVersion()?.spec.clusterID, name: configName(ctx), version: desiredVersion(ctx) },
    Math.floor(ctx.clock.now() / 1000),
  );
}
