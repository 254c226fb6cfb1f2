import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UpgradeSuspensionWindow } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-suspension-window.js';
import { ManualClock } from '../lib/clock.js';
import { parseCount, previewCommand } from './commands/preview.js';
import { parseTimeFlag } from './commands/flags.js';
import {
  previewWindows,
  previewsFor,
  renderPreviewJson,
  renderPreviewTable,
  type PreviewDeps,
  type PreviewFlags,
  type PreviewSource,
} from './preview.js';
import { ensureBuilt, runBuilt } from './binary.test-support.js';
import { scheduledConfig } from './preview.test-support.js';
import { parseCalendar } from './icalendar.test-support.js';
import { loadZone, offsetSecondsAt } from '../time/zone.js';

const NS = 'appuio-openshift-upgrade-controller';

function schedule(
  cron: string,
  from: string,
  count: number,
  extra: { isoWeek?: string; location?: string } = {},
): ReturnType<typeof previewWindows> {
  const source: PreviewSource = {
    kind: 'schedule',
    fields: { cron, location: extra.location ?? 'Europe/Zurich', isoWeek: extra.isoWeek },
  };
  return previewWindows(source, { fromMs: Date.parse(from), count, localZoneId: 'Europe/Zurich' });
}

function rows(
  cron: string,
  from: string,
  count: number,
  extra: { isoWeek?: string; location?: string } = {},
): string[] {
  const r = schedule(cron, from, count, extra);
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r.preview.rows.map((x) => `${x.time} ${x.local} ${x.isoWeekYear}-W${x.isoWeek} ${x.weekday}`);
}

function window(
  name: string,
  start: string,
  end: string,
  selectors: Pick<NonNullable<UpgradeSuspensionWindow['spec']>, 'configSelector' | 'jobSelector'>,
  namespace?: string,
): UpgradeSuspensionWindow {
  return {
    apiVersion: 'managedupgrade.appuio.io/v1beta1',
    kind: 'UpgradeSuspensionWindow',
    metadata: { name, ...(namespace !== undefined ? { namespace } : {}) },
    spec: { start, end, reason: `${name} reason`, ...selectors },
  };
}

void test('0 22 * * 2 @odd in Europe/Zurich: every other Tuesday 22:00 local, 21:00Z before the spring DST change and 20:00Z after', () => {
  assert.deepEqual(rows('0 22 * * 2', '2024-03-01T00:00:00Z', 4, { isoWeek: '@odd' }), [
    '2024-03-12T21:00:00Z 2024-03-12T22:00:00+01:00 2024-W11 Tuesday',
    '2024-03-26T21:00:00Z 2024-03-26T22:00:00+01:00 2024-W13 Tuesday',
    '2024-04-09T20:00:00Z 2024-04-09T22:00:00+02:00 2024-W15 Tuesday',
    '2024-04-23T20:00:00Z 2024-04-23T22:00:00+02:00 2024-W17 Tuesday',
  ]);
  assert.deepEqual(rows('0 22 * * 2', '2024-10-15T00:00:00Z', 2, { isoWeek: '@odd' }), [
    '2024-10-22T20:00:00Z 2024-10-22T22:00:00+02:00 2024-W43 Tuesday',
    '2024-11-05T21:00:00Z 2024-11-05T22:00:00+01:00 2024-W45 Tuesday',
  ]);
});

void test('DST in Europe/Zurich: a local time missing on the spring-forward day is skipped, a repeated one fires twice', () => {
  assert.deepEqual(rows('30 2 * * *', '2024-03-30T00:00:00Z', 2), [
    '2024-03-30T01:30:00Z 2024-03-30T02:30:00+01:00 2024-W13 Saturday',
    '2024-04-01T00:30:00Z 2024-04-01T02:30:00+02:00 2024-W14 Monday',
  ]);
  assert.deepEqual(rows('0 2 * * 0', '2024-03-25T00:00:00Z', 1), [
    '2024-04-07T00:00:00Z 2024-04-07T02:00:00+02:00 2024-W14 Sunday',
  ]);
  assert.deepEqual(rows('30 2 * * *', '2024-10-26T12:00:00Z', 3), [
    '2024-10-27T00:30:00Z 2024-10-27T02:30:00+02:00 2024-W43 Sunday',
    '2024-10-27T01:30:00Z 2024-10-27T02:30:00+01:00 2024-W43 Sunday',
    '2024-10-28T01:30:00Z 2024-10-28T02:30:00+01:00 2024-W44 Monday',
  ]);
});

void test('ISO week 53: @odd runs in two consecutive weeks across 2020/2021; week 53 only in 53-week years', () => {
  assert.deepEqual(rows('0 22 * * 2', '2020-12-16T00:00:00Z', 3, { isoWeek: '@odd', location: 'UTC' }), [
    '2020-12-29T22:00:00Z 2020-12-29T22:00:00Z 2020-W53 Tuesday',
    '2021-01-05T22:00:00Z 2021-01-05T22:00:00Z 2021-W1 Tuesday',
    '2021-01-19T22:00:00Z 2021-01-19T22:00:00Z 2021-W3 Tuesday',
  ]);
  assert.deepEqual(rows('0 22 * * 2', '2021-01-01T00:00:00Z', 2, { isoWeek: '53', location: 'UTC' }), [
    '2026-12-29T22:00:00Z 2026-12-29T22:00:00Z 2026-W53 Tuesday',
    '2032-12-28T22:00:00Z 2032-12-28T22:00:00Z 2032-W53 Tuesday',
  ]);
});

void test('an isoWeek that never matches says so; a search that runs out early keeps what it found', async () => {
  const never = schedule('0 22 * * 2', '2024-01-01T00:00:00Z', 3, { isoWeek: '54' });
  assert.ok(never.ok);
  assert.equal(never.preview.rows.length, 0);
  assert.equal(never.preview.shortfall, 'no window found: ISO week 54 does not exist, so the schedule never fires');
  const clock = new ManualClock('2024-01-01T00:00:00Z');
  await assert.rejects(
    () =>
      previewsFor({ cron: '0 22 * * 2', isoWeek: '54', location: 'UTC', count: 3, output: 'table' }, deps(clock, {})),
    /never fires/,
  );

  // Every minute, in week 2 only: the minutes left of week 2, then 1000 activations in week 3.
  const partial = schedule('* * * * *', '2024-01-14T23:00:00Z', 100, { isoWeek: '2', location: 'UTC' });
  assert.ok(partial.ok);
  assert.equal(partial.preview.rows.length, 59);
  assert.match(
    partial.preview.shortfall ?? '',
    /^only 59 of 100 windows found: could not find next scheduled time, checked until "2024-01-15 16:39:00 \+0000 UTC": no next time found$/,
  );
  assert.match(renderPreviewTable([partial.preview]), /\nNote: only 59 of 100 windows found/);
});

void test('bad cron, zone or isoWeek: one line naming the flag or the field', () => {
  const bad = (cron: string, extra: { isoWeek?: string; location?: string }): string => {
    const r = schedule(cron, '2024-01-01T00:00:00Z', 1, extra);
    assert.ok(!r.ok);
    return r.error;
  };
  assert.equal(
    bad('0 0 * * 7', {}),
    '--cron: cannot parse cron schedule "0 0 * * 7": end of range (7) above maximum (6): 7',
  );
  assert.equal(bad('@daily', { location: 'Mars/Base' }), '--location: unknown time zone Mars/Base');
  assert.equal(bad('@daily', { isoWeek: 'odd' }), '--iso-week: unknown iso week: odd');
  const c = scheduledConfig();
  c.spec.schedule.cron = 'nope';
  const r = previewWindows({ kind: 'config', config: c, windows: [] }, { fromMs: 0, count: 1, localZoneId: 'UTC' });
  assert.ok(!r.ok);
  assert.match(
    r.error,
    /^UpgradeConfig appuio-openshift-upgrade-controller\/cluster-upgrade: spec\.schedule\.cron: cannot parse cron schedule "nope"/,
  );
});

void test('suspension: spec.schedule.suspend, a configSelector window at job creation, a jobSelector window at the start', () => {
  const from = Date.parse('2024-03-01T00:00:00Z');
  const windows = [
    // Holds 2024-03-26T21:00Z (the start) and selects the job's labels.
    window(
      'easter',
      '2024-03-25T00:00:00Z',
      '2024-04-05T00:00:00Z',
      { jobSelector: { matchLabels: { 'upgrade-config': 'cluster-upgrade' } } },
      NS,
    ),
    // Holds 2024-04-09T16:00Z (creation, 4h pin) but not 20:00Z (the start); no namespace: the config's.
    window('audit', '2024-04-09T00:00:00Z', '2024-04-09T17:00:00Z', {
      configSelector: { matchLabels: { team: 'ops' } },
    }),
    // Other namespace, or a selector that does not match: no effect.
    window('elsewhere', '2024-04-22T00:00:00Z', '2024-04-24T00:00:00Z', { jobSelector: {} }, 'other'),
    window(
      'other-team',
      '2024-04-22T00:00:00Z',
      '2024-04-24T00:00:00Z',
      { configSelector: { matchLabels: { team: 'dev' } } },
      NS,
    ),
  ];
  const r = previewWindows(
    { kind: 'config', config: scheduledConfig({ pin: '4h' }), windows },
    { fromMs: from, count: 4, localZoneId: 'UTC' },
  );
  assert.ok(r.ok);
  assert.deepEqual(
    r.preview.rows.map((x) => [x.time, x.jobCreation, x.suspendedBy]),
    [
      ['2024-03-12T21:00:00Z', '2024-03-12T17:00:00Z', undefined],
      ['2024-03-26T21:00:00Z', '2024-03-26T17:00:00Z', { by: 'jobSelector', name: 'easter', reason: 'easter reason' }],
      ['2024-04-09T20:00:00Z', '2024-04-09T16:00:00Z', { by: 'configSelector', name: 'audit', reason: 'audit reason' }],
      ['2024-04-23T20:00:00Z', '2024-04-23T16:00:00Z', undefined],
    ],
  );
  const table = renderPreviewTable([r.preview]);
  assert.match(
    table,
    /^UpgradeConfig appuio-openshift-upgrade-controller\/cluster-upgrade: cron "0 22 \* \* 2" isoWeek @odd location Europe\/Zurich pinVersionWindow 4h\n/,
  );
  assert.match(
    table,
    /\n2024-03-26T21:00:00Z {3}2024-03-26T22:00:00\+01:00 {3}2024-W13 {3}Tuesday {3}2024-03-26T17:00:00Z {3}easter: easter reason \(UpgradeJob skipped\)\n/,
  );
  assert.match(table, /audit: audit reason \(no UpgradeJob\)/);

  const suspended = previewWindows(
    { kind: 'config', config: scheduledConfig({ suspend: true }), windows: [] },
    { fromMs: from, count: 2, localZoneId: 'UTC' },
  );
  assert.ok(suspended.ok);
  assert.deepEqual(
    suspended.preview.rows.map((x) => x.suspendedBy?.by),
    ['spec.schedule.suspend', 'spec.schedule.suspend'],
  );
  // Without a pin, no creation column.
  assert.equal(suspended.preview.rows[0]?.jobCreation, undefined);
  assert.doesNotMatch(renderPreviewTable([suspended.preview]), /JOB CREATED/);
});

void test('-o json: a list of objects with time in RFC 3339 UTC, local with offset, zone, ISO week and weekday', () => {
  const r = schedule('0 22 * * 2', '2024-03-20T00:00:00Z', 2, { isoWeek: '@odd' });
  assert.ok(r.ok);
  const parsed: unknown = JSON.parse(renderPreviewJson([r.preview]));
  assert.deepEqual(parsed, [
    {
      time: '2024-03-26T21:00:00Z',
      local: '2024-03-26T22:00:00+01:00',
      zone: 'Europe/Zurich',
      isoWeekYear: 2024,
      isoWeek: 13,
      weekday: 'Tuesday',
    },
    {
      time: '2024-04-09T20:00:00Z',
      local: '2024-04-09T22:00:00+02:00',
      zone: 'Europe/Zurich',
      isoWeekYear: 2024,
      isoWeek: 15,
      weekday: 'Tuesday',
    },
  ]);
});

void test('Local is the process zone; the heading names it', () => {
  const r = previewWindows(
    { kind: 'schedule', fields: { cron: '@weekly', location: 'Local' } },
    { fromMs: Date.parse('2024-01-01T00:00:00Z'), count: 1, localZoneId: 'America/New_York' },
  );
  assert.ok(r.ok);
  assert.equal(r.preview.rows[0]?.local, '2024-01-07T00:00:00-05:00');
  assert.equal(
    renderPreviewTable([r.preview]),
    'Schedule: cron "@weekly" location Local (America/New_York)\n' +
      'TIME (UTC)             LOCAL (America/New_York)    ISO WEEK   WEEKDAY\n' +
      '2024-01-07T05:00:00Z   2024-01-07T00:00:00-05:00   2024-W01   Sunday\n',
  );
});

function deps(clock: ManualClock, files: Record<string, string>, warnings: string[] = []): PreviewDeps {
  return {
    clock,
    localZoneId: 'UTC',
    readFile: (path) => {
      const text = files[path];
      if (text === undefined) throw new Error(`ENOENT: no such file or directory, open '${path}'`);
      return text;
    },
    warn: (text) => void warnings.push(text),
  };
}

const CONFIG_YAML = `apiVersion: managedupgrade.appuio.io/v1beta1
kind: UpgradeConfig
metadata:
  name: cluster-upgrade
  namespace: ${NS}
  labels: {team: ops}
spec:
  schedule:
    cron: "0 22 * * 2"
    isoWeek: "@odd"
  pinVersionWindow: 4h
  jobTemplate:
    metadata:
      labels: {upgrade-config: cluster-upgrade}
    spec:
      config:
        preUpgradeHealthChecks: {}
        postUpgradeHealthChecks: {}
        surprise: true
---
apiVersion: managedupgrade.appuio.io/v1alpha1
kind: UpgradeConfig
metadata: {name: wrong-version}
---
`;

void test('-f: UpgradeConfigs of the file, admitted like the API server (defaults, pruning warnings), from now on the clock', async () => {
  const warnings: string[] = [];
  const clock = new ManualClock('2024-03-20T00:00:00Z');
  const flags: PreviewFlags = { filename: 'uc.yaml', count: 1, output: 'json' };
  const previews = await previewsFor(flags, deps(clock, { 'uc.yaml': CONFIG_YAML }, warnings));
  // location defaults to Local, which is UTC here.
  assert.deepEqual(
    previews.map((p) => p.rows),
    [
      [
        {
          upgradeConfig: `${NS}/cluster-upgrade`,
          time: '2024-03-26T22:00:00Z',
          local: '2024-03-26T22:00:00Z',
          zone: 'UTC',
          isoWeekYear: 2024,
          isoWeek: 13,
          weekday: 'Tuesday',
          jobCreation: '2024-03-26T18:00:00Z',
        },
      ],
    ],
  );
  assert.deepEqual(warnings, [
    'uc.yaml: document 2: skipping UpgradeConfig of "managedupgrade.appuio.io/v1alpha1" (expected managedupgrade.appuio.io/v1beta1 or upgrade.managed.openshift.io/v1alpha1)',
    'uc.yaml: document 1: unknown field "spec.jobTemplate.spec.config.surprise"',
  ]);
});

void test('-f: field errors as kube-apiserver words them; flag misuse and missing objects are refused', async () => {
  const clock = new ManualClock('2024-03-20T00:00:00Z');
  const broken = CONFIG_YAML.replace('  pinVersionWindow: 4h\n', '  maxSchedulingDelay: soon\n').replace(
    '    isoWeek: "@odd"\n',
    '    isoWeek: "@weekly"\n',
  );
  await assert.rejects(
    () => previewsFor({ filename: 'uc.yaml', count: 1, output: 'table' }, deps(clock, { 'uc.yaml': broken })),
    {
      message:
        'uc.yaml: document 1: The UpgradeConfig "cluster-upgrade" is invalid:\n' +
        '* spec.maxSchedulingDelay: Invalid value: "soon": spec.maxSchedulingDelay in body must be of type duration: "soon"\n' +
        '* spec.schedule.isoWeek: Invalid value: "@weekly": spec.schedule.isoWeek in body should match \'^(@odd|@even|\\d{1,2})$\'',
    },
  );
  await assert.rejects(
    () =>
      previewsFor(
        { filename: 'uc.yaml', cron: '@daily', count: 1, output: 'table' },
        deps(clock, { 'uc.yaml': CONFIG_YAML }),
      ),
    /drop --cron/,
  );
  await assert.rejects(
    () => previewsFor({ cron: '@daily', suspensionWindows: 'w.yaml', count: 1, output: 'table' }, deps(clock, {})),
    /--suspension-windows needs -f/,
  );
  await assert.rejects(
    () => previewsFor({ count: 1, output: 'table' }, deps(clock, {})),
    /give a schedule with --cron, or UpgradeConfigs with -f/,
  );
  await assert.rejects(
    () =>
      previewsFor(
        { filename: 'w.yaml', count: 1, output: 'table' },
        deps(clock, { 'w.yaml': 'kind: ConfigMap\napiVersion: v1\n' }),
      ),
    /w\.yaml: no UpgradeConfig \(managedupgrade\.appuio\.io\/v1beta1 or upgrade\.managed\.openshift\.io\/v1alpha1\) found/,
  );
  await assert.rejects(
    () => previewsFor({ filename: 'w.yaml', count: 1, output: 'table' }, deps(clock, { 'w.yaml': 'a: [\n' })),
    /w\.yaml: document 1 is not valid YAML/,
  );
});

void test('flag parsers', () => {
  assert.equal(parseCount('25'), 25);
  for (const bad of ['0', '-1', '1.5', 'ten', '1001'])
    assert.throws(() => parseCount(bad), /whole number from 1 to 1000/);
  assert.equal(parseTimeFlag('2024-03-01T01:00:00+01:00'), Date.parse('2024-03-01T00:00:00Z'));
  for (const bad of ['2024-03-01', 'yesterday', '2024-13-01T00:00:00Z'])
    assert.throws(() => parseTimeFlag(bad), /RFC 3339/);
});

const MUO_NS = 'openshift-managed-upgrade-operator';

const MANAGED_YAML = `apiVersion: upgrade.managed.openshift.io/v1alpha1
kind: UpgradeConfig
metadata: {name: managed-upgrade-config, namespace: ${MUO_NS}}
spec:
  type: OSD
  upgradeAt: "2024-10-27T00:30:00Z"
  PDBForceDrainTimeout: 60
  desired: {version: 4.15.3, channel: stable-4.15}
`;

const OPERATOR_CONFIG_YAML = `apiVersion: v1
kind: ConfigMap
metadata: {name: managed-upgrade-operator-config, namespace: ${MUO_NS}}
data:
  config.yaml: |
    upgradeWindow: {timeOut: 90, delayTrigger: 30}
    maintenance: {controlPlaneTime: 90}
    scale: {timeOut: 30}
    nodeDrain: {timeOut: 45, expectedNodeDrainTime: 8}
`;

void test('-f with a MUO UpgradeConfig: its upgrade at upgradeAt and when the OSD failure window closes', async () => {
  const clock = new ManualClock('2024-03-20T00:00:00Z');
  const files = { 'muo.yaml': MANAGED_YAML, 'cm.yaml': OPERATOR_CONFIG_YAML };
  const withConfig = await previewsFor(
    { filename: 'muo.yaml', operatorConfig: 'cm.yaml', count: 10, output: 'table' },
    { ...deps(clock, files), localZoneId: 'Europe/Zurich' },
  );
  assert.equal(
    renderPreviewTable(withConfig),
    `UpgradeConfig ${MUO_NS}/managed-upgrade-config (upgrade.managed.openshift.io/v1alpha1): OSD upgrade to 4.15.3 upgradeWindow.timeOut 90m\n` +
      'TIME (UTC)             LOCAL (Europe/Zurich)       ISO WEEK   WEEKDAY   FAILS UNLESS STARTED BY\n' +
      '2024-10-27T00:30:00Z   2024-10-27T02:30:00+02:00   2024-W43   Sunday    2024-10-27T02:00:00Z\n',
  );
  // Without --operator-config: MUO's default of 120 minutes; ARO: no failure window.
  const defaults = await previewsFor({ filename: 'muo.yaml', count: 1, output: 'json' }, deps(clock, files));
  assert.deepEqual(JSON.parse(renderPreviewJson(defaults)), [
    {
      upgradeConfig: `${MUO_NS}/managed-upgrade-config`,
      time: '2024-10-27T00:30:00Z',
      local: '2024-10-27T00:30:00Z',
      zone: 'UTC',
      isoWeekYear: 2024,
      isoWeek: 43,
      weekday: 'Sunday',
      windowCloses: '2024-10-27T02:30:00Z',
    },
  ]);
  const aro = await previewsFor(
    { filename: 'aro.yaml', count: 1, output: 'table' },
    deps(clock, { 'aro.yaml': MANAGED_YAML.replace('type: OSD', 'type: ARO') }),
  );
  assert.match(aro[0]?.title ?? '', /: ARO upgrade to 4\.15\.3 no failure window \(ARO\)$/);
  assert.equal(aro[0]?.rows[0]?.windowCloses, undefined);
  assert.doesNotMatch(renderPreviewTable(aro), /FAILS UNLESS/);

  // Both APIs in one file: one preview each, no warning about the other.
  const warnings: string[] = [];
  const both = await previewsFor(
    { filename: 'both.yaml', count: 1, output: 'json' },
    deps(clock, { 'both.yaml': `${CONFIG_YAML}${MANAGED_YAML}` }, warnings),
  );
  assert.deepEqual(
    both.map((p) => p.rows[0]?.upgradeConfig),
    [`${NS}/cluster-upgrade`, `${MUO_NS}/managed-upgrade-config`],
  );
  assert.ok(!warnings.some((w) => w.includes('document 3')), warnings.join('\n'));
});

void test('MUO UpgradeConfig and operator ConfigMap problems: one line each', async () => {
  const clock = new ManualClock('2024-03-20T00:00:00Z');
  await assert.rejects(
    () =>
      previewsFor(
        { filename: 'muo.yaml', count: 1, output: 'table' },
        deps(clock, { 'muo.yaml': MANAGED_YAML.replace('"2024-10-27T00:30:00Z"', 'tomorrow') }),
      ),
    { message: `UpgradeConfig ${MUO_NS}/managed-upgrade-config: spec.upgradeAt: "tomorrow" is not an RFC 3339 time` },
  );
  await assert.rejects(
    () =>
      previewsFor(
        { filename: 'muo.yaml', operatorConfig: 'cm.yaml', count: 1, output: 'table' },
        deps(clock, { 'muo.yaml': MANAGED_YAML, 'cm.yaml': 'apiVersion: v1\nkind: Secret\nmetadata: {name: x}\n' }),
      ),
    { message: 'cm.yaml: no ConfigMap managed-upgrade-operator-config found' },
  );
  await assert.rejects(
    () => previewsFor({ cron: '@daily', operatorConfig: 'cm.yaml', count: 1, output: 'table' }, deps(clock, {})),
    /--operator-config needs -f/,
  );
  // A bad value falls back to its default, as the operator does, with a warning.
  const warnings: string[] = [];
  const previews = await previewsFor(
    { filename: 'muo.yaml', operatorConfig: 'cm.yaml', count: 1, output: 'table' },
    deps(
      clock,
      { 'muo.yaml': MANAGED_YAML, 'cm.yaml': OPERATOR_CONFIG_YAML.replace('timeOut: 90', 'timeOut: soon') },
      warnings,
    ),
  );
  assert.equal(previews[0]?.rows[0]?.windowCloses, '2024-10-27T02:30:00Z');
  assert.equal(warnings.length, 1);
  assert.match(warnings[0] ?? '', /^cm\.yaml: document 1: data\[config\.yaml\]: upgradeWindow\.timeOut: /);
});

const ZURICH = { TZ: 'Europe/Zurich' };

const SUSPENSION_WINDOWS_YAML = (start: string, end: string): string => `apiVersion: managedupgrade.appuio.io/v1beta1
kind: UpgradeSuspensionWindow
metadata: {name: holidays, namespace: ${NS}}
spec:
  start: "${start}"
  end: "${end}"
  reason: "Holidays; no changes"
  jobSelector: {matchLabels: {upgrade-config: cluster-upgrade}}
`;

/** Every event of a calendar is a 22:00 window in Zurich: the local wall time of its start. */
function zurichWallTime(ms: number): string {
  const zone = loadZone('Europe/Zurich', 'UTC');
  assert.ok(zone.ok);
  return new Date(ms + offsetSecondsAt(zone.zone, ms) * 1000).toISOString().slice(11, 16);
}

/**
 * The command forms of the README and docs/configuration.md, run as written (files in a
 * temporary folder under the names the docs use) by the installed binary.
 */
void test('the real binary: the documented forms, tables and calendars; a bad cron prints one line (exit 1)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'preview-test-'));
  try {
    const file = (name: string, text: string): string => {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    };
    const uc = file('uc.yaml', CONFIG_YAML);
    const upgradeconfig = file('upgradeconfig.yaml', CONFIG_YAML);
    const now = Math.floor(Date.now() / 1000) * 1000;
    const holidayStart = new Date(now + 20 * 86_400_000).toISOString();
    const holidayEnd = new Date(now + 50 * 86_400_000).toISOString();
    const suspensionWindows = file('suspension-windows.yaml', SUSPENSION_WINDOWS_YAML(holidayStart, holidayEnd));
    const managed = file('managed-upgradeconfig.yaml', MANAGED_YAML);
    const operatorConfig = file('managed-upgrade-operator-config.yaml', OPERATOR_CONFIG_YAML);
    const schedule = ['--cron', '0 22 * * 2', '--iso-week', '@odd', '--location', 'Europe/Zurich'];
    await ensureBuilt();
    const [good, bad, documented, scheduleIcs, configIcs, managedTable, managedIcs] = await Promise.all([
      runBuilt(['preview', '-f', uc, '--from', '2024-03-20T00:00:00Z', '--count', '2'], ZURICH),
      runBuilt(['preview', '--cron', '0 25 * * *', '-o', 'json'], ZURICH),
      runBuilt(['preview', ...schedule, '--from', '2024-03-01T00:00:00Z', '--count', '4'], ZURICH),
      runBuilt(['preview', ...schedule, '--count', '26', '-o', 'ics'], ZURICH),
      runBuilt(['preview', '-f', upgradeconfig, '--suspension-windows', suspensionWindows, '-o', 'ics'], ZURICH),
      runBuilt(['preview', '-f', managed, '--operator-config', operatorConfig], ZURICH),
      runBuilt(['preview', '-f', managed, '--operator-config', operatorConfig, '-o', 'ics'], ZURICH),
    ]);
    assert.equal(good.status, 0, good.stderr);
    assert.equal(
      good.stdout,
      `UpgradeConfig ${NS}/cluster-upgrade: cron "0 22 * * 2" isoWeek @odd location Local (Europe/Zurich) pinVersionWindow 4h\n` +
        'TIME (UTC)             LOCAL (Europe/Zurich)       ISO WEEK   WEEKDAY   JOB CREATED\n' +
        '2024-03-26T21:00:00Z   2024-03-26T22:00:00+01:00   2024-W13   Tuesday   2024-03-26T17:00:00Z\n' +
        '2024-04-09T20:00:00Z   2024-04-09T22:00:00+02:00   2024-W15   Tuesday   2024-04-09T16:00:00Z\n',
    );
    assert.equal(bad.status, 1);
    assert.equal(bad.stdout, '');
    assert.equal(
      bad.stderr,
      'upgrade-operator: --cron: cannot parse cron schedule "0 25 * * *": end of range (25) above maximum (23): 25\n',
    );

    assert.equal(documented.status, 0, documented.stderr);
    assert.equal(
      documented.stdout,
      'Schedule: cron "0 22 * * 2" isoWeek @odd location Europe/Zurich\n' +
        'TIME (UTC)             LOCAL (Europe/Zurich)       ISO WEEK   WEEKDAY\n' +
        '2024-03-12T21:00:00Z   2024-03-12T22:00:00+01:00   2024-W11   Tuesday\n' +
        '2024-03-26T21:00:00Z   2024-03-26T22:00:00+01:00   2024-W13   Tuesday\n' +
        '2024-04-09T20:00:00Z   2024-04-09T22:00:00+02:00   2024-W15   Tuesday\n' +
        '2024-04-23T20:00:00Z   2024-04-23T22:00:00+02:00   2024-W17   Tuesday\n',
    );

    // A year of windows from now: 26 events, each 22:00 in Zurich whatever the DST, 12 hours long.
    assert.equal(scheduleIcs.status, 0, scheduleIcs.stderr);
    const year = parseCalendar(scheduleIcs.stdout);
    assert.equal(year.events.length, 26);
    for (const e of year.events) {
      assert.equal(e.startZone, 'Europe/Zurich');
      assert.ok(e.startMs > now - 60_000);
      assert.equal(zurichWallTime(e.startMs), '22:00');
      assert.equal(e.endMs - e.startMs, 12 * 3_600_000);
      assert.equal(e.summary, 'Upgrade window: cron "0 22 * * 2" isoWeek @odd Europe/Zurich');
      assert.ok(Math.abs(Date.parse(e.dtstamp) - now) < 10 * 60_000, e.dtstamp);
    }
    // Half a year or more: the calendar crosses a DST change, and the VTIMEZONE has it.
    assert.ok(new Set(year.events.map((e) => new Date(e.startMs).getUTCHours())).size === 2);

    // The config's windows from now; those starting in the suspension window are cancelled.
    assert.equal(configIcs.status, 0, configIcs.stderr);
    const cal = parseCalendar(configIcs.stdout);
    const windows = cal.events.filter((e) => e.uid.startsWith('window/'));
    assert.equal(windows.length, 10);
    const held = (ms: number): boolean => ms >= Date.parse(holidayStart) && ms <= Date.parse(holidayEnd);
    assert.ok(windows.some((e) => held(e.startMs)));
    for (const e of windows) {
      assert.equal(zurichWallTime(e.startMs), '22:00');
      assert.equal(e.status, held(e.startMs) ? 'CANCELLED' : 'CONFIRMED', e.summary);
    }
    const holidays = cal.events.filter((e) => e.uid.startsWith('suspension/'));
    assert.deepEqual(
      holidays.map((e) => [e.summary, e.startMs, e.endMs, e.transparent]),
      [['Upgrades suspended: holidays (Holidays; no changes)', Date.parse(holidayStart), Date.parse(holidayEnd), true]],
    );

    assert.equal(managedTable.status, 0, managedTable.stderr);
    assert.equal(
      managedTable.stdout,
      `UpgradeConfig ${MUO_NS}/managed-upgrade-config (upgrade.managed.openshift.io/v1alpha1): OSD upgrade to 4.15.3 upgradeWindow.timeOut 90m\n` +
        'TIME (UTC)             LOCAL (Europe/Zurich)       ISO WEEK   WEEKDAY   FAILS UNLESS STARTED BY\n' +
        '2024-10-27T00:30:00Z   2024-10-27T02:30:00+02:00   2024-W43   Sunday    2024-10-27T02:00:00Z\n',
    );
    assert.equal(managedIcs.status, 0, managedIcs.stderr);
    assert.deepEqual(
      parseCalendar(managedIcs.stdout).events.map((e) => [e.summary, e.startZone, e.startMs, e.endMs]),
      [
        [
          `Upgrade to 4.15.3: ${MUO_NS}/managed-upgrade-config`,
          'UTC',
          Date.parse('2024-10-27T00:30:00Z'),
          Date.parse('2024-10-27T00:30:00Z'),
        ],
        [
          `Failure window of the upgrade to 4.15.3: ${MUO_NS}/managed-upgrade-config`,
          'UTC',
          Date.parse('2024-10-27T00:30:00Z'),
          Date.parse('2024-10-27T02:00:00Z'),
        ],
      ],
    );

    const help = previewCommand().helpInformation();
    assert.match(help, /--operator-config <file>/);
    assert.match(help, /\(choices: "table", "json", "ics",/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
