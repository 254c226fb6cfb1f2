import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { parseExposition, samplesOf, valueOf } from '../../kube/metrics-exposition.test-support.js';
import { NodeForceDrainMetricName as N, NodeForceDrainMetrics } from './node-force-drain-metrics.js';

void test("the two counters have APPUiO's names and labels and count per pod", async () => {
  const registry = new Registry();
  const m = new NodeForceDrainMetrics(registry);
  const a = { node_force_drain: 'default', node: 'worker-1', namespace: 'shop', pod_name: 'web-1', pod_uid: 'u1' };
  m.podDeleted(a);
  m.podDeleted(a);
  m.podDeleted({ ...a, pod_name: 'web-2', pod_uid: 'u2' });
  m.podTerminated(a);
  const f = parseExposition(await registry.metrics());
  assert.equal(f.get(N.podDeletions)?.type, 'counter');
  assert.equal(f.get(N.podTerminations)?.type, 'counter');
  assert.ok((f.get(N.podDeletions)?.help ?? '') !== '');
  assert.equal(valueOf(f, N.podDeletions, a), 2);
  assert.equal(valueOf(f, N.podDeletions, { ...a, pod_name: 'web-2', pod_uid: 'u2' }), 1);
  assert.equal(valueOf(f, N.podTerminations, a), 1);
  assert.deepEqual(Object.keys(samplesOf(f, N.podTerminations)[0]?.labels ?? {}).sort(), [
    'namespace',
    'node',
    'node_force_drain',
    'pod_name',
    'pod_uid',
  ]);
  assert.throws(() => new NodeForceDrainMetrics(registry), /already been registered/);
});
