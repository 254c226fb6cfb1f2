import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import type { ScheduledUpgradeConfig } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-config.js';
import type { UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import type { UpgradeSuspensionWindow } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-suspension-window.js';
import {
  isInvalidSelector,
  suspensionWindowMatches,
  suspensionWindowStatusEqual,
  windowMatchingConfigs,
  windowMatchingJobs,
} from './suspension-window-matching.js';

const NS = 'appuio';
const START = '2026-03-10T00:00:00Z';
const END = '2026-03-12T00:00:00Z';

function win(
  sel: { configSelector?: LabelSelector; jobSelector?: LabelSelector },
  o: { start?: string; end?: string; namespace?: string } = {},
): UpgradeSuspensionWindow {
  return {
    metadata: { name: 'freeze', namespace: o.namespace ?? NS },
    spec: { start: o.start ?? START, end: o.end ?? END, reason: 'freeze', ...sel },
  };
}

function config(name: string, labels: Record<string, string> = {}, namespace = NS): ScheduledUpgradeConfig {
  return { metadata: { name, namespace, labels } } as ScheduledUpgradeConfig;
}

function job(name: string, startAfter: string, labels: Record<string, string> = {}, namespace = NS): UpgradeJob {
  return {
    metadata: { name, namespace, labels },
    spec: {
      startAfter,
      startBefore: startAfter,
      config: { upgradeTimeout: '12h', preUpgradeHealthChecks: {}, postUpgradeHealthChecks: {} },
    },
  } as UpgradeJob;
}

void test('configs: absent selector none, {} all of the namespace, labels select; sorted by name', () => {
  const configs = [
    config('zeta', { tier: 'prod' }),
    config('alpha', { tier: 'dev' }),
    config('mid', { tier: 'prod' }),
    config('other-ns', { tier: 'prod' }, 'elsewhere'),
  ];
  assert.deepEqual(windowMatchingConfigs(win({}), configs), []);
  assert.deepEqual(
    windowMatchingConfigs(win({ configSelector: {} }), configs),
    ['alpha', 'mid', 'zeta'],
    'only the window’s namespace',
  );
  assert.deepEqual(windowMatchingConfigs(win({ configSelector: { matchLabels: { tier: 'prod' } } }), configs), [
    'mid',
    'zeta',
  ]);
  assert.deepEqual(
    windowMatchingConfigs(
      win({ configSelector: { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['prod'] }] } }),
      configs,
    ),
    ['alpha'],
  );
  assert.deepEqual(
    windowMatchingConfigs(
      win({ configSelector: { matchExpressions: [{ key: 'tier', operator: 'In', values: [] }] } }),
      configs,
    ),
    [],
    'invalid selects nothing',
  );
});

void test('jobs: selector and startAfter in the inclusive [start, end]; same namespace only', () => {
  const jobs = [
    job('at-start', START),
    job('at-end', END),
    job('before', '2026-03-09T23:59:59Z'),
    job('after', '2026-03-12T00:00:01Z'),
    job('inside-dev', '2026-03-11T00:00:00Z', { tier: 'dev' }),
    job('elsewhere', '2026-03-11T00:00:00Z', {}, 'elsewhere'),
    job('bad-time', 'soon'),
  ];
  assert.deepEqual(windowMatchingJobs(win({}), jobs), []);
  assert.deepEqual(windowMatchingJobs(win({ jobSelector: {} }), jobs), ['at-end', 'at-start', 'inside-dev']);
  assert.deepEqual(windowMatchingJobs(win({ jobSelector: { matchLabels: { tier: 'dev' } } }), jobs), ['inside-dev']);
  assert.deepEqual(windowMatchingJobs(win({ jobSelector: {} }, { start: 'never' }), jobs), []);
});

void test('suspensionWindowMatches builds the status and reports problems', () => {
  const w = win(
    { configSelector: { matchExpressions: [{ key: 'x', operator: 'Bogus' }] }, jobSelector: {} },
    { end: 'later' },
  );
  const m = suspensionWindowMatches(w, [config('a')], [job('j', START)]);
  assert.deepEqual(m.status, { matchingConfigs: [], matchingJobs: [] });
  assert.deepEqual(m.problems, [
    'spec.configSelector is invalid: it selects nothing',
    'spec.end: "later" is not a time; no job matches',
  ]);
  const ok = suspensionWindowMatches(
    win({ configSelector: {}, jobSelector: {} }),
    [config('b'), config('a')],
    [job('j', START)],
  );
  assert.deepEqual(ok, {
    status: { matchingConfigs: [{ name: 'a' }, { name: 'b' }], matchingJobs: [{ name: 'j' }] },
    problems: [],
  });
});

void test('isInvalidSelector finds a bad expression behind valid ones', () => {
  assert.equal(
    isInvalidSelector({
      matchLabels: { a: 'b' },
      matchExpressions: [
        { key: 'a', operator: 'Exists' },
        { key: 'b', operator: 'In', values: [] },
      ],
    }),
    true,
  );
  assert.equal(
    isInvalidSelector({ matchLabels: { a: 'b' }, matchExpressions: [{ key: 'a', operator: 'In', values: ['b'] }] }),
    false,
  );
  assert.equal(isInvalidSelector({}), false);
});

void test('suspensionWindowStatusEqual: an absent list is not an empty one; order and names count', () => {
  assert.ok(!suspensionWindowStatusEqual(undefined, { matchingConfigs: [], matchingJobs: [] }));
  assert.ok(!suspensionWindowStatusEqual({ matchingJobs: [] }, { matchingConfigs: [], matchingJobs: [] }));
  assert.ok(
    suspensionWindowStatusEqual({ matchingConfigs: [], matchingJobs: [] }, { matchingConfigs: [], matchingJobs: [] }),
  );
  assert.ok(
    suspensionWindowStatusEqual(
      { matchingConfigs: [{ name: 'a' }], matchingJobs: [] },
      { matchingConfigs: [{ name: 'a' }], matchingJobs: [] },
    ),
  );
  assert.ok(
    !suspensionWindowStatusEqual({ matchingConfigs: [{ name: 'a' }] }, { matchingConfigs: [], matchingJobs: [] }),
  );
  assert.ok(
    !suspensionWindowStatusEqual(
      { matchingConfigs: [{ name: 'b' }, { name: 'a' }] },
      { matchingConfigs: [{ name: 'a' }, { name: 'b' }], matchingJobs: [] },
    ),
  );
});
