import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PodResource } from '../api/builtin.js';
import { eventually, fakeApiFixture, type Loose } from './test-helpers.test-support.js';
import { updateStatusWithRetry } from './status-writer.js';
import { isConflict } from './status-error.js';

void test('status writer re-reads and re-applies the mutation after a conflict; undefined means no write', async (t) => {
  const { api, clock, client } = await fakeApiFixture(t);
  api.put('/api/v1/pods', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'a', namespace: 'ns' },
    status: { phase: 'Pending' },
  });
  let calls = 0;
  const p = updateStatusWithRetry(
    client,
    PodResource,
    'ns/a',
    (pod) => {
      calls++;
      // Someone else writes between our GET and PUT, once.
      if (calls === 1)
        api.put('/api/v1/pods', {
          ...(api.objects.get('/api/v1/pods|ns/a') as Loose),
          metadata: { name: 'a', namespace: 'ns' },
          spec: { x: 1 },
        });
      return { ...pod, status: { ...pod.status, message: `attempt ${calls}` } };
    },
    { clock },
  );
  await eventually(() => calls === 1);
  await eventually(() => calls === 2, { clock, stepMs: 5 });
  const result = await p;
  assert.equal(result.status?.message, 'attempt 2');
  assert.deepEqual((result as Loose).spec, { x: 1 }, 'the other writer’s change survives');
  const puts = api.requests.filter((r) => r.startsWith('PUT'));
  assert.equal(puts.length, 2);
  assert.match(puts[0] ?? '', /\/pods\/a\/status/);
  const unchanged = await updateStatusWithRetry(client, PodResource, 'ns/a', () => undefined, { clock });
  assert.equal(unchanged.metadata?.resourceVersion, result.metadata?.resourceVersion);
  assert.equal(api.requests.filter((r) => r.startsWith('PUT')).length, 2, 'no write');
});

void test('status writer gives up after the attempts are spent', async (t) => {
  const { api, clock, client } = await fakeApiFixture(t);
  api.put('/api/v1/pods', { metadata: { name: 'a', namespace: 'ns' } });
  const p = updateStatusWithRetry(
    client,
    PodResource,
    'ns/a',
    (pod) => {
      api.put('/api/v1/pods', { metadata: { name: 'a', namespace: 'ns' }, spec: { bump: Math.random() } });
      return { ...pod, status: { phase: 'Running' } };
    },
    { clock, attempts: 3 },
  );
  let err: unknown;
  void p.catch((e: unknown) => (err = e));
  await eventually(() => err !== undefined, { clock, stepMs: 10 });
  assert.ok(isConflict(err));
  assert.equal(api.requests.filter((r) => r.startsWith('PUT')).length, 3);
});
