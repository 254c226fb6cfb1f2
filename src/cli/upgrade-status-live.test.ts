import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assessUpgradeStatus } from './upgrade-status.js';
import { statusLiveView } from './upgrade-status-live.js';
import { NOW, snapshot } from './upgrade-status.test-support.js';

void test('status --watch: the live view of a report, a bar per pool naming the nodes at work; no alert or silence line', () => {
  const view = statusLiveView(assessUpgradeStatus(snapshot(), NOW), { title: 'status', clock: 'now' });
  assert.deepEqual(view.controlPlane, {
    label: 'control plane',
    done: 1,
    total: 1,
    detail: '4.15.3 completed',
    eta: '',
    complete: true,
  });
  assert.deepEqual(
    view.pools.map((p) => [p.label, p.done, p.total, p.detail]),
    [
      ['master', 3, 3, ''],
      ['infra', 0, 1, 'paused'],
      ['worker', 1, 5, 'draining w1, rebooting w2, updating w3'],
    ],
  );
  assert.equal(view.alerts, undefined);
  assert.equal(view.silences, undefined);
  assert.equal(view.operator, '');
});
