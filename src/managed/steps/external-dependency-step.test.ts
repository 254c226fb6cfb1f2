import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NEVER, T0, commencedCluster, fakeStepContext } from './step-context.test-support.js';
import { externalDependencyCheck, type UrlProbe } from './external-dependency-step.js';

const URLS = ['https://api.openshift.com/healthz', 'https://quay.io/v2/', 'https://registry.redhat.io/'];
const CONFIG = `extDependencyAvailabilityChecks:\n  http:\n    timeout: 5\n    urls:\n${URLS.map((url) => `      - ${url}\n`).join('')}`;

/** A probe answering `problems[url]` (undefined: available), recording its calls. */
function probe(problems: Record<string, string> = {}): {
  probe: UrlProbe;
  calls: Array<{ url: string; timeoutMs: number; signal: AbortSignal }>;
} {
  const calls: Array<{ url: string; timeoutMs: number; signal: AbortSignal }> = [];
  return {
    calls,
    probe: (url, timeoutMs, signal) => {
      calls.push({ url, timeoutMs, signal });
      return Promise.resolve(problems[url]);
    },
  };
}

void test('ExternalDependencyAvailabilityCheck: every URL probed once with the configured timeout; all available is done', async () => {
  const fake = fakeStepContext({ operatorConfig: CONFIG });
  const p = probe();
  const signal = new AbortController().signal;
  assert.deepEqual(await externalDependencyCheck(p.probe).run(fake.ctx, signal), { status: 'done' });
  assert.deepEqual(
    p.calls.map((call) => [call.url, call.timeoutMs, call.signal === signal]),
    URLS.map((url) => [url, 5_000, true]),
  );
});

void test('ExternalDependencyAvailabilityCheck: failing URLs fail the step, named in config order, retried in 30 s', async () => {
  const fake = fakeStepContext({ operatorConfig: CONFIG, now: T0 + 7_000 });
  const p = probe({ [URLS[2]!]: 'HTTP 503', [URLS[0]!]: 'connect ETIMEDOUT' });
  const want = {
    status: 'failed',
    error: `external dependencies unavailable: ${URLS[0]!}: connect ETIMEDOUT; ${URLS[2]!}: HTTP 503`,
    reason: 'ExternalDependencyUnavailable',
    waitFor: { until: T0 + 7_000 + 30_000 },
  };
  const step = externalDependencyCheck(p.probe);
  assert.deepEqual(await step.run(fake.ctx, NEVER), want);
  assert.equal(p.calls.length, URLS.length);
  assert.deepEqual(await step.run(fake.ctx, NEVER), want, 'the next pass asks again');
  assert.equal(p.calls.length, 2 * URLS.length, 'one attempt per URL per pass, no retry within a pass');
});

void test('ExternalDependencyAvailabilityCheck: no URL configured, or already commenced, is done without a probe', async () => {
  const p = probe({ [URLS[0]!]: 'HTTP 503' });
  const none = fakeStepContext();
  assert.deepEqual(await externalDependencyCheck(p.probe).run(none.ctx, NEVER), { status: 'done' });
  const commenced = fakeStepContext({
    operatorConfig: CONFIG,
    cluster: commencedCluster(),
  });
  assert.deepEqual(await externalDependencyCheck(p.probe).run(commenced.ctx, NEVER), { status: 'done' });
  assert.deepEqual(p.calls, []);
});
