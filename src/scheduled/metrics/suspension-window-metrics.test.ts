import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import type { UpgradeSuspensionWindow } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-suspension-window.js';
import { silentLogger } from '../../lib/log.js';
import { parseExposition, samplesOf, valueOf } from '../../kube/metrics-exposition.test-support.js';
import { boundedLabelValue, MAX_LABEL_VALUE_LENGTH } from './scrape-gauges.js';
import {
  SuspensionWindowCollector,
  SuspensionWindowMetricName as N,
  suspensionWindowSeries,
} from './suspension-window-metrics.js';

function window(
  name: string,
  extra: { start?: string; end?: string; reason?: string; configs?: string[] } = {},
): UpgradeSuspensionWindow {
  return {
    metadata: { name, namespace: 'appuio' },
    spec: {
      start: extra.start ?? '2022-03-01T00:00:00Z',
      end: extra.end ?? '2022-06-01T00:00:00Z',
      reason: extra.reason ?? 'No moar upgrades',
      configSelector: {},
    },
    ...(extra.configs ? { status: { matchingConfigs: extra.configs.map((c) => ({ name: c })) } } : {}),
  };
}

void test('series: info, start, end and one matching_config per status.matchingConfigs entry', () => {
  const s = suspensionWindowSeries([
    window('mywindow', { configs: ['matching1', 'matching2'] }),
    window('quiet', { start: '2022-12-20T00:00:00+01:00', reason: 'Holidays' }),
  ]);
  assert.deepEqual(s.get(N.info), [
    { labels: { upgradesuspensionwindow: 'mywindow', reason: 'No moar upgrades' }, value: 1 },
    { labels: { upgradesuspensionwindow: 'quiet', reason: 'Holidays' }, value: 1 },
  ]);
  assert.deepEqual(s.get(N.start), [
    { labels: { upgradesuspensionwindow: 'mywindow' }, value: 1646092800 },
    { labels: { upgradesuspensionwindow: 'quiet' }, value: 1671490800 },
  ]);
  assert.deepEqual(s.get(N.end), [
    { labels: { upgradesuspensionwindow: 'mywindow' }, value: 1654041600 },
    { labels: { upgradesuspensionwindow: 'quiet' }, value: 1654041600 },
  ]);
  assert.deepEqual(s.get(N.matchingConfig), [
    { labels: { upgradesuspensionwindow: 'mywindow', config: 'matching1' }, value: 1 },
    { labels: { upgradesuspensionwindow: 'mywindow', config: 'matching2' }, value: 1 },
  ]);
});

void test('series: an unparsable end leaves out only that series', () => {
  const s = suspensionWindowSeries([window('w', { end: 'soon' })]);
  assert.equal(s.get(N.info)?.length, 1);
  assert.equal(s.get(N.start)?.length, 1);
  assert.deepEqual(s.get(N.end), []);
});

void test('collector: the four families with our help texts (end says end), computed per scrape', async () => {
  const registry = new Registry();
  let windows = [window('mywindow', { configs: ['matching1'] })];
  new SuspensionWindowCollector(registry, () => windows, { log: silentLogger() });
  const f = parseExposition(await registry.metrics());
  for (const name of Object.values(N)) assert.equal(f.get(name)?.type, 'gauge', name);
  assert.match(f.get(N.end)?.help ?? '', /spec\.end/);
  assert.doesNotMatch(f.get(N.end)?.help ?? '', /start/);
  assert.equal(valueOf(f, N.info, { upgradesuspensionwindow: 'mywindow', reason: 'No moar upgrades' }), 1);
  assert.equal(valueOf(f, N.start, { upgradesuspensionwindow: 'mywindow' }), 1646092800);
  assert.equal(valueOf(f, N.end, { upgradesuspensionwindow: 'mywindow' }), 1654041600);
  assert.equal(valueOf(f, N.matchingConfig, { upgradesuspensionwindow: 'mywindow', config: 'matching1' }), 1);

  windows = [];
  const after = parseExposition(await registry.metrics());
  for (const name of Object.values(N)) assert.deepEqual(samplesOf(after, name), [], name);
});

void test('collector: a throwing source gives no series instead of failing the scrape', async () => {
  const registry = new Registry();
  new SuspensionWindowCollector(
    registry,
    () => {
      throw new Error('forbidden');
    },
    { log: silentLogger() },
  );
  const f = parseExposition(await registry.metrics());
  for (const name of Object.values(N)) assert.deepEqual(samplesOf(f, name), [], name);
});

void test('collector: a free-text reason is exported bounded: control characters replaced, cut at 256 characters', async () => {
  const registry = new Registry();
  const long = `${'x'.repeat(70_000)}`;
  new SuspensionWindowCollector(
    registry,
    () => [window('long', { reason: long }), window('nul', { reason: 'a\u0000b\nc' })],
    { log: silentLogger() },
  );
  const f = parseExposition(await registry.metrics());
  const reasons = samplesOf(f, N.info).map((s) => s.labels['reason'] ?? '');
  assert.deepEqual(reasons, [`${'x'.repeat(MAX_LABEL_VALUE_LENGTH - 1)}…`, 'a\ufffdb\ufffdc']);
  assert.equal(boundedLabelValue('kept as it is'), 'kept as it is');
  assert.equal(Array.from(boundedLabelValue('é'.repeat(300))).length, MAX_LABEL_VALUE_LENGTH);
});
