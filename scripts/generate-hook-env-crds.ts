/**
 * Writes src/cli/hook-env-crds.generated.ts: the UpgradeJob and UpgradeJobHook CRDs as JSON
 * literals, so `hook-env` admits its files without loading TypeBox, which builds them at run time
 * (docs/benchmarks.md#start-up-and-footprint-issue-17). src/cli/hook-env-crds.test.ts fails when
 * the file no longer matches the CRDs; run this script (`node --import tsx
 * scripts/generate-hook-env-crds.ts`) to bring it up to date.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { upgradeJobHookCrd } from '../src/api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook.js';
import { upgradeJobCrd } from '../src/api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';

const out = fileURLToPath(new URL('../src/cli/hook-env-crds.generated.ts', import.meta.url));
writeFileSync(
  out,
  `/**
 * The UpgradeJob and UpgradeJobHook CRDs as \`hook-env\` admits files with them, written by
 * scripts/generate-hook-env-crds.ts from upgradeJobCrd() and upgradeJobHookCrd() so that
 * \`hook-env\` does not load TypeBox. Do not edit; src/cli/hook-env-crds.test.ts checks it.
 */
import type { JsonObject } from '../lib/json.js';

/** upgradeJobCrd(), as JSON. */
export const UPGRADE_JOB_CRD: JsonObject = ${JSON.stringify(upgradeJobCrd())};

/** upgradeJobHookCrd(), as JSON. */
export const UPGRADE_JOB_HOOK_CRD: JsonObject = ${JSON.stringify(upgradeJobHookCrd())};
`,
);
execFileSync(process.execPath, [
  fileURLToPath(new URL('../node_modules/prettier/bin/prettier.cjs', import.meta.url)),
  '--write',
  out,
]);
