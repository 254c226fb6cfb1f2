import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node } from 'kubernetes-types/core/v1.js';
import { formatTime } from '../../../lib/clock.js';
import { SeededRandom } from '../../../lib/random.js';
import { drawMs } from '../../durations.js';
import {
  cordonPatch,
  drainVerb,
  isControlPlaneNode,
  mcoAnnotations,
  truncateReason,
  withReadyCondition,
  withTaint,
} from './node-state.js';

const T0 = Date.UTC(2026, 2, 2);

function node(extra: Partial<Node> = {}): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: 'n',
      resourceVersion: '42',
      labels: { 'node-role.kubernetes.io/master': '' },
      annotations: { 'machineconfiguration.openshift.io/state': 'Done' },
    },
    status: {
      conditions: [
        { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory' },
        { type: 'Ready', status: 'True', reason: 'KubeletReady', lastTransitionTime: formatTime(T0 - 1000) },
      ],
    },
    ...extra,
  };
}

void test('Ready goes False with KubeletNotReady, keeping other conditions; lastTransitionTime moves only on a change', () => {
  const down = withReadyCondition(node(), false, T0);
  assert.equal(down.length, 2);
  assert.equal(down[0]?.type, 'MemoryPressure');
  assert.equal(down[1]?.status, 'False');
  assert.equal(down[1]?.reason, 'KubeletNotReady');
  assert.equal(down[1]?.lastTransitionTime, formatTime(T0));
  const same = withReadyCondition(node(), true, T0);
  assert.equal(same[1]?.lastTransitionTime, formatTime(T0 - 1000));
  assert.equal(same[1]?.lastHeartbeatTime, formatTime(T0));
  const fresh = withReadyCondition(node({ status: {} }), true, T0);
  assert.deepEqual(
    fresh.map((c) => c.type),
    ['Ready'],
  );
});

void test('cordon and uncordon patches carry the taint with timeAdded and a resourceVersion guard', () => {
  assert.deepEqual(cordonPatch(node(), true, T0), {
    metadata: { resourceVersion: '42' },
    spec: {
      unschedulable: true,
      taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: formatTime(T0) }],
    },
  });
  const cordoned = node({
    spec: {
      unschedulable: true,
      taints: [
        { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' },
        { key: 'x', effect: 'NoExecute' },
      ],
    },
  });
  assert.deepEqual(cordonPatch(cordoned, false, T0), {
    metadata: { resourceVersion: '42' },
    spec: { unschedulable: null, taints: [{ key: 'x', effect: 'NoExecute' }] },
  });
  assert.equal(withTaint(cordoned, { key: 'x', effect: 'NoExecute' }, true).length, 2, 'no duplicate');
});

void test('annotations, verbs, roles, reasons and draws', () => {
  assert.equal(mcoAnnotations(node()).state, 'Done');
  assert.equal(mcoAnnotations(node()).desiredConfig, undefined);
  assert.equal(drainVerb('drain-rendered-worker-abc'), 'drain');
  assert.equal(drainVerb('uncordon-rendered-worker-abc'), 'uncordon');
  assert.equal(isControlPlaneNode(node()), true);
  assert.equal(
    isControlPlaneNode(node({ metadata: { name: 'w', labels: { 'node-role.kubernetes.io/worker': '' } } })),
    false,
  );
  assert.equal(truncateReason('x'.repeat(2500)).length, 2000);
  const r = new SeededRandom(1);
  for (let i = 0; i < 50; i++) {
    const ms = drawMs(r, [1, 2, 3], 2);
    assert.ok(ms >= 30_000 && ms <= 90_000);
  }
  assert.throws(() => drawMs(r, [1, 2, 3], 0), RangeError);
});
