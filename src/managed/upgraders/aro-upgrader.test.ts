import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatTime } from '../../lib/clock.js';
import type { UrlProbe } from '../steps/external-dependency-step.js';
import { MINUTE, T0, fakeStepContext } from '../steps/step-context.test-support.js';
import { aroSteps, aroUpgrader } from './aro-upgrader.js';
import { osdSteps } from './osd-upgrader.js';
import { OSD_STEP_NAMES } from './upgrader.test-support.js';

/** The OSD steps MUO's ARO upgrader does not run. */
const NOT_ON_ARO = ['UpgradeDelayedCheck', 'IsUpgradeable', 'PostUpgradeProcedures'];
const probe: UrlProbe = () => Promise.resolve(undefined);

void test('aroUpgrader: MUO’s 14 ARO steps, in MUO’s order: the OSD list without three steps', () => {
  const names = OSD_STEP_NAMES.filter((name) => !NOT_ON_ARO.includes(name));
  assert.deepEqual(
    aroUpgrader(probe).steps.map((s) => s.name),
    names,
  );
  assert.deepEqual(
    aroSteps(probe).map((s) => s.name),
    names,
  );
  assert.deepEqual(
    osdSteps(probe)
      .map((s) => s.name)
      .filter((name) => !names.includes(name)),
    ['UpgradeDelayedCheck', 'IsUpgradeable', 'PostUpgradeProcedures'],
  );
});

void test('aroUpgrader: no failure policy, however long past the window', () => {
  assert.equal(aroUpgrader(probe).failurePolicy, undefined);
});

void test('aroUpgrader: no wake-ups, even before the delayed notification and the window close', () => {
  const f = fakeStepContext({
    spec: { type: 'ARO' },
    now: T0 + 10 * MINUTE,
    history: { startTime: formatTime(T0) },
  });
  assert.deepEqual(aroUpgrader(probe).wakeUps(f.ctx), []);
});
