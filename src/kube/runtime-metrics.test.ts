import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PodResource } from '../api/builtin.js';
import { ManualClock } from '../lib/clock.js';
import { silentLogger } from '../lib/log.js';
import { Controller } from './controller.js';
import { startFakeApi } from './fake-api.test-support.js';
import { InformerFactory } from './informer-factory.js';
import { parseExposition, type ParsedFamily } from './metrics-exposition.test-support.js';
import {
  RECONCILE_TIME_BUCKETS,
  RuntimeMetrics,
  WORKQUEUE_BUCKETS,
  processMetricsRegistry,
} from './runtime-metrics.js';
import { KubeClient } from './client.js';
import { testRandom } from './test-helpers.test-support.js';
import { WorkQueue } from './work-queue.js';

async function eventually(cond: () => Promise<boolean>): Promise<void> {
  const end = performance.now() + 5000;
  while (!(await cond())) {
    if (performance.now() > end) throw new Error('condition not met in time');
    await new Promise<void>((resolve) => setTimeout(resolve, 5));
  }
}

function value(family: ParsedFamily | undefined, labels: Record<string, string>): number | undefined {
  return family?.samples.find((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}

void test('runtime metrics: controller-runtime names, label names and buckets; every result starts at 0', async () => {
  const m = new RuntimeMetrics();
  m.controller('pods');
  m.leaderElection('lease-a');
  m.requests('200', 'GET', '127.0.0.1:6443');
  const families = parseExposition(await m.registry.metrics());
  assert.deepEqual([...families.keys()].sort(), [
    'controller_runtime_active_workers',
    'controller_runtime_max_concurrent_reconciles',
    'controller_runtime_reconcile_errors_total',
    'controller_runtime_reconcile_time_seconds',
    'controller_runtime_reconcile_total',
    'leader_election_master_status',
    'rest_client_requests_total',
    'workqueue_adds_total',
    'workqueue_depth',
    'workqueue_longest_running_processor_seconds',
    'workqueue_queue_duration_seconds',
    'workqueue_retries_total',
    'workqueue_unfinished_work_seconds',
    'workqueue_work_duration_seconds',
  ]);
  const total = families.get('controller_runtime_reconcile_total');
  assert.deepEqual(
    total?.samples.map((s) => s.labels),
    [
      { controller: 'pods', result: 'success' },
      { controller: 'pods', result: 'error' },
      { controller: 'pods', result: 'requeue' },
      { controller: 'pods', result: 'requeue_after' },
    ],
  );
  assert.ok(total.samples.every((s) => s.value === 0));
  assert.equal(families.get('controller_runtime_reconcile_time_seconds')?.type, 'histogram');
  assert.equal(RECONCILE_TIME_BUCKETS.length, 40);
  assert.equal(WORKQUEUE_BUCKETS.length, 12);
  assert.equal(WORKQUEUE_BUCKETS[0], 1e-8);
  assert.ok(Math.abs((WORKQUEUE_BUCKETS.at(-1) ?? 0) - 1000) < 1e-9);
  assert.equal(value(families.get('workqueue_adds_total'), {}), 0);
  assert.deepEqual(families.get('workqueue_adds_total')?.samples[0]?.labels, { name: 'pods', controller: 'pods' });
  assert.deepEqual(families.get('rest_client_requests_total')?.samples[0], {
    name: 'rest_client_requests_total',
    labels: { code: '200', method: 'GET', host: '127.0.0.1:6443' },
    value: 1,
  });
  assert.equal(value(families.get('leader_election_master_status'), { name: 'lease-a' }), 0);
});

void test('work queue metrics: adds, retries, queue and work durations on the clock; depth and unfinished work at scrape', async () => {
  const clock = new ManualClock();
  const m = new RuntimeMetrics();
  const c = m.controller('q');
  const queue: WorkQueue<string> = new WorkQueue<string>({
    name: 'q',
    clock,
    metrics: c.workQueue(() => queue.stats()),
  });
  queue.add('a');
  queue.add('a'); // already waiting: not an add
  queue.add('b');
  await clock.advance(2_000);
  assert.equal(await queue.get(), 'a');
  await clock.advance(3_000);
  queue.addRateLimited('c');
  let f = parseExposition(await m.registry.metrics());
  assert.equal(value(f.get('workqueue_adds_total'), { name: 'q' }), 2);
  assert.equal(value(f.get('workqueue_retries_total'), { name: 'q' }), 1);
  assert.equal(value(f.get('workqueue_depth'), { name: 'q', controller: 'q', priority: '' }), 1);
  assert.equal(value(f.get('workqueue_unfinished_work_seconds'), { name: 'q' }), 3);
  assert.equal(value(f.get('workqueue_longest_running_processor_seconds'), { name: 'q' }), 3);
  assert.equal(value(f.get('workqueue_queue_duration_seconds'), { name: 'q', le: '10' }), 1);
  assert.equal(value(f.get('workqueue_queue_duration_seconds'), { name: 'q', le: '1' }), 0);
  queue.done('a');
  f = parseExposition(await m.registry.metrics());
  const work = f.get('workqueue_work_duration_seconds');
  assert.equal(work?.samples.find((s) => s.name.endsWith('_sum'))?.value, 3);
  assert.equal(value(f.get('workqueue_unfinished_work_seconds'), { name: 'q' }), 0);
});

void test('controller metrics: each result counted, errors counted, time on the clock, workers active while reconciling', async (t) => {
  const api = await startFakeApi();
  const clock = new ManualClock();
  const m = new RuntimeMetrics();
  const client = new KubeClient({
    config: {
      server: api.url,
      insecureSkipTLSVerify: false,
      auth: () => Promise.resolve(undefined),
      namespace: 'default',
    },
    clock,
    logger: silentLogger(),
    requestMetrics: m.requests,
  });
  const informers = new InformerFactory({ client, clock, logger: silentLogger(), random: testRandom() });
  let release: (() => void) | undefined;
  const c = new Controller({
    name: 'pods',
    informers,
    clock,
    logger: silentLogger(),
    workers: 3,
    reconcile: async (key) => {
      if (key === 'ns/fail') throw new Error('no');
      if (key === 'ns/after') return { requeueAfter: 60_000 };
      if (key === 'ns/again') return { requeue: true };
      if (key === 'ns/slow') {
        await new Promise<void>((r) => (release = r));
        await clock.advance(1_500);
      }
      return undefined;
    },
  }).for(PodResource);
  c.instrument(m);
  const abort = new AbortController();
  const running = c.start(abort.signal);
  t.after(async () => {
    abort.abort();
    await running;
    await client.close();
    await api.close();
  });
  for (const name of ['ok', 'fail', 'after', 'again'])
    api.put('/api/v1/pods', { metadata: { name, namespace: 'ns', generation: 1 } });
  const scrape = async (): Promise<Map<string, ParsedFamily>> => parseExposition(await m.registry.metrics());
  const result = async (r: string): Promise<number | undefined> =>
    value((await scrape()).get('controller_runtime_reconcile_total'), { controller: 'pods', result: r });
  await eventually(async () => (await result('requeue')) !== 0 && (await result('error')) !== 0);
  assert.equal(await result('success'), 1);
  assert.equal(await result('requeue_after'), 1);
  let f = await scrape();
  assert.equal(value(f.get('controller_runtime_reconcile_errors_total'), { controller: 'pods' }), 1);
  assert.equal(value(f.get('controller_runtime_max_concurrent_reconciles'), { controller: 'pods' }), 3);
  api.put('/api/v1/pods', { metadata: { name: 'slow', namespace: 'ns', generation: 1 } });
  await eventually(() => Promise.resolve(release !== undefined));
  f = await scrape();
  assert.equal(value(f.get('controller_runtime_active_workers'), { controller: 'pods' }), 1);
  release?.();
  await eventually(async () => (await result('success')) === 2);
  f = await scrape();
  assert.equal(value(f.get('controller_runtime_active_workers'), { controller: 'pods' }), 0);
  // The slow reconcile took 1.5 s on the clock: between the 1 and 1.5 buckets.
  const time = f.get('controller_runtime_reconcile_time_seconds');
  const le = (b: string): number => value(time, { controller: 'pods', le: b }) ?? 0;
  assert.ok(le('1.5') - le('1') >= 1);
  assert.ok((time?.samples.find((s) => s.name.endsWith('_sum'))?.value ?? 0) >= 1.5);
  const host = new URL(api.url).host;
  assert.ok((value(f.get('rest_client_requests_total'), { code: '200', method: 'GET', host }) ?? 0) >= 1);
});

void test('process metrics: prom-client’s default collectors, once per process', async () => {
  assert.equal(processMetricsRegistry(), processMetricsRegistry());
  const f = parseExposition(await processMetricsRegistry().metrics());
  for (const name of ['process_cpu_user_seconds_total', 'process_start_time_seconds', 'nodejs_heap_size_used_bytes'])
    assert.ok(f.has(name), name);
});
