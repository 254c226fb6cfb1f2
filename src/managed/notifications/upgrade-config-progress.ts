/**
 * What the managed flow's UpgradeConfig says of its upgrade, for the notifications of both flows
 * (docs/configuration.md#notification-events): read from the history entry of `spec.desired.version` (phase,
 * start and complete times, the step conditions) and from the MUO notifications already sent
 * (the delayed and skipped states). Pure.
 */
import { UpgradeConditionType as C } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import type { ManagedUpgradeConfig } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import { subjectOf, type StepProblem, type UpgradeProgress } from '../../engine/notifications/upgrade-event.js';
import { formatTime } from '../../lib/clock.js';
import { sentNotifications } from '../controllers/upgrade-config-pass.js';
import { conditionText, historyFor } from '../history/upgrade-history.js';
import { describeNotification, type NotifyStateName } from '../notifiers/notifier.js';

/** MUO states that report a delayed or skipped part of the upgrade (the `stepFailed` event). */
const DELAY_STATES: readonly NotifyStateName[] = ['StateDelayed', 'StateSkipped', 'StateScaleSkipped'];

/** The progress of `cr`'s upgrade at `now` (undefined: no history entry for the desired version yet). */
export function upgradeConfigProgress(cr: ManagedUpgradeConfig, now: number): UpgradeProgress | undefined {
  const version = cr.spec?.desired.version ?? '';
  const entry = historyFor(cr.status?.history, version);
  if (!entry || !cr.spec) return undefined;
  const progress: UpgradeProgress = {
    subject: subjectOf('managed', {
      apiVersion: 'upgrade.managed.openshift.io/v1alpha1',
      kind: 'UpgradeConfig',
      metadata: cr.metadata,
    }),
    version,
    scheduled: { at: formatTime(now), for: cr.spec.upgradeAt },
    problems: [],
  };
  if (entry.startTime) progress.started = { at: entry.startTime, message: `upgrading to ${version} (${cr.spec.type})` };
  const conditions = entry.conditions ?? [];
  const problems: StepProblem[] = [];
  const sent = sentNotifications(cr);
  for (const state of DELAY_STATES)
    if (sent.includes(`${state}@${version}`))
      problems.push({
        key: state,
        at: formatTime(now),
        reason: state.replace(/^State/, ''),
        message: describeNotification(state, version),
      });
  // Oldest step first (MUO prepends each new step condition).
  for (const c of [...conditions].reverse()) {
    if (c.status === 'True' || c.type === C.FailedUpgrade) continue;
    if (c.message === conditionText.started(c.type) || c.message === conditionText.inProgress(c.type)) continue;
    problems.push({
      key: `step/${c.type}`,
      at: c.lastTransitionTime ?? c.startTime ?? formatTime(now),
      reason: 'StepFailed',
      message: `${c.type}: ${c.message ?? ''}`,
    });
  }
  progress.problems = problems;
  if (entry.phase === 'Upgraded')
    progress.completed = {
      at: entry.completeTime ?? formatTime(now),
      reason: 'Upgraded',
      message: `upgraded to ${version}`,
    };
  else if (entry.phase === 'Failed') {
    const failed = conditions.find((c) => c.type === C.FailedUpgrade);
    progress.failed = {
      at: failed?.completeTime ?? failed?.lastTransitionTime ?? formatTime(now),
      reason: 'UpgradeFailed',
      message: describeNotification('StateFailed', version),
    };
  } else if (entry.phase === 'Upgrading') {
    const current = conditions.find((c) => c.status !== 'True' && c.type !== C.FailedUpgrade);
    if (current?.startTime)
      progress.wait = {
        step: current.type,
        reason: 'StepInProgress',
        message: `${current.type}: ${current.message ?? ''}`,
        since: current.startTime,
      };
  }
  return progress;
}
