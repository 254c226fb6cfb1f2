import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stripVTControlCharacters } from 'node:util';
import stringWidth from 'string-width';
import {
  barTrack,
  BAR_WIDTH,
  clockText,
  fitLine,
  remainingAtPace,
  renderLiveView,
  type LiveView,
} from './live-view.js';

const VIEW: LiveView = {
  title: 'Scenario managed-osd-upgrade',
  clock: 'virtual +01:51:46 · wall 10.3 s',
  operator: 'Upgrading · ControlPlaneUpgraded: waiting for the control plane to complete 4.15.38',
  attention: false,
  controlPlane: {
    label: 'control plane',
    done: 740,
    total: 883,
    detail: 'waiting on machine-config',
    eta: 'ETA 00:17:55',
    complete: false,
  },
  pools: [
    { label: 'master', done: 2, total: 3, detail: 'rebooting ip-10-0-74-102.ec2.internal', eta: '', complete: false },
    { label: 'worker', done: 6, total: 6, detail: '', eta: '', complete: true },
  ],
  alerts: ['KubeNodeNotReady'],
  silences: ['Silence for OSD control plane upgrade to version 4.15.38'],
  warning: '',
};

void test('the live view: operator line, one bar for the control plane and one per pool, alerts and silences', () => {
  assert.deepEqual(renderLiveView(VIEW, { columns: 200, color: false }), [
    'Scenario managed-osd-upgrade  virtual +01:51:46 · wall 10.3 s',
    'Upgrading · ControlPlaneUpgraded: waiting for the control plane to complete 4.15.38',
    'control plane  ████████████████████░░░░  83%  740/883  ETA 00:17:55  waiting on machine-config',
    'master         ████████████████░░░░░░░░  66%  2/3  rebooting ip-10-0-74-102.ec2.internal',
    'worker         ████████████████████████ 100%  6/6',
    'alerts firing  KubeNodeNotReady',
    'silences       Silence for OSD control plane upgrade to version 4.15.38',
  ]);
});

void test('every line is cut to the width with an ellipsis, never wrapped, wide characters counted as two', () => {
  for (const columns of [20, 40, 79]) {
    const lines = renderLiveView(
      { ...VIEW, warning: 'ControlPlaneTimeout: 控制平面超时 '.repeat(5) },
      { columns, color: true },
    );
    for (const line of lines) assert.ok(stringWidth(line) <= columns, `${stringWidth(line)} > ${columns}: ${line}`);
    assert.ok(lines.some((l) => stripVTControlCharacters(l).endsWith('…')));
  }
  assert.equal(fitLine('abcdef', 4), 'abc…');
  assert.equal(fitLine('abc', 4), 'abc');
  assert.equal(stringWidth(fitLine('超超超超', 5)), 5);
});

void test('colour only when asked: no escape sequence without it', () => {
  const plain = renderLiveView(VIEW, { columns: 120, color: false }).join('\n');
  assert.equal(plain, stripVTControlCharacters(plain));
  const coloured = renderLiveView(VIEW, { columns: 120, color: true }).join('\n');
  assert.notEqual(coloured, stripVTControlCharacters(coloured));
  assert.equal(stripVTControlCharacters(coloured), plain);
});

void test('alerts and silences: unknown when they could not be read, no line when not read, none when none', () => {
  const lines = (view: Partial<LiveView>): string[] =>
    renderLiveView({ ...VIEW, ...view }, { columns: 120, color: false }).filter((l) => /^(alerts|silences)/.test(l));
  assert.deepEqual(lines({ alerts: null, silences: null }), ['alerts firing  unknown', 'silences       unknown']);
  assert.deepEqual(lines({ alerts: [], silences: [] }), ['alerts firing  none', 'silences       none active']);
  const { alerts: _a, silences: _s, ...rest } = VIEW;
  assert.deepEqual(
    renderLiveView(rest, { columns: 120, color: false }).filter((l) => /^(alerts|silences)/.test(l)),
    [],
  );
});

void test('bars, clock and pace', () => {
  assert.equal(barTrack(0, 0), '░'.repeat(BAR_WIDTH));
  assert.equal(barTrack(5, 3), '█'.repeat(BAR_WIDTH), 'never past full');
  assert.equal(barTrack(1, 2, 4), '██░░');
  assert.equal(clockText(((25 * 60 + 1) * 60 + 2) * 1000 + 999), '25:01:02');
  assert.equal(remainingAtPace(1, 4, 60_000), 180_000);
  assert.equal(remainingAtPace(0, 4, 60_000), undefined, 'no pace before any progress');
  assert.equal(remainingAtPace(4, 4, 60_000), undefined, 'done');
});
