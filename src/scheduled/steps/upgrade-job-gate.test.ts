import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import type { UpgradeSuspensionWindow } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-suspension-window.js';
import {
  hookWaitBound,
  isTimedOut,
  jobTiming,
  matchingSuspensionWindow,
  startDecision,
  type JobTiming,
} from './upgrade-job-gate.js';

const H = 3_600_000;
const A = Date.parse('2026-03-03T22:00:00Z');

function job(extra: { timeout?: string; labels?: Record<string, string>; namespace?: string } = {}): UpgradeJob {
  return {
    metadata: { name: 'j', namespace: extra.namespace ?? 'ns', ...(extra.labels ? { labels: extra.labels } : {}) },
    spec: {
      startAfter: '2026-03-03T22:00:00Z',
      startBefore: '2026-03-03T23:00:00Z',
      config: { upgradeTimeout: extra.timeout ?? '12h', preUpgradeHealthChecks: {}, postUpgradeHealthChecks: {} },
    },
  } as UpgradeJob;
}

function timing(timeout = '12h'): JobTiming {
  const r = jobTiming(job({ timeout }));
  assert.ok(r.ok);
  return r.timing;
}

void test('times: startAfter, startBefore, upgradeTimeout (Go duration) from startAfter; an unreadable timeout falls back to 12h and says so', () => {
  const t = timing('2h30m');
  assert.equal(t.startAfter, A);
  assert.equal(t.startBefore, A + H);
  assert.equal(t.timeoutMs, 2.5 * H);
  assert.equal(t.timeoutAt, A + 2.5 * H);
  assert.deepEqual(t.problems, []);
  const bad = timing('1d');
  assert.equal(bad.timeoutMs, 12 * H);
  assert.match(bad.problems[0]!, /upgradeTimeout: time: unknown unit "d" in duration "1d"; using 12h/);
  const broken = jobTiming({ ...job(), spec: { ...job().spec!, startAfter: 'soon' } });
  assert.equal(broken.ok, false);
});

void test('the timeout is strict: not at startAfter + timeout, one ms later', () => {
  const t = timing('2h');
  assert.equal(isTimedOut(A + 2 * H, t), false);
  assert.equal(isTimedOut(A + 2 * H + 1, t), true);
});

void test('start gate: wait until startAfter, start in [startAfter, startBefore], expire after; a window skips only from startAfter on', () => {
  const t = timing();
  const w = { name: 'freeze', reason: 'x' };
  assert.deepEqual(startDecision(A - 1, t, undefined), { kind: 'wait', until: A });
  assert.deepEqual(startDecision(A - 1, t, w), { kind: 'wait', until: A });
  assert.deepEqual(startDecision(A, t, undefined), { kind: 'start' });
  assert.deepEqual(startDecision(A + H, t, undefined), { kind: 'start' }, 'startBefore itself still starts');
  assert.deepEqual(startDecision(A + H + 1, t, undefined), { kind: 'expire' });
  assert.deepEqual(startDecision(A, t, w), { kind: 'skip', window: w });
  assert.deepEqual(startDecision(A + H + 1, t, w), { kind: 'skip', window: w });
});

void test('the bound on hooks: an unstarted job waits at most until startBefore, a started one until the timeout', () => {
  const t = timing('3h');
  assert.deepEqual(hookWaitBound(A - H, t, false, undefined), { kind: 'wait', until: A + H + 1 });
  assert.deepEqual(hookWaitBound(A + H + 1, t, false, undefined), { kind: 'expire' });
  assert.deepEqual(hookWaitBound(A + H + 1, t, false, { name: 'w', reason: 'r' }), {
    kind: 'skip',
    window: { name: 'w', reason: 'r' },
  });
  assert.deepEqual(hookWaitBound(A + H + 1, t, true, undefined), { kind: 'wait', until: A + 3 * H + 1 });
  assert.deepEqual(hookWaitBound(A + 3 * H + 1, t, true, undefined), { kind: 'timeout' });
  // A startBefore later than the timeout: the timeout bounds the unstarted job too.
  const long = { ...t, startBefore: A + 5 * H };
  assert.deepEqual(hookWaitBound(A, long, false, undefined), { kind: 'wait', until: A + 3 * H + 1 });
  assert.deepEqual(hookWaitBound(A + 4 * H, long, false, undefined), { kind: 'timeout' });
});

void test('suspension windows: same namespace, jobSelector absent = none, {} = all, labels matched, [start, end] inclusive, first by name', () => {
  const win = (
    name: string,
    extra: Partial<NonNullable<UpgradeSuspensionWindow['spec']>> = {},
    namespace = 'ns',
  ): UpgradeSuspensionWindow => ({
    metadata: { name, namespace },
    spec: { start: '2026-03-03T00:00:00Z', end: '2026-03-03T22:00:00Z', reason: `r-${name}`, ...extra },
  });
  const j = job({ labels: { tier: 'prod' } });
  assert.equal(matchingSuspensionWindow([win('none')], j, A), undefined, 'no jobSelector matches nothing');
  assert.deepEqual(
    matchingSuspensionWindow([win('all', { jobSelector: {} })], j, A),
    { name: 'all', reason: 'r-all' },
    'end is inclusive',
  );
  assert.equal(matchingSuspensionWindow([win('all', { jobSelector: {} })], j, A + 1000), undefined);
  assert.equal(matchingSuspensionWindow([win('other-ns', { jobSelector: {} }, 'elsewhere')], j, A), undefined);
  assert.equal(
    matchingSuspensionWindow([win('dev', { jobSelector: { matchLabels: { tier: 'dev' } } })], j, A),
    undefined,
  );
  assert.equal(
    matchingSuspensionWindow(
      [win('b', { jobSelector: {} }), win('a', { jobSelector: { matchLabels: { tier: 'prod' } } })],
      j,
      A,
    )?.name,
    'a',
  );
});
