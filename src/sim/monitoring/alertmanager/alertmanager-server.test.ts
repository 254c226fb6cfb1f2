import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { ActivityCounter } from '../../../lib/activity.js';
import { flushMicrotasks, ManualClock } from '../../../lib/clock.js';
import { SeededRandom } from '../../../lib/random.js';
import { SimAlertmanager } from './alertmanager-server.js';

function make(options: Partial<ConstructorParameters<typeof SimAlertmanager>[0]> = {}): {
  clock: ManualClock;
  am: SimAlertmanager;
} {
  const clock = new ManualClock('2026-03-20T08:00:00Z');
  return { clock, am: new SimAlertmanager({ clock, random: new SeededRandom(5), ...options }) };
}

const silenceBody = {
  matchers: [{ name: 'alertname', value: 'KubeNodeNotReady', isRegex: false }],
  startsAt: '2026-03-20T08:00:00Z',
  endsAt: '2026-03-20T09:00:00Z',
  createdBy: 'managed-upgrade-operator',
  comment: 'Silence for OSD worker node upgrade to version 4.15.3 with remaining 3 nodes',
};

test('over HTTP: create, get, list with filter, expire, alerts with silencedBy', async () => {
  const { clock, am } = make();
  const server = await am.listen();
  try {
    const call = async (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) => {
      const res = await request(`${server.url}${path}`, {
        method,
        ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      });
      const text = await res.body.text();
      return {
        status: res.statusCode,
        type: res.headers['content-type'],
        json: text === '' ? undefined : (JSON.parse(text) as unknown),
      };
    };
    const created = await call('POST', '/api/v2/silences', silenceBody);
    assert.equal(created.status, 200);
    assert.equal(created.type, 'application/json');
    const id = (created.json as { silenceID: string }).silenceID;
    const got = await call('GET', `/api/v2/silence/${id}`);
    assert.deepEqual(got.json, {
      id,
      status: { state: 'active' },
      updatedAt: '2026-03-20T08:00:00.000Z',
      comment: silenceBody.comment,
      createdBy: 'managed-upgrade-operator',
      endsAt: '2026-03-20T09:00:00.000Z',
      matchers: [{ isEqual: true, isRegex: false, name: 'alertname', value: 'KubeNodeNotReady' }],
      startsAt: '2026-03-20T08:00:00.000Z',
    });
    assert.equal(
      (
        (await call('GET', `/api/v2/silences?filter=${encodeURIComponent('alertname="KubeNodeNotReady"')}`))
          .json as unknown[]
      ).length,
      1,
    );
    assert.deepEqual(
      (await call('GET', `/api/v2/silences?filter=${encodeURIComponent('alertname="Other"')}`)).json,
      [],
    );

    assert.equal(
      (await call('POST', '/api/v2/alerts', [{ labels: { alertname: 'KubeNodeNotReady', node: 'n1' } }])).status,
      200,
    );
    const alerts = (await call('GET', '/api/v2/alerts')).json as Array<{ status: unknown }>;
    assert.deepEqual(alerts[0]!.status, { inhibitedBy: [], silencedBy: [id], state: 'suppressed' });

    await clock.advance(60_000);
    const expired = await call('DELETE', `/api/v2/silence/${id}`);
    assert.deepEqual([expired.status, expired.json, expired.type], [200, undefined, undefined]);
    assert.equal(
      ((await call('GET', `/api/v2/silence/${id}`)).json as { status: { state: string } }).status.state,
      'expired',
    );
    const after = (await call('GET', '/api/v2/alerts')).json as Array<{ status: unknown }>;
    assert.deepEqual(after[0]!.status, { inhibitedBy: [], silencedBy: [], state: 'active' });

    assert.deepEqual(await call('GET', '/api/v2/silence/00000000-0000-4000-8000-000000000000'), {
      status: 404,
      type: undefined,
      json: undefined,
    });
    assert.deepEqual((await call('GET', '/api/v2/silence/nope')).json, {
      code: 601,
      message: 'silenceID in path must be of type uuid: "nope"',
    });
    const status = (await call('GET', '/api/v2/status')).json as { cluster: unknown; versionInfo: { version: string } };
    assert.deepEqual(status.cluster, { peers: [], status: 'disabled' });
    assert.equal(status.versionInfo.version, '0.25.0');
  } finally {
    await server.close();
  }
});

test('handle(): error bodies as Alertmanager sends them', () => {
  const { am } = make();
  const post = (body: string, contentType = 'application/json') =>
    am.handle({ method: 'POST', target: '/api/v2/silences', body, contentType });
  assert.deepEqual(post(''), { status: 422, body: { code: 602, message: 'silence in body is required' } });
  assert.deepEqual(post('{}'), { status: 422, body: { code: 602, message: 'comment in body is required' } });
  assert.deepEqual(post(JSON.stringify({ ...silenceBody, matchers: [] })), {
    status: 422,
    body: { code: 612, message: 'matchers in body should have at least 1 items' },
  });
  assert.deepEqual(post(JSON.stringify({ ...silenceBody, createdBy: 5 })), {
    status: 400,
    body: {
      code: 400,
      message:
        'parsing silence body from "" failed, because json: cannot unmarshal number into Go struct field Silence.createdBy of type string',
    },
  });
  assert.deepEqual(post(JSON.stringify({ ...silenceBody, endsAt: 'bad' })), {
    status: 400,
    body: {
      code: 400,
      message:
        'parsing silence body from "" failed, because parsing time "bad" as "2006-01-02 15:04:05": cannot parse "bad" as "2006"',
    },
  });
  assert.deepEqual(post('{}', 'text/plain'), {
    status: 415,
    body: { code: 415, message: 'unsupported media type "text/plain", only [application/json] are allowed' },
  });
  assert.deepEqual(post(JSON.stringify({ ...silenceBody, endsAt: '2026-03-20T07:00:00Z' })), {
    status: 400,
    body: 'Failed to create silence: start time must be before end time',
  });
  assert.deepEqual(am.handle({ method: 'GET', target: '/api/v2/silences?filter=oops' }), {
    status: 400,
    body: 'bad matcher format: oops',
  });
  assert.deepEqual(am.handle({ method: 'GET', target: '/api/v2/alerts?receiver=(' }), {
    status: 400,
    body: 'failed to parse receiver param: error parsing regexp: missing closing ): `^(?:()$`',
  });
  assert.deepEqual(
    am.handle({ method: 'POST', target: '/api/v2/alerts', body: '[{}]', contentType: 'application/json' }),
    {
      status: 422,
      body: { code: 602, message: '0.labels in body is required' },
    },
  );
  assert.deepEqual(am.handle({ method: 'PUT', target: '/api/v2/silences' }), {
    status: 405,
    body: { code: 405, message: 'method PUT is not allowed, but [POST,GET] are' },
    headers: { allow: 'POST,GET' },
  });
  assert.deepEqual(am.handle({ method: 'GET', target: '/api/v2/nothing' }), {
    status: 404,
    body: { code: 404, message: 'path /api/v2/nothing was not found' },
  });
  assert.deepEqual(am.handle({ method: 'GET', target: '/-/ready' }), { status: 200, text: 'OK' });
});

test('bearer-token check on /api/ only', () => {
  const { am } = make({
    authorize: (h) => (h === 'Bearer good' ? 'allow' : h === undefined ? 'unauthorized' : 'forbidden'),
  });
  assert.equal(am.handle({ method: 'GET', target: '/api/v2/silences' }).status, 401);
  assert.equal(am.handle({ method: 'GET', target: '/api/v2/silences', authorization: 'Bearer bad' }).status, 403);
  assert.equal(am.handle({ method: 'GET', target: '/api/v2/silences', authorization: 'Bearer good' }).status, 200);
  assert.equal(am.handle({ method: 'GET', target: '/-/healthy' }).status, 200);
});

test('faults: down resets connections, error answers 503, slow waits on the clock without holding activity', async () => {
  const { clock, am } = make();
  const activity = new ActivityCounter();
  const server = await am.listen({ activity });
  try {
    am.setFault({ kind: 'down' });
    await assert.rejects(request(`${server.url}/api/v2/silences`));
    am.setFault({ kind: 'error' });
    const res = await request(`${server.url}/api/v2/silences`);
    assert.deepEqual([res.statusCode, await res.body.text()], [503, 'Service Unavailable\n']);

    am.setFault({ kind: 'slow', delayMs: 30_000 });
    let answered = false;
    const pending = request(`${server.url}/api/v2/silences`).then(async (r) => {
      answered = true;
      return [r.statusCode, await r.body.json()] as const;
    });
    // Wait until the request has reached the handler and is parked on the clock.
    for (let i = 0; i < 500 && clock.pending === 0; i++) await flushMicrotasks();
    assert.equal(clock.pending, 1);
    assert.equal(activity.busy, 0, 'a request waiting on virtual time is no work');
    await clock.advance(29_999);
    assert.equal(answered, false);
    await clock.advance(1);
    assert.deepEqual(await pending, [200, []]);
    am.setFault({ kind: 'none' });
    assert.equal((await request(`${server.url}/-/healthy`)).statusCode, 200);
  } finally {
    await server.close();
  }
});
