import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { Registry } from 'prom-client';
import { ManagedUpgradeMetrics } from '../managed/metrics/managed-upgrade-metrics.js';
import { ManagedUpgradeCollector } from '../managed/metrics/managed-upgrade-collector.js';
import { startMetricsServer, type HealthCheck } from './metrics-server.js';
import { parseExposition, valueOf } from './metrics-exposition.test-support.js';

async function get(
  url: string,
  method: 'GET' | 'HEAD' | 'POST' = 'GET',
): Promise<{ status: number; type: string; body: string }> {
  const res = await request(url, { method });
  const body = await res.body.text();
  return { status: res.statusCode, type: String(res.headers['content-type'] ?? ''), body };
}

test('serves each registry on its path, probes, and errors, on 127.0.0.1:0', async (t) => {
  const gauges = new Registry();
  const custom = new Registry();
  const metrics = new ManagedUpgradeMetrics(gauges);
  metrics.setValidationFailed('managed-upgrade-config', true);
  new ManagedUpgradeCollector(custom, () => {
    throw new Error('no cache yet');
  });
  const ok = (name: string): HealthCheck => ({ name, ok: true });
  const health: { ready: HealthCheck[]; live: HealthCheck[] } = {
    ready: [ok('controllers'), { name: 'informer-sync', ok: false, reason: 'caches not synced: nodes/v1' }],
    live: [ok('controllers')],
  };
  const server = await startMetricsServer({
    port: 0,
    registries: [
      { path: '/metrics', registry: gauges },
      { path: '/custom/metrics', registry: custom },
    ],
    health: () => health,
  });
  t.after(() => server.close());
  assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);

  const m = await get(`${server.url}/metrics`);
  assert.equal(m.status, 200);
  assert.equal(m.type, 'text/plain; version=0.0.4; charset=utf-8');
  assert.equal(
    valueOf(parseExposition(m.body), 'upgradeoperator_upgradeconfig_validation_failed', {
      upgradeconfig_name: 'managed-upgrade-config',
    }),
    1,
  );
  assert.ok(!m.body.includes('managed_upgrade_'), 'the collector is not on /metrics');

  const c = await get(`${server.url}/custom/metrics?x=1`);
  assert.equal(c.status, 200);
  assert.equal(valueOf(parseExposition(c.body), 'managed_upgrade_collector_scrape_failed', {}), 1);
  assert.ok(!c.body.includes('upgradeoperator_'));

  assert.equal((await get(`${server.url}/healthz`)).status, 200);
  assert.equal((await get(`${server.url}/readyz`)).status, 503);
  assert.deepEqual(await get(`${server.url}/readyz?verbose`), {
    status: 503,
    type: 'text/plain; charset=utf-8',
    body: '[+]controllers ok\n[-]informer-sync failed: caches not synced: nodes/v1\nreadyz check failed\n',
  });
  health.ready = [ok('controllers'), ok('informer-sync')];
  health.live = [{ name: 'controllers', ok: false, reason: 'the manager stopped with an error' }];
  assert.equal((await get(`${server.url}/readyz`)).status, 200);
  assert.equal(
    (await get(`${server.url}/readyz?verbose`)).body,
    '[+]controllers ok\n[+]informer-sync ok\nreadyz check passed\n',
  );
  assert.equal((await get(`${server.url}/healthz`)).status, 503);

  const head = await get(`${server.url}/metrics`, 'HEAD');
  assert.equal(head.status, 200);
  assert.equal(head.body, '');
  assert.equal((await get(`${server.url}/metrics`, 'POST')).status, 405);
  assert.equal((await get(`${server.url}/nope`)).status, 404);
});

test('a registry that fails to render answers 500, the server keeps serving', async (t) => {
  const broken = {
    contentType: 'text/plain; version=0.0.4; charset=utf-8',
    metrics: async (): Promise<string> => Promise.reject(new Error('boom')),
  };
  const server = await startMetricsServer({
    port: 0,
    registries: [{ path: '/metrics', registry: broken }],
    health: () => ({ ready: [], live: [] }),
  });
  t.after(() => server.close());
  const r = await get(`${server.url}/metrics`);
  assert.equal(r.status, 500);
  assert.match(r.body, /boom/);
  assert.equal((await get(`${server.url}/healthz`)).status, 200);
});

test('close() stops listening, even with a kept-alive connection open', async () => {
  const server = await startMetricsServer({ port: 0, registries: [], health: () => ({ ready: [], live: [] }) });
  assert.equal((await get(`${server.url}/healthz`)).status, 200);
  await server.close();
  await assert.rejects(get(`${server.url}/healthz`));
});

test('an address in use is reported, not swallowed', async (t) => {
  const first = await startMetricsServer({ port: 0, registries: [], health: () => ({ ready: [], live: [] }) });
  t.after(() => first.close());
  const port = Number(new URL(first.url).port);
  await assert.rejects(
    startMetricsServer({ port, registries: [], health: () => ({ ready: [], live: [] }) }),
    /EADDRINUSE/,
  );
});
