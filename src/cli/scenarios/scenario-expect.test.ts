import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventResource, NamespaceResource } from '../../api/builtin.js';
import { unmetExpectations } from './scenario-expect.js';
import { startSimEnvironment } from './sim-environment.js';

void test('an Event expectation holds only when the Event is there; one that cannot be read is unmet, never skipped', async (t) => {
  const env = await startSimEnvironment({ seed: 1 });
  t.after(() => env.close());
  await env.client.create(NamespaceResource, { metadata: { name: 'shop' } });
  await env.client.create(EventResource, {
    metadata: { name: 'web.1', namespace: 'shop' },
    involvedObject: { kind: 'Pod', namespace: 'shop', name: 'web' },
    reason: 'NodeDrainDeletePod',
    type: 'Normal',
  });
  const input = { client: env.client, upgradeConfig: undefined, timeline: [], actionsRun: 0 };

  assert.deepEqual(
    await unmetExpectations({ events: [{ namespace: 'shop', reason: 'NodeDrainDeletePod' }] }, input, env.signal),
    [],
  );
  assert.deepEqual(
    await unmetExpectations({ events: [{ namespace: 'shop', reason: 'ForceDrainPodDeleted' }] }, input, env.signal),
    ['no Event ForceDrainPodDeleted in shop'],
  );
  // Nothing to read (no ClusterVersion, a kind the server does not serve): unmet, each with why.
  const unmet = await unmetExpectations(
    {
      clusterVersionCompleted: true,
      objectConditions: [{ apiVersion: 'example.com/v1', kind: 'Widget', type: 'Ready', status: 'True' }],
      absent: [{ apiVersion: 'example.com/v1', kind: 'Widget' }],
    },
    input,
    env.signal,
  );
  assert.equal(unmet.length, 3, unmet.join('\n'));
  assert.match(unmet[0] ?? '', /^ClusterVersion version: cannot be read \(.+\)$/);
  assert.match(unmet[1] ?? '', /^absent Widget: cannot be read \(.+\)$/);
  assert.match(unmet[2] ?? '', /^Widget with Ready=True: cannot be read \(.+\)$/);
});
