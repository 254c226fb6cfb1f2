import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../lib/clock.js';
import { SeededRandom } from '../lib/random.js';
import type { HttpServer } from '../sim/http-server.js';
import { SimAlertmanager } from '../sim/monitoring/alertmanager/alertmanager-server.js';
import type { PostableSilence } from './alertmanager-api.js';
import {
  AlertmanagerClient,
  formatAmTime,
  parseGettableSilence,
  parseRfc3339,
  toWireSilence,
} from './alertmanager-client.js';
import { NO_PROXY_CONFIG } from './http/proxy-env.js';
import { IntegrationError } from './integration-error.js';
import { startRealAlertmanager, type RealServer } from './test-support/monitoring.test-support.js';

// Alertmanager refuses silences that end in the past, so times are relative to the wall clock
// (the simulated one runs on a ManualClock set to the same instant).
const NOW = Math.floor(Date.now() / 1000) * 1000;
const HOUR = 3_600_000;

let real: RealServer | undefined;
let simServer: HttpServer | undefined;
let sim: SimAlertmanager | undefined;
const clients: AlertmanagerClient[] = [];

function client(url: string): AlertmanagerClient {
  const c = new AlertmanagerClient({ url, proxy: NO_PROXY_CONFIG, bearerToken: () => 'token' });
  clients.push(c);
  return c;
}

before(async () => {
  const started = startRealAlertmanager();
  sim = new SimAlertmanager({ clock: new ManualClock(NOW), random: new SeededRandom(1) });
  simServer = await sim.listen();
  real = await started;
});

after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await simServer?.close();
  await real?.close();
});

function targets(): Array<[string, string]> {
  assert.ok(real && simServer);
  return [
    ['real', real.url],
    ['simulated', simServer.url],
  ];
}

function cpSilence(version: string): PostableSilence {
  return {
    matchers: [
      { name: 'severity', value: '(warning|info)', isRegex: true, isEqual: true },
      { name: 'namespace', value: '(^openshift.*|^kube.*|^redhat.*|^default$)', isRegex: true, isEqual: true },
    ],
    startsAt: NOW,
    endsAt: NOW + 2 * HOUR,
    createdBy: 'managed-upgrade-operator',
    comment: `Silence for OSD control plane upgrade to version ${version}`,
  };
}

test('create, list, expire: an expired silence stays listed, expiring it again is fine (real and simulated)', async () => {
  for (const [name, url] of targets()) {
    const am = client(url);
    const id = await am.createSilence(cpSilence('4.15.3'));
    assert.match(id, /^[0-9a-f-]{36}$/, name);
    const listed = (await am.listSilences()).find((s) => s.id === id);
    assert.ok(listed, `${name}: created silence is listed`);
    assert.deepEqual(
      {
        matchers: listed.matchers,
        endsAt: listed.endsAt,
        createdBy: listed.createdBy,
        comment: listed.comment,
        state: listed.status.state,
      },
      {
        matchers: cpSilence('x').matchers,
        endsAt: NOW + 2 * HOUR,
        createdBy: 'managed-upgrade-operator',
        comment: 'Silence for OSD control plane upgrade to version 4.15.3',
        state: 'active',
      },
      name,
    );
    assert.ok(listed.startsAt <= listed.endsAt && listed.updatedAt > 0, name);

    const pending = await am.createSilence({
      ...cpSilence('4.15.4'),
      startsAt: NOW + HOUR,
      matchers: [{ name: 'alertname', value: 'Watchdog', isRegex: false }],
    });
    const p = (await am.listSilences()).find((s) => s.id === pending);
    assert.equal(p?.status.state, 'pending', name);
    assert.equal(p?.startsAt, NOW + HOUR, name);
    assert.equal(p?.matchers[0]?.isEqual, true, `${name}: isEqual defaults to true`);

    await am.expireSilence(id);
    const expired = (await am.listSilences()).find((s) => s.id === id);
    assert.equal(expired?.status.state, 'expired', name);
    assert.equal(expired?.comment, 'Silence for OSD control plane upgrade to version 4.15.3', name);
    await am.expireSilence(id);
  }
});

test('errors: a bad silence is HttpStatus 400 with the reason; an unknown id is HttpStatus 500 "silence not found" (as Alertmanager 0.25 answers)', async () => {
  for (const [name, url] of targets()) {
    const am = client(url);
    const err = await am.createSilence({ ...cpSilence('x'), endsAt: NOW - HOUR }).then(
      () => assert.fail('expected an error'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof IntegrationError, name);
    assert.equal(err.reason, 'HttpStatus', name);
    assert.equal(err.status, 400, name);
    assert.match(
      err.message,
      /^alertmanager: POST http:\/\/127\.0\.0\.1:\d+\/api\/v2\/silences: HTTP 400 Bad Request: .+/,
      name,
    );
    await assert.rejects(
      am.expireSilence('00000000-0000-4000-8000-000000000000'),
      (e: unknown) =>
        e instanceof IntegrationError &&
        e.reason === 'HttpStatus' &&
        e.status === 500 &&
        /silence not found/.test(e.message),
      name,
    );
  }
});

test('faults of the simulated Alertmanager map to HttpStatus and Unreachable', async () => {
  assert.ok(sim && simServer);
  const am = client(simServer.url);
  try {
    sim.setFault({ kind: 'error', status: 503 });
    await assert.rejects(
      am.listSilences(),
      (e: unknown) => e instanceof IntegrationError && e.reason === 'HttpStatus' && e.status === 503,
    );
    sim.setFault({ kind: 'down' });
    await assert.rejects(
      am.listSilences(),
      (e: unknown) => e instanceof IntegrationError && e.reason === 'Unreachable',
    );
  } finally {
    sim.setFault({ kind: 'none' });
  }
});

test('wire format: RFC 3339 both ways, isEqual only when set, malformed silences are BadResponse', () => {
  assert.equal(formatAmTime(Date.UTC(2024, 2, 20, 8, 0, 0, 5)), '2024-03-20T08:00:00.005Z');
  assert.equal(parseRfc3339('2024-03-20T08:00:00Z'), Date.UTC(2024, 2, 20, 8));
  assert.equal(parseRfc3339('2024-03-20T08:00:00.123456789Z'), Date.UTC(2024, 2, 20, 8, 0, 0, 123));
  assert.equal(parseRfc3339('2024-03-20T10:30:00.5+02:30'), Date.UTC(2024, 2, 20, 8, 0, 0, 500));
  assert.equal(parseRfc3339('yesterday'), undefined);
  assert.deepEqual(
    toWireSilence({
      id: 'abc',
      matchers: [{ name: 'a', value: 'b', isRegex: false }],
      startsAt: 0,
      endsAt: 1000,
      createdBy: 'me',
      comment: 'c',
    }),
    {
      id: 'abc',
      matchers: [{ name: 'a', value: 'b', isRegex: false }],
      startsAt: '1970-01-01T00:00:00.000Z',
      endsAt: '1970-01-01T00:00:01.000Z',
      createdBy: 'me',
      comment: 'c',
    },
  );
  const wire = {
    id: 'x',
    status: { state: 'active' },
    updatedAt: '2024-03-20T08:00:00.000Z',
    matchers: [{ name: 'a', value: 'b', isRegex: false, isEqual: false }],
    startsAt: '2024-03-20T08:00:00.000Z',
    endsAt: '2024-03-20T09:00:00.000Z',
    createdBy: 'me',
    comment: 'c',
  };
  assert.equal(parseGettableSilence(wire).matchers[0]?.isEqual, false);
  assert.equal(parseGettableSilence(wire).endsAt, Date.UTC(2024, 2, 20, 9));
  for (const broken of [
    { ...wire, status: { state: 'gone' } },
    { ...wire, endsAt: 'later' },
    { ...wire, matchers: null },
    { ...wire, comment: 5 },
  ]) {
    assert.throws(
      () => parseGettableSilence(broken),
      (e: unknown) => e instanceof IntegrationError && e.reason === 'BadResponse',
    );
  }
});
