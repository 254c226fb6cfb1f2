import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_LAYOUT,
  layoutTimeline,
  progressY,
  segmentRect,
  tickLabel,
  tickStepMs,
  ticks,
  timeScale,
} from './timeline-layout.js';
import type { Lane, Timeline } from './timeline-lanes.js';

const MIN = 60_000;

void test('the time scale maps the domain linearly onto the pixels and clamps outside it', () => {
  const scale = timeScale(1000, 1000 + 60 * MIN, 200, 800);
  assert.equal(scale.x(1000), 200);
  assert.equal(scale.x(1000 + 30 * MIN), 500);
  assert.equal(scale.x(1000 + 60 * MIN), 800);
  assert.equal(scale.x(0), 200);
  assert.equal(scale.x(1000 + 90 * MIN), 800);
  // An empty domain puts everything at the start instead of dividing by zero.
  assert.equal(timeScale(5, 5, 10, 20).x(5), 10);
});

void test('ticks fall on whole steps from the origin, at most as many as asked', () => {
  assert.equal(tickStepMs(144 * MIN, 14), 15 * MIN);
  assert.equal(tickStepMs(10 * MIN, 14), 1 * MIN);
  assert.equal(tickStepMs(30 * 60 * MIN, 14), 180 * MIN);
  const t = ticks(0, 144 * MIN, 14);
  assert.equal(t.length, 10);
  assert.deepEqual(t.slice(0, 3), [0, 15 * MIN, 30 * MIN]);
  assert.ok(t.every((v) => v <= 144 * MIN));
  assert.deepEqual(
    [0, 15, 60, 90, 24 * 60 + 30].map((m) => tickLabel(m * MIN)),
    ['+0', '+15m', '+1h', '+1h30m', '+1d30m'],
  );
});

function lane(id: string, group: Lane['group'], rows = 1, sublabel = ''): Lane {
  return { id, group, label: id, sublabel, rows, segments: [], markers: [], progress: [] };
}

void test('lanes are placed group by group under the axis; a stack of rows or a second label line makes a lane taller', () => {
  const timeline: Timeline = {
    originMs: 0,
    endMs: 60 * MIN,
    runEndMs: 60 * MIN,
    // Out of group order on purpose: the groups' order wins, lanes keep theirs inside a group.
    lanes: [
      lane('node/b', 'Nodes', 1, 'worker'),
      lane('operator', 'Operator'),
      lane('node/a', 'Nodes'),
      lane('silences', 'Silences', 3),
    ],
  };
  const o = DEFAULT_LAYOUT;
  const layout = layoutTimeline(timeline, o);
  assert.deepEqual(
    layout.groups.map((g) => g.group),
    ['Operator', 'Nodes', 'Silences'],
  );
  assert.deepEqual(
    layout.lanes.map((l) => l.lane.id),
    ['operator', 'node/b', 'node/a', 'silences'],
  );
  const [op, b, a, s] = layout.lanes;
  assert.equal(layout.groups[0]?.y, o.axisHeight);
  assert.equal(op?.y, o.axisHeight + o.groupHeading);
  assert.equal(op?.height, o.rowHeight + 6);
  assert.equal(b?.y, (op?.y ?? 0) + (op?.height ?? 0) + o.groupHeading);
  assert.equal(b?.height, 2 * o.rowHeight + 6);
  assert.equal(a?.y, (b?.y ?? 0) + (b?.height ?? 0));
  assert.equal(s?.height, 3 * o.rowHeight + 6);
  assert.equal(layout.height, (s?.y ?? 0) + (s?.height ?? 0) + 8);
  assert.equal(layout.scale.x(0), o.labelWidth);
  assert.equal(layout.scale.x(60 * MIN), o.width - o.rightMargin);
  assert.equal(layout.ticks[0]?.label, '+0');
});

void test('a segment is a rectangle in its row, at least 2 px wide; progress runs bottom (0) to top (1)', () => {
  const scale = timeScale(0, 100, 0, 1000);
  assert.deepEqual(segmentRect({ startMs: 10, endMs: 30, row: 0 }, { y: 100 }, scale, 18), {
    x: 100,
    y: 104,
    width: 200,
    height: 16,
  });
  assert.deepEqual(segmentRect({ startMs: 50, endMs: 50, row: 2 }, { y: 100 }, scale, 18), {
    x: 500,
    y: 140,
    width: 2,
    height: 16,
  });
  assert.equal(progressY(0, { y: 100, height: 30 }), 127);
  assert.equal(progressY(1, { y: 100, height: 30 }), 103);
  assert.equal(progressY(2, { y: 100, height: 30 }), 103);
});
