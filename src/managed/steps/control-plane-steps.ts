/**
 * Steps 8 and 9 (docs/design/managed-flow.md#commencing-the-upgrade,
 * docs/design/managed-flow.md#control-plane-completion): command the CVO (channel first, then
 * `desiredUpdate`, with the image of a conditional update, naming the risks of a target the CVO
 * does not recommend) and wait for the control plane to complete the version.
 */
import { UpgradeConditionType as C } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { outcome, type Step } from '../../engine/step.js';
import { controlPlaneCompleted, controlPlaneStartedAt } from '../cluster-version/cluster-version-state.js';
import { commenceUpgrade } from '../cluster-version/commence-upgrade.js';
import {
  ACCEPT_RISKS_ANNOTATION,
  describeCommencedRisk,
  describeRiskRefusal,
  parseAcceptedRisks,
  type RiskAssessment,
} from '../cluster-version/update-risk.js';
import {
  removeStatusCondition,
  setStatusCondition,
  UPDATE_RECOMMENDED_CONDITION,
} from '../history/status-conditions.js';
import { controlPlaneProgress, describeControlPlaneProgress } from '../../engine/cvo-progress.js';
import { WatchedKind, configName, desiredVersion, type StepContext } from './step-context.js';
import { keepControlPlaneWindow } from './maintenance-steps.js';
import { commenced, stamp } from './step-support.js';

/**
 * 8 CommenceUpgrade. A target the CVO does not recommend (or could not evaluate) is commenced, as
 * MUO does, with a Warning Event and the `UpdateRecommended` condition naming each risk; with
 * `conditionalUpdates.requireRiskAcceptance` it waits until the UpgradeConfig accepts its risks.
 */
export const commenceUpgradeStep: Step<StepContext> = {
  name: 'CommenceUpgrade',
  condition: C.UpgradeCommenced,
  async run(ctx, signal) {
    ctx.metrics.setUpgradeWindowBreached(configName(ctx), false);
    if (commenced(ctx)) return outcome.done();
    await ctx.notify('StateControlPlaneStartedSL', signal);
    stamp(ctx, 'controlplane_upgrade_started');
    const desired = ctx.upgradeConfig.spec?.desired ?? {};
    const target = desired.version ?? desired.image ?? '';
    const policy = {
      accepted: parseAcceptedRisks(ctx.upgradeConfig.metadata?.annotations?.[ACCEPT_RISKS_ANNOTATION]),
      requireAcceptance: ctx.config.conditionalUpdates.requireRiskAcceptance,
    };
    const result = await commenceUpgrade(ctx.client, desired, signal, policy);
    if (result.state === 'notRecommended') {
      // Re-judged on every ClusterVersion change (the CVO re-evaluates risks) and every edit of the UpgradeConfig (the annotation).
      const why = describeRiskRefusal(result.risk, target);
      recordUpdateRisk(ctx, result.risk, why);
      ctx.log.warn({ risks: result.risk.unaccepted, reason: result.risk.reason }, why);
      return outcome.attention({ kinds: [WatchedKind.ClusterVersion] }, why, result.risk.reason);
    }
    if (result.state === 'notOffered') {
      const why = `version ${desired.version ?? ''} is not yet offered by the cluster version operator on channel ${desired.channel ?? ''} (neither an available nor a conditional update)`;
      return outcome.pending({ kinds: [WatchedKind.ClusterVersion] }, why, 'VersionNotAvailable');
    }
    const what =
      result.target.kind === 'image'
        ? `release image ${result.target.image}`
        : `${result.target.kind} update ${desired.version ?? ''}`;
    const accepted = result.risk?.accepted ?? [];
    ctx.event(
      'Normal',
      'UpgradeCommenced',
      `cluster version operator told to upgrade to the ${what}${result.channelChanged ? ` on channel ${desired.channel ?? ''}` : ''}${accepted.length > 0 ? ` (risks accepted by the UpgradeConfig: ${accepted.join(', ')})` : ''}`,
    );
    if (result.risk) {
      const said = describeCommencedRisk(result.risk, target);
      recordUpdateRisk(ctx, result.risk, said);
      if (result.risk.unaccepted.length > 0) {
        ctx.event('Warning', result.risk.reason, said);
        ctx.log.warn({ risks: result.risk.unaccepted, reason: result.risk.reason }, said);
      }
    } else if (result.written) {
      // Judged known-good now: what an earlier judgement said no longer holds. (Not written: the
      // CVO already had the target from an earlier pass, whose judgement stands.)
      removeStatusCondition(ctx.upgradeConfig, UPDATE_RECOMMENDED_CONDITION);
    }
    return outcome.done();
  },
};

/** The `UpdateRecommended` condition: False when the CVO does not recommend the target, Unknown when it could not say. */
function recordUpdateRisk(ctx: StepContext, risk: RiskAssessment, message: string): void {
  setStatusCondition(
    ctx.upgradeConfig,
    {
      type: UPDATE_RECOMMENDED_CONDITION,
      status: risk.reason === 'UpdateNotRecommended' ? 'False' : 'Unknown',
      reason: risk.reason,
      message,
    },
    ctx.clock.now(),
  );
}

/** 9 ControlPlaneUpgraded; while it waits, the control-plane maintenance silences are kept in force. */
export const controlPlaneUpgraded: Step<StepContext> = {
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
    // What the CVO says, read in order (spec observed, release accepted, Progressing): words only,
    // never a verdict — Failing or `Unable to apply` while upgrading is the CVO retrying.
    const words = cv ? describeControlPlaneProgress(controlPlaneProgress(cv, { version })) : '';
    const said = words === '' ? '' : `: ${words}`;
    // The control plane still upgrades: its maintenance silences must stay in force until it is done.
    const window = await keepControlPlaneWindow(ctx, signal);
    const also = window.problem ? `; ${window.problem}` : '';
    const start = controlPlaneStartedAt(cv, version) ?? Date.parse(ctx.upgradeConfig.spec?.upgradeAt ?? '');
    const deadline = start + ctx.config.maintenance.controlPlaneTimeMs;
    const now = ctx.clock.now();
    const renewal = window.nextAt !== undefined ? { until: window.nextAt } : {};
    if (now > deadline) {
      ctx.metrics.setControlPlaneTimeout(configName(ctx), version, true);
      return outcome.attention(
        { kinds: [WatchedKind.ClusterVersion], ...renewal },
        `the control plane has not completed ${version} within the maintenance window (${Math.round(ctx.config.maintenance.controlPlaneTimeMs / 60_000)} min)${said}${also}`,
        'ControlPlaneTimeout',
      );
    }
    const untils = [
      ...(Number.isNaN(deadline) ? [] : [deadline + 1]),
      ...(window.nextAt !== undefined ? [window.nextAt] : []),
    ];
    return outcome.pending(
      { kinds: [WatchedKind.ClusterVersion], ...(untils.length > 0 ? { until: Math.min(...untils) } : {}) },
      `waiting for the control plane to complete ${version}${said}${also}`,
      'WaitingForControlPlane',
    );
  },
};
