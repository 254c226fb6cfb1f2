import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  claimReferenceFor,
  claimState,
  eventInfluencesOutcome,
  finalEventCutoff,
  hookFailurePolicy,
  hookRunMode,
  matchesDisruptiveHooks,
  selectHooks,
} from './hook-selection.js';
import { hook, upgradeJob } from './hook-fixtures.test-support.js';

const names = (hs: { metadata?: { name?: string } }[]): string[] => hs.map((h) => h.metadata?.name ?? '');

test('defaults: run All, failurePolicy Ignore; influencing events', () => {
  assert.equal(hookRunMode(hook('a')), 'All');
  assert.equal(hookFailurePolicy(hook('a')), 'Ignore');
  assert.equal(hookRunMode(hook('a', { run: 'Next' })), 'Next');
  assert.equal(hookFailurePolicy(hook('a', { failurePolicy: 'Abort' })), 'Abort');
  assert.deepEqual(
    (
      ['Create', 'Start', 'UpgradeComplete', 'MachineConfigPoolUnpause', 'Finish', 'Success', 'Failure'] as const
    ).filter(eventInfluencesOutcome),
    ['Create', 'Start', 'UpgradeComplete', 'MachineConfigPoolUnpause'],
  );
});

test('a hook runs only for the events it lists, in the job namespace, sorted by name', () => {
  const hooks = [
    hook('z-start', { events: ['Start'] }),
    hook('b-create', { events: ['Create'] }),
    hook('a-both', { events: ['Create', 'Start'] }),
    hook('other-ns', { events: ['Create'] }, { namespace: 'elsewhere' }),
  ];
  const sel = selectHooks(upgradeJob(), hooks, 'Create');
  assert.deepEqual(names(sel.run), ['a-both', 'b-create']);
  assert.deepEqual(sel.skipped, [{ hook: 'other-ns', reason: 'otherNamespace' }]);
  assert.deepEqual(names(selectHooks(upgradeJob(), hooks, 'Start').run), ['a-both', 'z-start']);
  assert.deepEqual(selectHooks(upgradeJob(), hooks, 'Finish').run, []);
});

test('selectors: absent or {} select every job; matchLabels and expressions; invalid ones are skipped', () => {
  const hooks = [
    hook('absent'),
    hook('empty', { selector: {} }),
    hook('match', { selector: { matchLabels: { 'upgrade-config': 'cluster-upgrade' } } }),
    hook('mismatch', { selector: { matchLabels: { 'upgrade-config': 'other' } } }),
    hook('expr', {
      selector: { matchExpressions: [{ key: 'upgrade-config', operator: 'In', values: ['cluster-upgrade', 'x'] }] },
    }),
    hook('bad-in', { selector: { matchExpressions: [{ key: 'upgrade-config', operator: 'In', values: [] }] } }),
    hook('bad-exists', {
      selector: { matchExpressions: [{ key: 'upgrade-config', operator: 'Exists', values: ['x'] }] },
    }),
    hook('bad-op', { selector: { matchExpressions: [{ key: 'upgrade-config', operator: 'Gt', values: ['1'] }] } }),
  ];
  const sel = selectHooks(upgradeJob(), hooks, 'Create');
  assert.deepEqual(names(sel.run), ['absent', 'empty', 'expr', 'match']);
  assert.deepEqual(sel.skipped, [
    { hook: 'bad-exists', reason: 'invalidSelector' },
    { hook: 'bad-in', reason: 'invalidSelector' },
    { hook: 'bad-op', reason: 'invalidSelector' },
    { hook: 'mismatch', reason: 'selectorMismatch' },
  ]);
});

test('final events are not retroactive: hooks created after the final condition do not run', () => {
  const done = upgradeJob({
    conditions: [
      { type: 'Succeeded', status: 'True', reason: 'Succeeded', lastTransitionTime: '2023-11-15T01:00:00Z' },
    ],
  });
  assert.equal(finalEventCutoff(done), Date.parse('2023-11-15T01:00:00Z'));
  const hooks = [
    hook('before', { events: ['Success', 'Finish', 'Create'] }, { creationTimestamp: '2023-11-15T00:59:59Z' }),
    hook('same-second', { events: ['Success', 'Finish', 'Create'] }, { creationTimestamp: '2023-11-15T01:00:00Z' }),
    hook('after', { events: ['Success', 'Finish', 'Create'] }, { creationTimestamp: '2023-11-15T01:00:01Z' }),
  ];
  const sel = selectHooks(done, hooks, 'Success');
  assert.deepEqual(names(sel.run), ['before', 'same-second']);
  assert.deepEqual(sel.skipped, [{ hook: 'after', reason: 'createdAfterCutoff' }]);
  assert.deepEqual(names(selectHooks(done, hooks, 'Finish').run), ['before', 'same-second']);
  // No cutoff for Create or Start: a new hook runs for jobs already pending or running.
  assert.deepEqual(names(selectHooks(done, hooks, 'Create').run), ['after', 'before', 'same-second']);
  // An explicit cutoff wins.
  assert.deepEqual(names(selectHooks(done, hooks, 'Success', { cutoff: Date.parse('2023-11-15T01:00:01Z') }).run), [
    'after',
    'before',
    'same-second',
  ]);
  assert.equal(finalEventCutoff(upgradeJob()), undefined);
});

test('run: Next: an unclaimed hook is claimed by the first job; the claim is permanent', () => {
  const job = upgradeJob();
  const free = hook('next', { run: 'Next' });
  const sel = selectHooks(job, [free, hook('all')], 'Create');
  assert.deepEqual(names(sel.run), ['all', 'next']);
  assert.deepEqual(names(sel.toClaim), ['next']);
  assert.deepEqual(sel.claim, {
    apiVersion: 'managedupgrade.appuio.io/v1beta1',
    kind: 'UpgradeJob',
    name: 'cluster-upgrade-4-15-3-1700000000',
    uid: 'uid-1',
  });

  const ours = hook('next', { run: 'Next' }, { claimedBy: claimReferenceFor(job) });
  const again = selectHooks(job, [ours], 'Start');
  assert.deepEqual(names(again.run), ['next']);
  assert.deepEqual(again.toClaim, []);

  const other = upgradeJob({ name: 'cluster-upgrade-4-16-0-1700600000' });
  const theirs = selectHooks(other, [ours], 'Create');
  assert.deepEqual(theirs.run, []);
  assert.deepEqual(theirs.skipped, [{ hook: 'next', reason: 'claimedByOther' }]);
});

test('claims: Go zero value is free; empty apiVersion/kind from upstream still count as ours; a claim on All is ignored', () => {
  const job = upgradeJob();
  assert.equal(
    claimState(hook('h', { run: 'Next' }, { claimedBy: { apiVersion: '', kind: '', name: '', uid: '' } }), job),
    'free',
  );
  assert.equal(
    claimState(
      hook(
        'h',
        { run: 'Next' },
        { claimedBy: { apiVersion: '', kind: '', name: 'cluster-upgrade-4-15-3-1700000000', uid: 'uid-1' } },
      ),
      job,
    ),
    'ours',
  );
  assert.equal(
    claimState(
      hook(
        'h',
        { run: 'Next' },
        { claimedBy: { apiVersion: 'x', kind: 'UpgradeJob', name: 'cluster-upgrade-4-15-3-1700000000', uid: 'uid-2' } },
      ),
      job,
    ),
    'theirs',
  );
  const all = hook('h', { run: 'All' }, { claimedBy: { apiVersion: '', kind: '', name: 'other', uid: 'u' } });
  assert.deepEqual(names(selectHooks(job, [all], 'Create').run), ['h']);
});

test('matchesDisruptiveHooks: any disruptive hook that would run for the job, whatever its events', () => {
  const job = upgradeJob();
  assert.equal(matchesDisruptiveHooks(job, [hook('a'), hook('b', { disruptive: false })]), false);
  assert.equal(
    matchesDisruptiveHooks(job, [hook('a'), hook('d', { disruptive: true, events: ['UpgradeComplete'] })]),
    true,
  );
  assert.equal(
    matchesDisruptiveHooks(job, [hook('d', { disruptive: true, selector: { matchLabels: { x: 'y' } } })]),
    false,
  );
  assert.equal(matchesDisruptiveHooks(job, [hook('d', { disruptive: true }, { namespace: 'elsewhere' })]), false);
  assert.equal(
    matchesDisruptiveHooks(job, [
      hook(
        'd',
        { disruptive: true, run: 'Next' },
        { claimedBy: { apiVersion: '', kind: '', name: 'other', uid: 'u9' } },
      ),
    ]),
    false,
  );
  assert.equal(matchesDisruptiveHooks(job, [hook('d', { disruptive: true, run: 'Next' })]), true);
});
