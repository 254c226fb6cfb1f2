// The simulated Alertmanager against the real one (Debian's prometheus-alertmanager, installed
// by scripts/ensure-test-tools.sh): the same request sequence runs against both, and the
// answers must agree once silence ids and wall-clock timestamps are normalised. Waits are on
// readiness with a deadline, never fixed sleeps.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { RealClock } from '../../src/lib/clock.js';
import { SeededRandom } from '../../src/lib/random.js';
import type { HttpServer } from '../../src/sim/http-server.js';
import { SimAlertmanager } from '../../src/sim/monitoring/alertmanager/alertmanager-server.js';
import { startRealAlertmanager, type RealServer } from '../../src/integrations/test-support/monitoring.test-support.js';

let real: RealServer | undefined;
let realUrl: string;
let sim: HttpServer;

before(async () => {
  real = await startRealAlertmanager();
  realUrl = real.url;
  sim = await new SimAlertmanager({ clock: new RealClock(), random: new SeededRandom(7) }).listen();
});

after(async () => {
  await sim?.close();
  await real?.close();
});

interface Answer {
  status: number;
  body: unknown;
}

/** One target's run: raw HTTP plus normalisation of ids and times. */
class Session {
  readonly #base: string;
  readonly base: string;
  readonly #t0: number;
  readonly #ids = new Map<string, string>();

  constructor(base: string) {
    this.#base = base;
    this.base = base;
    this.#t0 = Math.floor(Date.now() / 1000) * 1000;
  }

  /** An RFC 3339 time `minutes` after this session's start. */
  at(minutes: number): string {
    return new Date(this.#t0 + minutes * 60_000).toISOString().replace('.000Z', 'Z');
  }

  /** The real silence id behind a placeholder (`sil1`, …). */
  id(placeholder: string): string {
    for (const [real, p] of this.#ids) if (p === placeholder) return real;
    throw new Error(`no silence ${placeholder}`);
  }

  async call(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<Answer> {
    const res = await request(`${this.#base}${path}`, {
      method: method as 'GET',
      ...(body === undefined
        ? {}
        : { body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': contentType } }),
    });
    const text = await res.body.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? '' : JSON.parse(text);
    } catch {
      parsed = text.trim();
    }
    if (isObject(parsed) && typeof parsed['silenceID'] === 'string' && !this.#ids.has(parsed['silenceID'])) {
      this.#ids.set(parsed['silenceID'], `sil${this.#ids.size + 1}`);
    }
    return { status: res.statusCode, body: this.#normalise(parsed) };
  }

  #normalise(v: unknown): unknown {
    if (Array.isArray(v)) return v.map((x) => this.#normalise(x));
    if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.#normalise(x)]));
    if (typeof v === 'string') {
      if (this.#ids.has(v)) return this.#ids.get(v);
      // Alertmanager lists the allowed methods of a 405 in Go map order, which varies.
      const allowed = /^(method \w+ is not allowed, but \[)([A-Z,]+)(\] are)$/.exec(v);
      if (allowed) return `${allowed[1]}${allowed[2]!.split(',').sort().join(',')}${allowed[3]}`;
      if (/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/.test(v)) return `t${Math.round((Date.parse(v) - this.#t0) / 60_000)}m`;
    }
    return v;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function matcher(name: string, value: string, isRegex: boolean, isEqual?: boolean): Record<string, unknown> {
  return isEqual === undefined ? { name, value, isRegex } : { name, value, isRegex, isEqual };
}

/** The request sequence; returns named answers. `loose` answers compare status and code only. */
async function scenario(s: Session): Promise<Record<string, Answer>> {
  const out: Record<string, Answer> = {};
  const silence = (
    matchers: unknown[],
    from: number,
    to: number,
    comment: string,
    id?: string,
  ): Record<string, unknown> => ({
    ...(id === undefined ? {} : { id }),
    matchers,
    startsAt: s.at(from),
    endsAt: s.at(to),
    createdBy: 'managed-upgrade-operator',
    comment,
  });
  const cp = [
    matcher('severity', '(warning|info)', true, true),
    matcher('namespace', '(^openshift.*|^kube.*|^redhat.*|^default$)', true, true),
  ];
  out['create cp'] = await s.call(
    'POST',
    '/api/v2/silences',
    silence(cp, 0, 60, 'Silence for OSD control plane upgrade to version 4.15.3'),
  );
  out['create crit'] = await s.call(
    'POST',
    '/api/v2/silences',
    silence([matcher('alertname', 'KubeAPIDown|etcdMembersDown', true)], 0, 120, 'criticals'),
  );
  out['create neq'] = await s.call(
    'POST',
    '/api/v2/silences',
    silence([matcher('alertname', 'KubeNodeNotReady', false), matcher('node', 'n1', false, false)], -5, 180, 'neq'),
  );
  out['create nre'] = await s.call(
    'POST',
    '/api/v2/silences',
    silence([matcher('b', 'y', false), matcher('a', 'x.*', true, false)], 0, 240, 'nre'),
  );
  out['create pending'] = await s.call(
    'POST',
    '/api/v2/silences',
    silence([matcher('alertname', 'Watchdog', false)], 60, 300, 'pending'),
  );

  out['list'] = await s.call('GET', '/api/v2/silences');
  for (const f of [
    'alertname="KubeNodeNotReady"',
    'severity=~"(warning|info)"',
    'node!="n1"',
    'node!=n1',
    'alertname=~"KubeAPIDown|etcdMembersDown"',
    'a!~"x.*"',
    'a=~"x.*"',
    'b=y',
    'zzz=""',
  ]) {
    out[`list filter ${f}`] = await s.call('GET', `/api/v2/silences?filter=${encodeURIComponent(f)}`);
  }
  out['list two filters'] = await s.call(
    'GET',
    `/api/v2/silences?filter=${encodeURIComponent('b="y"')}&filter=${encodeURIComponent('a!~"x.*"')}`,
  );
  out['list bad filter'] = await s.call('GET', `/api/v2/silences?filter=${encodeURIComponent('bad matcher')}`);
  out['list bad filter regex'] = await s.call('GET', `/api/v2/silences?filter=${encodeURIComponent('a=~"("')}`);
  out['list bad filter quote'] = await s.call('GET', `/api/v2/silences?filter=${encodeURIComponent('a="x')}`);

  out['get cp'] = await s.call('GET', `/api/v2/silence/${s.id('sil1')}`);
  out['get unknown'] = await s.call('GET', '/api/v2/silence/00000000-0000-4000-8000-000000000000');
  out['get not uuid'] = await s.call('GET', '/api/v2/silence/nope');

  // Updates: in place (same matchers, same start), replace (matchers changed), pending moved later.
  const cpStart = await startOf(s, 'sil1');
  out['update cp in place'] = await s.call('POST', '/api/v2/silences', {
    ...silence(cp, 0, 90, 'cp extended', s.id('sil1')),
    startsAt: cpStart,
  });
  out['get cp after update'] = await s.call('GET', `/api/v2/silence/${s.id('sil1')}`);
  out['update crit matchers'] = await s.call(
    'POST',
    '/api/v2/silences',
    silence([matcher('alertname', 'KubeAPIDown', false)], 0, 125, 'crit v2', s.id('sil2')),
  );
  out['get crit after replace'] = await s.call('GET', `/api/v2/silence/${s.id('sil2')}`);
  out['update pending later'] = await s.call(
    'POST',
    '/api/v2/silences',
    silence([matcher('alertname', 'Watchdog', false)], 90, 300, 'pending v2', s.id('sil5')),
  );
  out['update pending to start now'] = await s.call(
    'POST',
    '/api/v2/silences',
    silence([matcher('alertname', 'Watchdog', false)], -1, 310, 'pending v3', s.id('sil5')),
  );
  out['update active start changed'] = await s.call(
    'POST',
    '/api/v2/silences',
    silence([matcher('b', 'y', false), matcher('a', 'x.*', true, false)], 30, 250, 'nre later', s.id('sil4')),
  );
  out['update unknown id'] = await s.call(
    'POST',
    '/api/v2/silences',
    silence([matcher('a', 'x', false)], 0, 60, 'x', '00000000-0000-4000-8000-000000000000'),
  );
  out['update unknown id bad times'] = await s.call(
    'POST',
    '/api/v2/silences',
    silence([matcher('a', 'x', false)], 60, 0, 'x', 'nope'),
  );

  // Bad input.
  const good = silence([matcher('a', 'x', false)], 0, 60, 'bad');
  out['bad no matchers'] = await s.call('POST', '/api/v2/silences', { ...good, matchers: undefined });
  out['bad empty matchers'] = await s.call('POST', '/api/v2/silences', { ...good, matchers: [] });
  out['bad end before start'] = await s.call(
    'POST',
    '/api/v2/silences',
    silence([matcher('a', 'x', false)], 60, 30, 'bad'),
  );
  out['bad end in past'] = await s.call(
    'POST',
    '/api/v2/silences',
    silence([matcher('a', 'x', false)], -60, -30, 'bad'),
  );
  out['bad regex'] = await s.call(
    'POST',
    '/api/v2/silences',
    silence([matcher('a', 'x', false), matcher('b', '[', true)], 0, 60, 'bad'),
  );
  out['bad nested repeat'] = await s.call(
    'POST',
    '/api/v2/silences',
    silence([matcher('b', 'x**', true)], 0, 60, 'bad'),
  );
  out['bad lookahead'] = await s.call('POST', '/api/v2/silences', silence([matcher('b', '(?=x)', true)], 0, 60, 'bad'));
  out['bad matches empty'] = await s.call(
    'POST',
    '/api/v2/silences',
    silence([matcher('a', '.*', true), matcher('b', '', false)], 0, 60, 'bad'),
  );
  out['bad label name'] = await s.call('POST', '/api/v2/silences', silence([matcher('a-b', 'x', false)], 0, 60, 'bad'));
  out['bad missing comment'] = await s.call('POST', '/api/v2/silences', { ...good, comment: undefined });
  out['bad missing isRegex'] = await s.call('POST', '/api/v2/silences', {
    ...good,
    matchers: [{ name: 'a', value: 'x' }],
  });
  out['bad missing startsAt'] = await s.call('POST', '/api/v2/silences', { ...good, startsAt: undefined });
  out['bad time'] = await s.call('POST', '/api/v2/silences', { ...good, startsAt: 'soon' });
  out['bad type'] = await s.call('POST', '/api/v2/silences', { ...good, createdBy: 5 });
  out['bad empty body'] = await s.call('POST', '/api/v2/silences', '');
  out['bad content type'] = await s.call('POST', '/api/v2/silences', JSON.stringify(good), 'text/plain');
  out['bad json (loose)'] = await s.call('POST', '/api/v2/silences', '{nope');

  // Expire.
  out['expire neq'] = await s.call('DELETE', `/api/v2/silence/${s.id('sil3')}`);
  out['expire neq again'] = await s.call('DELETE', `/api/v2/silence/${s.id('sil3')}`);
  out['get neq expired'] = await s.call('GET', `/api/v2/silence/${s.id('sil3')}`);
  out['expire unknown'] = await s.call('DELETE', '/api/v2/silence/00000000-0000-4000-8000-000000000000');
  out['expire not uuid'] = await s.call('DELETE', '/api/v2/silence/nope');
  out['list after'] = await s.call('GET', '/api/v2/silences');

  // Alerts.
  const alert = (labels: Record<string, string>, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    labels,
    ...extra,
  });
  out['post alerts'] = await s.call('POST', '/api/v2/alerts', [
    alert(
      { alertname: 'KubeNodeNotReady', node: 'n1', severity: 'warning', namespace: 'openshift-monitoring' },
      { annotations: { summary: 'node not ready' }, generatorURL: 'http://prometheus/graph' },
    ),
    alert({ alertname: 'KubeNodeNotReady', node: 'n2', severity: 'critical' }, { startsAt: s.at(-10) }),
    alert({ alertname: 'KubeAPIDown', severity: 'critical' }, { startsAt: s.at(-10), endsAt: s.at(30) }),
    alert({ alertname: 'Resolved', severity: 'info' }, { startsAt: s.at(-10), endsAt: s.at(-5) }),
    alert({ alertname: 'OnlyEnd', b: 'y', empty: '' }, { endsAt: s.at(30) }),
    alert({ alertname: 'Watchdog', severity: 'none' }),
  ]);
  out['post alerts again (merge)'] = await s.call('POST', '/api/v2/alerts', [
    alert({ alertname: 'KubeAPIDown', severity: 'critical' }, { startsAt: s.at(-5), endsAt: s.at(20) }),
  ]);
  out['post bad alerts'] = await s.call('POST', '/api/v2/alerts', [
    alert({}),
    alert({ 'a-b': 'x' }),
    alert({ zz: '1' }, { startsAt: s.at(10), endsAt: s.at(5) }),
    alert({ ok: 'stored' }),
  ]);
  out['post alerts bad url'] = await s.call('POST', '/api/v2/alerts', [
    alert({ a: 'x' }, { generatorURL: 'not a url' }),
  ]);
  out['post alerts no labels'] = await s.call('POST', '/api/v2/alerts', [{ annotations: {} }]);
  out['post alerts object'] = await s.call('POST', '/api/v2/alerts', {});
  out['post alerts bad annotations'] = await s.call('POST', '/api/v2/alerts', [
    alert({ a: 'x' }, { annotations: { 'b-c': 'y' } }),
  ]);
  out['alerts'] = await s.call('GET', '/api/v2/alerts');
  out['alerts not silenced'] = await s.call('GET', '/api/v2/alerts?silenced=false');
  out['alerts not active'] = await s.call('GET', '/api/v2/alerts?active=false');
  out['alerts filter'] = await s.call(
    'GET',
    `/api/v2/alerts?filter=${encodeURIComponent('severity=~"warning|critical"')}&filter=${encodeURIComponent('node!="n2"')}`,
  );
  out['alerts filter braces'] = await s.call(
    'GET',
    `/api/v2/alerts?filter=${encodeURIComponent('{alertname="KubeNodeNotReady",node="n2"}')}`,
  );
  out['alerts filter bad'] = await s.call('GET', `/api/v2/alerts?filter=${encodeURIComponent('alertname=~"("')}`);
  out['alerts receiver null'] = await s.call('GET', '/api/v2/alerts?receiver=nu.*');
  out['alerts receiver other'] = await s.call('GET', '/api/v2/alerts?receiver=Critical');
  out['alerts receiver bad'] = await s.call('GET', '/api/v2/alerts?receiver=(');
  out['alert groups'] = await s.call('GET', '/api/v2/alerts/groups');
  out['receivers'] = await s.call('GET', '/api/v2/receivers');
  out['healthy'] = await s.call('GET', '/-/healthy');
  out['ready'] = await s.call('GET', '/-/ready');
  out['unknown path'] = await s.call('GET', '/api/v2/nothing');
  out['wrong method'] = await s.call('PUT', '/api/v2/silences', '{}');
  const status = await s.call('GET', '/api/v2/status');
  const sb = status.body as Record<string, Record<string, unknown>>;
  out['status shape'] = {
    status: status.status,
    body: {
      keys: Object.keys(sb).sort(),
      cluster: sb['cluster'],
      config: typeof sb['config']?.['original'],
      version: Object.keys(sb['versionInfo'] ?? {}).sort(),
    },
  };
  return out;
}

/** The exact startsAt the server stored for a silence (for an in-place update). */
async function startOf(s: Session, placeholder: string): Promise<string> {
  const res = await request(`${s.base}/api/v2/silence/${s.id(placeholder)}`);
  const body = (await res.body.json()) as { startsAt: string };
  return body.startsAt;
}

function loosen(answers: Record<string, Answer>): Record<string, Answer> {
  return Object.fromEntries(
    Object.entries(answers).map(([k, a]) => [
      k,
      k.includes('(loose)') && isObject(a.body) ? { status: a.status, body: { code: a.body['code'] } } : a,
    ]),
  );
}

test('the simulated Alertmanager answers the v2 API as the real one does', async () => {
  const realSession = new Session(realUrl);
  const realAnswers = loosen(await scenario(realSession));
  const simSession = new Session(sim.url);
  const simAnswers = loosen(await scenario(simSession));
  // The sequence exercises what it means to: silences made, alerts silenced, errors answered.
  assert.deepEqual(realAnswers['create cp']?.body, { silenceID: 'sil1' });
  assert.equal((realAnswers['list']?.body as unknown[]).length, 5);
  const alerts = realAnswers['alerts']?.body as Array<{ status: { silencedBy: string[] } }>;
  assert.equal(alerts.length, 6);
  assert.ok(alerts.some((a) => a.status.silencedBy.length > 0) && alerts.some((a) => a.status.silencedBy.length === 0));
  assert.equal(realAnswers['bad regex']?.status, 400);
  for (const key of Object.keys(realAnswers)) {
    assert.deepEqual(simAnswers[key], realAnswers[key], `step "${key}" differs`);
  }
  assert.deepEqual(Object.keys(simAnswers), Object.keys(realAnswers));
});
