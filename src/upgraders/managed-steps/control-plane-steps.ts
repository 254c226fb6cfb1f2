/**
 * Steps 8 and 9 (muo.md §3.3): command the CVO (channel first, then `desiredUpdate`, with the
 * image of a conditional update) and wait for the control plane to complete the version.
 */
import { UpgradeConditionType as C } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { outcome, type Step } from '../../engine/step.js';
import { controlPlaneCompleted, controlPlaneStartedAt } from '../../steps/cluster-version/cluster-version-state.js';
import { commenceUpgrade } from '../../steps/cluster-version/commence-upgrade.js';
import { configName, desiredVersion, type ManagedStepContext } from '../managed-context.js';
import { commenced, Kind, stamp } from './step-support.js';

/** 8 CommenceUpgrade. */
export const commenceUpgradeStep: Step<ManagedStepContext> = {
  name: 'CommenceUpgrade',
  condition: C.UpgradeCommenced,
  async run(ctx, signal) {
    ctx.metrics.setUpgradeWindowBreached(configName(ctx), false);
    if (commenced(ctx)) return outcome.done();
    await ctx.notify('StateControlPlaneStartedSL', signal);
    stamp(ctx, 'controlplane_upgrade_started');
    const desired = ctx.upgradeConfig.spec?.desired ?? {};
    const result = await commenceUpgrade(ctx.client, desired, signal);
    if (result.state === 'notOffered') {
      const why = `version ${desired.version ?? ''} is not yet offered by the cluster version operator on channel ${desired.channel ?? ''} (neither an available nor a conditional update)`;
      return outcome.pending({ kinds: [Kind.ClusterVersion] }, why, 'VersionNotAvailable');
    }
    const target = result.target.kind === 'image' ? `release image ${result.target.image}` : `${result.target.kind} update ${desired.version ?? ''}`;
    ctx.event('Normal', 'UpgradeCommenced', `cluster version operator told to upgrade to the ${target}${result.channelChanged ? ` on channel ${desired.channel ?? ''}` : ''}`);
    return outcome.done();
  },
};

/** 9 ControlPlaneUpgraded. */
export const controlPlaneUpgraded: Step<ManagedStepContext> = {
  name: 'ControlPlaneUpgraded',
  condition: C.ControlPlaneUpgraded,
  async run(ctx, signal) {
    const version = desiredVersion(ctx);
    const cv = ctx.cluster.clusterVersion();
    if (controlPlaneCompleted(cv, version)) {
      await ctx.notify('StateControlPlaneFinishedSL', signal);
      ctx.metrics.setControlPlaneTimeout(configName(ctx), version, false);
      stamp(ctx, 'controlplane_upgrade_completed');
      stamp(ctx, 'workernode_upgrade_started');
      return outcome.done();
    }
    const start = controlPlaneStartedAt(cv, version) ?? Date.parse(ctx.upgradeConfig.spec?.upgradeAt ?? '');
    const deadline = start + ctx.config.maintenance.controlPlaneTimeMs;
    const now = ctx.clock.now();
    if (now > deadline) {
      ctx.metrics.setControlPlaneTimeout(configName(ctx), version, true);
      return outcome.pending({ kinds: [Kind.ClusterVersion] }, `the control plane has not completed ${version} within the maintenance window (${Math.round(ctx.config.maintenance.controlPlaneTimeMs / 60_000)} min)`, 'ControlPlaneTimeout');
    }
    return outcome.pending({ kinds: [Kind.ClusterVersion], ...(Number.isNaN(deadline) ? {} : { until: deadline + 1 }) }, `waiting for the control plane to complete ${version}`, 'WaitingForControlPlane');
  },
};
