/**
 * The live view (live-view.ts) of an `upgrade-operator status` report: what `status --watch`
 * redraws in place on a terminal above the full report — the upgrade operator's step and wait
 * reason, a bar for the control plane (the CVO's done/total, the operators still updating, the
 * ETA from earlier updates) and one per MachineConfigPool (the nodes at work named). Alerts and
 * silences are not read by `status`: the view has no line for them. Pure.
 */
import { clockText, type LiveBar, type LiveView } from './live-view.js';
import type { PoolStatus, UpgradeStatusReport } from './upgrade-status-model.js';

/** The upgrade operator's state in one line: the newest managed upgrade, else the first active UpgradeJob. */
export function operatorLine(report: UpgradeStatusReport): { text: string; attention: boolean } {
  const managed = report.upgradeOperator.managed.upgradeConfigs.find((u) => u.phase !== null);
  if (managed) {
    const waiting = managed.waiting?.status === 'True' ? managed.waiting.message : '';
    const what = waiting || managed.step?.message || 'no step yet';
    return { text: `${managed.phase ?? ''} · ${what}`, attention: managed.phase === 'Failed' };
  }
  const job = report.upgradeOperator.scheduled.activeJobs[0];
  if (job) return { text: `UpgradeJob ${job.name} ${job.state}: ${job.message}`, attention: job.state === 'Paused' };
  return { text: '', attention: false };
}

function controlPlaneBar(report: UpgradeStatusReport): LiveBar {
  const cp = report.controlPlane;
  const waitingOn = cp.operators?.updatingNames ?? [];
  const detail =
    cp.assessment === 'Completed'
      ? `${cp.targetVersion ?? ''} completed`
      : waitingOn.length > 0
        ? `waiting on ${waitingOn.join(', ')}`
        : cp.message;
  const eta = cp.assessment !== 'Completed' && cp.estimate ? `ETA ${clockText(cp.estimate.remainingMs)}` : '';
  if (cp.assessment === 'Completed') return { label: 'control plane', done: 1, total: 1, detail, eta, complete: true };
  const counts = cp.cvoProgress ?? { done: cp.operators?.updated ?? 0, total: cp.operators?.total ?? 0 };
  return { label: 'control plane', done: counts.done, total: counts.total, detail, eta, complete: false };
}

function poolBar(pool: PoolStatus): LiveBar {
  const busy = pool.nodes
    .filter((n) => n.phase === 'Draining' || n.phase === 'Rebooting' || n.phase === 'Updating')
    .map((n) => `${n.phase.toLowerCase()} ${n.name}`);
  const detail = busy.length > 0 ? busy.join(', ') : pool.paused ? 'paused' : '';
  return {
    label: pool.name,
    done: pool.updated,
    total: pool.total,
    detail,
    eta: '',
    complete: pool.assessment === 'Completed',
  };
}

/** The live view of a report; `title` and `clock` are the caller's (command and time of the snapshot). */
export function statusLiveView(report: UpgradeStatusReport, about: { title: string; clock: string }): LiveView {
  const operator = operatorLine(report);
  return {
    title: about.title,
    clock: about.clock,
    operator: operator.text,
    attention: operator.attention,
    controlPlane: controlPlaneBar(report),
    pools: report.pools.map(poolBar),
    warning: '',
  };
}
