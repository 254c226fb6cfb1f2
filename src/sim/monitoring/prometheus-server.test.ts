import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../lib/clock.js';
import { startPrometheusServer } from './prometheus-server.js';
import type { PrometheusServer } from './prometheus-server.js';
import { RuleEvaluator } from './rules.js';
import { Tsdb } from './tsdb.js';

const T0 = Date.UTC(2024, 2, 20, 8, 0, 0);

async function setup(): Promise<{ server: PrometheusServer; clock: ManualClock; rules: RuleEvaluator }> {
  const clock = new ManualClock(T0);
  const db = new Tsdb();
  db.append({ __name__: 'up', job: 'kubelet' }, 1, T0);
  const rules = new RuleEvaluator({
    tsdb: db,
    clock,
    groups: [
      {
        name: 'g',
        file: '/etc/prometheus/rules/r.yaml',
        rules: [
          {
            name: 'Up',
            expr: 'up == 1',
            for: '5m',
            labels: { severity: 'info' },
            annotations: { summary: 'job {{ $labels.job }}' },
          },
          { name: 'Watchdog', expr: 'vector(1)', labels: { severity: 'none' } },
        ],
      },
    ],
  });
  rules.evaluate(T0);
  const server = await startPrometheusServer({ tsdb: db, rules, clock });
  return { server, clock, rules };
}

async function json(res: Response): Promise<unknown> {
  assert.equal(res.headers.get('content-type'), 'application/json');
  return res.json();
}

test('query: GET and POST form give the envelope with [seconds, "value"]', async () => {
  const { server } = await setup();
  try {
    const expected = {
      status: 'success',
      data: {
        resultType: 'vector',
        result: [{ metric: { __name__: 'up', job: 'kubelet' }, value: [T0 / 1000 + 0.5, '1'] }],
      },
    };
    const get = await fetch(`${server.url}/api/v1/query?query=up&time=${T0 / 1000 + 0.5}`);
    assert.equal(get.status, 200);
    assert.deepEqual(await json(get), expected);
    const post = await fetch(`${server.url}/api/v1/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ query: 'up', time: new Date(T0 + 500).toISOString(), timeout: '30s' }).toString(),
    });
    assert.deepEqual(await json(post), expected);
    // Without time: the clock's now.
    const now = (await json(await fetch(`${server.url}/api/v1/query?query=time()`))) as { data: { result: unknown } };
    assert.deepEqual(now.data.result, [T0 / 1000, String(T0 / 1000)]);
  } finally {
    await server.close();
  }
});

test('errors: bad_data 400, execution 422, bad parameters', async () => {
  const { server } = await setup();
  try {
    const bad = await fetch(`${server.url}/api/v1/query?query=${encodeURIComponent('sum(')}`);
    assert.equal(bad.status, 400);
    assert.deepEqual(await json(bad), {
      status: 'error',
      errorType: 'bad_data',
      error: 'invalid parameter "query": 1:5: parse error: unclosed left parenthesis',
    });
    const exec = await fetch(
      `${server.url}/api/v1/query?query=${encodeURIComponent('label_replace(up, "1x", "", "job", ".*")')}`,
    );
    assert.equal(exec.status, 422);
    assert.equal(((await json(exec)) as { errorType: string }).errorType, 'execution');
    const time = await fetch(`${server.url}/api/v1/query?query=up&time=yesterday`);
    assert.equal(time.status, 400);
    assert.equal(
      ((await json(time)) as { error: string }).error,
      'invalid parameter "time": cannot parse "yesterday" to a valid timestamp',
    );
    const range = await fetch(`${server.url}/api/v1/query_range?query=up&start=10&end=5&step=1`);
    assert.equal(range.status, 400);
  } finally {
    await server.close();
  }
});

test('query_range returns a matrix', async () => {
  const { server } = await setup();
  try {
    const res = await fetch(
      `${server.url}/api/v1/query_range?query=up&start=${T0 / 1000}&end=${T0 / 1000 + 60}&step=30s`,
    );
    assert.deepEqual(await json(res), {
      status: 'success',
      data: {
        resultType: 'matrix',
        result: [
          {
            metric: { __name__: 'up', job: 'kubelet' },
            values: [
              [T0 / 1000, '1'],
              [T0 / 1000 + 30, '1'],
              [T0 / 1000 + 60, '1'],
            ],
          },
        ],
      },
    });
  } finally {
    await server.close();
  }
});

test('alerts and rules endpoints', async () => {
  const { server } = await setup();
  try {
    const alerts = (await json(await fetch(`${server.url}/api/v1/alerts`))) as {
      status: string;
      data: { alerts: unknown[] };
    };
    assert.equal(alerts.status, 'success');
    assert.deepEqual(alerts.data.alerts, [
      {
        labels: { alertname: 'Up', job: 'kubelet', severity: 'info' },
        annotations: { summary: 'job kubelet' },
        state: 'pending',
        activeAt: '2024-03-20T08:00:00Z',
        value: '1e+00',
      },
      {
        labels: { alertname: 'Watchdog', severity: 'none' },
        annotations: {},
        state: 'firing',
        activeAt: '2024-03-20T08:00:00Z',
        value: '1e+00',
      },
    ]);
    const rules = (await json(await fetch(`${server.url}/api/v1/rules?type=alert`))) as {
      data: { groups: Array<{ name: string; file: string; interval: number; rules: Array<Record<string, unknown>> }> };
    };
    const [g] = rules.data.groups;
    assert.equal(g?.name, 'g');
    assert.equal(g?.file, '/etc/prometheus/rules/r.yaml');
    assert.equal(g?.interval, 30);
    assert.deepEqual(
      g?.rules.map((r) => [r['name'], r['state'], r['duration'], r['type'], r['health'], r['query']]),
      [
        ['Up', 'pending', 300, 'alerting', 'ok', 'up == 1'],
        ['Watchdog', 'firing', 0, 'alerting', 'ok', 'vector(1)'],
      ],
    );
    const record = (await json(await fetch(`${server.url}/api/v1/rules?type=record`))) as {
      data: { groups: unknown[] };
    };
    assert.deepEqual(record.data.groups, []);
    const badType = await fetch(`${server.url}/api/v1/rules?type=x`);
    assert.equal(badType.status, 400);
  } finally {
    await server.close();
  }
});

test('health, readiness, buildinfo, 404 and 405', async () => {
  const { server } = await setup();
  try {
    assert.equal(await (await fetch(`${server.url}/-/healthy`)).text(), 'Prometheus Server is Healthy.\n');
    assert.equal(await (await fetch(`${server.url}/-/ready`)).text(), 'Prometheus Server is Ready.\n');
    const info = (await json(await fetch(`${server.url}/api/v1/status/buildinfo`))) as { data: { version: string } };
    assert.equal(info.data.version, '2.46.0');
    assert.equal((await fetch(`${server.url}/api/v1/nope`)).status, 404);
    assert.equal((await fetch(`${server.url}/api/v1/alerts`, { method: 'DELETE' })).status, 405);
  } finally {
    await server.close();
  }
});

test('fault switch: 5xx, down, slow', async () => {
  const { server, clock } = await setup();
  try {
    server.setFault({ mode: '5xx' });
    assert.equal((await fetch(`${server.url}/api/v1/query?query=up`)).status, 503);
    server.setFault({ mode: 'down' });
    await assert.rejects(fetch(`${server.url}/api/v1/query?query=up`));
    server.setFault({ mode: 'slow', delayMs: 10_000 });
    let done = false;
    const pending = fetch(`${server.url}/-/ready`).then((r) => {
      done = true;
      return r.status;
    });
    // Let the request reach the server, then check it waits for the clock.
    for (let i = 0; i < 10_000 && clock.pending === 0; i++) await new Promise((r) => setImmediate(r));
    assert.equal(clock.pending, 1);
    assert.equal(done, false);
    await clock.advance(10_000);
    assert.equal(await pending, 200);
    server.setFault({ mode: 'none' });
    assert.equal((await fetch(`${server.url}/-/ready`)).status, 200);
  } finally {
    await server.close();
  }
});
