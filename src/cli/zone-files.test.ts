/**
 * `validate` and `preview` read time zones as Go does, from zone files (here the fixtures of
 * src/time/testdata through $ZONEINFO, with TZ naming the process zone), and then never construct
 * an `Intl.DateTimeFormat`, whose ICU start-up costs ~15 ms (docs/design/dependencies.md#time-zones).
 * Runs the commands in-process with the environment they read in production.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../lib/clock.js';
import { processZoneId } from '../time/zone.js';
import { FIXTURE_DIR } from '../time/zoneinfo-fixtures.test-support.js';
import { UPGRADE_CONFIG_YAML } from './loaded-modules.test-support.js';
import { previewsFor } from './preview.js';
import { runValidate } from './validate.js';

const saved = { TZ: process.env.TZ, ZONEINFO: process.env.ZONEINFO, format: Intl.DateTimeFormat };
const constructed: unknown[] = [];

before(() => {
  process.env.TZ = 'America/New_York';
  process.env.ZONEINFO = `${FIXTURE_DIR}zoneinfo`;
  Object.defineProperty(Intl, 'DateTimeFormat', {
    value: function DateTimeFormat(...args: unknown[]): never {
      constructed.push(args);
      throw new Error('Intl.DateTimeFormat constructed');
    },
    configurable: true,
    writable: true,
  });
});

after(() => {
  Object.defineProperty(Intl, 'DateTimeFormat', { value: saved.format, configurable: true, writable: true });
  for (const key of ['TZ', 'ZONEINFO'] as const) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
});

const clock = new ManualClock('2026-11-01T00:00:00Z');

test('validate of an UpgradeConfig in Europe/Zurich constructs no Intl.DateTimeFormat', async () => {
  const io = {
    readFile: (path: string): string => {
      assert.equal(path, 'upgrade-config.yaml');
      return UPGRADE_CONFIG_YAML;
    },
    readStdin: (): string => '',
    isDirectory: (): boolean => false,
    readDir: (): string[] => [],
  };
  const { report, output } = await runValidate(
    { filename: ['upgrade-config.yaml'], output: 'text' },
    { clock, localZoneId: processZoneId(), io },
  );
  assert.ok(report.valid, output);
  assert.deepEqual(constructed, []);
});

test('preview --cron in the Local zone (TZ) constructs no Intl.DateTimeFormat', async () => {
  const [preview] = await previewsFor(
    { cron: '0 22 * * 2', count: 3, output: 'table' },
    { clock, localZoneId: processZoneId(), readFile: () => '', warn: () => undefined },
  );
  assert.equal(preview?.zone, 'America/New_York');
  assert.deepEqual(
    preview?.rows.map((r) => r.local),
    ['2026-11-03T22:00:00-05:00', '2026-11-10T22:00:00-05:00', '2026-11-17T22:00:00-05:00'],
  );
  assert.deepEqual(constructed, []);
});
