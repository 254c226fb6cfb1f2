import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import type { UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import { createLogger, silentLogger } from '../../lib/log.js';
import { hook, upgradeJob } from '../hooks/hook-fixtures.test-support.js';
import { parseExposition, samplesOf, valueOf } from '../../kube/metrics-exposition.test-support.js';
import { registerScrapeGauges } from './scrape-gauges.js';
import {
  UpgradeJobCollector,
  UpgradeJobMetricName as N,
  upgradeJobSeries,
  upgradeJobState,
  upgradeJobStateReason,
} from './upgrade-job-metrics.js';

type Cond = { type: string; status: 'True' | 'False'; reason?: string };

void test('state and reason follow succeeded > failed > paused > active > pending', () => {
  const cases: { conditions: Cond[]; state: string; reason: string }[] = [
    { conditions: [], state: 'pending', reason: '' },
    { conditions: [{ type: 'Started', status: 'False' }], state: 'pending', reason: '' },
    { conditions: [{ type: 'Started', status: 'True', reason: 'Started' }], state: 'active', reason: '' },
    {
      conditions: [
        { type: 'Started', status: 'True' },
        { type: 'Paused', status: 'False', reason: 'DelaySet' },
      ],
      state: 'active',
      reason: '',
    },
    {
      conditions: [
        { type: 'Started', status: 'True' },
        { type: 'Paused', status: 'True', reason: 'DelaySet' },
      ],
      state: 'paused',
      reason: '',
    },
    {
      conditions: [
        { type: 'Started', status: 'True' },
        { type: 'Succeeded', status: 'True', reason: 'Succeeded' },
      ],
      state: 'succeeded',
      reason: 'Succeeded',
    },
    { conditions: [{ type: 'Succeeded', status: 'True', reason: 'Skipped' }], state: 'succeeded', reason: 'Skipped' },
    { conditions: [{ type: 'Failed', status: 'True', reason: 'Expired' }], state: 'failed', reason: 'Expired' },
    {
      conditions: [
        { type: 'Started', status: 'True' },
        { type: 'Paused', status: 'True' },
        { type: 'Failed', status: 'True', reason: 'UnpausingPoolsExpired' },
      ],
      state: 'failed',
      reason: 'UnpausingPoolsExpired',
    },
    {
      conditions: [
        { type: 'Failed', status: 'True', reason: 'TimedOut' },
        { type: 'Succeeded', status: 'True', reason: 'Succeeded' },
      ],
      state: 'succeeded',
      reason: 'Succeeded',
    },
    {
      conditions: [
        { type: 'Started', status: 'True' },
        { type: 'Failed', status: 'False', reason: 'HookFailed' },
      ],
      state: 'active',
      reason: '',
    },
  ];
  for (const c of cases) {
    const job = upgradeJob({ conditions: c.conditions });
    assert.equal(upgradeJobState(job), c.state, JSON.stringify(c.conditions));
    assert.equal(upgradeJobStateReason(job), c.reason, JSON.stringify(c.conditions));
  }
});

void test('matches_disruptive_hooks: any disruptive hook that would run for the job, whatever its events', () => {
  const job = upgradeJob();
  const other = { apiVersion: 'managedupgrade.appuio.io/v1beta1', kind: 'UpgradeJob', name: 'other', uid: 'uid-2' };
  const mine = {
    apiVersion: 'managedupgrade.appuio.io/v1beta1',
    kind: 'UpgradeJob',
    name: job.metadata?.name ?? '',
    uid: 'uid-1',
  };
  const cases: { name: string; hooks: ReturnType<typeof hook>[]; want: string }[] = [
    { name: 'no hooks', hooks: [], want: 'false' },
    { name: 'disruptive, empty selector', hooks: [hook('h', { disruptive: true })], want: 'true' },
    { name: 'disruptive, Finish only', hooks: [hook('h', { disruptive: true, events: ['Finish'] })], want: 'true' },
    { name: 'not disruptive', hooks: [hook('h', { disruptive: false })], want: 'false' },
    {
      name: 'disruptive, selector matches',
      hooks: [hook('h', { disruptive: true, selector: { matchLabels: { 'upgrade-config': 'cluster-upgrade' } } })],
      want: 'true',
    },
    {
      name: 'disruptive, selector does not match',
      hooks: [hook('h', { disruptive: true, selector: { matchLabels: { 'upgrade-config': 'other' } } })],
      want: 'false',
    },
    {
      name: 'disruptive, other namespace',
      hooks: [hook('h', { disruptive: true }, { namespace: 'elsewhere' })],
      want: 'false',
    },
    {
      name: 'disruptive Next hook claimed by another job',
      hooks: [hook('h', { disruptive: true, run: 'Next' }, { claimedBy: other })],
      want: 'false',
    },
    {
      name: 'disruptive Next hook claimed by this job',
      hooks: [hook('h', { disruptive: true, run: 'Next' }, { claimedBy: mine })],
      want: 'true',
    },
    { name: 'disruptive Next hook unclaimed', hooks: [hook('h', { disruptive: true, run: 'Next' })], want: 'true' },
    {
      name: 'one of several',
      hooks: [
        hook('a'),
        hook('b', { disruptive: true, selector: { matchLabels: { 'upgrade-config': 'other' } } }),
        hook('c', { disruptive: true }),
      ],
      want: 'true',
    },
  ];
  for (const c of cases) {
    const s = upgradeJobSeries([job], c.hooks).get(N.state);
    assert.equal(s?.[0]?.labels.matches_disruptive_hooks, c.want, c.name);
  }
});

void test('series: desired version labels, UTC RFC 3339 times, Unix seconds rounded down', () => {
  const job = upgradeJob({ name: 'j' });
  if (job.spec) {
    job.spec.startAfter = '2023-11-14T23:13:20.900+01:00';
    job.spec.startBefore = '2023-11-15T00:13:20+01:00';
    job.spec.desiredVersion = { version: '4.15.3', image: 'quay.io/x@sha256:abc', force: true };
  }
  const noop = upgradeJob({ name: 'noop', noop: true, conditions: [{ type: 'Started', status: 'True' }] });
  const s = upgradeJobSeries([job, noop], []);
  assert.deepEqual(s.get(N.state), [
    {
      labels: {
        upgradejob: 'j',
        start_after: '2023-11-14T22:13:20Z',
        start_before: '2023-11-14T23:13:20Z',
        desired_version_force: 'true',
        desired_version_image: 'quay.io/x@sha256:abc',
        desired_version_version: '4.15.3',
        state: 'pending',
        reason: '',
        matches_disruptive_hooks: 'false',
      },
      value: 1,
    },
    {
      labels: {
        upgradejob: 'noop',
        start_after: '2023-11-14T22:13:20Z',
        start_before: '2023-11-14T23:13:20Z',
        desired_version_force: 'false',
        desired_version_image: '',
        desired_version_version: '',
        state: 'active',
        reason: '',
        matches_disruptive_hooks: 'false',
      },
      value: 1,
    },
  ]);
  assert.deepEqual(s.get(N.startAfter), [
    { labels: { upgradejob: 'j' }, value: 1700000000 },
    { labels: { upgradejob: 'noop' }, value: 1700000000 },
  ]);
  assert.deepEqual(s.get(N.startBefore)?.[0], { labels: { upgradejob: 'j' }, value: 1700003600 });
});

void test('series: a start time that does not parse gives an empty label and no timestamp series', () => {
  const job = upgradeJob({ name: 'bad' });
  if (job.spec) job.spec.startAfter = 'tomorrow';
  const s = upgradeJobSeries([job], []);
  assert.equal(s.get(N.state)?.[0]?.labels.start_after, '');
  assert.deepEqual(s.get(N.startAfter), []);
  assert.equal(s.get(N.startBefore)?.length, 1);
});

void test('series: a job without start times has Go’s zero time in its labels and timestamp series, as APPUiO', async () => {
  const job = upgradeJob({ name: 'unset' });
  const { startAfter: _after, startBefore: _before, ...rest } = job.spec ?? { startAfter: '', startBefore: '' };
  const withoutTimes = { ...job, spec: rest } as unknown as UpgradeJob;
  const nulls = { ...job, spec: { ...job.spec, startAfter: null, startBefore: null } } as unknown as UpgradeJob;
  const noSpec: UpgradeJob = { ...job, metadata: { name: 'nospec' }, spec: undefined } as unknown as UpgradeJob;
  const s = upgradeJobSeries([withoutTimes, nulls, noSpec], []);
  assert.deepEqual(
    s.get(N.state)?.map((x) => [x.labels.upgradejob, x.labels.start_after, x.labels.start_before]),
    [
      ['unset', '0001-01-01T00:00:00Z', '0001-01-01T00:00:00Z'],
      ['unset', '0001-01-01T00:00:00Z', '0001-01-01T00:00:00Z'],
      ['nospec', '0001-01-01T00:00:00Z', '0001-01-01T00:00:00Z'],
    ],
  );
  assert.deepEqual(s.get(N.startAfter)?.[0], { labels: { upgradejob: 'unset' }, value: -62135596800 });
  assert.deepEqual(
    s.get(N.startBefore)?.map((x) => x.value),
    [-62135596800, -62135596800, -62135596800],
  );
  // As scraped.
  const registry = new Registry();
  new UpgradeJobCollector(registry, { jobs: () => [noSpec], hooks: () => [] }, { log: silentLogger() });
  const f = parseExposition(await registry.metrics());
  assert.equal(valueOf(f, N.startAfter, { upgradejob: 'nospec' }), -62135596800);
  assert.equal(samplesOf(f, N.state)[0]?.labels.start_after, '0001-01-01T00:00:00Z');
});

void test('collector: exposes the three families at scrape time from the sources', async () => {
  const registry = new Registry();
  let jobs: UpgradeJob[] = [
    upgradeJob({ name: 'a', conditions: [{ type: 'Failed', status: 'True', reason: 'TimedOut' }] }),
    upgradeJob({ name: 'b', noop: true }),
  ];
  new UpgradeJobCollector(
    registry,
    { jobs: () => jobs, hooks: () => [hook('maint', { disruptive: true })] },
    { log: silentLogger() },
  );
  const f = parseExposition(await registry.metrics());
  for (const name of Object.values(N)) {
    assert.equal(f.get(name)?.type, 'gauge', name);
    assert.notEqual(f.get(name)?.help ?? '', '', name);
  }
  assert.equal(
    valueOf(f, N.state, {
      upgradejob: 'a',
      start_after: '2023-11-14T22:13:20Z',
      start_before: '2023-11-14T23:13:20Z',
      desired_version_force: 'false',
      desired_version_image: 'quay.io/openshift-release-dev/ocp-release@sha256:abc',
      desired_version_version: '4.15.3',
      state: 'failed',
      reason: 'TimedOut',
      matches_disruptive_hooks: 'true',
    }),
    1,
  );
  assert.equal(samplesOf(f, N.state).length, 2);
  assert.equal(valueOf(f, N.startAfter, { upgradejob: 'b' }), 1700000000);
  assert.equal(valueOf(f, N.startBefore, { upgradejob: 'b' }), 1700003600);

  jobs = [];
  const after = parseExposition(await registry.metrics());
  for (const name of Object.values(N)) assert.deepEqual(samplesOf(after, name), [], name);
});

void test('a throwing source blanks its families only, is logged once, and its recovery is logged', async () => {
  const lines: string[] = [];
  const log = createLogger({ level: 'info', destination: { write: (s: string) => void lines.push(s) } });
  const registry = new Registry();
  let broken = true;
  new UpgradeJobCollector(
    registry,
    {
      jobs: () => [upgradeJob({ name: 'a' })],
      hooks: () => {
        if (broken) throw new Error('hook cache not synced');
        return [];
      },
    },
    { log },
  );
  registerScrapeGauges(
    registry,
    [
      {
        families: [{ name: 'other_family', help: 'h', labelNames: [] }],
        series: () => new Map([['other_family', [{ labels: {}, value: 7 }]]]),
      },
    ],
    log,
  );

  for (let i = 0; i < 2; i++) {
    const f = parseExposition(await registry.metrics());
    for (const name of Object.values(N)) assert.deepEqual(samplesOf(f, name), [], name);
    assert.equal(valueOf(f, 'other_family', {}), 7);
  }
  assert.equal(lines.length, 1);
  const entry = JSON.parse(lines[0] ?? '{}') as { level?: string; err?: { message?: string }; families?: string[] };
  assert.equal(entry.level, 'error');
  assert.equal(entry.err?.message, 'hook cache not synced');
  assert.deepEqual(entry.families, Object.values(N));

  broken = false;
  const f = parseExposition(await registry.metrics());
  assert.equal(samplesOf(f, N.state).length, 1);
  assert.equal(lines.length, 2);
  assert.equal((JSON.parse(lines[1] ?? '{}') as { level?: string }).level, 'info');
});

void test('the sources are read once per scrape', async () => {
  const registry = new Registry();
  let reads = 0;
  new UpgradeJobCollector(
    registry,
    { jobs: () => (reads++, [upgradeJob()]), hooks: () => [] },
    { log: silentLogger() },
  );
  await registry.metrics();
  assert.equal(reads, 1);
  await registry.metrics();
  assert.equal(reads, 2);
});

void test('registering twice on one registry throws; two registries are independent', () => {
  const registry = new Registry();
  const sources = { jobs: () => [], hooks: () => [] };
  new UpgradeJobCollector(registry, sources, { log: silentLogger() });
  assert.throws(() => new UpgradeJobCollector(registry, sources, { log: silentLogger() }), /already been registered/);
  assert.doesNotThrow(() => new UpgradeJobCollector(new Registry(), sources, { log: silentLogger() }));
});
