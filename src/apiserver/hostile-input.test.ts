/**
 * Property-based: no request makes the embedded API server fail, hang or lie. Whatever the path,
 * query, method, media type and body — random bytes, random JSON, objects of every served kind
 * with random fields — the answer is a 2xx, or a 4xx that explains itself (a Status with a
 * reason and a message, or Go's plain-text 400 for a request line it cannot parse), never a 5xx;
 * and the server still answers afterwards.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { customResourceDefinitions } from '../api/manifests.js';
import { openshiftCustomResourceDefinitions } from '../api/openshift/crds.js';
import { KubeClient } from '../kube/client.js';
import { ManualClock } from '../lib/clock.js';
import { silentLogger } from '../lib/log.js';
import { installCustomResourceDefinitions } from '../sim/install-crds.js';
import { startApiServer, type ApiServer } from './server.js';
import { sendRaw, type RawReply as Reply } from './raw-request.test-support.js';

let server: ApiServer;
/** The collection path of every served kind, namespaced ones in `fuzz`. */
let collections: Array<{ path: string; apiVersion: string; kind: string }> = [];

before(async () => {
  const clock = new ManualClock('2026-03-01T00:00:00Z');
  server = await startApiServer({ port: 0, clock, logger: silentLogger() });
  const client = new KubeClient({
    config: {
      server: server.url,
      insecureSkipTLSVerify: false,
      auth: () => Promise.resolve(undefined),
      namespace: 'fuzz',
    },
    clock,
    logger: silentLogger(),
  });
  await installCustomResourceDefinitions(client, [
    ...openshiftCustomResourceDefinitions(),
    ...customResourceDefinitions(),
  ]);
  await client.close();
  await send('POST', '/api/v1/namespaces', { 'Content-Type': 'application/json' }, '{"metadata":{"name":"fuzz"}}');
  const groups = JSON.parse((await send('GET', '/apis')).text) as {
    groups: Array<{ preferredVersion: { groupVersion: string } }>;
  };
  for (const groupVersion of ['v1', ...groups.groups.map((g) => g.preferredVersion.groupVersion)]) {
    const base = groupVersion === 'v1' ? '/api/v1' : `/apis/${groupVersion}`;
    const list = JSON.parse((await send('GET', base)).text) as {
      resources: Array<{ name: string; kind: string; namespaced: boolean; verbs: string[] }>;
    };
    for (const r of list.resources) {
      if (r.name.includes('/') || !r.verbs.includes('create') || r.name === 'namespaces') continue;
      collections.push({
        path: r.namespaced ? `${base}/namespaces/fuzz/${r.name}` : `${base}/${r.name}`,
        apiVersion: groupVersion,
        kind: r.kind,
      });
    }
  }
  collections = collections.sort((a, b) => a.path.localeCompare(b.path));
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

/** The answer explains itself: success, or a 4xx Status with a reason and a message (or Go's plain 400). */
function explains(reply: Reply, what: string): void {
  assert.ok(reply.status < 500, `${what}: ${reply.status} ${reply.text.slice(0, 300)}`);
  if (reply.status < 400) return;
  if (reply.contentType.startsWith('text/plain')) {
    assert.equal(reply.text, '400 Bad Request', what);
    return;
  }
  let status: { kind?: string; message?: string; reason?: string; code?: number };
  try {
    status = JSON.parse(reply.text) as typeof status;
  } catch {
    assert.fail(`${what}: ${reply.status} ${reply.contentType} not a Status: ${reply.text.slice(0, 300)}`);
  }
  assert.equal(status.kind, 'Status', what);
  assert.equal(status.code, reply.status, what);
  assert.ok((status.message ?? '').length > 0, `${what}: no message`);
}

async function stillAnswers(): Promise<void> {
  const version = await send('GET', '/version');
  assert.equal(version.status, 200);
}

const segment = fc.oneof(
  fc.constantFrom('api', 'apis', 'v1', 'namespaces', 'fuzz', 'configmaps', 'pods', 'status', 'scale', 'eviction', 'x'),
  fc.string({ maxLength: 12 }).map((s) => encodeURIComponent(s)),
  fc.constantFrom('%zz', '%', '%2F', '..', '.', '%00', '~', '%C3%A9', '%E2%82'),
);
const queryValue = fc.oneof(
  fc.constantFrom('', 'abc', '-1', '0', '1', '99999999999999999999', 'true', 'x=y', '%zz', '!a', 'a in (b'),
  fc.string({ maxLength: 10 }).map((s) => encodeURIComponent(s)),
);
const queryKey = fc.constantFrom(
  'limit',
  'continue',
  'resourceVersion',
  'resourceVersionMatch',
  'labelSelector',
  'fieldSelector',
  'timeoutSeconds',
  'fieldManager',
  'fieldValidation',
  'dryRun',
  'propagationPolicy',
  'force',
  'pretty',
  'x',
);
const query = fc
  .array(fc.tuple(queryKey, queryValue), { maxLength: 4 })
  .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`));
const mediaType = fc.constantFrom(
  '',
  'application/json',
  'application/yaml',
  'application/merge-patch+json',
  'application/json-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
  'text/plain',
  'application/vnd.kubernetes.protobuf',
  'application/json; charset=utf-8',
);
const jsonBody = fc.jsonValue({ maxDepth: 6 }).map((v) => JSON.stringify(v));
const body = fc.oneof(
  jsonBody,
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
  fc.integer({ min: 1, max: 3000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
  fc.constantFrom('', '{', '{"a":', 'null', '[]', '"x"', '{"kind":1}', '{"metadata":{"name":7}}'),
);

void test('any path, query, method, media type and body: a 2xx or a 4xx that explains itself; the server keeps answering', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'),
      fc.array(segment, { minLength: 1, maxLength: 7 }),
      query,
      mediaType,
      body,
      async (method, segments, queryText, contentType, payload) => {
        const path = `/${segments.join('/')}${queryText}`;
        const headers: Record<string, string> = contentType ? { 'Content-Type': contentType } : {};
        const sendsBody = method !== 'GET' && method !== 'HEAD';
        const reply = await send(method, path, headers, sendsBody ? payload : undefined);
        if (method !== 'HEAD') explains(reply, `${method} ${path} (${contentType})`);
        else assert.ok(reply.status < 500, `${method} ${path}: ${reply.status}`);
      },
    ),
    { numRuns: 400 },
  );
  await stillAnswers();
});

void test('objects of every served kind with random fields: created, or refused with a reason and a message; never a 5xx', async () => {
  assert.ok(collections.length > 20, `kinds found: ${collections.length}`);
  const fields = fc.dictionary(
    fc.constantFrom('spec', 'status', 'data', 'x', 'metadata', 'kind', 'apiVersion', 'stringData', 'type'),
    fc.jsonValue({ maxDepth: 4 }),
    { maxKeys: 4 },
  );
  await fc.assert(
    fc.asyncProperty(
      fc.nat({ max: collections.length - 1 }),
      fields,
      fc.nat({ max: 1_000_000 }),
      async (index, extra, n) => {
        const target = collections[index]!;
        const object = {
          apiVersion: target.apiVersion,
          kind: target.kind,
          ...extra,
          metadata: {
            name: `fuzz-${n}`,
            ...(typeof extra['metadata'] === 'object' && extra['metadata'] !== null
              ? (extra['metadata'] as object)
              : {}),
          },
        };
        const reply = await send('POST', target.path, { 'Content-Type': 'application/json' }, JSON.stringify(object));
        explains(reply, `POST ${target.path} ${JSON.stringify(object).slice(0, 200)}`);
      },
    ),
    { numRuns: 400 },
  );
  await stillAnswers();
});
