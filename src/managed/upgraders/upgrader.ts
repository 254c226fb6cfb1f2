/**
 * An upgrader of the managed flow, one record as MUO's `UpgradeCluster` is one interface: its
 * ordered steps, its failure policy and the times it must be woken at even when no step asked.
 * The UpgradeConfig pass chooses it once from `spec.type` and runs it without knowing which
 * one it is.
 */
import type { UpgradeType } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import type { Step } from '../../engine/step.js';
import type { UrlProbe } from '../steps/external-dependency-step.js';
import type { StepContext } from '../steps/step-context.js';
import { aroUpgrader } from './aro-upgrader.js';
import { osdUpgrader } from './osd-upgrader.js';

/** What carrying out a failure came to: the `Waiting` condition's reason and message, and when to try again. */
export type FailureOutcome =
  /** The upgrade is now Failed: nothing more to do. */
  | { failed: true; reason: string; message: string }
  /** A part of the failure could not be carried out; it is tried again `retryInMs` after the pass began. */
  | { failed: false; reason: string; message: string; retryInMs: number };

/** When an upgrade fails by policy instead of running its steps, and what failing it does. */
export interface FailurePolicy {
  /**
   * Why the upgrade fails by policy at `now` unless it has commenced by then (the message of the
   * `UpgradeFailed` Event), undefined while it does not. Judged on the UpgradeConfig and the
   * operator configuration alone, so that it can be asked without a cluster.
   */
  failsUnlessCommenced(ctx: Pick<StepContext, 'upgradeConfig' | 'config'>, now: number): string | undefined;
  /** The upgrade has failed by policy now (a decision on the context; no I/O). */
  hasFailed(ctx: StepContext): boolean;
  /**
   * Carries the failure out: cleans up, notifies, marks the history entry Failed and emits the
   * Event. Idempotent, so a failure left half done is finished by a later pass.
   */
  fail(ctx: StepContext, signal: AbortSignal): Promise<FailureOutcome>;
}

/** One upgrader. */
export interface Upgrader {
  /** The steps, in the order they run. */
  readonly steps: ReadonlyArray<Step<StepContext>>;
  /** Undefined when the upgrader never fails by policy. */
  readonly failurePolicy: FailurePolicy | undefined;
  /**
   * When the upgrade must be looked at again, epoch ms, whatever the stopping step waits for:
   * the moments its policy changes its answer. Empty when there is none ahead.
   */
  wakeUps(ctx: StepContext): number[];
}

/** The upgrader of `spec.type`: ARO's for `ARO`, OSD's otherwise (the CRD admits only those two). */
export function upgraderFor(type: UpgradeType, probe: UrlProbe): Upgrader {
  return type === 'ARO' ? aroUpgrader(probe) : osdUpgrader(probe);
}
