import { test } from 'node:test';
import semver from 'semver';
import assert from 'node:assert/strict';
import type {
  ClusterVersion,
  ConditionalUpdateRisk,
  UpdateHistory,
} from '../../api/openshift/config-v1/cluster-version.js';
import { formatTime, ManualClock } from '../../lib/clock.js';
import { buildCatalogue } from '../releases/catalogue.js';
import { buildGraph } from '../updateservice/graph.js';
import {
  computeUpdates,
  evaluateRisk,
  parseGraph,
  recommendedCondition,
  type CachedMatch,
} from './available-updates.js';
import { resolveDesired } from './desired.js';
import { loadFailure } from './release-accepted.js';
import { completeHistoryHead, MAX_HISTORY, startHistoryEntry } from './history.js';
import { checkPreconditions, judgePreconditions } from './preconditions.js';
import { ThrottledWriter } from './throttle.js';
import { evaluateUpgradeable } from './upgradeable.js';

const T0 = Date.UTC(2026, 2, 2);
const catalogue = buildCatalogue();

function cvAt(
  version: string,
  history: UpdateHistory[],
  extra: Partial<NonNullable<ClusterVersion['status']>> = {},
): ClusterVersion {
  return {
    spec: { clusterID: 'x', channel: 'stable-4.15' },
    status: {
      desired: { version, image: `img@${version}` },
      history,
      observedGeneration: 1,
      versionHash: '',
      availableUpdates: null,
      ...extra,
    },
  };
}
const done = (version: string): UpdateHistory => ({
  state: 'Completed',
  startedTime: formatTime(T0 - 1e6),
  completionTime: formatTime(T0 - 1e5),
  version,
  image: `img@${version}`,
  verified: true,
});

test('history: a new target closes an unfinished head; the same target merges; completion is set once; at most 100', () => {
  let h = startHistoryEntry([done('4.14.10')], { version: '4.14.11', image: 'img@4.14.11', verified: true }, T0);
  assert.deepEqual(
    h.map((e) => [e.state, e.version, e.completionTime]),
    [
      ['Partial', '4.14.11', null],
      ['Completed', '4.14.10', formatTime(T0 - 1e5)],
    ],
  );
  h = startHistoryEntry(h, { version: '4.14.11', image: 'img@4.14.11', verified: true }, T0 + 1000);
  assert.equal(h.length, 2);
  h = startHistoryEntry(h, { version: '4.14.12', image: 'img@4.14.12', verified: true }, T0 + 2000);
  assert.deepEqual(h.map((e) => [e.state, e.version, e.completionTime]).slice(0, 2), [
    ['Partial', '4.14.12', null],
    ['Partial', '4.14.11', formatTime(T0 + 2000)],
  ]);
  h = completeHistoryHead(h, T0 + 3000);
  h = completeHistoryHead(h, T0 + 4000);
  assert.equal(h[0]!.completionTime, formatTime(T0 + 3000));
  let long = [done('4.13.0')];
  for (let i = 1; i <= 120; i++)
    long = completeHistoryHead(
      startHistoryEntry(long, { version: `4.13.${i}`, image: `img@4.13.${i}`, verified: true }, T0 + i),
      T0 + i,
    );
  assert.equal(long.length, MAX_HISTORY);
  assert.equal(long[long.length - 1]!.version, '4.13.0', 'the install entry stays');
});

test('desiredUpdate validation: semver, version-only lookups, and the image digest in the catalogue', () => {
  const cv = cvAt('4.14.10', [done('4.14.10')], {
    availableUpdates: [{ version: '4.14.11', image: catalogue.byVersion.get('4.14.11')!.pullSpec }],
  });
  cv.spec.desiredUpdate = { version: '4.14.11' };
  const ok = resolveDesired(cv, catalogue);
  assert.equal(ok.kind === 'target' && ok.target.release?.version, '4.14.11');
  cv.spec.desiredUpdate = { version: 'v4.15' };
  assert.deepEqual(resolveDesired(cv, catalogue), {
    kind: 'invalid',
    message:
      'The cluster version is invalid: spec.desiredUpdate.version: Invalid value: "v4.15": must be a semantic version (1.2.3[-...])',
  });
  cv.spec.desiredUpdate = {};
  assert.equal(resolveDesired(cv, catalogue).kind, 'invalid');
  cv.spec.desiredUpdate = { image: 'quay.io/openshift-release-dev/ocp-release@sha256:0000' };
  const unknown = resolveDesired(cv, catalogue);
  assert.ok(unknown.kind === 'target' && unknown.target.release === undefined);
});

test('preconditions: rollback, Upgradeable for minor updates only, retarget during a minor update, recommended warnings', () => {
  const cv = cvAt('4.14.12', [done('4.14.12'), done('4.14.10')]);
  const blocked = {
    status: 'False',
    reason: 'PoolUpdating',
    message: 'Cluster operator machine-config should not be upgraded between minor versions: pools',
  };
  const names = (f: ReturnType<typeof checkPreconditions>) => f.map((x) => `${x.name}/${x.reason}/${x.blocking}`);
  assert.deepEqual(
    names(checkPreconditions({ cv, targetVersion: '4.14.11', targetImage: 'i', upgradeable: undefined })).slice(0, 1),
    ['ClusterVersionRollback/LowDesiredVersion/true'],
  );
  assert.equal(
    checkPreconditions({ cv, targetVersion: '4.14.11', targetImage: 'i', upgradeable: undefined })[0]!.message,
    "4.14.11 is less than the current target 4.14.12, and the only supported rollback is to the cluster's previous version 4.14.10 (img@4.14.10)",
  );
  assert.ok(
    !names(checkPreconditions({ cv, targetVersion: '4.14.10', targetImage: 'i', upgradeable: undefined })).some((n) =>
      n.startsWith('ClusterVersionRollback'),
    ),
  );
  assert.ok(
    !names(checkPreconditions({ cv, targetVersion: '4.14.13', targetImage: 'i', upgradeable: blocked })).some((n) =>
      n.startsWith('ClusterVersionUpgradeable'),
    ),
  );
  const minor = checkPreconditions({ cv, targetVersion: '4.15.3', targetImage: 'i', upgradeable: blocked });
  assert.deepEqual(minor[0], {
    name: 'ClusterVersionUpgradeable',
    reason: 'PoolUpdating',
    message: blocked.message,
    blocking: true,
  });
  const inProgress = cvAt('4.15.3', [{ ...done('4.15.3'), state: 'Partial', completionTime: null }, done('4.14.12')]);
  const retarget = checkPreconditions({
    cv: inProgress,
    targetVersion: '4.15.5',
    targetImage: 'i',
    upgradeable: blocked,
  });
  assert.deepEqual(retarget[0], {
    name: 'ClusterVersionUpgradeable',
    reason: 'MinorVersionClusterUpdateInProgress',
    message: 'Retarget to 4.15.5 while a minor version update from 4.14.12 to 4.15.3 is in progress',
    blocking: false,
  });
  const verdict = judgePreconditions(minor, true);
  assert.equal(verdict.blocked, false);
  assert.match(
    verdict.acceptedRisks,
    /^Forced through blocking failures: Precondition "ClusterVersionUpgradeable" failed because of "PoolUpdating": /,
  );
  // A not-recommended conditional update is a warning recorded as an accepted risk.
  const cond = cvAt('4.14.10', [done('4.14.10')], {
    conditionalUpdates: [
      {
        release: { version: '4.15.3', image: 'i3' },
        risks: [],
        conditions: [
          {
            type: 'Recommended',
            status: 'False',
            reason: 'OLMOperatorsInFailedState',
            message: 'OLM broken. https://x',
            lastTransitionTime: formatTime(T0),
          },
        ],
      },
    ],
  });
  const warn = judgePreconditions(
    checkPreconditions({ cv: cond, targetVersion: '4.15.3', targetImage: 'i3', upgradeable: undefined }),
    false,
  );
  assert.deepEqual(warn, {
    blocked: false,
    message: '',
    acceptedRisks:
      'Precondition "ClusterVersionRecommendedUpdate" failed because of "OLMOperatorsInFailedState": Update from 4.14.10 to 4.15.3 is not recommended:\n\nOLM broken. https://x',
  });
});

test('updates from the graph: sorted newest first, conditional edges with Recommended, recommended ones also available', () => {
  const body = JSON.stringify(buildGraph(catalogue, { channel: 'stable-4.15' }));
  const graph = parseGraph(body);
  assert.ok(!('reason' in graph));
  const cache = new Map<string, CachedMatch>();
  const result = computeUpdates(graph, {
    current: '4.14.10',
    channel: 'stable-4.15',
    evaluate: (r) => evaluateRisk(r, {}, cache, T0),
    previous: [],
    now: T0,
  });
  assert.ok(!('reason' in result));
  const versions = result.availableUpdates!.map((r) => r.version);
  assert.deepEqual(versions, [...versions].sort(semver.rcompare), 'newest first');
  assert.ok(versions.includes('4.15.3'), 'the recommended conditional target is also available');
  assert.ok(versions.includes('4.14.12') && !versions.includes('4.15.2'));
  assert.deepEqual(
    result.conditionalUpdates.map((c) => [c.release.version, c.conditions![0]!.status, c.conditions![0]!.reason]),
    [
      ['4.15.3', 'True', 'NotExposedToRisks'],
      ['4.15.2', 'False', 'PreRelease'],
    ],
  );
  assert.deepEqual(
    computeUpdates(graph, { current: '4.99.0', channel: 'stable-4.15', evaluate: () => false, previous: [], now: T0 }),
    {
      reason: 'VersionNotFound',
      message: 'currently reconciling cluster version 4.99.0 not found in the "stable-4.15" channel',
    },
  );
  assert.equal((parseGraph('{"nodes":[{"version":"4.') as { reason: string }).reason, 'ResponseInvalid');
});

test('risk evaluation: cached for an hour, errors not cached; Recommended reasons and messages', () => {
  const risk = (name: string): ConditionalUpdateRisk => ({
    name,
    url: `https://issues/${name}`,
    message: `${name} happens.`,
    matchingRules: [{ type: 'PromQL', promql: { promql: 'x' } }],
  });
  const cache = new Map<string, CachedMatch>();
  let applies = false;
  const table = { A: () => applies };
  assert.equal(evaluateRisk(risk('A'), table, cache, T0), false);
  applies = true;
  assert.equal(evaluateRisk(risk('A'), table, cache, T0 + 59 * 60_000), false, 'cached');
  assert.equal(evaluateRisk(risk('A'), table, cache, T0 + 61 * 60_000), true);
  const evaluate = (r: ConditionalUpdateRisk) => (r.name === 'E' ? { error: 'boom' } : r.name !== 'N');
  const two = recommendedCondition([risk('A'), risk('B')], evaluate, undefined, T0);
  assert.equal(two.reason, 'MultipleReasons');
  assert.equal(two.message, 'A happens. https://issues/A\n\nB happens. https://issues/B');
  assert.equal(recommendedCondition([risk('bad name!')], evaluate, undefined, T0).reason, 'ExposedToRisks');
  const unknown = recommendedCondition([risk('E'), risk('N')], evaluate, undefined, T0);
  assert.deepEqual(
    [unknown.status, unknown.reason, unknown.message],
    [
      'Unknown',
      'EvaluationFailed',
      'Could not evaluate exposure to update risk E (boom)\n  E description: E happens.\n  E URL: https://issues/E',
    ],
  );
  const kept = recommendedCondition(
    [risk('N')],
    evaluate,
    { type: 'Recommended', status: 'True', reason: 'x', message: 'y', lastTransitionTime: 'then' },
    T0,
  );
  assert.equal(kept.lastTransitionTime, 'then');
});

test('Upgradeable: one operator, several operators, overrides; removed when nothing blocks', () => {
  const co = (name: string, reason: string) => ({
    metadata: { name },
    spec: {},
    status: {
      conditions: [
        { type: 'Upgradeable', status: 'False' as const, reason, message: `${name} says no`, lastTransitionTime: '' },
      ],
    },
  });
  assert.deepEqual(evaluateUpgradeable({ clusterID: 'x' }, []), { upgradeable: undefined, subConditions: [] });
  const two = evaluateUpgradeable({ clusterID: 'x' }, [co('b', 'RB'), co('a', 'RA')]);
  assert.equal(two.upgradeable?.reason, 'ClusterOperatorsNotUpgradeable');
  assert.equal(
    two.upgradeable?.message,
    'Multiple cluster operators should not be upgraded between minor versions:\n* Cluster operator a should not be upgraded between minor versions: RA: a says no\n* Cluster operator b should not be upgraded between minor versions: RB: b says no',
  );
  const both = evaluateUpgradeable(
    { clusterID: 'x', overrides: [{ kind: 'Deployment', group: 'apps', namespace: 'n', name: 'd', unmanaged: true }] },
    [co('a', 'RA')],
  );
  assert.equal(both.upgradeable?.reason, 'MultipleReasons');
  assert.match(
    both.upgradeable.message!,
    /^Cluster should not be upgraded between minor versions for multiple reasons: ClusterVersionOverridesSet,RA\n\* Disabling ownership/,
  );
  assert.deepEqual(
    both.subConditions.map((c) => c.type),
    ['UpgradeableClusterVersionOverrides', 'UpgradeableClusterOperators'],
  );
});

test('status writes: a bucket of two, one more every 15 s, requests coalesce', async () => {
  const clock = new ManualClock(T0);
  let writes = 0;
  const w = new ThrottledWriter({
    clock,
    intervalMs: 15_000,
    burst: 2,
    write: async () => void writes++,
    onError: (e) => assert.fail(String(e)),
  });
  for (let i = 0; i < 10; i++) {
    w.request();
    await clock.advance(0);
  }
  assert.equal(writes, 2);
  await clock.advance(14_999);
  assert.equal(writes, 2);
  await clock.advance(1);
  assert.equal(writes, 3, 'the coalesced requests made one write');
  await clock.advance(60_000);
  assert.equal(writes, 3, 'nothing pending');
  w.hold(true);
  w.request();
  await clock.advance(0);
  assert.equal(writes, 3);
  w.hold(false);
  await clock.advance(0);
  assert.equal(writes, 4);
});

test('ReleaseAccepted: an unknown image fails retrieval; an image of another version fails verification', () => {
  const r = catalogue.byVersion.get('4.15.3')!;
  assert.equal(loadFailure({ specVersion: '4.15.3', image: r.pullSpec, force: false, release: r }), undefined);
  assert.deepEqual(loadFailure({ specVersion: '4.15.2', image: r.pullSpec, force: false, release: r }), {
    type: 'ReleaseAccepted',
    status: 'False',
    reason: 'VerifyPayloadVersion',
    message: `Verifying payload failed version="4.15.2" image="${r.pullSpec}" failure=release image version 4.15.3 does not match the expected upstream version 4.15.2`,
  });
  const unknown = loadFailure({ specVersion: '', image: 'quay.io/x@sha256:00', force: true, release: undefined })!;
  assert.equal(unknown.reason, 'RetrievePayload');
  assert.match(
    unknown.message!,
    /^Retrieving payload failed version="" image="quay\.io\/x@sha256:00" failure=Unable to download and prepare the update: /,
  );
});
