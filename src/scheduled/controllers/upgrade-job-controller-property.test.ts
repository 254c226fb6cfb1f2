/**
 * Property-based: whatever UpgradeJob, UpgradeJobHook and UpgradeSuspensionWindow the API server
 * admits (times in any order, any version or none, timeouts, pool delays, hook events, run modes,
 * failure policies and outcomes, windows around the start or not), the controller never loops
 * (virtual time moves two days on), brings the job to an end it explains in its conditions, and
 * never runs a hook twice for the same event and tracking key. No CVO runs here: an upgrade that
 * is commanded never completes, so it must end by its timeout.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  HookJobLabel,
  UPGRADE_EVENTS,
  HOOK_FAILURE_POLICIES,
  HOOK_RUN_MODES,
} from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook-contract.js';
import { formatTime } from '../../lib/clock.js';
import {
  createHook,
  createWindow,
  HOUR,
  harness,
  hookRule,
  MINUTE,
  NS,
  release,
  runTo,
  T0,
} from './upgrade-job-controller.test-support.js';
import { UpgradeJobResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';

const DAY = 24 * HOUR;
// Mostly what the CRD admits, so that most runs reach the controller; now and then not.
const duration = fc.oneof(
  { arbitrary: fc.constantFrom('0s', '1m', '30m', '1h', '4h', '24h', '-1h', '90m'), weight: 5 },
  { arbitrary: fc.constantFrom('1d', 'soon', ''), weight: 1 },
);
const offset = (minHours: number, maxHours: number) =>
  fc.integer({ min: minHours * 60, max: maxHours * 60 }).map((m) => m * MINUTE);

const jobArb = fc.record({
  startAfter: offset(-2, 6),
  window: offset(-1, 4),
  version: fc.constantFrom<string | undefined>('4.15.3', '4.99.0', undefined),
  checkAvailability: fc.option(fc.boolean(), { nil: undefined }),
  upgradeTimeout: duration,
  healthTimeout: duration,
  pools: fc.option(
    fc.record({
      matchLabels: fc.constantFrom<Record<string, string>>(
        {},
        { 'pools.operator.machineconfiguration.openshift.io/worker': '' },
        { none: 'x' },
      ),
      delayMin: duration,
      delayMax: duration,
    }),
    { nil: undefined },
  ),
});
const hookArb = fc.option(
  fc.record({
    events: fc.subarray([...UPGRADE_EVENTS]),
    run: fc.option(fc.constantFrom(...HOOK_RUN_MODES), { nil: undefined }),
    failurePolicy: fc.option(fc.constantFrom(...HOOK_FAILURE_POLICIES), { nil: undefined }),
    outcome: fc.constantFrom('succeed' as const, 'fail' as const),
    minutes: fc.integer({ min: 0, max: 90 }),
  }),
  { nil: undefined },
);
const windowArb = fc.option(
  fc.record({
    start: offset(-3, 8),
    length: offset(-1, 12),
    jobSelector: fc.constantFrom<Record<string, unknown> | undefined>({}, { matchLabels: { team: 'a' } }, undefined),
  }),
  { nil: undefined },
);

void test(
  'any UpgradeJob, hook and window the API server admits: no loop, an explained end, no hook run twice',
  { timeout: 600_000 },
  async (t) => {
    let admitted = 0;
    await fc.assert(
      fc.asyncProperty(jobArb, hookArb, windowArb, async (job, hook, window) => {
        const h = await harness(t, { jobRules: hook ? [hookRule('hook', hook.outcome, hook.minutes)] : [] });
        const client = h.cluster.client;
        try {
          if (hook) {
            await createHook(h, 'hook', hook.events, {
              ...(hook.run ? { run: hook.run } : {}),
              ...(hook.failurePolicy ? { failurePolicy: hook.failurePolicy } : {}),
            });
          }
          if (window) {
            await createWindow(h, 'window', {
              start: formatTime(T0 + window.start),
              end: formatTime(T0 + window.start + window.length),
              reason: 'property',
              ...(window.jobSelector ? { jobSelector: window.jobSelector } : {}),
            });
          }
          await client.create(UpgradeJobResource, {
            apiVersion: 'managedupgrade.appuio.io/v1beta1',
            kind: 'UpgradeJob',
            metadata: { name: 'job', namespace: NS },
            spec: {
              startAfter: formatTime(T0 + job.startAfter),
              startBefore: formatTime(T0 + job.startAfter + job.window),
              ...(job.version ? { desiredVersion: release(job.version) } : {}),
              ...(job.checkAvailability === undefined
                ? {}
                : { desiredVersionCheckAvailability: job.checkAvailability }),
              config: {
                upgradeTimeout: job.upgradeTimeout,
                preUpgradeHealthChecks: { timeout: job.healthTimeout },
                postUpgradeHealthChecks: { timeout: job.healthTimeout },
                ...(job.pools
                  ? {
                      machineConfigPools: [
                        {
                          matchLabels: job.pools.matchLabels,
                          delayUpgrade: { delayMin: job.pools.delayMin, delayMax: job.pools.delayMax },
                        },
                      ],
                    }
                  : {}),
              },
            },
          });
        } catch {
          return; // refused by admission
        }
        admitted++;
        h.startOperator();
        await runTo(h, T0 + 2 * DAY);
        assert.equal(h.cluster.clock.now(), T0 + 2 * DAY, 'virtual time moved on');

        const stored = await client.get(UpgradeJobResource, NS, 'job');
        const conditions = stored.status?.conditions ?? [];
        const ended = conditions.find((c) => (c.type === 'Succeeded' || c.type === 'Failed') && c.status === 'True');
        assert.ok(ended, `no end after two days: ${JSON.stringify(conditions)}`);
        assert.ok(ended.reason && ended.message, `the end is explained: ${JSON.stringify(ended)}`);

        const runs = [...h.hookJobs.list(NS)].map(
          (j) =>
            `${j.metadata?.labels?.[HookJobLabel.Event] ?? ''}/${j.metadata?.labels?.[HookJobLabel.TrackingKey] ?? ''}`,
        );
        assert.equal(new Set(runs).size, runs.length, `hook runs: ${JSON.stringify(runs)}`);
      }),
      { numRuns: 15 },
    );
    assert.ok(admitted >= 6, `jobs admitted: ${admitted}`);
  },
);
