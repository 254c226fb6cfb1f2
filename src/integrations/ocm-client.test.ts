import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { Secret } from 'kubernetes-types/core/v1.js';
import { SeededRandom } from '../lib/random.js';
import type { VirtualClock } from '../sim/virtual-clock.js';
import { NO_PROXY_CONFIG, proxyConfigFromEnv, type ProxyConfig } from './http/proxy-env.js';
import { IntegrationError } from './integration-error.js';
import { OcmClient, createOcmAgentClient, ocmTokenFromPullSecret, type OcmCredentials } from './ocm-client.js';
import {
  EXTERNAL_ID,
  OCM_CLUSTER_ID,
  OCM_TOKEN,
  settleOnClock,
  startForwardingProxy,
  startOcmFixture,
  testVirtualClock,
} from './ocm-sim.test-support.js';

const GOOD: OcmCredentials = { clusterId: EXTERNAL_ID, token: OCM_TOKEN };

function client(
  clock: VirtualClock,
  baseUrl: string,
  extra: { credentials?: OcmCredentials; proxy?: ProxyConfig; agent?: boolean } = {},
): OcmClient {
  const options = {
    baseUrl,
    clock,
    activity: clock.activity,
    random: new SeededRandom(3),
    proxy: extra.proxy ?? NO_PROXY_CONFIG,
    credentials: () => Promise.resolve(extra.credentials ?? GOOD),
  };
  return extra.agent ? createOcmAgentClient(options) : new OcmClient(options);
}

async function setup(
  t: TestContext,
): Promise<{ clock: VirtualClock; fx: Awaited<ReturnType<typeof startOcmFixture>> }> {
  const clock = testVirtualClock();
  const fx = await startOcmFixture(t, clock, clock.activity);
  return { clock, fx };
}

async function failure(clock: VirtualClock, p: Promise<unknown>): Promise<IntegrationError> {
  const out = await settleOnClock(clock, p);
  assert.equal(out.ok, false, 'expected a failure');
  if (out.ok) throw new Error('unreachable');
  assert.ok(out.error instanceof IntegrationError, `expected an IntegrationError, got ${String(out.error)}`);
  return out.error;
}

test('ocmTokenFromPullSecret reads auths["cloud.openshift.com"].auth of .dockerconfigjson', () => {
  const secret = (auths: unknown): Secret => ({
    data: { '.dockerconfigjson': Buffer.from(JSON.stringify({ auths })).toString('base64') },
  });
  assert.equal(
    ocmTokenFromPullSecret(secret({ 'cloud.openshift.com': { auth: 'abc', email: 'x' }, 'quay.io': { auth: 'q' } })),
    'abc',
  );
  assert.equal(ocmTokenFromPullSecret(secret({ 'quay.io': { auth: 'q' } })), undefined);
  assert.equal(ocmTokenFromPullSecret({ data: { '.dockerconfigjson': 'not base64 json' } }), undefined);
  assert.equal(ocmTokenFromPullSecret(undefined), undefined);
});

test('finds the cluster by external_id with the AccessToken credential; reads all pages of policies; GET/PATCH state; posts a service log', async (t) => {
  const { clock, fx } = await setup(t);
  for (let i = 0; i < 130; i++)
    fx.ocm.state.addPolicy(OCM_CLUSTER_ID, {
      id: `p${i}`,
      version: '4.14.11',
      nextRun: Date.UTC(2026, 3, 1) + i * 3_600_000,
    });
  const c = client(clock, fx.url);
  t.after(() => c.close());
  const cluster = await c.findCluster(EXTERNAL_ID);
  assert.deepEqual(cluster, {
    id: OCM_CLUSTER_ID,
    externalId: EXTERNAL_ID,
    version: '4.14.10',
    channelGroup: 'stable',
    nodeDrainGracePeriod: { value: 45, unit: 'minutes' },
  });
  assert.equal(await c.findCluster("no-such-cluster' or id = 'x"), undefined);
  const policies = await c.upgradePolicies(OCM_CLUSTER_ID);
  assert.equal(policies.length, 130);
  assert.deepEqual(policies[129], {
    id: 'p129',
    version: '4.14.11',
    nextRun: '2026-04-06T09:00:00Z',
    scheduleType: 'manual',
    upgradeType: 'OSD',
  });
  assert.equal(fx.ocm.requestLog().filter((r) => r.path.endsWith('/upgrade_policies')).length, 2);
  assert.deepEqual(await c.policyState(OCM_CLUSTER_ID, 'p0'), {
    value: 'scheduled',
    description: 'Upgrade scheduled.',
  });
  assert.deepEqual(
    await c.setPolicyState(OCM_CLUSTER_ID, 'p0', {
      value: 'started',
      description: 'Cluster is currently being upgraded to version 4.14.11',
    }),
    {
      value: 'started',
      description: 'Cluster is currently being upgraded to version 4.14.11',
    },
  );
  await c.postServiceLog({
    clusterId: OCM_CLUSTER_ID,
    severity: 'Info',
    serviceName: 'RedHat Managed Upgrade Notifications',
    logType: 'Cluster Updates',
    internalOnly: false,
    summary: 's',
    description: 'd',
    docReferences: ['https://access.redhat.com/solutions/7081505'],
  });
  const [log] = fx.ocm.state.serviceLogs();
  assert.equal(log?.clusterId, OCM_CLUSTER_ID);
  assert.equal(log?.serviceName, 'RedHat Managed Upgrade Notifications');
  assert.deepEqual(log?.docReferences, ['https://access.redhat.com/solutions/7081505']);
});

test("a 4xx answer is final: OCM's code and reason in the message, the token nowhere", async (t) => {
  const { clock, fx } = await setup(t);
  const bad = client(clock, fx.url, { credentials: { clusterId: EXTERNAL_ID, token: 'wrong-token-value-123' } });
  t.after(() => bad.close());
  const err = await failure(clock, bad.findCluster(EXTERNAL_ID));
  assert.equal(err.status, 401);
  assert.match(
    err.message,
    /^ocm: GET http:\/\/127\.0\.0\.1:\d+\/api\/clusters_mgmt\/v1\/clusters: HTTP 401: CLUSTERS-MGMT-401: Access token is invalid \(operation \w+\)$/,
  );
  assert.doesNotMatch(err.message, /wrong-token/);
  assert.equal(fx.ocm.requestLog().length, 1);
  const c = client(clock, fx.url);
  t.after(() => c.close());
  const missing = await failure(clock, c.policyState(OCM_CLUSTER_ID, 'nope'));
  assert.equal(missing.status, 404);
  assert.match(missing.message, /Upgrade policy with id 'nope'/);
  assert.equal(fx.ocm.requestLog().length, 2);
});

test('5xx answers and resets are retried 5 times on the clock, from 2 s doubling with 30 % jitter', async (t) => {
  const { clock, fx } = await setup(t);
  const c = client(clock, fx.url);
  t.after(() => c.close());
  fx.ocm.setFault({ kind: 'error', status: 503 });
  const start = clock.now();
  const err = await failure(clock, c.findCluster(EXTERNAL_ID));
  assert.equal(err.status, 503);
  const at = fx.ocm.requestLog().map((r) => r.at - start);
  assert.equal(at.length, 6);
  const gaps = at.slice(1).map((x, i) => x - at[i]!);
  [2_000, 4_000, 8_000, 16_000, 32_000].forEach((d, i) =>
    assert.ok(gaps[i]! >= d * 0.7 && gaps[i]! <= d * 1.3, `gap ${i}: ${gaps[i]!}`),
  );
  // A transient failure that ends within the retries is invisible to the caller.
  fx.ocm.setFault({ kind: 'down' });
  const p = c.findCluster(EXTERNAL_ID);
  clock.setTimer(3_000, () => fx.ocm.setFault({ kind: 'none' }));
  const ok = await settleOnClock(clock, p);
  assert.ok(ok.ok && ok.value?.id === OCM_CLUSTER_ID);
});

test('HTTP_PROXY is honoured and NO_PROXY bypasses it', async (t) => {
  const { clock, fx } = await setup(t);
  const proxy = await startForwardingProxy(t, fx.url);
  const via = client(clock, 'http://api.openshift.example.test', {
    proxy: proxyConfigFromEnv({ HTTP_PROXY: proxy.url, NO_PROXY: '.cluster.local' }),
  });
  t.after(() => via.close());
  assert.equal((await via.findCluster(EXTERNAL_ID))?.id, OCM_CLUSTER_ID);
  assert.deepEqual(proxy.seen, [
    `http://api.openshift.example.test/api/clusters_mgmt/v1/clusters?search=external_id+%3D+%27${EXTERNAL_ID}%27&size=1`,
  ]);
  const bypass = client(clock, 'http://api.openshift.example.test', {
    proxy: proxyConfigFromEnv({ HTTP_PROXY: proxy.url, NO_PROXY: 'example.test' }),
  });
  t.after(() => bypass.close());
  const err = await failure(clock, bypass.findCluster(EXTERNAL_ID));
  assert.equal(err.reason, 'Unreachable');
  assert.equal(proxy.seen.length, 1);
});

test('the OCM agent: cluster from GET /, policies and state by the SDK paths, never through the proxy', async (t) => {
  const { clock, fx } = await setup(t);
  fx.ocm.state.addPolicy(OCM_CLUSTER_ID, { id: 'p1', version: '4.14.11', nextRun: Date.UTC(2026, 3, 1) });
  const agent = client(clock, fx.agentUrl, { agent: true });
  t.after(() => agent.close());
  assert.equal(agent.api, 'ocm-agent');
  assert.equal((await agent.findCluster(EXTERNAL_ID))?.id, OCM_CLUSTER_ID);
  assert.deepEqual(
    (await agent.upgradePolicies(OCM_CLUSTER_ID)).map((p) => p.id),
    ['p1'],
  );
  await agent.setPolicyState(OCM_CLUSTER_ID, 'p1', { value: 'started', description: 'x' });
  assert.equal(fx.ocm.state.policy(OCM_CLUSTER_ID, 'p1')?.state.value, 'started');
  assert.ok(fx.ocm.requestLog().every((r) => r.server === 'agent'));
  // The same proxy settings that carry the OCM client are ignored by the agent client.
  const proxy = await startForwardingProxy(t, fx.agentUrl);
  const env = proxyConfigFromEnv({ HTTP_PROXY: proxy.url });
  const agentByName = client(clock, 'http://ocm-agent.openshift-ocm-agent-operator.svc.cluster.local.invalid:8081', {
    agent: true,
    proxy: env,
  });
  t.after(() => agentByName.close());
  const err = await failure(clock, agentByName.findCluster(EXTERNAL_ID));
  assert.equal(err.reason, 'Unreachable');
  assert.deepEqual(proxy.seen, []);
  // An upstream failure reaches the caller as the agent's 400 with the SDK's text (no retry).
  fx.ocm.setFault({ kind: 'error', status: 503 });
  const before = fx.ocm.requestLog().length;
  const upstream = await failure(clock, agent.upgradePolicies(OCM_CLUSTER_ID));
  assert.equal(upstream.status, 400);
  assert.match(upstream.message, /status is 503/);
  assert.equal(fx.ocm.requestLog().length, before + 1);
});
