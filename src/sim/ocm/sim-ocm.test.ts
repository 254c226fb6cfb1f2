import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { SeededRandom } from '../../lib/random.js';
import { VirtualClock } from '../virtual-clock.js';
import { SimOcm } from './sim-ocm.js';
import type { OcmAuthOptions } from './ocm-api.js';

const T0 = Date.UTC(2026, 2, 2, 8, 0, 0);
const EXTERNAL = '7b2c1e0a-1d3f-4a5b-9c8d-0e1f2a3b4c5d';
const CID = '2a3b4c5d6e7f8g9h0i1j2k3l4m5n6o7p';
const TOKEN = 'opaque-token';

interface Fixture {
  ocm: SimOcm;
  clock: VirtualClock;
  url: string;
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; body: unknown; headers: Headers }>;
  send(
    method: string,
    path: string,
    body: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: unknown; headers: Headers }>;
}

async function setup(t: TestContext, auth?: OcmAuthOptions): Promise<Fixture> {
  const clock = new VirtualClock({ mode: 'event', start: T0 });
  const ocm = new SimOcm({ clock, random: new SeededRandom(7), ...(auth ? { auth } : {}) });
  ocm.state.addCluster({
    id: CID,
    externalId: EXTERNAL,
    name: 'prod-1',
    version: '4.14.10',
    availableUpgrades: ['4.14.11', '4.15.3'],
    nodeDrainGracePeriod: { value: 45, unit: 'minutes' },
  });
  const server = await ocm.listen({ activity: clock.activity });
  t.after(() => server.close());
  const call = async (
    method: string,
    path: string,
    body: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: unknown; headers: Headers }> => {
    const init: RequestInit = { method, headers: { authorization: `Bearer ${TOKEN}`, ...headers } };
    if (body !== undefined) init.body = JSON.stringify(body);
    const res = await fetch(`${server.url}${path}`, init);
    const text = await res.text();
    return { status: res.status, body: text === '' ? undefined : JSON.parse(text), headers: res.headers };
  };
  return { ocm, clock, url: server.url, get: (path, headers) => call('GET', path, undefined, headers), send: call };
}

const CLUSTER_JSON = {
  kind: 'Cluster',
  id: CID,
  href: `/api/clusters_mgmt/v1/clusters/${CID}`,
  name: 'prod-1',
  external_id: EXTERNAL,
  display_name: 'prod-1',
  creation_timestamp: '2026-03-02T08:00:00Z',
  managed: true,
  product: { kind: 'ProductLink', id: 'osd', href: '/api/clusters_mgmt/v1/products/osd' },
  cloud_provider: { kind: 'CloudProviderLink', id: 'aws', href: '/api/clusters_mgmt/v1/cloud_providers/aws' },
  region: {
    kind: 'CloudRegionLink',
    id: 'us-east-1',
    href: '/api/clusters_mgmt/v1/cloud_providers/aws/regions/us-east-1',
  },
  openshift_version: '4.14.10',
  version: {
    kind: 'Version',
    id: 'openshift-v4.14.10',
    href: '/api/clusters_mgmt/v1/versions/openshift-v4.14.10',
    raw_id: '4.14.10',
    channel_group: 'stable',
    available_upgrades: ['4.14.11', '4.15.3'],
  },
  node_drain_grace_period: { value: 45, unit: 'minutes' },
  state: 'ready',
};

void test('clusters: search by external_id (list envelope), get by id, 404 as OCM', async (t) => {
  const f = await setup(t);
  const search = encodeURIComponent(`external_id = '${EXTERNAL}'`);
  const found = await f.get(`/api/clusters_mgmt/v1/clusters?search=${search}&size=1`);
  assert.equal(found.status, 200);
  assert.equal(found.headers.get('content-type'), 'application/json');
  assert.deepEqual(found.body, { kind: 'ClusterList', page: 1, size: 1, total: 1, items: [CLUSTER_JSON] });
  // Without spaces around '=' as well.
  const compact = await f.get(
    `/api/clusters_mgmt/v1/clusters?search=${encodeURIComponent(`external_id='${EXTERNAL}'`)}`,
  );
  assert.equal((compact.body as { total: number }).total, 1);
  const none = await f.get(
    `/api/clusters_mgmt/v1/clusters?search=${encodeURIComponent("external_id = 'nope'")}&size=1`,
  );
  assert.deepEqual(none.body, { kind: 'ClusterList', page: 1, size: 0, total: 0, items: [] });

  const one = await f.get(`/api/clusters_mgmt/v1/clusters/${CID}`);
  assert.deepEqual(one.body, CLUSTER_JSON);

  const missing = await f.get('/api/clusters_mgmt/v1/clusters/abc');
  assert.equal(missing.status, 404);
  const opId = missing.headers.get('x-operation-id');
  assert.match(opId ?? '', /^[0-9A-Za-z]{27}$/);
  assert.deepEqual(missing.body, {
    kind: 'Error',
    id: '404',
    href: '/api/clusters_mgmt/v1/errors/404',
    code: 'CLUSTERS-MGMT-404',
    reason: "Cluster 'abc' not found",
    operation_id: opId,
  });
  const badSearch = await f.get(`/api/clusters_mgmt/v1/clusters?search=${encodeURIComponent("colour = 'red'")}`);
  assert.equal(badSearch.status, 400);
  assert.equal((badSearch.body as { reason: string }).reason, "Field 'colour' isn't supported in search");

  // The scenario moves the cluster on after an upgrade.
  f.ocm.state.updateCluster(CID, { version: '4.15.3', channelGroup: 'fast' });
  const moved = (await f.get(`/api/clusters_mgmt/v1/clusters/${CID}`)).body as { version: unknown };
  assert.deepEqual(moved.version, {
    kind: 'Version',
    id: 'openshift-v4.15.3-fast',
    href: '/api/clusters_mgmt/v1/versions/openshift-v4.15.3-fast',
    raw_id: '4.15.3',
    channel_group: 'fast',
    available_upgrades: ['4.14.11', '4.15.3'],
  });
});

void test('upgrade policies: paging over every page, GET/PATCH/DELETE one, POST creates', async (t) => {
  const f = await setup(t);
  const ids = ['p-1', 'p-2', 'p-3'].map(
    (id, i) =>
      f.ocm.state.addPolicy(CID, {
        id,
        version: `4.14.1${i + 1}`,
        nextRun: T0 + (i + 1) * 3600_000,
        ...(i === 0 ? { capacityReservation: true } : {}),
      }).id,
  );
  const base = `/api/clusters_mgmt/v1/clusters/${CID}/upgrade_policies`;
  const first = await f.get(`${base}?page=1&size=1`);
  assert.deepEqual(first.body, {
    kind: 'UpgradePolicyList',
    page: 1,
    size: 1,
    total: 3,
    items: [
      {
        kind: 'UpgradePolicy',
        id: 'p-1',
        href: `${base}/p-1`,
        schedule_type: 'manual',
        upgrade_type: 'OSD',
        version: '4.14.11',
        next_run: '2026-03-02T09:00:00Z',
        cluster_id: CID,
        capacity_reservation: true,
      },
    ],
  });
  const second = (await f.get(`${base}?page=2&size=2`)).body as {
    page: number;
    size: number;
    total: number;
    items: Array<{ id: string }>;
  };
  assert.deepEqual([second.page, second.size, second.total, second.items.map((p) => p.id)], [2, 1, 3, ['p-3']]);
  const all = (await f.get(base)).body as { size: number; items: Array<{ id: string }> };
  assert.deepEqual(
    all.items.map((p) => p.id),
    ids,
  );
  const bad = await f.get(`${base}?page=x`);
  assert.equal(bad.status, 400);
  assert.equal((bad.body as { reason: string }).reason, "Value 'x' of parameter 'page' isn't a valid integer");

  const patched = await f.send('PATCH', `${base}/p-2`, { next_run: '2026-03-03T10:30:00Z' });
  assert.equal(patched.status, 200);
  assert.equal((patched.body as { next_run: string }).next_run, '2026-03-03T10:30:00Z');
  assert.equal(f.ocm.state.policy(CID, 'p-2')?.nextRun, Date.UTC(2026, 2, 3, 10, 30));
  const badTime = await f.send('PATCH', `${base}/p-2`, { next_run: 'tomorrow' });
  assert.equal(badTime.status, 400);

  const deleted = await f.send('DELETE', `${base}/p-3`, undefined);
  assert.equal(deleted.status, 204);
  assert.equal((await f.get(`${base}/p-3`)).status, 404);

  const created = await f.send('POST', base, {
    version: '4.15.3',
    schedule_type: 'manual',
    upgrade_type: 'OSD',
    next_run: '2026-03-04T00:00:00Z',
  });
  assert.equal(created.status, 201);
  const c = created.body as { id: string; version: string; next_run: string };
  assert.match(c.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.deepEqual([c.version, c.next_run], ['4.15.3', '2026-03-04T00:00:00Z']);
  const missingRun = await f.send('POST', base, { version: '4.15.3' });
  assert.equal(missingRun.status, 400);
  assert.equal((await f.send('PUT', base, {})).status, 405);
});

void test('policy state: GET, PATCH with validation, history records who changed what and when', async (t) => {
  const f = await setup(t);
  f.ocm.state.addPolicy(CID, { id: 'p-1', version: '4.14.11', nextRun: T0 + 3600_000 });
  const path = `/api/clusters_mgmt/v1/clusters/${CID}/upgrade_policies/p-1/state`;
  const initial = await f.get(path);
  assert.deepEqual(initial.body, {
    kind: 'UpgradePolicyState',
    href: path,
    description: 'Upgrade scheduled.',
    value: 'scheduled',
  });
  await f.clock.run({ until: T0 + 60_000 });
  const started = await f.send('PATCH', path, {
    value: 'started',
    description: 'Cluster is currently being upgraded to version 4.14.11',
  });
  assert.equal(started.status, 200);
  assert.deepEqual(started.body, {
    kind: 'UpgradePolicyState',
    href: path,
    description: 'Cluster is currently being upgraded to version 4.14.11',
    value: 'started',
  });
  const invalid = await f.send('PATCH', path, { value: 'finished' });
  assert.equal(invalid.status, 400);
  assert.equal((invalid.body as { reason: string }).reason, "Upgrade policy state value 'finished' is not valid");
  f.ocm.state.cancelPolicy(CID, 'p-1');
  assert.deepEqual(
    f.ocm.state.stateHistory('p-1').map((h) => [h.at - T0, h.value, h.source]),
    [
      [0, 'scheduled', 'scenario'],
      [60_000, 'started', 'api'],
      [60_000, 'cancelled', 'scenario'],
    ],
  );
  assert.equal(((await f.get(path)).body as { value: string }).value, 'cancelled');
});

void test('auth: bearer and AccessToken forms, OCM 401 bodies, 403 for read-only tokens', async (t) => {
  const f = await setup(t, { tokens: [TOKEN], readOnlyTokens: ['viewer'] });
  f.ocm.state.addPolicy(CID, { id: 'p-1', version: '4.14.11', nextRun: T0 });
  const path = `/api/clusters_mgmt/v1/clusters/${CID}`;
  const none = await fetch(`${f.url}${path}`);
  assert.equal(none.status, 401);
  assert.equal(none.headers.get('www-authenticate'), 'Bearer realm="clusters_mgmt/v1"');
  const body = (await none.json()) as Record<string, unknown>;
  assert.deepEqual(body, {
    kind: 'Error',
    id: '401',
    href: '/api/clusters_mgmt/v1/errors/401',
    code: 'CLUSTERS-MGMT-401',
    reason: "Request doesn't contain the 'Authorization' header or the 'cs_jwt' cookie",
    operation_id: none.headers.get('x-operation-id'),
  });
  const reason = async (authorization: string, p = path): Promise<[number, string | undefined]> => {
    const r = await f.get(p, { authorization });
    return [r.status, (r.body as { reason?: string }).reason];
  };
  assert.deepEqual(await reason('Bearer wrong'), [401, 'Bearer token is malformed']);
  assert.deepEqual(await reason('Bearer a.b.c'), [401, "Signature of bearer token isn't valid"]);
  assert.deepEqual(await reason('Basic dXNlcjpwYXNz'), [401, "Authentication type 'Basic' isn't supported"]);
  assert.deepEqual(await reason('garbage'), [401, "Authorization header 'garbage' is malformed"]);
  assert.deepEqual(await reason(`AccessToken other-cluster:${TOKEN}`), [
    401,
    "Access token for cluster 'other-cluster' isn't valid",
  ]);
  assert.equal((await f.get(path, { authorization: `AccessToken ${EXTERNAL}:${TOKEN}` })).status, 200);
  assert.equal((await f.get(path, { authorization: `Bearer ${TOKEN}` })).status, 200);
  const sl = await f.get('/api/service_logs/v1/cluster_logs', { authorization: 'Bearer x' });
  assert.deepEqual(
    [sl.status, (sl.body as { code: string; href: string }).code, (sl.body as { href: string }).href],
    [401, 'SERVICE-LOGS-401', '/api/service_logs/v1/errors/401'],
  );
  // A read-only token reads but may not write.
  assert.equal((await f.get(path, { authorization: 'Bearer viewer' })).status, 200);
  const patch = await f.send(
    'PATCH',
    `${path}/upgrade_policies/p-1/state`,
    { value: 'started' },
    { authorization: 'Bearer viewer' },
  );
  assert.equal(patch.status, 403);
  assert.equal((patch.body as { code: string }).code, 'CLUSTERS-MGMT-403');
  assert.equal(f.ocm.state.policy(CID, 'p-1')?.state.value, 'scheduled');
});

void test('service logs: POST as MUO sends it (201), read back newest first, by cluster, validation', async (t) => {
  const f = await setup(t);
  const post = (summary: string, extra: Record<string, unknown> = {}): Promise<{ status: number; body: unknown }> =>
    f.send('POST', '/api/service_logs/v1/cluster_logs', {
      severity: 'Info',
      service_name: 'RedHat Managed Upgrade Notifications',
      log_type: 'Cluster Updates',
      internal_only: false,
      cluster_id: CID,
      summary,
      description: `${summary}.`,
      ...extra,
    });
  const created = await post('Cluster is starting with control and worker plane upgrade');
  assert.equal(created.status, 201);
  const e = created.body as Record<string, unknown>;
  assert.match(String(e['id']), /^[0-9A-Za-z]{27}$/);
  assert.deepEqual(e, {
    kind: 'ClusterLog',
    id: e['id'],
    href: `/api/service_logs/v1/cluster_logs/${String(e['id'])}`,
    cluster_id: CID,
    cluster_uuid: EXTERNAL,
    created_at: '2026-03-02T08:00:00Z',
    created_by: 'service-account-managed-upgrade-operator',
    description: 'Cluster is starting with control and worker plane upgrade.',
    event_stream_id: e['event_stream_id'],
    internal_only: false,
    log_type: 'Cluster Updates',
    service_name: 'RedHat Managed Upgrade Notifications',
    severity: 'Info',
    summary: 'Cluster is starting with control and worker plane upgrade',
    timestamp: '2026-03-02T08:00:00Z',
  });
  await f.clock.run({ until: T0 + 1000 });
  await post('Cluster has encountered healthcheck failure during upgrade', {
    doc_references: ['https://access.redhat.com/solutions/7081505'],
  });
  const list = (await f.get(`/api/service_logs/v1/cluster_logs?search=${encodeURIComponent(`cluster_id = '${CID}'`)}`))
    .body as {
    kind: string;
    total: number;
    items: Array<{ summary: string; doc_references?: string[] }>;
  };
  assert.equal(list.kind, 'ClusterLogList');
  assert.equal(list.total, 2);
  assert.deepEqual(
    list.items.map((i) => i.summary),
    [
      'Cluster has encountered healthcheck failure during upgrade',
      'Cluster is starting with control and worker plane upgrade',
    ],
  );
  assert.deepEqual(list.items[0]?.doc_references, ['https://access.redhat.com/solutions/7081505']);
  const byUuid = (await f.get(`/api/service_logs/v1/clusters/${EXTERNAL}/cluster_logs`)).body as { total: number };
  assert.equal(byUuid.total, 2);
  assert.deepEqual(
    f.ocm.state.serviceLogs(CID).map((l) => l.timestamp - T0),
    [0, 1000],
  );
  const noSummary = await f.send('POST', '/api/service_logs/v1/cluster_logs', { service_name: 's', cluster_id: CID });
  assert.equal(noSummary.status, 400);
  assert.equal((noSummary.body as { code: string }).code, 'SERVICE-LOGS-400');
});

void test('faults: error status with OCM body, down resets, slow holds the answer on the virtual clock', async (t) => {
  const f = await setup(t);
  const path = `/api/clusters_mgmt/v1/clusters/${CID}`;
  f.ocm.setFault({ kind: 'error', status: 503 });
  const failed = await f.get(path);
  assert.equal(failed.status, 503);
  assert.equal((failed.body as { code: string }).code, 'CLUSTERS-MGMT-503');
  f.ocm.setFault({ kind: 'error', status: 500, match: '/upgrade_policies' });
  assert.equal((await f.get(path)).status, 200);
  assert.equal((await f.get(`${path}/upgrade_policies`)).status, 500);
  f.ocm.setFault({ kind: 'down' });
  await assert.rejects(fetch(`${f.url}${path}`));
  f.ocm.setFault({ kind: 'slow', delayMs: 45_000 });
  let answered = false;
  const pending = fetch(`${f.url}${path}`).then(async (r) => {
    answered = true;
    return r.json();
  });
  const run = await f.clock.run({ until: () => answered });
  assert.equal(run.reason, 'condition');
  assert.equal(f.clock.now() - T0, 45_000);
  assert.deepEqual(await pending, CLUSTER_JSON);
  f.ocm.setFault({ kind: 'none' });
  assert.deepEqual(
    f.ocm.requestLog().map((r) => [r.method, r.path.replace(path, '~'), r.status]),
    [
      ['GET', '~', 503],
      ['GET', '~', 200],
      ['GET', '~/upgrade_policies', 500],
      ['GET', '~', 0],
      ['GET', '~', 200],
    ],
  );
});

void test('OCM agent: cluster at /, policies as a bare array, state GET/PATCH, SDK error text, upstream outage', async (t) => {
  const f = await setup(t);
  f.ocm.state.addPolicy(CID, { id: 'p-1', version: '4.14.11', nextRun: T0 + 3600_000 });
  const agent = await f.ocm.listenAgent({ clusterId: CID, activity: f.clock.activity });
  t.after(() => agent.close());
  const root = await fetch(`${agent.url}/`, { headers: { authorization: `AccessToken ${EXTERNAL}:x` } });
  assert.deepEqual(await root.json(), CLUSTER_JSON);
  const list = await fetch(`${agent.url}/upgrade_policies`);
  const items = (await list.json()) as Array<{ id: string; kind: string }>;
  assert.deepEqual(
    items.map((p) => [p.kind, p.id]),
    [['UpgradePolicy', 'p-1']],
  );
  const patched = await fetch(`${agent.url}/upgrade_policies/p-1/state`, {
    method: 'PATCH',
    body: JSON.stringify({ value: 'started', description: 'go' }),
  });
  assert.equal(patched.status, 200);
  assert.equal(f.ocm.state.policy(CID, 'p-1')?.state.value, 'started');
  assert.equal(f.ocm.state.stateHistory('p-1').at(-1)?.source, 'api');
  // MUO's SDK-based agent client sends the OCM paths to the agent.
  const sdkPath = await fetch(`${agent.url}/api/clusters_mgmt/v1/clusters/${CID}/upgrade_policies/p-1/state`);
  assert.equal(((await sdkPath.json()) as { value: string }).value, 'started');
  const missing = await fetch(`${agent.url}/upgrade_policies/nope`);
  assert.equal(missing.status, 400);
  assert.match(
    await missing.text(),
    /^status is 404, identifier is '404', code is 'CLUSTERS-MGMT-404' and operation identifier is '[0-9A-Za-z]{27}': Upgrade policy with id 'nope' for cluster '[0-9a-v]+' not found\n$/,
  );
  f.ocm.setFault({ kind: 'error', status: 503 });
  const outage = await fetch(`${agent.url}/upgrade_policies`);
  assert.equal(outage.status, 400);
  assert.match(await outage.text(), /^status is 503, identifier is '503', code is 'CLUSTERS-MGMT-503'/);
  assert.equal((await fetch(`${agent.url}/readyz`)).status, 200);
});

void test('OCM agent under a path prefix: the same API below it, 404 outside it', async (t) => {
  const f = await setup(t);
  f.ocm.state.addPolicy(CID, { id: 'p-1', version: '4.14.11', nextRun: T0 + 3600_000 });
  const prefix = '/ocm-agent.openshift-ocm-agent-operator.svc.cluster.local:8081';
  const agent = await f.ocm.listenAgent({ clusterId: CID, activity: f.clock.activity, pathPrefix: `${prefix}/` });
  t.after(() => agent.close());
  const base = `${agent.url}${prefix}`;
  assert.deepEqual(await (await fetch(`${base}/`)).json(), CLUSTER_JSON);
  assert.deepEqual(await (await fetch(base)).json(), CLUSTER_JSON);
  const items = (await (await fetch(`${base}/upgrade_policies`)).json()) as Array<{ id: string }>;
  assert.deepEqual(
    items.map((p) => p.id),
    ['p-1'],
  );
  const patched = await fetch(`${base}/upgrade_policies/p-1/state`, {
    method: 'PATCH',
    body: JSON.stringify({ value: 'started', description: 'go' }),
  });
  assert.equal(patched.status, 200);
  assert.equal(f.ocm.state.policy(CID, 'p-1')?.state.value, 'started');
  assert.equal((await fetch(`${agent.url}/upgrade_policies`)).status, 404);
  assert.equal((await fetch(`${agent.url}${prefix}x/upgrade_policies`)).status, 404);
});
