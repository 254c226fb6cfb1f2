/**
 * Property-based: whatever schedule an UpgradeConfig the API server admits carries (cron,
 * location, ISO-week filter, suspension, delays), the controller explains it in its conditions,
 * never loops (virtual time moves a day on: a config asking to be run again at once
 * would keep the system busy and the clock from moving) and never creates a job twice.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ScheduledUpgradeConfigResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-config-contract.js';
import {
  configCondition,
  createClusterVersion,
  createConfig,
  DAY,
  harness,
  listJobs,
  release,
  runUntil,
} from './upgrade-config-controller.test-support.js';

/** Monday 2026-03-02T00:00Z. */
const T0 = Date.UTC(2026, 2, 2);

const cronField = fc.oneof(
  fc.constantFrom('*', '0', '5', '*/15', '1-5', 'MON-FRI', '@daily', '?', '61', 'x', ''),
  fc.nat(59).map(String),
);
const cron = fc.oneof(
  fc.constantFrom(
    '0 1 * * *',
    '0 22 * * 2',
    '@every 1h',
    '@every 90s', // each step costs a pass; a day of '@every 1s' would be 86,400
    '@hourly',
    '@weekly',
    'CRON_TZ=UTC 0 3 * * *',
    '* * * * *',
  ),
  fc.array(cronField, { minLength: 1, maxLength: 6 }).map((fields) => fields.join(' ')),
  fc.string({ maxLength: 20 }),
);
// Mostly what the CRD admits, so that most runs reach the controller; now and then not.
const duration = fc.oneof(
  { arbitrary: fc.constantFrom('0s', '30m', '1h', '4h', '24h', '-1h', '90m'), weight: 5 },
  { arbitrary: fc.oneof(fc.constantFrom('1d', 'soon'), fc.string({ maxLength: 6 })), weight: 1 },
);

void test('any schedule the API server admits: explained in conditions, no loop, no job made twice', async (t) => {
  let admitted = 0;
  await fc.assert(
    fc.asyncProperty(
      cron,
      fc.constantFrom('UTC', 'Europe/Zurich', 'America/New_York', 'Local', '', 'Mars/Olympus', 'Etc/GMT+14'),
      fc.option(fc.constantFrom('@odd', '@even', '1', '53', '@weekly', 'x'), { nil: undefined }),
      fc.boolean(),
      duration,
      duration,
      async (cronText, location, isoWeek, suspend, pinVersionWindow, maxUpgradeStartDelay) => {
        const h = await harness(t, T0);
        await createClusterVersion(h, [release('4.15.3')]);
        try {
          await createConfig(h, 'any', {
            cron: cronText,
            location,
            ...(isoWeek === undefined ? {} : { isoWeek }),
            suspend,
            pinVersionWindow,
            maxUpgradeStartDelay,
          });
        } catch {
          return; // refused by admission
        }
        admitted++;
        h.startOperator();
        await runUntil(h, T0 + DAY);
        const valid = await configCondition(h, 'any', 'ScheduleValid');
        assert.ok(valid?.reason, JSON.stringify(valid));
        if (valid.status !== 'True') assert.ok((valid.message ?? '').length > 0, JSON.stringify(valid));
        const names = (await listJobs(h)).map((j) => j.metadata?.name ?? '');
        assert.equal(new Set(names).size, names.length, JSON.stringify(names));
        const stored = await h.cluster.client.get(ScheduledUpgradeConfigResource, 'default', 'any');
        assert.ok((stored.status as { conditions?: unknown[] } | undefined)?.conditions?.length, 'conditions written');
      },
    ),
    { numRuns: 20 },
  );
  assert.ok(admitted >= 5, `configs admitted: ${admitted}`);
});
