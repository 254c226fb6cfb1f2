import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closestName, didYouMean } from './did-you-mean.js';

const STEPS = ['ControlPlaneUpgraded', 'WorkerNodesUpgraded', 'ComputeCapacityReserved', 'UpgradeCommenced'];

test('a typo gets the closest known name; an unrelated name gets none', () => {
  assert.equal(closestName('WorkerNodeUpgraded', STEPS), 'WorkerNodesUpgraded');
  assert.equal(closestName('controlplaneupgraded', STEPS), 'ControlPlaneUpgraded');
  assert.equal(closestName('profil', ['profile', 'version', 'channel']), 'profile');
  assert.equal(closestName('Drained', STEPS), undefined);
  assert.equal(closestName('x', []), undefined);
  assert.equal(didYouMean('stickOperatr', ['stickOperator', 'unstickOperator']), ' (did you mean "stickOperator"?)');
  assert.equal(didYouMean('nothing-like-it', STEPS), '');
});
