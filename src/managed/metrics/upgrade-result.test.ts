import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { parser } from '@prometheus-io/lezer-promql';
import type { InstantQueryOptions, PrometheusApi, PromSample } from '../../integrations/prometheus-api.js';
import { IntegrationError } from '../../integrations/integration-error.js';
import {
  alertsDuringUpgrade,
  formatPromDuration,
  PAGING_ALERTS,
  pagingAlertsQuery,
  upgradeStream,
} from './upgrade-result.js';

/** Positions of lezer error nodes in `query` (empty = it parses). */
function syntaxErrors(query: string): number[] {
  const errors: number[] = [];
  parser.parse(query).iterate({
    enter: (n) => {
      if (n.type.isError) errors.push(n.from);
    },
  });
  return errors;
}

test('upgradeStream compares the minor only, as MUO does', () => {
  assert.equal(upgradeStream('4.14.9', '4.15.0'), 'y');
  assert.equal(upgradeStream('4.15.1', '4.15.3'), 'z');
  assert.equal(upgradeStream('4.9.0', '4.10.0'), 'y');
  assert.equal(upgradeStream('4.15.0-rc.1', '4.15.0'), 'z');
  assert.equal(upgradeStream('4.15.3', '4.15.3'), 'z');
  assert.equal(upgradeStream('', '4.15.0'), 'unknown');
  assert.equal(upgradeStream(undefined, '4.15.0'), 'unknown');
  assert.equal(upgradeStream('4.15', '4.16.0'), 'unknown');
  assert.equal(upgradeStream('4.15.0', 'latest'), 'unknown');
});

test('formatPromDuration writes integer unit groups', () => {
  assert.equal(formatPromDuration(0), '0s');
  assert.equal(formatPromDuration(59), '59s');
  assert.equal(formatPromDuration(60), '1m');
  assert.equal(formatPromDuration(3600), '1h');
  assert.equal(formatPromDuration(5405), '1h30m5s');
  assert.equal(formatPromDuration(90_061), '25h1m1s');
  assert.equal(formatPromDuration(12.9), '12s');
  assert.equal(formatPromDuration(-5), '0s');
});

test("pagingAlertsQuery is MUO's query: five paging alerts over the upgrade, offset by the time since completion", () => {
  const start = Date.UTC(2026, 0, 1, 10, 0, 0);
  const q = pagingAlertsQuery({
    startMs: start,
    completeMs: start + 95 * 60_000,
    nowMs: start + 95 * 60_000 + 3 * 3600_000 + 7_500,
  });
  assert.equal(
    q,
    'sum by (alertname) (max_over_time(ALERTS{alertstate="firing",severity="critical",alertname=~"' +
      'UpgradeConfigValidationFailedSRE|UpgradeClusterCheckFailedSRE|UpgradeControlPlaneUpgradeTimeoutSRE|' +
      'UpgradeNodeUpgradeTimeoutSRE|UpgradeNodeDrainFailedSRE"}[1h35m] offset 3h7s))',
  );
  assert.deepEqual(syntaxErrors(q), []);
  assert.equal(PAGING_ALERTS.length, 5);
});

test('pagingAlertsQuery: an instant upgrade gets a 1s range, a just-completed one no offset', () => {
  const q = pagingAlertsQuery({ startMs: 1000, completeMs: 1000, nowMs: 1500 });
  assert.match(q, /\[1s\]\)\)$/);
  assert.doesNotMatch(q, /offset/);
  assert.deepEqual(syntaxErrors(q), []);
  // Completion "in the future" (clock skew) never yields a negative offset.
  assert.doesNotMatch(pagingAlertsQuery({ startMs: 0, completeMs: 10_000, nowMs: 5_000 }), /offset/);
});

test('pagingAlertsQuery always parses (lezer-promql), whatever the times', () => {
  fc.assert(
    fc.property(
      fc.nat(10 ** 9),
      fc.nat(10 ** 9),
      fc.integer({ min: -(10 ** 6), max: 10 ** 10 }),
      (start, duration, since) => {
        const q = pagingAlertsQuery({ startMs: start, completeMs: start + duration, nowMs: start + duration + since });
        assert.deepEqual(syntaxErrors(q), [], q);
      },
    ),
  );
  // Sanity: the check does see errors.
  assert.notDeepEqual(syntaxErrors('max_over_time(ALERTS[1.5s])'), []);
});

test("Prometheus' own parser accepts pagingAlertsQuery (promtool check rules)", () => {
  const dir = mkdtempSync(join(tmpdir(), 'paging-query-'));
  try {
    const queries = [
      pagingAlertsQuery({ startMs: 0, completeMs: 5_405_000, nowMs: 5_405_000 + 86_400_000 }),
      pagingAlertsQuery({ startMs: 0, completeMs: 0, nowMs: 0 }),
    ];
    const rules = {
      groups: [{ name: 'paging', rules: queries.map((expr, i) => ({ record: `paging_alerts_${i}`, expr })) }],
    };
    const file = join(dir, 'rules.json');
    writeFileSync(file, JSON.stringify(rules));
    const r = spawnSync('promtool', ['check', 'rules', file], { encoding: 'utf8' });
    assert.equal(r.error, undefined, String(r.error));
    assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
    assert.match(r.stdout, /SUCCESS: 2 rules found/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

class FakePrometheus implements PrometheusApi {
  readonly calls: { promql: string; options: InstantQueryOptions | undefined }[] = [];
  readonly #answer: () => PromSample[];
  constructor(answer: () => PromSample[]) {
    this.#answer = answer;
  }
  async query(promql: string, options?: InstantQueryOptions): Promise<PromSample[]> {
    this.calls.push({ promql, options });
    return this.#answer();
  }
}

test('alertsDuringUpgrade evaluates at now and returns sorted, unique alert names', async () => {
  const sample = (alertname: string): PromSample => ({ metric: { alertname }, value: 1, timestamp: 0 });
  const prom = new FakePrometheus(() => [
    sample('UpgradeNodeDrainFailedSRE'),
    sample('UpgradeClusterCheckFailedSRE'),
    sample('UpgradeNodeDrainFailedSRE'),
  ]);
  const interval = { startMs: 0, completeMs: 60_000, nowMs: 120_000 };
  assert.deepEqual(await alertsDuringUpgrade(prom, interval), [
    'UpgradeClusterCheckFailedSRE',
    'UpgradeNodeDrainFailedSRE',
  ]);
  assert.equal(prom.calls[0]?.promql, pagingAlertsQuery(interval));
  assert.equal(prom.calls[0]?.options?.time, 120_000);
  assert.deepEqual(await alertsDuringUpgrade(new FakePrometheus(() => []), interval), []);
});

test('alertsDuringUpgrade fails closed when Prometheus fails', async () => {
  const prom = new FakePrometheus(() => {
    throw new IntegrationError('prometheus', 'Unreachable', 'connection refused');
  });
  await assert.rejects(alertsDuringUpgrade(prom, { startMs: 0, completeMs: 1, nowMs: 2 }), IntegrationError);
});
