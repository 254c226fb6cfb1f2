import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClusterVersion, ConditionalUpdate } from '../../api/openshift/config-v1/cluster-version.js';
import { ACCEPT_RISKS_ANNOTATION, describeRiskRefusal, judgeUpdateRisk, parseAcceptedRisks } from './update-risk.js';

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

void test('judgeUpdateRisk: available or recommended goes; not offered is left to the offer wait', () => {
  assert.deepEqual(judgeUpdateRisk(cv(['4.15.3'], []), { version: '4.15.3' }, []), { go: true, accepted: [] });
  // A recommended conditional update is also among availableUpdates (as the CVO lists it), or only conditional.
  assert.deepEqual(
    judgeUpdateRisk(cv(['4.15.3'], [conditional('4.15.3', ['True', 'NotExposedToRisks'])]), { version: '4.15.3' }, []),
    { go: true, accepted: [] },
  );
  assert.deepEqual(
    judgeUpdateRisk(cv([], [conditional('4.15.3', ['True', 'NotExposedToRisks'])]), { version: '4.15.3' }, []),
    { go: true, accepted: [] },
  );
  assert.deepEqual(judgeUpdateRisk(cv(['4.15.2'], []), { version: '4.15.3' }, []), { go: false, reason: 'NotOffered' });
  // Image mode matches by image.
  const img = 'quay.io/openshift-release-dev/ocp-release@sha256:4.15.3';
  assert.deepEqual(judgeUpdateRisk(cv(['4.15.3'], []), { image: img }, []), { go: true, accepted: [] });
  assert.equal(
    judgeUpdateRisk(cv([], [conditional('4.15.3', ['False', 'OLMOperatorsInFailedState'])]), { image: img }, []).go,
    false,
  );
});

void test('judgeUpdateRisk: Recommended=False is refused unless the risk that applies is accepted by name', () => {
  const state = cv(['4.15.2'], [conditional('4.15.3', ['False', 'OLMOperatorsInFailedState'])]);
  const refused = judgeUpdateRisk(state, { version: '4.15.3' }, []);
  assert.deepEqual(refused, {
    go: false,
    reason: 'UpdateNotRecommended',
    risks: [{ name: OLM.name, message: OLM.message, url: OLM.url }],
    unaccepted: [OLM.name],
    cvoSays: 'Recommended=False OLMOperatorsInFailedState',
  });
  assert.equal(
    judgeUpdateRisk(state, { version: '4.15.3' }, [AWS.name]).go,
    false,
    'another risk accepted does not count',
  );
  assert.deepEqual(judgeUpdateRisk(state, { version: '4.15.3' }, [OLM.name]), { go: true, accepted: [OLM.name] });
  // MultipleReasons: which risks apply is not said; every risk of the update must be accepted.
  const multiple = cv([], [conditional('4.15.3', ['False', 'MultipleReasons'])]);
  const both = judgeUpdateRisk(multiple, { version: '4.15.3' }, [OLM.name]);
  assert.deepEqual(both.go ? [] : 'unaccepted' in both ? both.unaccepted : [], [AWS.name]);
  assert.deepEqual(judgeUpdateRisk(multiple, { version: '4.15.3' }, [AWS.name, OLM.name]), {
    go: true,
    accepted: [OLM.name, AWS.name],
  });
  // A newer CVO's per-risk Applies narrows it down.
  const withApplies = conditional('4.15.3', ['False', 'MultipleReasons'], [
    { ...OLM, conditions: [{ type: 'Applies', status: 'True', reason: 'Match', message: '', lastTransitionTime: AT }] },
    {
      ...AWS,
      conditions: [{ type: 'Applies', status: 'False', reason: 'NotMatch', message: '', lastTransitionTime: AT }],
    },
  ] as never);
  assert.deepEqual(judgeUpdateRisk(cv([], [withApplies]), { version: '4.15.3' }, [OLM.name]), {
    go: true,
    accepted: [OLM.name],
  });
});

void test('judgeUpdateRisk: Recommended Unknown or absent is not known-good', () => {
  const unknown = judgeUpdateRisk(
    cv([], [conditional('4.15.3', ['Unknown', 'EvaluationFailed'])]),
    { version: '4.15.3' },
    [],
  );
  assert.equal(unknown.go, false);
  assert.equal(
    !unknown.go && 'cvoSays' in unknown ? `${unknown.reason} ${unknown.cvoSays} ${unknown.unaccepted.join(',')}` : '',
    `UpdateRiskUnknown Recommended=Unknown EvaluationFailed ${OLM.name},${AWS.name}`,
  );
  const absent = judgeUpdateRisk(cv([], [conditional('4.15.3', undefined)]), { version: '4.15.3' }, []);
  assert.equal(!absent.go && 'cvoSays' in absent ? absent.cvoSays : '', 'no Recommended condition yet');
  assert.deepEqual(
    judgeUpdateRisk(cv([], [conditional('4.15.3', ['Unknown', 'EvaluationFailed'])]), { version: '4.15.3' }, [
      OLM.name,
      AWS.name,
    ]),
    { go: true, accepted: [OLM.name, AWS.name] },
  );
  // An update without risks and without a verdict is never "all accepted".
  assert.equal(judgeUpdateRisk(cv([], [conditional('4.15.3', undefined, [])]), { version: '4.15.3' }, []).go, false);
});

void test('describeRiskRefusal and parseAcceptedRisks: the words and the annotation', () => {
  const v = judgeUpdateRisk(
    cv([], [conditional('4.15.3', ['False', 'OLMOperatorsInFailedState'])]),
    { version: '4.15.3' },
    [],
  );
  assert.ok(!v.go && 'risks' in v);
  assert.equal(
    describeRiskRefusal(v, '4.15.3'),
    'the cluster version operator does not recommend the update to 4.15.3 for this cluster (Recommended=False OLMOperatorsInFailedState): OLMOperatorsInFailedState: OLM operators may report failed status. https://issues.redhat.com/browse/OPRUN-3267; not commencing unless the UpgradeConfig accepts this risk (annotation upgrade-operator.io/accept-risks: "OLMOperatorsInFailedState")',
  );
  assert.equal(ACCEPT_RISKS_ANNOTATION, 'upgrade-operator.io/accept-risks');
  assert.deepEqual(parseAcceptedRisks(' A, B ,,C'), ['A', 'B', 'C']);
  assert.deepEqual(parseAcceptedRisks(undefined), []);
});
