import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { ManualClock } from '../lib/clock.js';
import { SeededRandom } from '../lib/random.js';
import {
  clientSelected,
  decideApiFault,
  resourceRequest,
  type ApiFaultState,
  type FaultDecision,
  type FaultRequest,
} from './faults.js';
import { startApiServer } from './server.js';

const OPERATOR = 'upgrade-operator/v0.1.0 (linux/amd64) kubernetes/unknown';
const SIM = 'simulated-cluster/v0.1.0 (linux/amd64) kubernetes/unknown';

function state(settings: ApiFaultState['settings'], outage = false): ApiFaultState {
  return { settings, outage, currentResourceVersion: '900' };
}

/** A draw function returning these numbers in turn (then fails the test: an unexpected draw). */
function draws(...values: number[]): () => number {
  return () => {
    const v = values.shift();
    if (v === undefined) throw new Error('unexpected draw');
    return v;
  };
}

function req(method: string, url: string, userAgent = OPERATOR): FaultRequest {
  return { method, url, userAgent };
}

void test('resourceRequest reads group, resource, name, watch and resourceVersion; other paths are not resource requests', () => {
  assert.deepEqual(
    resourceRequest('/apis/upgrade.managed.openshift.io/v1alpha1/namespaces/ns/upgradeconfigs/c/status'),
    {
      group: 'upgrade.managed.openshift.io',
      resource: 'upgradeconfigs',
      name: 'c',
      watch: false,
      resourceVersion: undefined,
    },
  );
  assert.deepEqual(resourceRequest('/api/v1/nodes?watch=true&resourceVersion=12'), {
    group: '',
    resource: 'nodes',
    name: undefined,
    watch: true,
    resourceVersion: '12',
  });
  assert.deepEqual(resourceRequest('/api/v1/namespaces/foo/finalize'), {
    group: '',
    resource: 'namespaces',
    name: 'foo',
    watch: false,
    resourceVersion: undefined,
  });
  assert.equal(resourceRequest('/api/v1'), undefined);
  assert.equal(resourceRequest('/apis/apps/v1'), undefined);
  assert.equal(resourceRequest('/healthz'), undefined);
  assert.equal(resourceRequest('/version'), undefined);
});

void test('clients: everyone but simulated-cluster by default, else the expression on the User-Agent', () => {
  assert.equal(clientSelected({}, OPERATOR), true);
  assert.equal(clientSelected({}, undefined), true);
  assert.equal(clientSelected({}, SIM), false);
  assert.equal(clientSelected({ clients: '^upgrade-operator/' }, OPERATOR), true);
  assert.equal(
    clientSelected({ clients: '^upgrade-operator/' }, 'kubectl/v1.32.0 (linux/amd64) kubernetes/abc'),
    false,
  );
  assert.equal(decideApiFault(req('GET', '/api/v1/nodes', SIM), state({ errorRate: 1 }), draws()).kind, 'none');
});

void test('errors: a 409 on a named update with apimachinery’s message; a rate of 0.05 fails a draw below it only', () => {
  const s = state({ errorRate: 0.05, errors: ['conflict'] });
  assert.equal(
    decideApiFault(req('PATCH', '/apis/config.openshift.io/v1/clusterversions/version'), s, draws(0.06)).kind,
    'none',
  );
  const d = decideApiFault(req('PATCH', '/apis/config.openshift.io/v1/clusterversions/version'), s, draws(0.01, 0.5));
  assert.equal(d.kind, 'error');
  const r = d.response;
  assert.equal(r.code, 409);
  assert.deepEqual(JSON.parse(r.body), {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message:
      'Operation cannot be fulfilled on clusterversions.config.openshift.io "version": the object has been modified; please apply your changes to the latest version and try again',
    reason: 'Conflict',
    details: { name: 'version', group: 'config.openshift.io', kind: 'clusterversions' },
    code: 409,
  });
  // A conflict does not fit a read or a create: no fault then.
  assert.equal(decideApiFault(req('GET', '/api/v1/nodes/n1'), s, draws(0.01)).kind, 'none');
  assert.equal(decideApiFault(req('POST', '/api/v1/namespaces/a/events'), s, draws(0.01)).kind, 'none');
});

void test('errors: 500, 503 and plain-text 429 with Retry-After 1, 504 Timeout (never on a watch)', () => {
  const all = state({ errorRate: 1, errors: ['internal', 'unavailable', 'throttled', 'timeout'] });
  const pick = (x: number, url = '/api/v1/namespaces/a/pods'): Extract<FaultDecision, { kind: 'error' }> =>
    decideApiFault(req('GET', url), all, draws(0, x)) as Extract<FaultDecision, { kind: 'error' }>;
  const internal = pick(0);
  assert.equal(internal.response.code, 500);
  assert.deepEqual(JSON.parse(internal.response.body), {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'Internal error occurred: etcdserver: request timed out',
    reason: 'InternalError',
    details: { causes: [{ message: 'etcdserver: request timed out' }] },
    code: 500,
  });
  const unavailable = pick(0.3);
  assert.equal(unavailable.response.code, 503);
  assert.equal(unavailable.response.headers['Retry-After'], '1');
  assert.equal(JSON.parse(unavailable.response.body).message, 'apiserver is shutting down');
  const throttled = pick(0.6);
  assert.deepEqual(
    [throttled.response.code, throttled.response.headers['Retry-After'], throttled.response.body],
    [429, '1', 'Too many requests, please try again later.\n'],
  );
  const timeout = pick(0.99);
  assert.equal(timeout.response.code, 504);
  assert.deepEqual(JSON.parse(timeout.response.body), {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'Timeout: request did not complete within requested timeout - context deadline exceeded',
    reason: 'Timeout',
    details: {},
    code: 504,
  });
  // On a watch only three errors fit: the top draw picks the third, 429.
  assert.equal(pick(0.99, '/api/v1/pods?watch=true').response.code, 429);
});

void test('watches: a resume may get the 410 ERROR event; a chosen watch is cut after a drawn time around the interval', () => {
  const s = state({ watchGoneRate: 0.5, watchDisconnectIntervalMs: 180_000 });
  const gone = decideApiFault(req('GET', '/api/v1/nodes?watch=true&resourceVersion=42'), s, draws(0.1));
  assert.equal(gone.kind, 'gone');
  const body = gone.response.body;
  assert.deepEqual(JSON.parse(body), {
    type: 'ERROR',
    object: {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'too old resource version: 42 (900)',
      reason: 'Expired',
      code: 410,
    },
  });
  assert.deepEqual(decideApiFault(req('GET', '/api/v1/nodes?watch=true&resourceVersion=42'), s, draws(0.9, 0.5)), {
    kind: 'none',
    disconnectAfterMs: 180_000,
  });
  // A watch from the start (no resourceVersion) is never answered 410.
  assert.deepEqual(decideApiFault(req('GET', '/api/v1/nodes?watch=true'), s, draws(0)), {
    kind: 'none',
    disconnectAfterMs: 90_000,
  });
  assert.deepEqual(decideApiFault(req('GET', '/api/v1/nodes'), s, draws()), { kind: 'none' });
});

void test('outage: every request of a chosen client is refused, discovery and health included; others pass', () => {
  const s = state({}, true);
  assert.equal(decideApiFault(req('GET', '/healthz'), s, draws()).kind, 'refused');
  assert.equal(
    decideApiFault(req('PUT', '/apis/coordination.k8s.io/v1/namespaces/a/leases/l'), s, draws()).kind,
    'refused',
  );
  assert.equal(decideApiFault(req('GET', '/api/v1/nodes', SIM), s, draws()).kind, 'none');
});

void test('the server applies faults: errors at a rate, outage refusals, watches cut on outage and on their timer', async () => {
  const clock = new ManualClock('2026-03-01T00:00:00Z');
  const server = await startApiServer({ port: 0, clock });
  try {
    const get = (path: string, ua: string): Promise<{ statusCode: number; text: string }> =>
      request(server.url + path, { headers: { 'user-agent': ua } }).then(async (r) => ({
        statusCode: r.statusCode,
        text: await r.body.text(),
      }));
    server.faults.configure({ errorRate: 1, errors: ['internal'], clients: '^upgrade-operator/' }, new SeededRandom(1));
    assert.equal((await get('/api/v1/namespaces', OPERATOR)).statusCode, 500);
    assert.equal((await get('/api/v1/namespaces', SIM)).statusCode, 200);
    assert.equal((await get('/version', OPERATOR)).statusCode, 200, 'discovery is not failed at a rate');

    server.faults.configure({ watchDisconnectIntervalMs: 60_000, clients: '^upgrade-operator/' }, new SeededRandom(1));
    const watch = await request(`${server.url}/api/v1/namespaces?watch=true`, { headers: { 'user-agent': OPERATOR } });
    assert.equal(watch.statusCode, 200);
    const read = watch.body.text().then(
      () => 'ended',
      () => 'broken',
    );
    await clock.advance(120_000);
    assert.equal(await read, 'broken', 'the stream breaks when the watch is cut');

    const simWatch = await request(`${server.url}/api/v1/namespaces?watch=true`, { headers: { 'user-agent': SIM } });
    const opWatch = await request(`${server.url}/api/v1/namespaces?watch=true`, {
      headers: { 'user-agent': OPERATOR },
    });
    const opRead = opWatch.body.text().then(
      () => 'ended',
      () => 'broken',
    );
    server.faults.setOutage(true);
    assert.equal(await opRead, 'broken');
    await assert.rejects(get('/api/v1/namespaces', OPERATOR), /other side closed|socket/i);
    assert.equal((await get('/api/v1/namespaces', SIM)).statusCode, 200);
    server.faults.setOutage(false);
    assert.equal((await get('/api/v1/namespaces', OPERATOR)).statusCode, 200);
    simWatch.body.destroy();
    const counts = server.faults.counts();
    assert.deepEqual([counts.errors.internal, counts.disconnects, counts.refused], [1, 1, 1]);
  } finally {
    await server.close();
  }
});
