import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ActivityCounter } from '../../lib/activity.js';
import { ManualClock } from '../../lib/clock.js';
import { buildCatalogue, findRelease } from '../releases/catalogue.js';
import { updatesFrom, type CincinnatiGraph } from './graph.js';
import { startUpdateService, type UpdateService } from './server.js';

const catalogue = buildCatalogue();

async function withService(
  fn: (svc: UpdateService, activity: ActivityCounter) => Promise<void>,
  clock?: ManualClock,
): Promise<void> {
  const activity = new ActivityCounter();
  const svc = await startUpdateService({ catalogue, activity, ...(clock ? { clock } : {}) });
  try {
    await fn(svc, activity);
  } finally {
    await svc.close();
  }
}

function query(svc: UpdateService, params: string): string {
  return `${svc.graphUrl}?${params}`;
}

const CVO_QUERY = 'arch=amd64&channel=stable-4.15&id=6f1c8a2e-3b7d-4c19-9a55-0e2d7b4f8c31&version=4.14.10';

/** Waits (without asserting on time) until a condition holds. */
async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setImmediate(r));
  assert.ok(cond(), 'condition reached');
}

test('serves the graph as JSON for the CVO query, and under /graph too', async () => {
  await withService(async (svc, activity) => {
    const res = await fetch(query(svc, CVO_QUERY), { headers: { accept: 'application/json' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json');
    const g = (await res.json()) as CincinnatiGraph;
    assert.deepEqual(
      updatesFrom(g, '4.14.10')!.conditional.map((c) => c.to),
      ['4.15.3', '4.15.2'],
    );
    const alias = await fetch(`${svc.url}/api/upgrades_info/graph?channel=stable-4.15`);
    assert.equal(alias.status, 200);
    assert.deepEqual(await alias.json(), g);
    const vnd = await fetch(query(svc, 'channel=fast-4.14'), {
      headers: { accept: 'application/vnd.redhat.cincinnati.v1+json' },
    });
    assert.equal(vnd.headers.get('content-type'), 'application/vnd.redhat.cincinnati.v1+json');
    await vnd.arrayBuffer();
    assert.equal(svc.requests, 3);
    await activity.idle();
    assert.equal(activity.busy, 0);
  });
});

test('parameter and content-type errors carry Cincinnati error bodies', async () => {
  await withService(async (svc) => {
    const cases: Array<[string, Record<string, string>, number, object]> = [
      ['arch=amd64', {}, 400, { kind: 'missing_params', value: 'mandatory client parameters missing: channel' }],
      [
        'channel=Stable-4.15',
        {},
        400,
        {
          kind: 'invalid_params',
          value: "invalid client parameters: channel 'Stable-4.15' does not match regex '^[0-9a-z\\-\\.]+$'",
        },
      ],
      [
        'channel=stable-4.15',
        { accept: 'text/html' },
        406,
        { kind: 'invalid_content_type', value: 'invalid Content-Type requested' },
      ],
    ];
    for (const [params, headers, status, body] of cases) {
      const res = await fetch(query(svc, params), { headers });
      assert.equal(res.status, status, params);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      assert.deepEqual(await res.json(), body);
    }
    const notFound = await fetch(`${svc.url}/api/upgrades_info/v2/graph?channel=stable-4.15`);
    assert.equal(notFound.status, 404);
    await notFound.arrayBuffer();
  });
});

test('channel contents follow the injected clock', async () => {
  const r = findRelease(catalogue, '4.15.3')!;
  const clock = new ManualClock(r.fastAt - 1000);
  await withService(async (svc) => {
    const versions = async (): Promise<string[]> =>
      ((await (await fetch(query(svc, 'channel=fast-4.15'))).json()) as CincinnatiGraph).nodes.map((n) => n.version);
    assert.ok(!(await versions()).includes('4.15.3'));
    await clock.advance(1000);
    assert.ok((await versions()).includes('4.15.3'));
  }, clock);
});

test('fault: refused closes the listener, and the same URL answers again afterwards', async () => {
  await withService(async (svc) => {
    await svc.setFault({ kind: 'refused' });
    await assert.rejects(fetch(query(svc, CVO_QUERY)), (err: Error) => {
      assert.equal((err.cause as { code?: string }).code, 'ECONNREFUSED');
      return true;
    });
    await svc.setFault(undefined);
    const res = await fetch(query(svc, CVO_QUERY));
    assert.equal(res.status, 200);
    await res.arrayBuffer();
  });
});

test('fault: unavailable answers 503 from the router', async () => {
  await withService(async (svc) => {
    await svc.setFault({ kind: 'unavailable' });
    const res = await fetch(query(svc, CVO_QUERY));
    assert.equal(res.status, 503);
    assert.match(await res.text(), /Application is not available/);
  });
});

test('fault: server-error answers a 5xx with an error body', async () => {
  await withService(async (svc) => {
    await svc.setFault({ kind: 'server-error', status: 502 });
    const res = await fetch(query(svc, CVO_QUERY));
    assert.equal(res.status, 502);
    const body = (await res.json()) as { kind: string; value: string };
    assert.equal(body.kind, 'failed_upstream_fetch');
    await svc.setFault({ kind: 'server-error' });
    const res500 = await fetch(query(svc, CVO_QUERY));
    assert.equal(res500.status, 500);
    await res500.arrayBuffer();
  });
});

test('fault: bad-json answers 200 with a body that does not parse', async () => {
  await withService(async (svc) => {
    await svc.setFault({ kind: 'bad-json' });
    const res = await fetch(query(svc, CVO_QUERY));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json');
    const text = await res.text();
    assert.throws(() => JSON.parse(text) as unknown, SyntaxError);
  });
});

test('fault: version-missing drops the querying version (or the given ones) from the nodes', async () => {
  await withService(async (svc) => {
    await svc.setFault({ kind: 'version-missing' });
    const g = (await (await fetch(query(svc, CVO_QUERY))).json()) as CincinnatiGraph;
    assert.ok(g.nodes.length > 0);
    assert.equal(updatesFrom(g, '4.14.10'), undefined);
    await svc.setFault({ kind: 'version-missing', versions: ['4.14.12'] });
    const g2 = (await (await fetch(query(svc, CVO_QUERY))).json()) as CincinnatiGraph;
    assert.ok(updatesFrom(g2, '4.14.10'));
    assert.equal(updatesFrom(g2, '4.14.12'), undefined);
  });
});

test('fault: timeout never answers, does not hold the virtual clock, and ends when the fault ends', async () => {
  await withService(async (svc, activity) => {
    await svc.setFault({ kind: 'timeout' });
    const pending = fetch(query(svc, CVO_QUERY));
    const outcome = pending.then(
      (res) => `status ${res.status}`,
      () => 'connection cut',
    );
    await until(() => svc.requests === 1);
    // The held request is not work in flight.
    await until(() => activity.busy === 0);
    let settled = false;
    void outcome.then(() => (settled = true));
    await new Promise((r) => setImmediate(r));
    assert.equal(settled, false);
    await svc.setFault(undefined);
    assert.equal(await outcome, 'connection cut');
    const res = await fetch(query(svc, CVO_QUERY));
    assert.equal(res.status, 200);
    await res.arrayBuffer();
  });
});

test('fault: a request held by timeout ends when the service closes', async () => {
  const svc = await startUpdateService({ catalogue });
  await svc.setFault({ kind: 'timeout' });
  const outcome = fetch(query(svc, CVO_QUERY)).then(
    () => 'answered',
    () => 'connection cut',
  );
  await until(() => svc.requests === 1);
  await svc.close();
  assert.equal(await outcome, 'connection cut');
});

test('setCatalogue publishes a new release to clients', async () => {
  await withService(async (svc) => {
    svc.setCatalogue(buildCatalogue({ releases: [{ version: '4.16.29', fastAt: '2025-01-01T00:00:00Z' }] }));
    const g = (await (await fetch(query(svc, 'channel=fast-4.16'))).json()) as CincinnatiGraph;
    assert.ok(g.nodes.some((n) => n.version === '4.16.29'));
  });
});
