import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request } from 'undici';
import { ActivityCounter } from '../lib/activity.js';
import { startHttpServer } from './http-server.js';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

void test('serves on 127.0.0.1 and counts each request as activity until its response ends', async (t) => {
  const activity = new ActivityCounter();
  const gate = deferred();
  const entered = deferred();
  const server = await startHttpServer({
    name: 'test',
    activity,
    handler: async (req, res) => {
      entered.resolve();
      await gate.promise;
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`hello ${req.url}`);
    },
  });
  t.after(() => server.close());
  assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.equal(server.url, `http://127.0.0.1:${server.port}`);

  const agent = new Agent();
  t.after(() => agent.close());
  const pending = request(`${server.url}/x?y=1`, { dispatcher: agent });
  await entered.promise;
  assert.deepEqual(activity.snapshot(), { 'http test': 1 });
  gate.resolve();
  const res = await pending;
  assert.equal(res.statusCode, 200);
  assert.equal(await res.body.text(), 'hello /x?y=1');
  await activity.idle();
  assert.equal(activity.busy, 0);
});

void test('a handler that throws or rejects is answered 500, and activity ends', async (t) => {
  const activity = new ActivityCounter();
  const server = await startHttpServer({
    name: 'failing',
    activity,
    handler: (req, res) => {
      if (req.url === '/sync') throw new Error('boom');
      if (req.url === '/async') return Promise.reject(new Error('later boom'));
      if (req.url === '/late') {
        res.writeHead(200);
        res.write('partial');
        return Promise.reject(new Error('after headers'));
      }
      res.end('ok');
      return undefined;
    },
  });
  t.after(() => server.close());
  const agent = new Agent();
  t.after(() => agent.close());

  const sync = await request(`${server.url}/sync`, { dispatcher: agent });
  assert.equal(sync.statusCode, 500);
  assert.match(await sync.body.text(), /boom/);
  const asyncRes = await request(`${server.url}/async`, { dispatcher: agent });
  assert.equal(asyncRes.statusCode, 500);
  assert.match(await asyncRes.body.text(), /later boom/);
  // Headers already sent: the response is cut, so the client sees an error reading the body.
  const late = await request(`${server.url}/late`, { dispatcher: agent });
  assert.equal(late.statusCode, 200);
  await assert.rejects(late.body.text());
  const ok = await request(`${server.url}/fine`, { dispatcher: agent });
  assert.equal(await ok.body.text(), 'ok');
  await activity.idle();
  assert.equal(activity.busy, 0);
});

void test('close() ends keep-alive connections and requests in flight', async () => {
  const activity = new ActivityCounter();
  const entered = deferred();
  const server = await startHttpServer({
    name: 'closing',
    activity,
    handler: (req, res) => {
      if (req.url === '/hang') {
        entered.resolve();
        return; // never answers
      }
      res.end('ok');
    },
  });
  const agent = new Agent({ keepAliveTimeout: 60_000 });
  try {
    const first = await request(`${server.url}/a`, { dispatcher: agent });
    assert.equal(await first.body.text(), 'ok');
    // The first connection is now idle and kept alive; a second one hangs in the handler.
    const hanging = request(`${server.url}/hang`, { dispatcher: agent });
    await entered.promise;
    assert.equal(activity.busy, 1);
    await server.close();
    await assert.rejects(hanging);
    await activity.idle();
    assert.equal(activity.busy, 0);
    await assert.rejects(request(`${server.url}/a`, { dispatcher: agent }));
    // close() is idempotent.
    await server.close();
  } finally {
    await agent.close();
  }
});

void test('a handler can pause its request while it waits, and resume it', async (t) => {
  const activity = new ActivityCounter();
  let release: (() => void) | undefined;
  const seen: number[] = [];
  const server = await startHttpServer({
    name: 'pausing',
    activity,
    handler: async (_req, res, request) => {
      seen.push(activity.busy);
      request.pause();
      request.pause();
      seen.push(activity.busy);
      await new Promise<void>((resolve) => (release = resolve));
      request.resume();
      seen.push(activity.busy);
      res.end('done');
    },
  });
  t.after(() => server.close());
  const answer = fetch(server.url).then((r) => r.text());
  while (release === undefined) await new Promise((resolve) => setImmediate(resolve));
  release();
  assert.equal(await answer, 'done');
  await activity.idle();
  assert.deepEqual(seen, [1, 0, 1]);
  assert.equal(activity.busy, 0);
});
