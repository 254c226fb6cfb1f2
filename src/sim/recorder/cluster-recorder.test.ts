import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeResource } from '../../api/builtin.js';
import { createClusterMonitoring } from '../monitoring/cluster-monitoring.js';
import { startTestCluster } from '../test-support/cluster.test-support.js';
import { startClusterRecorder } from './cluster-recorder.js';

const START = Date.UTC(2026, 2, 2);
const STATE = 'machineconfiguration.openshift.io/state';

void test('the recorder: objects present at its start are the baseline; later changes are stamped with the virtual clock; the report has the final objects', async (t) => {
  const cluster = await startTestCluster(t);
  const { client, clock, ctx, signal } = cluster;
  await client.create(NodeResource, {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'worker-b', annotations: { [STATE]: 'Done' } },
  });
  const monitoring = createClusterMonitoring(ctx, { serve: false });
  await monitoring.start(signal);
  const recorder = await startClusterRecorder(ctx, monitoring, signal);

  // Five virtual minutes on: worker-b starts updating, worker-a joins; ten minutes on, worker-b goes away.
  await clock.run({ until: START + 5 * 60_000, signal });
  const b = await client.get(NodeResource, undefined, 'worker-b');
  await client.update(NodeResource, {
    ...b,
    metadata: { ...b.metadata, annotations: { [STATE]: 'Working' } },
    spec: { unschedulable: true },
  });
  await client.create(NodeResource, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'worker-a' } });
  await clock.run({ until: START + 10 * 60_000, signal });
  await client.delete(NodeResource, undefined, 'worker-b');
  await clock.run({ until: START + 10 * 60_000 + 1, signal });

  const report = recorder.report(START + 60_000, [{ url: 'worker-', placeholder: 'w/' }]);
  const row = (x: (typeof report.transitions)[number]): string =>
    `${x.at} ${x.elapsedMs} ${x.kind}/${x.name} ${x.field} ${String(x.from)} → ${String(x.to)}`;
  // At one instant, by kind then name (worker-a before worker-b though created after it).
  assert.deepEqual(report.transitions.map(row), [
    '2026-03-02T00:05:00.000Z 240000 Node/w/a object absent → present',
    '2026-03-02T00:05:00.000Z 240000 Node/w/b machineconfiguration.openshift.io/state Done → Working',
    '2026-03-02T00:05:00.000Z 240000 Node/w/b spec.unschedulable false → true',
    '2026-03-02T00:10:00.000Z 540000 Node/w/b object present → absent',
  ]);
  assert.deepEqual(
    report.final.nodes.map((n) => [n.kind, n.apiVersion, n.metadata?.name, n.metadata?.managedFields]),
    [['Node', 'v1', 'w/a', undefined]],
  );
  assert.equal(report.final.clusterVersion, null);
  assert.deepEqual(report.silences, []);
  // The rule evaluator ran (Watchdog always fires).
  assert.ok(report.alerts.some((a) => a.alertname === 'Watchdog' && a.state === 'firing'));

  // Stopped: later changes are not recorded, the report stays readable.
  recorder.stop();
  await client.delete(NodeResource, undefined, 'worker-a');
  await clock.run({ until: START + 11 * 60_000, signal });
  assert.equal(recorder.transitions(START).length, 4);
});
