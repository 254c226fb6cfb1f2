/**
 * Hostile requests for the embedded API server, shared by its property test
 * (hostile-input.test.ts) and the hostile-input benchmark: a server with every CRD installed, the
 * arbitraries (any path, query, method, media type and body; objects of every served kind with
 * random fields) and the verdict on an answer.
 */
import fc from 'fast-check';
import { customResourceDefinitions } from '../api/manifests.js';
import { openshiftCustomResourceDefinitions } from '../api/openshift/crds.js';
import { KubeClient } from '../kube/client.js';
import { ManualClock } from '../lib/clock.js';
import { silentLogger } from '../lib/log.js';
import { installCustomResourceDefinitions } from '../sim/install-crds.js';
import { sendRaw, type RawReply } from './raw-request.test-support.js';
import { startApiServer, type ApiServer } from './server.js';

/** One request as sent. */
export interface HostileRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer | string;
}

/** A served collection objects can be created in (namespaced ones in `fuzz`). */
export interface Collection {
  path: string;
  apiVersion: string;
  kind: string;
}

/** An API server with every CRD we ship and the `fuzz` namespace, and what it serves. */
export interface HostileTarget {
  server: ApiServer;
  collections: Collection[];
  send(request: HostileRequest): Promise<RawReply>;
}

/** Starts the server, installs the CRDs and finds every collection that takes `create`. */
export async function startHostileTarget(): Promise<HostileTarget> {
  const clock = new ManualClock('2026-03-01T00:00:00Z');
  const server = await startApiServer({ port: 0, clock, logger: silentLogger() });
  const send = (r: HostileRequest): Promise<RawReply> => sendRaw(server.url, r.method, r.path, r.headers, r.body);
  const get = async <T>(path: string): Promise<T> =>
    JSON.parse((await send({ method: 'GET', path, headers: {} })).text) as T;
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
  await send({
    method: 'POST',
    path: '/api/v1/namespaces',
    headers: { 'Content-Type': 'application/json' },
    body: '{"metadata":{"name":"fuzz"}}',
  });
  const collections: Collection[] = [];
  const groups = await get<{ groups: Array<{ preferredVersion: { groupVersion: string } }> }>('/apis');
  for (const groupVersion of ['v1', ...groups.groups.map((g) => g.preferredVersion.groupVersion)]) {
    const base = groupVersion === 'v1' ? '/api/v1' : `/apis/${groupVersion}`;
    const list = await get<{ resources: Array<{ name: string; kind: string; namespaced: boolean; verbs: string[] }> }>(
      base,
    );
    for (const r of list.resources) {
      if (r.name.includes('/') || !r.verbs.includes('create') || r.name === 'namespaces') continue;
      collections.push({
        path: r.namespaced ? `${base}/namespaces/fuzz/${r.name}` : `${base}/${r.name}`,
        apiVersion: groupVersion,
        kind: r.kind,
      });
    }
  }
  return { server, collections: collections.sort((a, b) => a.path.localeCompare(b.path)), send };
}

/**
 * Why an answer does not explain itself, or undefined when it does: a 2xx or 3xx, a 4xx Status
 * with its code and a message, or Go's plain-text 400 for a request line it cannot parse. A
 * HEAD answer has no body: only its status counts.
 */
export function unexplained(request: HostileRequest, reply: RawReply): string | undefined {
  const what = `${request.method} ${request.path} (${request.headers['Content-Type'] ?? ''})`;
  if (reply.status >= 500) return `${what}: ${reply.status} ${reply.text.slice(0, 300)}`;
  if (reply.status < 400 || request.method === 'HEAD') return undefined;
  if (reply.contentType.startsWith('text/plain')) {
    return reply.text === '400 Bad Request' ? undefined : `${what}: plain ${reply.status} ${reply.text.slice(0, 300)}`;
  }
  let status: { kind?: string; message?: string; code?: number };
  try {
    status = JSON.parse(reply.text) as typeof status;
  } catch {
    return `${what}: ${reply.status} ${reply.contentType} not a Status: ${reply.text.slice(0, 300)}`;
  }
  if (status.kind !== 'Status' || status.code !== reply.status || !status.message)
    return `${what}: ${reply.status} not a Status with its code and a message: ${reply.text.slice(0, 300)}`;
  return undefined;
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
const body = fc.oneof(
  fc.jsonValue({ maxDepth: 6 }).map((v) => JSON.stringify(v)),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
  fc.integer({ min: 1, max: 3000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
  fc.constantFrom('', '{', '{"a":', 'null', '[]', '"x"', '{"kind":1}', '{"metadata":{"name":7}}'),
);

/** Any method, path, query, media type and body (none for GET and HEAD). */
export const hostileRequest: fc.Arbitrary<HostileRequest> = fc
  .record({
    method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'),
    segments: fc.array(segment, { minLength: 1, maxLength: 7 }),
    query,
    contentType: mediaType,
    payload: body,
  })
  .map(({ method, segments, query: queryText, contentType, payload }) => ({
    method,
    path: `/${segments.join('/')}${queryText}`,
    headers: contentType ? { 'Content-Type': contentType } : {},
    ...(method !== 'GET' && method !== 'HEAD' ? { body: payload } : {}),
  }));

/** A create of an object of any served kind with random top-level fields (metadata merged over a fresh name). */
export function hostileObject(collections: readonly Collection[]): fc.Arbitrary<HostileRequest> {
  const fields = fc.dictionary(
    fc.constantFrom('spec', 'status', 'data', 'x', 'metadata', 'kind', 'apiVersion', 'stringData', 'type'),
    fc.jsonValue({ maxDepth: 4 }),
    { maxKeys: 4 },
  );
  return fc.tuple(fc.constantFrom(...collections), fields, fc.nat({ max: 1_000_000 })).map(([target, extra, n]) => {
    const metadata = extra['metadata'];
    const object = {
      apiVersion: target.apiVersion,
      kind: target.kind,
      ...extra,
      metadata: { name: `fuzz-${n}`, ...(typeof metadata === 'object' && metadata !== null ? metadata : {}) },
    };
    return {
      method: 'POST',
      path: target.path,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(object),
    };
  });
}
