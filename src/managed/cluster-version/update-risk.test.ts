import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClusterVersion, ConditionalUpdate } from '../../api/openshift/config-v1/cluster-version.js';
import {
  ACCEPT_RISKS_ANNOTATION,
  describeCommencedRisk,
  describeRiskRefusal,
  judgeUpdateRisk,
  parseAcceptedRisks,
} from './update-risk.js';

const AT = '2026-03-02T00:00:00Z';
const OLM = {
  name: 'OLMOperatorsInFailedState',
  message: 'OLM operators may report failed status.',
  url: 'https://issues.redhat.com/browse/OPRUN-3267',
  matchingRules: [{ type: 'PromQL' }],
};
const AWS = {
  name: 'AWSCustomDomainNodesNotReady',
  message: 'Nodes on AWS with custom domain names will go to NotReady state.',
  url: 'https://issues.redhat.com/browse/MCO-1031',
  matchingRules: [{ type: 'PromQL' }],
};

function conditional(
  version: string,
  recommended: ['True' | 'False' | 'Unknown', string] | undefined,
  risks = [OLM, AWS],
): ConditionalUpdate {
  return {
    release: { version, image: `quay.io/openshift-release-dev/ocp-release@sha256:${version}` },
    risks,
    ...(recommended
      ? {
          conditions: [
            {
              type: 'Recommended',
              status: recommended[0],
              reason: recommended[1],
              message: 'm',
              lastTransitionTime: AT,
            },
          ],
        }
      : {}),
  } as ConditionalUpdate;
}

function cv(available: string[], conditionals: ConditionalUpdate[]): ClusterVersion {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: { name: 'version' },
    spec: { clusterID: 'id', channel: 'stable-4.15' },
    status: {
      desired: { version: '4.14.10', image: 'i' },
      observedGeneration: 1,
      versionHash: '',
      availableUpdates: available.map((v) => ({
        version: v,
        image: `quay.io/openshift-release-dev/ocp-release@sha256:${v}`,
      })),
      conditionalUpdates: conditionals,
    },
  };
}

/** MUO's default: nothing accepted, nothing required. */
const MUO = { accepted: [], requireAcceptance: false };
/** The opt-in: each risk must be accepted by name. */
const required = (...accepted: string[]): { accepted: string[]; requireAcceptance: boolean } => ({
  accepted,
  requireAcceptance: true,
});
const OLM_RISK = { name: OLM.name, message: OLM.message, url: OLM.url };

void test('judgeUpdateRisk: available or recommended goes with no risk; not offered is left to the offer wait', () => {
  for (const policy of [MUO, required()]) {
    assert.deepEqual(judgeUpdateRisk(cv(['4.15.3'], []), { version: '4.15.3' }, policy), { go: true });
    // A recommended conditional update is also among availableUpdates (as the CVO lists it), or only conditional.
    assert.deepEqual(
      judgeUpdateRisk(
        cv(['4.15.3'], [conditional('4.15.3', ['True', 'NotExposedToRisks'])]),
        { version: '4.15.3' },
        policy,
      ),
      { go: true },
    );
    assert.deepEqual(
      judgeUpdateRisk(cv([], [conditional('4.15.3', ['True', 'NotExposedToRisks'])]), { version: '4.15.3' }, policy),
      { go: true },
    );
    assert.deepEqual(judgeUpdateRisk(cv(['4.15.2'], []), { version: '4.15.3' }, policy), {
      go: false,
      reason: 'NotOffered',
    });
    // Image mode matches by image.
    const img = 'quay.io/openshift-release-dev/ocp-release@sha256:4.15.3';
    assert.deepEqual(judgeUpdateRisk(cv(['4.15.3'], []), { image: img }, policy), { go: true });
  }
  const img = 'quay.io/openshift-release-dev/ocp-release@sha256:4.15.3';
  const listed = cv([], [conditional('4.15.3', ['False', 'OLMOperatorsInFailedState'])]);
  assert.equal(judgeUpdateRisk(listed, { image: img }, required()).go, false);
  assert.equal(judgeUpdateRisk(listed, { image: img }, MUO).go, true);
});

void test('judgeUpdateRisk, by default (MUO): a not-recommended update goes, naming the risk that applies', () => {
  const state = cv(['4.15.2'], [conditional('4.15.3', ['False', 'OLMOperatorsInFailedState'])]);
  assert.deepEqual(judgeUpdateRisk(state, { version: '4.15.3' }, MUO), {
    go: true,
    risk: {
      reason: 'UpdateNotRecommended',
      risks: [OLM_RISK],
      accepted: [],
      unaccepted: [OLM.name],
      cvoSays: 'Recommended=False OLMOperatorsInFailedState',
    },
  });
  // Accepted by the annotation: still named, as accepted.
  const accepted = judgeUpdateRisk(state, { version: '4.15.3' }, { accepted: [OLM.name], requireAcceptance: false });
  assert.deepEqual(accepted.go && accepted.risk ? [accepted.risk.accepted, accepted.risk.unaccepted] : [], [
    [OLM.name],
    [],
  ]);
  // Unknown, absent, and an update without risks without a verdict: all go.
  const unknownOrAbsent: (['Unknown', string] | undefined)[] = [['Unknown', 'EvaluationFailed'], undefined];
  for (const recommended of unknownOrAbsent) {
    const v = judgeUpdateRisk(cv([], [conditional('4.15.3', recommended)]), { version: '4.15.3' }, MUO);
    assert.deepEqual(v.go && v.risk ? [v.risk.reason, v.risk.unaccepted] : [], [
      'UpdateRiskUnknown',
      [OLM.name, AWS.name],
    ]);
  }
  const bare = judgeUpdateRisk(cv([], [conditional('4.15.3', undefined, [])]), { version: '4.15.3' }, MUO);
  assert.deepEqual(bare.go && bare.risk ? [bare.risk.risks, bare.risk.cvoSays] : [], [
    [],
    'no Recommended condition yet',
  ]);
});

void test('judgeUpdateRisk, requiring acceptance: Recommended=False is refused unless the risk that applies is accepted by name', () => {
  const state = cv(['4.15.2'], [conditional('4.15.3', ['False', 'OLMOperatorsInFailedState'])]);
  const refused = judgeUpdateRisk(state, { version: '4.15.3' }, required());
  assert.deepEqual(refused, {
    go: false,
    reason: 'UpdateNotRecommended',
    risk: {
      reason: 'UpdateNotRecommended',
      risks: [OLM_RISK],
      accepted: [],
      unaccepted: [OLM.name],
      cvoSays: 'Recommended=False OLMOperatorsInFailedState',
    },
  });
  assert.equal(
    judgeUpdateRisk(state, { version: '4.15.3' }, required(AWS.name)).go,
    false,
    'another risk accepted does not count',
  );
  const ok = judgeUpdateRisk(state, { version: '4.15.3' }, required(OLM.name));
  assert.deepEqual(ok.go && ok.risk ? [ok.risk.accepted, ok.risk.unaccepted] : [], [[OLM.name], []]);
  // MultipleReasons: which risks apply is not said; every risk of the update must be accepted.
  const multiple = cv([], [conditional('4.15.3', ['False', 'MultipleReasons'])]);
  const both = judgeUpdateRisk(multiple, { version: '4.15.3' }, required(OLM.name));
  assert.deepEqual(both.go ? [] : 'risk' in both ? both.risk.unaccepted : [], [AWS.name]);
  const all = judgeUpdateRisk(multiple, { version: '4.15.3' }, required(AWS.name, OLM.name));
  assert.deepEqual(all.go && all.risk ? all.risk.accepted : [], [OLM.name, AWS.name]);
  // A newer CVO's per-risk Applies narrows it down.
  const withApplies = conditional('4.15.3', ['False', 'MultipleReasons'], [
    { ...OLM, conditions: [{ type: 'Applies', status: 'True', reason: 'Match', message: '', lastTransitionTime: AT }] },
    {
      ...AWS,
      conditions: [{ type: 'Applies', status: 'False', reason: 'NotMatch', message: '', lastTransitionTime: AT }],
    },
  ] as never);
  const narrowed = judgeUpdateRisk(cv([], [withApplies]), { version: '4.15.3' }, required(OLM.name));
  assert.deepEqual(narrowed.go && narrowed.risk ? narrowed.risk.risks : [], [OLM_RISK]);
});

void test('judgeUpdateRisk, requiring acceptance: Recommended Unknown or absent is not known-good', () => {
  const unknown = judgeUpdateRisk(
    cv([], [conditional('4.15.3', ['Unknown', 'EvaluationFailed'])]),
    { version: '4.15.3' },
    required(),
  );
  assert.equal(unknown.go, false);
  assert.equal(
    !unknown.go && 'risk' in unknown
      ? `${unknown.reason} ${unknown.risk.cvoSays} ${unknown.risk.unaccepted.join(',')}`
      : '',
    `UpdateRiskUnknown Recommended=Unknown EvaluationFailed ${OLM.name},${AWS.name}`,
  );
  const absent = judgeUpdateRisk(cv([], [conditional('4.15.3', undefined)]), { version: '4.15.3' }, required());
  assert.equal(!absent.go && 'risk' in absent ? absent.risk.cvoSays : '', 'no Recommended condition yet');
  assert.equal(
    judgeUpdateRisk(
      cv([], [conditional('4.15.3', ['Unknown', 'EvaluationFailed'])]),
      { version: '4.15.3' },
      required(OLM.name, AWS.name),
    ).go,
    true,
  );
  // An update without risks and without a verdict is never "all accepted".
  assert.equal(
    judgeUpdateRisk(cv([], [conditional('4.15.3', undefined, [])]), { version: '4.15.3' }, required()).go,
    false,
  );
});

void test('describeRiskRefusal, describeCommencedRisk and parseAcceptedRisks: the words and the annotation', () => {
  const state = cv([], [conditional('4.15.3', ['False', 'OLMOperatorsInFailedState'])]);
  const v = judgeUpdateRisk(state, { version: '4.15.3' }, required());
  assert.ok(!v.go && 'risk' in v);
  assert.equal(
    describeRiskRefusal(v.risk, '4.15.3'),
    'the cluster version operator does not recommend the update to 4.15.3 for this cluster (Recommended=False OLMOperatorsInFailedState): OLMOperatorsInFailedState: OLM operators may report failed status. https://issues.redhat.com/browse/OPRUN-3267; not commencing unless the UpgradeConfig accepts this risk (annotation upgrade-operator.io/accept-risks: "OLMOperatorsInFailedState")',
  );
  assert.equal(
    describeCommencedRisk(v.risk, '4.15.3'),
    'commenced the update to 4.15.3, which the cluster version operator does not recommend for this cluster (Recommended=False OLMOperatorsInFailedState): OLMOperatorsInFailedState: OLM operators may report failed status. https://issues.redhat.com/browse/OPRUN-3267; not accepted: OLMOperatorsInFailedState (conditionalUpdates.requireRiskAcceptance is off)',
  );
  const unknown = judgeUpdateRisk(
    cv([], [conditional('4.15.3', ['Unknown', 'EvaluationFailed'])]),
    { version: '4.15.3' },
    { accepted: [OLM.name], requireAcceptance: false },
  );
  assert.equal(
    unknown.go && unknown.risk ? describeCommencedRisk(unknown.risk, '4.15.3') : '',
    'commenced the update to 4.15.3, whose risks the cluster version operator could not evaluate (Recommended=Unknown EvaluationFailed): OLMOperatorsInFailedState: OLM operators may report failed status. https://issues.redhat.com/browse/OPRUN-3267; AWSCustomDomainNodesNotReady: Nodes on AWS with custom domain names will go to NotReady state. https://issues.redhat.com/browse/MCO-1031; risks accepted by the UpgradeConfig: OLMOperatorsInFailedState; not accepted: AWSCustomDomainNodesNotReady (conditionalUpdates.requireRiskAcceptance is off)',
  );
  assert.equal(ACCEPT_RISKS_ANNOTATION, 'upgrade-operator.io/accept-risks');
  assert.deepEqual(parseAcceptedRisks(' A, B ,,C'), ['A', 'B', 'C']);
  assert.deepEqual(parseAcceptedRisks(undefined), []);
});
