import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClusterVersion, UpdateHistory } from '../../api/openshift/config-v1/cluster-version.js';
import {
  controlPlaneCompleted,
  controlPlaneStartedAt,
  currentVersion,
  hasUpgradeCommenced,
  NO_UPGRADE_SPEC_SOURCE,
  offeredTarget,
  precedingVersion,
} from './cluster-version-state.js';

function h(
  version: string,
  state: 'Completed' | 'Partial',
  completed: string | null,
  started = '2026-01-01T00:00:00Z',
): UpdateHistory {
  return { version, state, completionTime: completed, startedTime: started, image: `img@${version}`, verified: true };
}

function cv(
  over: Partial<ClusterVersion['spec']> = {},
  history: UpdateHistory[] = [],
  desired = '4.14.30',
): ClusterVersion {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: { name: 'version' },
    spec: { clusterID: 'id', channel: 'stable-4.14', ...over },
    status: {
      desired: { version: desired, image: `img@${desired}` },
      history,
      observedGeneration: 1,
      versionHash: '',
      availableUpdates: [
        { version: '4.14.31', image: 'img@4.14.31' },
        { version: '4.15.0', image: '' },
      ],
      conditionalUpdates: [{ release: { version: '4.15.38', image: 'img@4.15.38' }, risks: [] }],
    },
  };
}

void test('hasUpgradeCommenced: image mode compares images, version mode needs channel and version', () => {
  const c = cv({ desiredUpdate: { version: '4.15.38', image: 'img@4.15.38' } });
  assert.equal(hasUpgradeCommenced(c, { image: 'img@4.15.38' }), true);
  assert.equal(hasUpgradeCommenced(c, { image: 'img@other' }), false);
  assert.equal(hasUpgradeCommenced(c, { channel: 'stable-4.15', version: '4.15.38' }), true);
  assert.equal(hasUpgradeCommenced(c, { channel: 'stable-4.15', version: '4.15.39' }), false);
  assert.throws(() => hasUpgradeCommenced(c, { version: '4.15.38' }), new RegExp(NO_UPGRADE_SPEC_SOURCE));
});

void test('currentVersion is the newest Completed entry by completion time', () => {
  const c = cv({}, [
    h('4.15.1', 'Partial', null),
    h('4.14.30', 'Completed', '2026-02-01T00:00:00Z'),
    h('4.14.29', 'Completed', '2026-01-01T00:00:00Z'),
  ]);
  assert.equal(currentVersion(c), '4.14.30');
  assert.equal(currentVersion(cv()), undefined);
});

void test('precedingVersion follows MUO: the previous Completed version once the CVO targets ours', () => {
  const history = [h('4.15.38', 'Partial', null), h('4.14.30', 'Completed', '2026-02-01T00:00:00Z')];
  assert.equal(precedingVersion(cv({}, history, '4.15.38'), '4.15.38'), '4.14.30');
  assert.equal(precedingVersion(cv({}, history, '4.14.30'), '4.15.38'), '4.14.30');
  assert.equal(precedingVersion(cv({}, [h('4.15.38', 'Partial', null)], '4.15.38'), '4.15.38'), '4.15.38');
});

void test('offeredTarget: available with an image, else conditional; imageless releases do not count', () => {
  assert.deepEqual(offeredTarget(cv(), '4.14.31'), {
    kind: 'available',
    release: { version: '4.14.31', image: 'img@4.14.31' },
  });
  assert.equal(offeredTarget(cv(), '4.15.38')?.kind, 'conditional');
  assert.equal(offeredTarget(cv(), '4.15.0'), undefined);
  assert.equal(offeredTarget(cv(), '4.16.0'), undefined);
});

void test('controlPlaneCompleted needs the history head Completed for the version, with the spec observed', () => {
  const c = cv({}, [
    h('4.15.38', 'Partial', null, '2026-03-01T01:00:00Z'),
    h('4.14.30', 'Completed', '2026-02-01T00:00:00Z'),
  ]);
  assert.equal(controlPlaneCompleted(c, '4.15.38'), false);
  assert.equal(
    controlPlaneCompleted(c, '4.14.30'),
    false,
    'an older Completed entry is not the current target completed',
  );
  const done = cv({}, [
    h('4.15.38', 'Completed', '2026-03-01T02:00:00Z'),
    h('4.14.30', 'Completed', '2026-02-01T00:00:00Z'),
  ]);
  assert.equal(controlPlaneCompleted(done, '4.15.38'), true);
  assert.equal(
    controlPlaneCompleted({ ...done, metadata: { name: 'version', generation: 2 } }, '4.15.38'),
    false,
    'the status has not observed the spec',
  );
  assert.equal(controlPlaneCompleted(undefined, '4.15.38'), false);
  assert.equal(controlPlaneStartedAt(c, '4.15.38'), Date.UTC(2026, 2, 1, 1));
  assert.equal(controlPlaneStartedAt(c, '4.16.0'), undefined);
});
