/**
 * Malformed requests get kube-apiserver's status codes and words, never a 500 or a silently
 * ignored parameter: a body nested too deep, a bad escape in the path, integer and
 * resourceVersion parameters Go cannot parse, a body in a media type the server does not read.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../lib/clock.js';
import { hasBadPathEscape } from './router.js';
import { nestingDepth } from './http-util.js';
import { startApiServer, type ApiServer } from './server.js';
import { sendRaw, type RawReply as Reply } from './raw-request.test-support.js';

let server: ApiServer;

before(async () => {
  server = await startApiServer({ port: 0, clock: new ManualClock('2026-03-01T00:00:00Z') });
  for (const name of ['a', 'b', 'c'])
    await send(
      'POST',
      '/api/v1/namespaces/default/configmaps',
      { 'Content-Type': 'application/json' },
      configMap(name),
    );
});

after(async () => {
  await server.close();
});

function send(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: Buffer | string,
): Promise<Reply> {
  return sendRaw(server.url, method, path, headers, body);
}

function configMap(name: string, extra = ''): string {
  return `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}"}${extra}}`;
}

function status(reply: Reply): { code: number; reason?: string; message: string } {
  const body = JSON.parse(reply.text) as { code: number; reason?: string; message: string };
  return { code: body.code, ...(body.reason ? { reason: body.reason } : {}), message: body.message };
}

void test('a body nested 10,000 levels deep is a 400 from the decoder, not a 500 from a stack overflow', async () => {
  const deep = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
  const reply = await send(
    'POST',
    '/api/v1/namespaces/default/configmaps',
    { 'Content-Type': 'application/json' },
    configMap('deep', `,"x":${deep}`),
  );
  assert.equal(reply.status, 400);
  assert.deepEqual(status(reply), {
    code: 400,
    reason: 'BadRequest',
    message: "couldn't get version/kind; json parse error: exceeded max depth",
  });
  const yaml = await send(
    'PATCH',
    '/api/v1/namespaces/default/configmaps/a?fieldManager=t',
    { 'Content-Type': 'application/apply-patch+yaml' },
    configMap('a', `,"x":${deep}`),
  );
  assert.equal(yaml.status, 400);
  assert.equal(status(yaml).message, 'error decoding YAML: exceeded max depth');
  assert.equal(nestingDepth(JSON.parse(deep) as never), 10_000);
  assert.equal(nestingDepth(null), 0);
});

void test('a bad escape in the path is refused before any handler, as Go’s HTTP server does', async () => {
  const reply = await send('GET', '/api/v1/namespaces/%zz/configmaps');
  assert.deepEqual(reply, { status: 400, contentType: 'text/plain; charset=utf-8', text: '400 Bad Request' });
  assert.equal(hasBadPathEscape('/api/v1/namespaces/a%2Fb/configmaps?labelSelector=%zz'), false);
  assert.equal(hasBadPathEscape('/api/v1/%4'), true);
});

void test('limit and timeoutSeconds Go cannot parse are 400 with strconv’s words; limit=-1 lists everything', async () => {
  const limit = await send('GET', '/api/v1/namespaces/default/configmaps?limit=abc');
  assert.equal(limit.status, 400);
  assert.deepEqual(status(limit), {
    code: 400,
    reason: 'BadRequest',
    message: 'strconv.ParseInt: parsing "abc": invalid syntax',
  });
  const huge = await send('GET', '/api/v1/namespaces/default/configmaps?limit=99999999999999999999');
  assert.equal(status(huge).message, 'strconv.ParseInt: parsing "99999999999999999999": value out of range');
  const timeout = await send('GET', '/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=abc');
  assert.equal(timeout.status, 400);
  assert.equal(status(timeout).message, 'strconv.ParseInt: parsing "abc": invalid syntax');
  const all = await send('GET', '/api/v1/namespaces/default/configmaps?limit=-1');
  assert.equal(all.status, 200);
  assert.equal((JSON.parse(all.text) as { items: unknown[] }).items.length, 3);
  const two = await send('GET', '/api/v1/namespaces/default/configmaps?limit=%2B2');
  assert.equal((JSON.parse(two.text) as { items: unknown[] }).items.length, 2);
});

void test('a resourceVersion that is not a number is refused for lists and watches', async () => {
  const want = {
    code: 400,
    reason: 'BadRequest',
    message: 'resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax',
  };
  const list = await send('GET', '/api/v1/namespaces/default/configmaps?resourceVersion=abc');
  assert.equal(list.status, 400);
  assert.deepEqual(status(list), want);
  const watch = await send('GET', '/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=abc');
  assert.equal(watch.status, 400);
  assert.deepEqual(status(watch), want);
  const zero = await send('GET', '/api/v1/namespaces/default/configmaps?resourceVersion=0');
  assert.equal(zero.status, 200);
});

void test('a create or update in a media type the server does not read is 415 naming those it reads; none at all is JSON', async () => {
  const plain = await send(
    'POST',
    '/api/v1/namespaces/default/configmaps',
    { 'Content-Type': 'text/plain' },
    configMap('p'),
  );
  assert.equal(plain.status, 415);
  assert.deepEqual(status(plain), {
    code: 415,
    reason: 'UnsupportedMediaType',
    message:
      'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml',
  });
  const put = await send(
    'PUT',
    '/api/v1/namespaces/default/configmaps/a',
    { 'Content-Type': 'text/html' },
    configMap('a'),
  );
  assert.equal(put.status, 415);
  const none = await send('POST', '/api/v1/namespaces/default/configmaps', {}, configMap('no-type'));
  assert.equal(none.status, 201);
  const yaml = await send(
    'POST',
    '/api/v1/namespaces/default/configmaps',
    { 'Content-Type': 'application/yaml' },
    'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: from-yaml}\n',
  );
  assert.equal(yaml.status, 201);
});
