import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { SchedulingPolicy, SchedulingSpecFields, SchedulingState } from './next-job.js';
import { MAX_SKIPPED_SLOTS, compileSchedulingPolicy, decideNextJob } from './next-job.js';
import { nextScheduleTime } from './maintenance-schedule.js';
import type { ScheduledUpgradeConfigSpec } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-config.js';

// Checked by the compiler: an UpgradeConfig spec is accepted as it is.
const _specFits: ScheduledUpgradeConfigSpec extends SchedulingSpecFields ? true : never = true;

const H = 3_600_000;
const at = (text: string): number => Date.parse(text);

function policy(
  spec: Partial<SchedulingSpecFields> & { cron?: string; isoWeek?: string; suspend?: boolean },
): SchedulingPolicy {
  const r = compileSchedulingPolicy(
    {
      schedule: {
        cron: spec.cron ?? '0 22 * * 2',
        location: 'Europe/Zurich',
        isoWeek: spec.isoWeek,
        suspend: spec.suspend,
      },
      pinVersionWindow: spec.pinVersionWindow,
      maxSchedulingDelay: spec.maxSchedulingDelay ?? '1h',
      maxUpgradeStartDelay: spec.maxUpgradeStartDelay ?? '2h',
    },
    'UTC',
  );
  assert.ok(r.ok, r.ok ? '' : r.problem.message);
  return r.policy;
}

const created = at('2024-01-01T00:00:00Z');
// Tuesdays 22:00 Zurich = 21:00Z in winter. First slot 2024-01-02T21:00Z, pinned 4h before.
const weekly = policy({ pinVersionWindow: '4h' });
const slot1 = at('2024-01-02T21:00:00Z');
const slot2 = at('2024-01-09T21:00:00Z');
const fresh: SchedulingState = { creationTimestampMs: created };

test('compiles durations as Go does; defaults and problems', () => {
  const p = policy({ pinVersionWindow: '1h30m' });
  assert.equal(p.pinVersionWindowMs, 1.5 * H);
  assert.equal(p.maxSchedulingDelayMs, H);
  assert.equal(p.maxUpgradeStartDelayMs, 2 * H);
  assert.equal(policy({}).pinVersionWindowMs, 0);
  assert.equal(policy({ pinVersionWindow: '' }).pinVersionWindowMs, 0);
  const defaults = compileSchedulingPolicy({ schedule: { cron: '@daily' } }, 'UTC');
  assert.ok(defaults.ok);
  assert.equal(defaults.policy.maxSchedulingDelayMs, H);
  assert.equal(defaults.policy.maxUpgradeStartDelayMs, H);
  assert.equal(defaults.policy.suspend, false);
  assert.deepEqual(compileSchedulingPolicy({ schedule: { cron: '@daily' }, maxSchedulingDelay: '1d' }, 'UTC'), {
    ok: false,
    problem: {
      reason: 'InvalidDuration',
      field: 'spec.maxSchedulingDelay',
      message: 'time: unknown unit "d" in duration "1d"',
    },
  });
  assert.deepEqual(compileSchedulingPolicy({ schedule: { cron: '@daily' }, pinVersionWindow: '2' }, 'UTC'), {
    ok: false,
    problem: {
      reason: 'InvalidDuration',
      field: 'spec.pinVersionWindow',
      message: 'time: missing unit in duration "2"',
    },
  });
  const badCron = compileSchedulingPolicy({ schedule: { cron: 'every day' } }, 'UTC');
  assert.ok(!badCron.ok);
  assert.equal(badCron.problem.reason, 'InvalidCron');
});

test('before the creation time: wait until slot − pinVersionWindow', () => {
  assert.deepEqual(decideNextJob(weekly, fresh, at('2024-01-02T10:00:00Z')), {
    action: 'wait',
    nextRunMs: slot1,
    createAtMs: slot1 - 4 * H,
    skipped: { count: 0, more: false },
  });
});

test('inside the inclusive window [createAt, createAt + maxSchedulingDelay]: create', () => {
  const expected = {
    action: 'create',
    nextRunMs: slot1,
    createAtMs: slot1 - 4 * H,
    startAfterMs: slot1,
    startBeforeMs: slot1 + 2 * H,
    skipped: { count: 0, more: false },
  };
  assert.deepEqual(decideNextJob(weekly, fresh, slot1 - 4 * H), expected);
  assert.deepEqual(decideNextJob(weekly, fresh, slot1 - 3 * H), expected);
});

test('a missed window is skipped, not caught up', () => {
  assert.deepEqual(decideNextJob(weekly, fresh, slot1 - 3 * H + 1), {
    action: 'wait',
    nextRunMs: slot2,
    createAtMs: slot2 - 4 * H,
    skipped: { count: 1, lastMs: slot1, more: false },
  });
});

test('without a pin, jobs are created in [T, T + maxSchedulingDelay]; with pin ≥ delay, never late', () => {
  const noPin = policy({});
  assert.equal(decideNextJob(noPin, fresh, slot1 - 1).action, 'wait');
  assert.equal(decideNextJob(noPin, fresh, slot1 + H).action, 'create');
  assert.equal(decideNextJob(noPin, fresh, slot1 + H + 1).action, 'wait');
  const pinned = policy({ pinVersionWindow: '1h' });
  assert.equal(decideNextJob(pinned, fresh, slot1).action, 'create');
  const late = decideNextJob(pinned, fresh, slot1 + 1000);
  assert.equal(late.action, 'wait');
  assert.equal(late.action === 'wait' && late.nextRunMs, slot2);
});

test('the next slot comes from the persisted starting point, never from now', () => {
  const state = { creationTimestampMs: created, lastScheduledUpgradeMs: slot1 };
  const d = decideNextJob(policy({}), state, slot2 + 30 * 60_000);
  assert.equal(d.action, 'create');
  assert.equal(d.action === 'create' && d.startAfterMs, slot2);
  // Reconciling again a minute later (status not yet written) gives the same slot.
  const again = decideNextJob(policy({}), state, slot2 + 31 * 60_000);
  assert.equal(again.action === 'create' && again.startAfterMs, slot2);
});

test('suspend and suspension windows consume the slot with APPUiO’s Events', () => {
  assert.deepEqual(decideNextJob(policy({ suspend: true }), fresh, slot1), {
    action: 'suspend',
    nextRunMs: slot1,
    event: { reason: 'UpgradeConfigSuspended', message: 'Upgrade scheduling is suspended by .spec.schedule.suspend' },
    skipped: { count: 0, more: false },
  });
  assert.deepEqual(
    decideNextJob(
      policy({}),
      { ...fresh, activeSuspensionWindow: { name: 'freeze', reason: 'year-end freeze' } },
      slot1,
    ),
    {
      action: 'suspend',
      nextRunMs: slot1,
      event: {
        reason: 'UpgradeConfigSuspendedBySuspensionWindow',
        message: 'Upgrade scheduling is suspended by UpgradeSuspensionWindow freeze: year-end freeze',
      },
      skipped: { count: 0, more: false },
    },
  );
  // Outside the creation window nothing is consumed, suspended or not.
  assert.equal(decideNextJob(policy({ suspend: true }), fresh, slot1 - 1).action, 'wait');
});

test('the latest job: repair a lost status write, wait while queued or unfinished, else continue after it', () => {
  const p = policy({});
  assert.deepEqual(decideNextJob(p, { ...fresh, latestJob: { startAfterMs: slot1, finished: true } }, slot2), {
    action: 'repair-status',
    lastScheduledUpgradeMs: slot1,
  });
  assert.deepEqual(
    decideNextJob(
      p,
      {
        creationTimestampMs: created,
        lastScheduledUpgradeMs: created,
        latestJob: { startAfterMs: slot1, finished: false },
      },
      slot2,
    ),
    {
      action: 'repair-status',
      lastScheduledUpgradeMs: slot1,
    },
  );
  const state = { creationTimestampMs: created, lastScheduledUpgradeMs: slot1 };
  assert.deepEqual(decideNextJob(p, { ...state, latestJob: { startAfterMs: slot1, finished: false } }, slot1 - H), {
    action: 'wait-for-job',
    reason: 'JobQueued',
    startAfterMs: slot1,
  });
  assert.deepEqual(decideNextJob(p, { ...state, latestJob: { startAfterMs: slot1, finished: false } }, slot2), {
    action: 'wait-for-job',
    reason: 'JobNotFinished',
    startAfterMs: slot1,
  });
  const next = decideNextJob(p, { ...state, latestJob: { startAfterMs: slot1, finished: true } }, slot2);
  assert.equal(next.action === 'create' && next.startAfterMs, slot2);
});

test('a slot consumed by suspension after the latest job is not taken again', () => {
  const p = policy({});
  const state = {
    creationTimestampMs: created,
    lastScheduledUpgradeMs: slot2,
    latestJob: { startAfterMs: slot1, finished: true },
  };
  const d = decideNextJob(p, state, slot2 + 10 * 60_000);
  assert.equal(d.action, 'wait');
  assert.equal(d.action === 'wait' && d.nextRunMs, at('2024-01-16T21:00:00Z'));
});

test('fall back: the repeated 02:30 gives a second job an hour after the first', () => {
  const p = policy({ cron: '30 2 * * *' });
  const first = at('2024-10-27T00:30:00Z'); // 02:30+02:00
  const state = {
    creationTimestampMs: created,
    lastScheduledUpgradeMs: first,
    latestJob: { startAfterMs: first, finished: true },
  };
  const d = decideNextJob(p, state, first + H + 60_000);
  assert.equal(d.action, 'create');
  assert.equal(d.action === 'create' && d.startAfterMs, first + H);
});

test('a long outage skips many slots and still answers (no permanent error)', () => {
  const daily = policy({ cron: '0 3 * * *' });
  const old = at('2020-01-01T00:00:00Z');
  const now = at('2024-06-01T02:30:00Z'); // 03:00 Zurich is 01:00Z: today’s window closed at 02:00Z.
  const d = decideNextJob(daily, { creationTimestampMs: old }, now);
  assert.equal(d.action, 'wait');
  assert.equal(d.action === 'wait' && d.nextRunMs, at('2024-06-02T01:00:00Z'));
  assert.equal(d.action === 'wait' && d.skipped.count, MAX_SKIPPED_SLOTS);
  assert.equal(d.action === 'wait' && d.skipped.more, true);
  const inWindow = decideNextJob(daily, { creationTimestampMs: old }, at('2024-06-01T01:30:00Z'));
  assert.equal(inWindow.action === 'create' && inWindow.startAfterMs, at('2024-06-01T01:00:00Z'));
});

test('no next schedule is an error with the reason', () => {
  const never = policy({ isoWeek: '54' });
  const d = decideNextJob(never, fresh, slot1);
  assert.equal(d.action, 'error');
  assert.equal(d.action === 'error' && d.reason, 'NoNextSchedule');
  assert.match(
    d.action === 'error' ? d.message : '',
    /^could not find next scheduled time, checked until ".*": no next time found$/,
  );
});

/**
 * The unbounded skip loop of docs/design/scheduled-flow.md#creating-the-next-job, as the reference
 * for the bounded one (crons whose 1000 activations span more than two weeks, so that an isoWeek
 * filter always finds a time).
 */
function referenceSlot(p: SchedulingPolicy, from: number, now: number): number {
  let t = from;
  for (;;) {
    const next = nextScheduleTime(p.schedule, t);
    assert.ok(next.ok);
    if (now <= next.time - p.pinVersionWindowMs + p.maxSchedulingDelayMs) return next.time;
    t = next.time;
  }
}

test('property: skipping with a bound picks the slot an unbounded skip loop picks', () => {
  const crons = ['*/30 * * * *', '@every 7h', '@every 25m', '0 3 * * *', '30 2 * * 0', '0 */5 * * *', '0 22 * * 2'];
  fc.assert(
    fc.property(
      fc.constantFrom(...crons),
      fc.constantFrom('', '@odd', '@even'),
      fc.constantFrom('0', '30m', '4h', '-1h'),
      fc.constantFrom('1m', '1h', '3h'),
      fc.integer({ min: 0, max: 400 * 86_400_000 }),
      fc.integer({ min: 0, max: 120 * 86_400_000 }),
      (cron, isoWeek, pin, delay, offset, outage) => {
        const p = policy({ cron, isoWeek, pinVersionWindow: pin, maxSchedulingDelay: delay });
        const start = created + offset;
        const now = start + outage;
        const d = decideNextJob(p, { creationTimestampMs: start }, now);
        assert.ok(d.action === 'wait' || d.action === 'create', d.action);
        assert.equal(d.nextRunMs, referenceSlot(p, start, now));
      },
    ),
    { numRuns: 40 },
  );
});
