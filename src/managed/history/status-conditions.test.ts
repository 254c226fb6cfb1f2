import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ManagedUpgradeConfig } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import { removeStatusCondition, setStatusCondition, stepConditions } from './status-conditions.js';

const T0 = Date.UTC(2026, 2, 2);

void test('setStatusCondition keeps lastTransitionTime while the status holds; stepConditions leaves out the pass’s own', () => {
  const cr: ManagedUpgradeConfig = {
    metadata: { name: 'managed-upgrade-config', generation: 3 },
    status: {
      conditions: [
        { type: 'Waiting', status: 'True', reason: 'R', message: 'm', lastTransitionTime: '2026-03-01T00:00:00Z' },
      ],
    },
  };
  const risk = { type: 'UpdateRecommended', status: 'False', reason: 'UpdateNotRecommended', message: 'a' };
  setStatusCondition(cr, risk, T0);
  setStatusCondition(cr, { ...risk, message: 'b' }, T0 + 60_000);
  assert.deepEqual(stepConditions(cr), [
    { ...risk, message: 'b', lastTransitionTime: '2026-03-02T00:00:00Z', observedGeneration: 3 },
  ]);
  setStatusCondition(cr, { ...risk, status: 'Unknown', reason: 'UpdateRiskUnknown' }, T0 + 120_000);
  assert.equal(stepConditions(cr)[0]?.lastTransitionTime, '2026-03-02T00:02:00Z');
  removeStatusCondition(cr, 'UpdateRecommended');
  assert.deepEqual(
    cr.status?.conditions?.map((c) => c.type),
    ['Waiting'],
  );
  removeStatusCondition(cr, 'UpdateRecommended');
  assert.equal(cr.status?.conditions?.length, 1);
});
