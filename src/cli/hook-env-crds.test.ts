import { test } from 'node:test';
import assert from 'node:assert/strict';
import { upgradeJobHookCrd } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook.js';
import { upgradeJobCrd } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import { UPGRADE_JOB_CRD, UPGRADE_JOB_HOOK_CRD } from './hook-env-crds.generated.js';

const STALE = 'stale: run node --import tsx scripts/generate-hook-env-crds.ts';

void test('the CRDs hook-env admits with are exactly the UpgradeJob and UpgradeJobHook CRDs', () => {
  assert.deepEqual(UPGRADE_JOB_CRD, upgradeJobCrd(), STALE);
  assert.deepEqual(UPGRADE_JOB_HOOK_CRD, upgradeJobHookCrd(), STALE);
});
