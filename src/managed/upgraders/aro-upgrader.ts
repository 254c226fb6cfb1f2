/**
 * The ARO upgrader (docs/design/managed-flow.md#the-step-lists): MUO's 14 steps — the OSD list without the delayed check,
 * IsUpgradeable and the post-upgrade procedures — and no failure window, so nothing to wake up
 * for but what its steps wait for.
 */
import type { Step } from '../../engine/step.js';
import type { StepContext } from '../steps/step-context.js';
import type { UrlProbe } from '../steps/external-dependency-step.js';
import { upgradeDelayedCheck } from '../steps/notification-steps.js';
import { postUpgradeProcedures } from '../steps/post-upgrade-step.js';
import { isUpgradeable } from '../steps/upgradeable-step.js';
import { osdSteps } from './osd-upgrader.js';
import type { Upgrader } from './upgrader.js';

/** The OSD steps ARO does not run. */
const OSD_ONLY: ReadonlySet<Step<StepContext>> = new Set([upgradeDelayedCheck, isUpgradeable, postUpgradeProcedures]);

/** MUO's 14 ARO steps, in order. */
export function aroSteps(probe: UrlProbe): Array<Step<StepContext>> {
  return osdSteps(probe).filter((s) => !OSD_ONLY.has(s));
}

/** The ARO upgrader over a URL probe (for the external dependency check). */
export function aroUpgrader(probe: UrlProbe): Upgrader {
  return { steps: aroSteps(probe), failurePolicy: undefined, wakeUps: () => [] };
}
