/**
 * Property-based: no request makes the embedded API server fail, hang or lie. Whatever the path,
 * query, method, media type and body — random bytes, random JSON, objects of every served kind
 * with random fields — the answer is a 2xx, or a 4xx that explains itself (a Status with a
 * reason and a message, or Go's plain-text 400 for a request line it cannot parse), never a 5xx;
 * and the server still answers afterwards. `npm run bench` (hostile-input) sends many more.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  hostileObject,
  hostileRequest,
  startHostileTarget,
  unexplained,
  type HostileRequest,
  type HostileTarget,
} from './hostile-input.test-support.js';

let target: HostileTarget;

before(async () => {
  target = await startHostileTarget();
});

after(async () => {
  await target.server.close();
});

async function explains(request: HostileRequest): Promise<void> {
  const reply = await target.send(request);
  assert.equal(unexplained(request, reply), undefined);
}

async function stillAnswers(): Promise<void> {
  const version = await target.send({ method: 'GET', path: '/version', headers: {} });
  assert.equal(version.status, 200);
}

void test('any path, query, method, media type and body: a 2xx or a 4xx that explains itself; the server keeps answering', async () => {
  await fc.assert(fc.asyncProperty(hostileRequest, explains), { numRuns: 400 });
  await stillAnswers();
});

void test('objects of every served kind with random fields: created, or refused with a reason and a message; never a 5xx', async () => {
  assert.ok(target.collections.length > 20, `kinds found: ${target.collections.length}`);
  await fc.assert(fc.asyncProperty(hostileObject(target.collections), explains), { numRuns: 400 });
  await stillAnswers();
});
