import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { ManualClock } from '../lib/clock.js';
import { startApiServer } from './server.js';

async function get(url: string): Promise<{ status: number; type: string; body: string }> {
  const res = await request(url);
  return { status: res.statusCode, type: String(res.headers['content-type']), body: await res.body.text() };
}

void test('pods/log: text from the pod’s registered source; container, previous, tailLines, sinceSeconds, timestamps, limitBytes', async (t) => {
  const clock = new ManualClock(Date.UTC(2030, 0, 1, 12));
  const server = await startApiServer({ clock });
  t.after(() => server.close());
  const pod = (name: string, containers: string[]): unknown => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { containers: containers.map((c) => ({ name: c, image: 'x' })) },
  });
  for (const [name, containers] of [
    ['op', ['operator']],
    ['two', ['a', 'b']],
    ['bare', ['c']],
  ] as const) {
    const res = await request(`${server.url}/api/v1/namespaces/default/pods`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(pod(name, [...containers])),
    });
    assert.equal(res.statusCode, 201, await res.body.text());
  }
  const now = clock.now();
  const current = [
    { at: now - 120_000, text: '{"msg":"one"}' },
    { at: now - 30_000, text: '{"msg":"two"}' },
    { at: now - 1_000, text: '{"msg":"three"}' },
  ];
  const unregister = server.podLogs.register('default', 'op', {
    lines: (container, previous) =>
      container !== 'operator' ? [] : previous ? [{ at: now - 600_000, text: 'before the restart' }] : current,
  });
  const log = (pod: string, query = ''): Promise<{ status: number; type: string; body: string }> =>
    get(`${server.url}/api/v1/namespaces/default/pods/${pod}/log${query}`);

  assert.deepEqual(await log('op'), {
    status: 200,
    type: 'text/plain',
    body: '{"msg":"one"}\n{"msg":"two"}\n{"msg":"three"}\n',
  });
  assert.equal((await log('op', '?container=operator&tailLines=1')).body, '{"msg":"three"}\n');
  assert.equal((await log('op', '?sinceSeconds=60')).body, '{"msg":"two"}\n{"msg":"three"}\n');
  assert.equal((await log('op', '?previous=true')).body, 'before the restart\n');
  assert.equal((await log('op', '?timestamps=true&tailLines=1')).body, '2030-01-01T11:59:59.000Z {"msg":"three"}\n');
  assert.equal((await log('op', '?limitBytes=5')).body, '{"msg');
  assert.equal((await log('op', '?follow=true')).status, 200);

  // A pod without a source has empty logs, and no previous instance.
  assert.equal((await log('bare')).body, '');
  const noPrevious = await log('bare', '?previous=true');
  assert.equal(noPrevious.status, 400);
  assert.match(noPrevious.body, /previous terminated container \\"c\\" in pod \\"bare\\" not found/);
  const ambiguous = await log('two');
  assert.equal(ambiguous.status, 400);
  assert.match(ambiguous.body, /a container name must be specified for pod two, choose one of: \[a b\]/);
  assert.match((await log('op', '?container=nope')).body, /container nope is not valid for pod op/);
  assert.equal((await log('missing')).status, 404);
  assert.equal((await log('op', '?tailLines=x')).status, 400);

  unregister();
  assert.equal((await log('op')).body, '');
  const discovery = JSON.parse((await get(`${server.url}/api/v1`)).body) as {
    resources: Array<{ name: string; verbs: string[] }>;
  };
  assert.deepEqual(discovery.resources.find((r) => r.name === 'pods/log')?.verbs, ['get']);
});
