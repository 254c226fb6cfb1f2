import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  parseRehearsal,
  rehearsal,
  rehearsalScaling,
  withRehearsal,
  type Rehearsal,
  type RehearsalParts,
} from './rehearsal.js';

const PARTS: RehearsalParts = {
  scenario: 'scheduled-upgrade',
  kubeconfig: '/tmp/lab/kubeconfig',
  prometheusUrl: 'http://127.0.0.1:41001',
  alertmanagerUrl: 'http://127.0.0.1:41002',
  flows: ['scheduled'],
  namespace: 'appuio-openshift-upgrade-controller',
  scaling: { start: Date.UTC(2026, 2, 2, 0, 0, 0, 5), realOrigin: Date.UTC(2026, 10, 27, 15, 4, 5, 678), scale: 300 },
};
const FILE: Rehearsal = rehearsal(PARTS);

void test('a rehearsal file is JSON that reads back to the clock it was written from, to the millisecond', () => {
  const text = JSON.stringify(FILE);
  const parsed = parseRehearsal(text);
  assert.ok(parsed.ok, JSON.stringify(parsed));
  assert.deepEqual(parsed.rehearsal, FILE);
  assert.deepEqual(FILE.clock, {
    virtualStart: '2026-03-02T00:00:00.005Z',
    wallOrigin: '2026-11-27T15:04:05.678Z',
    scale: 300,
  });
  assert.deepEqual(rehearsalScaling(parsed.rehearsal), {
    start: Date.UTC(2026, 2, 2, 0, 0, 0, 5),
    realOrigin: Date.UTC(2026, 10, 27, 15, 4, 5, 678),
    scale: 300,
  });
  assert.equal('ocmUrl' in FILE, false, 'no OCM unless the scenario has one');
  assert.equal(rehearsal({ ...PARTS, ocmUrl: 'http://127.0.0.1:9' }).ocmUrl, 'http://127.0.0.1:9');
});

void test('a wrong rehearsal file is refused with every problem, each at its place', () => {
  const problemsOf = (text: string): string[] => {
    const parsed = parseRehearsal(text);
    return parsed.ok ? [] : parsed.problems;
  };
  assert.match(problemsOf('kubeconfig: x')[0] ?? '', /^not JSON: /);
  assert.ok(problemsOf('{}').length >= 3, 'kind, kubeconfig, clock … missing');
  const bad = parseRehearsal(
    JSON.stringify({
      ...FILE,
      prometheusUrl: 'prometheus:9090',
      flows: ['nightly'],
      clock: { ...FILE.clock, wallOrigin: 'yesterday', scale: 0 },
      timeScale: 300,
    }),
  );
  assert.equal(bad.ok, false);
  const problems = bad.ok ? [] : bad.problems;
  assert.ok(
    problems.some((p) => p.startsWith('/flows/0: must be one of "managed", "scheduled"')),
    problems.join('\n'),
  );
  assert.ok(
    problems.some((p) => p.startsWith('/clock/scale')),
    problems.join('\n'),
  );
  assert.ok(
    problems.some((p) => p === '/: unknown key "timeScale"'),
    problems.join('\n'),
  );
  const semantic = parseRehearsal(
    JSON.stringify({ ...FILE, prometheusUrl: 'prometheus:9090', clock: { ...FILE.clock, wallOrigin: 'yesterday' } }),
  );
  assert.deepEqual(semantic, {
    ok: false,
    problems: [
      '/prometheusUrl: "prometheus:9090" is not an http(s) URL',
      '/clock/wallOrigin: "yesterday" is not an RFC 3339 time',
    ],
  });
});

void test("the file sets run's kubeconfig, monitoring URLs, flows and namespace, the servers on loopback; a flag given on the command line wins", () => {
  const defaults = {
    prometheusUrl: 'https://prometheus-k8s.openshift-monitoring.svc:9091',
    alertmanagerUrl: 'https://alertmanager-main.openshift-monitoring.svc:9094',
    flows: ['managed' as const],
    namespace: 'default',
    metricsBindAddress: ':8383',
    collectorBindAddress: ':8089',
    healthProbeBindAddress: ':8081',
    logLevel: 'info',
  };
  assert.deepEqual(withRehearsal(defaults, FILE, new Set()), {
    kubeconfig: '/tmp/lab/kubeconfig',
    prometheusUrl: 'http://127.0.0.1:41001',
    alertmanagerUrl: 'http://127.0.0.1:41002',
    flows: ['scheduled'],
    namespace: 'appuio-openshift-upgrade-controller',
    metricsBindAddress: '127.0.0.1:0',
    collectorBindAddress: '127.0.0.1:0',
    healthProbeBindAddress: '127.0.0.1:0',
    logLevel: 'info',
  });
  const given = { ...defaults, kubeconfig: '/home/me/other', alertmanagerUrl: 'http://127.0.0.1:9093' };
  assert.deepEqual(
    withRehearsal(given, FILE, new Set(['kubeconfig', 'alertmanagerUrl', 'flows', 'metricsBindAddress'] as const)),
    {
      kubeconfig: '/home/me/other',
      prometheusUrl: 'http://127.0.0.1:41001',
      alertmanagerUrl: 'http://127.0.0.1:9093',
      flows: ['managed'],
      namespace: 'appuio-openshift-upgrade-controller',
      metricsBindAddress: ':8383',
      collectorBindAddress: '127.0.0.1:0',
      healthProbeBindAddress: '127.0.0.1:0',
      logLevel: 'info',
    },
  );
});
