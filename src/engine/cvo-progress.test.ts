import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClusterVersion, UpdateHistory } from '../api/openshift/config-v1/cluster-version.js';
import {
  controlPlaneProgress,
  describeControlPlaneProgress,
  parseProgressMessage,
  specObserved,
  targetCompleted,
} from './cvo-progress.js';

void test('parseProgressMessage: the counted form, with and without a detail; the percentage is kept but counts come from done/total', () => {
  assert.deepEqual(parseProgressMessage('Working towards 4.15.3: 512 of 883 done (57% complete)'), {
    form: 'working',
    version: '4.15.3',
    counts: { done: 512, total: 883, percent: 57 },
    detail: '',
    operators: [],
    degradedGrace: false,
    slow: false,
  });
  const p = parseProgressMessage('Working towards 4.15.3: 762 of 880 done (86% complete), waiting on machine-config');
  assert.deepEqual(
    [p.form, p.version, p.counts?.done, p.counts?.total, p.detail, p.operators],
    ['working', '4.15.3', 762, 880, 'waiting on machine-config', ['machine-config']],
  );
  const list = parseProgressMessage('Working towards 4.14.45: 702 of 861 done (81% complete), waiting on dns, network');
  assert.deepEqual(list.operators, ['dns', 'network']);
});

void test('parseProgressMessage: the forms without counts', () => {
  const bare = parseProgressMessage('Working towards 4.15.3');
  assert.deepEqual([bare.form, bare.version, bare.counts, bare.detail], ['working', '4.15.3', undefined, '']);
  const waiting = parseProgressMessage('Working towards 4.15.3: waiting on etcd, kube-apiserver');
  assert.deepEqual(
    [waiting.form, waiting.version, waiting.counts, waiting.operators],
    ['working', '4.15.3', undefined, ['etcd', 'kube-apiserver']],
  );
  const image = parseProgressMessage(
    'Working towards quay.io/openshift-release-dev/ocp-release@sha256:abc: 5 of 10 done (50% complete)',
  );
  assert.deepEqual([image.version, image.counts?.done], ['quay.io/openshift-release-dev/ocp-release@sha256:abc', 5]);
});

void test('parseProgressMessage: a Degraded operator inside the 40-minute grace, and the slow forms of 4.16+', () => {
  const grace = parseProgressMessage(
    'Working towards 4.15.38: 610 of 883 done (69% complete), waiting up to 40 minutes on authentication',
  );
  assert.deepEqual([grace.operators, grace.degradedGrace, grace.slow], [['authentication'], true, false]);
  const graceNoCounts = parseProgressMessage(
    'Working towards 4.15.38: waiting up to 40 minutes on authentication, console',
  );
  assert.deepEqual(
    [graceNoCounts.counts, graceNoCounts.operators, graceNoCounts.degradedGrace],
    [undefined, ['authentication', 'console'], true],
  );
  const slow = parseProgressMessage(
    'Working towards 4.16.2: 700 of 900 done (77% complete), waiting on network over 30 minutes which is longer than expected',
  );
  assert.deepEqual([slow.operators, slow.slow], [['network'], true]);
  const both = parseProgressMessage(
    'Working towards 4.16.2: 700 of 900 done (77% complete), waiting on dns, network over 30 minutes and machine-config over 90 minutes which is longer than expected',
  );
  assert.deepEqual([both.operators, both.slow], [['dns', 'machine-config', 'network'], true]);
  const mco = parseProgressMessage(
    'Working towards 4.16.2: 760 of 900 done (84% complete), waiting on machine-config over 90 minutes which is longer than expected',
  );
  assert.deepEqual([mco.operators, mco.slow], [['machine-config'], true]);
});

void test('parseProgressMessage: Unable to apply and Error while reconciling, with the operator they name', () => {
  const degraded = parseProgressMessage('Unable to apply 4.15.38: the cluster operator authentication is degraded');
  assert.deepEqual([degraded.form, degraded.version, degraded.operators], ['unable', '4.15.38', ['authentication']]);
  const exceeded = parseProgressMessage(
    'Unable to apply 4.15.38: wait has exceeded 40 minutes for these operators: authentication, console',
  );
  assert.deepEqual([exceeded.form, exceeded.operators], ['unable', ['authentication', 'console']]);
  const down = parseProgressMessage('Unable to apply 4.15.38: the cluster operator ingress is not available');
  assert.deepEqual(down.operators, ['ingress']);
  const unknown = parseProgressMessage('Unable to apply 4.9.19: an unknown error has occurred: MultipleErrors');
  assert.deepEqual(
    [unknown.form, unknown.detail, unknown.operators],
    ['unable', 'an unknown error has occurred: MultipleErrors', []],
  );
  const reconciling = parseProgressMessage(
    'Error while reconciling 4.14.30: the cluster operator monitoring is not available',
  );
  assert.deepEqual(
    [reconciling.form, reconciling.version, reconciling.operators],
    ['errorReconciling', '4.14.30', ['monitoring']],
  );
});

void test('parseProgressMessage: reconciled, invalid and anything else', () => {
  assert.deepEqual(
    [
      parseProgressMessage('Cluster version is 4.14.30').form,
      parseProgressMessage('Cluster version is 4.14.30').version,
    ],
    ['reconciled', '4.14.30'],
  );
  assert.equal(parseProgressMessage('Stopped at 4.14.30: the cluster version is invalid').form, 'invalid');
  assert.equal(parseProgressMessage('Reconciling 4.14.30: the cluster version is invalid').form, 'invalid');
  const other = parseProgressMessage('');
  assert.deepEqual([other.form, other.version], ['unknown', undefined]);
});

void test('parseProgressMessage: non-monotonic counts are read as printed (a CVO restart starts again from zero)', () => {
  const trace = [
    'Working towards 4.9.19: 619 of 738 done (83% complete)',
    'Working towards 4.9.19: 314 of 738 done (42% complete)',
    'Working towards 4.9.19: 619 of 738 done (83% complete)',
  ];
  assert.deepEqual(
    trace.map((m) => parseProgressMessage(m).counts?.done),
    [619, 314, 619],
  );
});

function h(version: string, state: 'Completed' | 'Partial', completionTime: string | null): UpdateHistory {
  return {
    version,
    state,
    startedTime: '2026-03-02T00:00:00Z',
    completionTime,
    image: `img@${version}`,
    verified: true,
  };
}

function cv(o: {
  generation: number;
  observed: number;
  history: UpdateHistory[];
  desired: string;
  conditions: Array<[string, string, string, string]>;
}): ClusterVersion {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: { name: 'version', generation: o.generation },
    spec: { clusterID: 'id', channel: 'stable-4.14' },
    status: {
      desired: { version: o.desired, image: `img@${o.desired}` },
      history: o.history,
      observedGeneration: o.observed,
      versionHash: '',
      availableUpdates: null,
      conditions: o.conditions.map(([type, status, reason, message]) => ({
        type,
        status: status as 'True' | 'False' | 'Unknown',
        reason,
        message,
        lastTransitionTime: '2026-03-02T00:00:00Z',
      })),
    },
  };
}

const RECONCILED_OLD: Array<[string, string, string, string]> = [
  ['Progressing', 'False', '', 'Cluster version is 4.14.45'],
  ['ReleaseAccepted', 'True', 'PayloadLoaded', 'Payload loaded version="4.14.45"'],
  ['Failing', 'False', '', ''],
];

void test('a rollback just written: an old Completed entry for the target is not completion while the spec is unobserved or the head is another release', () => {
  const history = [
    h('4.14.45', 'Completed', '2026-03-02T01:00:00Z'),
    h('4.14.30', 'Completed', '2026-03-01T00:00:00Z'),
  ];
  const stale = cv({ generation: 3, observed: 2, history, desired: '4.14.45', conditions: RECONCILED_OLD });
  assert.equal(specObserved(stale), false);
  assert.equal(targetCompleted(stale, { version: '4.14.30' }), false);
  assert.deepEqual(controlPlaneProgress(stale, { version: '4.14.30' }), {
    state: 'specNotObserved',
    generation: 3,
    observedGeneration: 2,
  });
  // Observed, but the CVO still retrieves the payload: Progressing is about the old release.
  const retrieving = cv({
    generation: 3,
    observed: 3,
    history,
    desired: '4.14.45',
    conditions: [
      ...RECONCILED_OLD.slice(0, 1),
      ['ReleaseAccepted', 'Unknown', 'RetrievePayload', 'Retrieving and verifying payload version="4.14.30"'],
    ],
  });
  const p = controlPlaneProgress(retrieving, { version: '4.14.30' });
  assert.equal(p.state, 'notAccepted');
  assert.match(
    describeControlPlaneProgress(p),
    /^the release is not accepted yet, the cluster version operator still runs 4\.14\.45 \(ReleaseAccepted=Unknown RetrievePayload: /,
  );
  // The CVO took it: a new Partial head; the old Completed entry further down still does not count.
  const rolling = cv({
    generation: 3,
    observed: 3,
    history: [h('4.14.30', 'Partial', null), ...history],
    desired: '4.14.30',
    conditions: [
      ['Progressing', 'True', '', 'Working towards 4.14.30: 96 of 861 done (11% complete)'],
      ['ReleaseAccepted', 'True', 'PayloadLoaded', ''],
      ['Failing', 'False', '', ''],
    ],
  });
  assert.equal(controlPlaneProgress(rolling, { version: '4.14.30' }).state, 'progressing');
  const done = cv({
    generation: 3,
    observed: 3,
    history: [h('4.14.30', 'Completed', '2026-03-02T02:00:00Z'), ...history],
    desired: '4.14.30',
    conditions: [['Progressing', 'False', '', 'Cluster version is 4.14.30']],
  });
  assert.deepEqual(controlPlaneProgress(done, { version: '4.14.30' }), { state: 'completed' });
});

void test('completion comes from the history head only: not from 100% nor from Progressing=False of the old release', () => {
  const full = cv({
    generation: 2,
    observed: 2,
    history: [h('4.15.38', 'Partial', null), h('4.14.30', 'Completed', 'x')],
    desired: '4.15.38',
    conditions: [
      [
        'Progressing',
        'True',
        '',
        'Working towards 4.15.38: 883 of 883 done (100% complete), waiting on machine-config',
      ],
      ['ReleaseAccepted', 'True', 'PayloadLoaded', ''],
    ],
  });
  assert.equal(targetCompleted(full, { version: '4.15.38' }), false);
  assert.equal(controlPlaneProgress(full, { version: '4.15.38' }).state, 'progressing');
  // Image and version must both match when both are given.
  const completed = cv({
    generation: 2,
    observed: 2,
    history: [h('4.15.38', 'Completed', 'x')],
    desired: '4.15.38',
    conditions: [],
  });
  assert.equal(targetCompleted(completed, { version: '4.15.38', image: 'img@4.15.38' }), true);
  assert.equal(targetCompleted(completed, { version: '4.15.38', image: 'img@other' }), false);
  assert.equal(targetCompleted(completed, {}), false);
});

void test('describeControlPlaneProgress: words only when worth attention; Failing is shown, but Unable to apply is a wait, not a verdict', () => {
  const base = { generation: 2, observed: 2, history: [h('4.15.38', 'Partial', null)], desired: '4.15.38' };
  const grace = cv({
    ...base,
    conditions: [
      [
        'Progressing',
        'True',
        'ClusterOperatorDegraded',
        'Working towards 4.15.38: 610 of 883 done (69% complete), waiting up to 40 minutes on authentication',
      ],
      ['ReleaseAccepted', 'True', 'PayloadLoaded', ''],
      ['Failing', 'False', '', ''],
    ],
  });
  assert.equal(
    describeControlPlaneProgress(controlPlaneProgress(grace, { version: '4.15.38' })),
    'the cluster version operator waits up to 40 minutes on degraded authentication',
  );
  const unable = cv({
    ...base,
    conditions: [
      [
        'Progressing',
        'True',
        'ClusterOperatorDegraded',
        'Unable to apply 4.15.38: wait has exceeded 40 minutes for these operators: authentication',
      ],
      ['ReleaseAccepted', 'True', 'PayloadLoaded', ''],
      ['Failing', 'True', 'ClusterOperatorDegraded', 'Cluster operator authentication is degraded'],
    ],
  });
  const p = controlPlaneProgress(unable, { version: '4.15.38' });
  assert.equal(p.state, 'progressing');
  assert.equal(
    describeControlPlaneProgress(p),
    'the cluster version operator is unable to apply 4.15.38: wait has exceeded 40 minutes for these operators: authentication; Failing=True ClusterOperatorDegraded: Cluster operator authentication is degraded; it keeps retrying',
  );
  // An update that simply runs gets no words (they would change every few minutes).
  const applying = cv({
    ...base,
    conditions: [
      ['Progressing', 'True', '', 'Working towards 4.15.38: 10 of 883 done (1% complete)'],
      ['ReleaseAccepted', 'True', 'PayloadLoaded', ''],
    ],
  });
  assert.equal(describeControlPlaneProgress(controlPlaneProgress(applying, { version: '4.15.38' })), '');
  const waitingOn = cv({
    ...base,
    conditions: [
      [
        'Progressing',
        'True',
        'ClusterOperatorsUpdating',
        'Working towards 4.15.38: 103 of 883 done (11% complete), waiting on etcd, kube-apiserver',
      ],
      ['ReleaseAccepted', 'True', 'PayloadLoaded', ''],
      ['Failing', 'False', '', ''],
    ],
  });
  assert.equal(describeControlPlaneProgress(controlPlaneProgress(waitingOn, { version: '4.15.38' })), '');
  const slow = cv({
    ...base,
    conditions: [
      [
        'Progressing',
        'True',
        'ClusterOperatorUpdating',
        'Working towards 4.15.38: 700 of 883 done (79% complete), waiting on network over 30 minutes which is longer than expected',
      ],
      ['ReleaseAccepted', 'True', 'PayloadLoaded', ''],
      ['Failing', 'Unknown', 'SlowClusterOperator', 'waiting on network over 30 minutes which is longer than expected'],
    ],
  });
  assert.equal(
    describeControlPlaneProgress(controlPlaneProgress(slow, { version: '4.15.38' })),
    'the cluster version operator has waited on network longer than expected; Failing=Unknown SlowClusterOperator: waiting on network over 30 minutes which is longer than expected',
  );
});
