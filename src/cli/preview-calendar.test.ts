import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ScheduledUpgradeConfig } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-config.js';
import type { UpgradeSuspensionWindow } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-suspension-window.js';
import type { ManagedUpgradeConfig } from '../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import { defaultManagedOperatorConfig } from '../managed/config/managed-operator-config.js';
import { parseCalendar, type ParsedEvent } from './icalendar.test-support.js';
import { previewWindows, type Preview, type PreviewSource } from './preview.js';
import { managedPreviewSource } from './preview-files.js';
import { renderPreviewCalendar } from './preview-calendar.js';
import { scheduledConfig } from './preview.test-support.js';

const NS = 'appuio-openshift-upgrade-controller';
const STAMP = Date.parse('2024-02-20T10:00:00Z');

function preview(source: PreviewSource, from: string, count: number): Preview {
  const r = previewWindows(source, { fromMs: Date.parse(from), count, localZoneId: 'Europe/Zurich' });
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r.preview;
}

function appuioConfig(
  name = 'cluster-upgrade',
  extra: { uid?: string; suspend?: boolean } = {},
): ScheduledUpgradeConfig {
  return scheduledConfig({ name, ...extra, pin: '4h', maxUpgradeStartDelay: '2h', upgradeTimeout: '6h' });
}

function suspension(
  name: string,
  start: string,
  end: string,
  selectors: Pick<NonNullable<UpgradeSuspensionWindow['spec']>, 'configSelector' | 'jobSelector'>,
): UpgradeSuspensionWindow {
  return {
    apiVersion: 'managedupgrade.appuio.io/v1beta1',
    kind: 'UpgradeSuspensionWindow',
    metadata: { name, namespace: NS },
    spec: { start, end, reason: `${name}, no changes`, ...selectors },
  };
}

function managedConfig(type: 'OSD' | 'ARO', extra: { uid?: string; version?: string } = {}): ManagedUpgradeConfig {
  return {
    apiVersion: 'upgrade.managed.openshift.io/v1alpha1',
    kind: 'UpgradeConfig',
    metadata: {
      name: 'managed-upgrade-config',
      namespace: 'openshift-managed-upgrade-operator',
      ...(extra.uid ? { uid: extra.uid } : {}),
    },
    spec: {
      type,
      upgradeAt: '2024-10-27T00:30:00Z',
      PDBForceDrainTimeout: 60,
      desired: { version: extra.version ?? '4.15.3', channel: 'stable-4.15' },
    },
  };
}

function iso(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

function row(e: ParsedEvent): [string, string, string, string, string | undefined] {
  return [e.summary, e.startZone, iso(e.startMs), iso(e.endMs), e.status];
}

const WINDOWS = [
  // jobSelector over the second window's start: the job is skipped.
  suspension('easter', '2024-03-25T00:00:00Z', '2024-04-05T00:00:00Z', {
    jobSelector: { matchLabels: { 'upgrade-config': 'cluster-upgrade' } },
  }),
  // configSelector selecting the config, over no window of the preview: an event all the same.
  suspension('audit', '2024-05-01T00:00:00Z', '2024-05-02T00:00:00Z', {
    configSelector: { matchLabels: { team: 'ops' } },
  }),
  // Selects another team, and one that ended before --from: no events.
  suspension('other-team', '2024-03-01T00:00:00Z', '2024-06-01T00:00:00Z', {
    configSelector: { matchLabels: { team: 'dev' } },
  }),
  suspension('past', '2024-01-01T00:00:00Z', '2024-01-02T00:00:00Z', { configSelector: {} }),
];

void test('scheduled: a window per event in the schedule zone, startAfter to the job timeout, across the spring DST change', () => {
  const p = preview({ kind: 'config', config: appuioConfig(), windows: WINDOWS }, '2024-03-01T00:00:00Z', 3);
  const parsed = parseCalendar(renderPreviewCalendar([p], STAMP));
  assert.deepEqual(parsed.events.map(row), [
    [
      `Upgrade window: ${NS}/cluster-upgrade`,
      'Europe/Zurich',
      '2024-03-12T21:00:00Z',
      '2024-03-13T03:00:00Z',
      'CONFIRMED',
    ],
    [
      `Upgrade window, suspended (easter): ${NS}/cluster-upgrade`,
      'Europe/Zurich',
      '2024-03-26T21:00:00Z',
      '2024-03-27T03:00:00Z',
      'CANCELLED',
    ],
    [
      `Upgrade window: ${NS}/cluster-upgrade`,
      'Europe/Zurich',
      '2024-04-09T20:00:00Z',
      '2024-04-10T02:00:00Z',
      'CONFIRMED',
    ],
    [
      'Upgrades suspended: easter (easter, no changes)',
      'Europe/Zurich',
      '2024-03-25T00:00:00Z',
      '2024-04-05T00:00:00Z',
      undefined,
    ],
    [
      'Upgrades suspended: audit (audit, no changes)',
      'Europe/Zurich',
      '2024-05-01T00:00:00Z',
      '2024-05-02T00:00:00Z',
      undefined,
    ],
  ]);
  assert.deepEqual(
    parsed.events.map((e) => e.uid),
    [
      `window/${NS}/cluster-upgrade/20240312T210000Z@upgrade-operator`,
      `window/${NS}/cluster-upgrade/20240326T210000Z@upgrade-operator`,
      `window/${NS}/cluster-upgrade/20240409T200000Z@upgrade-operator`,
      `suspension/${NS}/easter@upgrade-operator`,
      `suspension/${NS}/audit@upgrade-operator`,
    ],
  );
  assert.deepEqual(
    parsed.events.map((e) => e.transparent),
    [false, false, false, true, true],
  );
  assert.ok(parsed.events.every((e) => e.dtstamp === '2024-02-20T10:00:00Z'));
  const [first, skipped] = parsed.events;
  assert.equal(
    first?.description,
    `UpgradeConfig ${NS}/cluster-upgrade: maintenance window of ISO week 2024-W11, Tuesday.\n` +
      'The UpgradeJob may start from 2024-03-12T21:00:00Z (startAfter) until 2024-03-12T23:00:00Z (startBefore, maxUpgradeStartDelay 2h0m0s) and times out at 2024-03-13T03:00:00Z (upgradeTimeout 6h0m0s).\n' +
      'The UpgradeJob is created, and its version pinned, at 2024-03-12T17:00:00Z (pinVersionWindow).',
  );
  assert.match(
    skipped?.description ?? '',
    /\nSuspended by the UpgradeSuspensionWindow easter \(jobSelector\): easter, no changes; the UpgradeJob is skipped\.$/,
  );
  // The VTIMEZONE spans the windows and the suspension windows: CET, CEST from 2024-03-31.
  const tz = parsed.timezones.get('Europe/Zurich');
  assert.ok(tz);
  assert.equal(parsed.timezones.size, 1);
});

void test('scheduled: October windows after the autumn change; spec.schedule.suspend cancels every window', () => {
  const p = preview(
    { kind: 'config', config: appuioConfig('cluster-upgrade', { suspend: true, uid: 'c0ffee' }), windows: [] },
    '2024-10-15T00:00:00Z',
    2,
  );
  const parsed = parseCalendar(renderPreviewCalendar([p], STAMP));
  assert.deepEqual(parsed.events.map(row), [
    [
      `Upgrade window, suspended (spec.schedule.suspend): ${NS}/cluster-upgrade`,
      'Europe/Zurich',
      '2024-10-22T20:00:00Z',
      '2024-10-23T02:00:00Z',
      'CANCELLED',
    ],
    [
      `Upgrade window, suspended (spec.schedule.suspend): ${NS}/cluster-upgrade`,
      'Europe/Zurich',
      '2024-11-05T21:00:00Z',
      '2024-11-06T03:00:00Z',
      'CANCELLED',
    ],
  ]);
  // metadata.uid, when the file has it, identifies the config in the UIDs.
  assert.equal(parsed.events[0]?.uid, 'window/c0ffee/20241022T200000Z@upgrade-operator');
  assert.match(
    parsed.events[0]?.description ?? '',
    /\nUpgrade scheduling is suspended by \.spec\.schedule\.suspend: no UpgradeJob\.$/,
  );
});

void test('UIDs are stable: a later preview gives the same UID to the same window; a bare schedule is identified by a hash', () => {
  const source: PreviewSource = { kind: 'config', config: appuioConfig(), windows: [] };
  const early = parseCalendar(renderPreviewCalendar([preview(source, '2024-03-01T00:00:00Z', 3)], STAMP));
  const late = parseCalendar(renderPreviewCalendar([preview(source, '2024-03-20T00:00:00Z', 3)], STAMP + 86_400_000));
  assert.deepEqual(
    early.events.slice(1).map((e) => e.uid),
    late.events.slice(0, 2).map((e) => e.uid),
  );
  const bare = (cron: string): ParsedEvent[] =>
    parseCalendar(
      renderPreviewCalendar(
        [preview({ kind: 'schedule', fields: { cron, location: 'Europe/Zurich' } }, '2024-03-01T00:00:00Z', 1)],
        STAMP,
      ),
    ).events;
  const [a] = bare('0 22 * * 2');
  const [b] = bare('0 22 * * 2');
  const [c] = bare('0 22 * * 1-5');
  assert.match(a?.uid ?? '', /^window\/schedule-[0-9a-f]{16}\/20240305T210000Z@upgrade-operator$/);
  assert.equal(a?.uid, b?.uid);
  assert.notEqual(a?.uid.split('/')[1], c?.uid.split('/')[1]);
  // A bare schedule: the UpgradeJob defaults (maxUpgradeStartDelay 1h, upgradeTimeout 12h).
  assert.deepEqual(a && row(a), [
    'Upgrade window: cron "0 22 * * 2" Europe/Zurich',
    'Europe/Zurich',
    '2024-03-05T21:00:00Z',
    '2024-03-06T09:00:00Z',
    'CONFIRMED',
  ]);
});

void test('a suspension window selecting several configs is one event', () => {
  const both = ['one', 'two'].map((name) =>
    preview({ kind: 'config', config: appuioConfig(name), windows: WINDOWS }, '2024-04-20T00:00:00Z', 1),
  );
  const parsed = parseCalendar(renderPreviewCalendar(both, STAMP));
  assert.deepEqual(
    parsed.events.map((e) => e.summary),
    [`Upgrade window: ${NS}/one`, 'Upgrades suspended: audit (audit, no changes)', `Upgrade window: ${NS}/two`],
  );
});

void test('managed OSD: the upgrade at upgradeAt and its failure window of upgradeWindow.timeOut, in UTC', () => {
  const operatorConfig = defaultManagedOperatorConfig();
  const p = preview(managedPreviewSource(managedConfig('OSD'), operatorConfig), '2024-01-01T00:00:00Z', 10);
  const parsed = parseCalendar(renderPreviewCalendar([p], STAMP));
  const ref = 'openshift-managed-upgrade-operator/managed-upgrade-config';
  assert.deepEqual(parsed.events.map(row), [
    [`Upgrade to 4.15.3: ${ref}`, 'UTC', '2024-10-27T00:30:00Z', '2024-10-27T00:30:00Z', 'CONFIRMED'],
    [
      `Failure window of the upgrade to 4.15.3: ${ref}`,
      'UTC',
      '2024-10-27T00:30:00Z',
      '2024-10-27T02:30:00Z',
      'CONFIRMED',
    ],
  ]);
  assert.deepEqual(
    parsed.events.map((e) => e.uid),
    [`upgrade/${ref}/4.15.3@upgrade-operator`, `failure-window/${ref}/4.15.3@upgrade-operator`],
  );
  assert.equal(parsed.timezones.size, 0);
  assert.match(parsed.events[1]?.description ?? '', /fails unless it has commenced .* by 2024-10-27T02:30:00Z/);

  // A rescheduled upgrade to the same release keeps its UIDs (the import moves the events).
  const moved = managedConfig('OSD', { uid: '1234' });
  moved.spec = { ...moved.spec!, upgradeAt: '2024-11-03T01:00:00Z' };
  const later = parseCalendar(
    renderPreviewCalendar([preview(managedPreviewSource(moved, operatorConfig), '2024-01-01T00:00:00Z', 1)], STAMP),
  );
  assert.deepEqual(
    later.events.map((e) => [e.uid, iso(e.startMs), iso(e.endMs)]),
    [
      ['upgrade/1234/4.15.3@upgrade-operator', '2024-11-03T01:00:00Z', '2024-11-03T01:00:00Z'],
      ['failure-window/1234/4.15.3@upgrade-operator', '2024-11-03T01:00:00Z', '2024-11-03T03:00:00Z'],
    ],
  );
});

void test('managed: ARO, or OSD with upgradeWindow.timeOut 0, has no failure window', () => {
  const aro = preview(
    managedPreviewSource(managedConfig('ARO'), defaultManagedOperatorConfig()),
    '2024-01-01T00:00:00Z',
    1,
  );
  const noWindow = defaultManagedOperatorConfig();
  noWindow.upgradeWindow.timeOutMs = 0;
  const osd = preview(managedPreviewSource(managedConfig('OSD'), noWindow), '2024-01-01T00:00:00Z', 1);
  const events = parseCalendar(renderPreviewCalendar([aro, osd], STAMP)).events;
  // Both are the same config and release: one event.
  assert.equal(events.length, 1);
  assert.match(events[0]?.description ?? '', /\nNo failure window \(ARO\)\.$/);
  const osdOnly = parseCalendar(renderPreviewCalendar([osd], STAMP)).events;
  assert.deepEqual(
    osdOnly.map((e) => e.description.split('\n')[1]),
    ['No failure window (upgradeWindow.timeOut is 0).'],
  );
});
