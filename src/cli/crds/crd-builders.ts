/**
 * The CRDs the offline commands (`validate`, `hook-env`) admit files with, each with the TypeBox
 * builder it comes from and the generated module that holds it as JSON (`<file>.generated.ts`).
 * The commands import the generated modules, never this one: building a CRD loads TypeBox (about
 * 370 modules), which costs more than the rest of their start-up
 * (docs/design/command-line.md#lazy-commands). Only `scripts/generate-crd-json.ts` (which writes
 * the generated modules) and `crds.test.ts` (which fails when one has drifted) load it.
 */
import { managedClusterVersionCrd } from '../../api/managedupgrade.appuio.io/v1beta1/cluster-version.js';
import { nodeForceDrainCrd } from '../../api/managedupgrade.appuio.io/v1beta1/node-force-drain.js';
import { scheduledUpgradeConfigCrd } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-config.js';
import { upgradeJobHookCrd } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook.js';
import { upgradeJobCrd } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import { upgradeSuspensionWindowCrd } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-suspension-window.js';
import { openshiftCustomResourceDefinitions } from '../../api/openshift/crds.js';
import { managedUpgradeConfigCrd } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import type { JsonObject } from '../../lib/json.js';

/** One generated CRD module. */
export interface CrdJsonSource {
  /** The module's name in src/cli/crds/, without `.generated.ts`. */
  readonly file: string;
  /** Where the CRD comes from, as the generated module's comment names it. */
  readonly from: string;
  build(): JsonObject;
}

function openshiftCrd(kind: string): JsonObject {
  const crd = openshiftCustomResourceDefinitions().find(
    (c) => (c['spec'] as { names: { kind: string } }).names.kind === kind,
  );
  if (crd === undefined) throw new Error(`no OpenShift CRD of ${kind}`);
  return crd;
}

/** Every generated CRD module. */
export const CRD_JSON_SOURCES: readonly CrdJsonSource[] = [
  { file: 'managed-upgrade-config', from: 'managedUpgradeConfigCrd()', build: managedUpgradeConfigCrd },
  { file: 'scheduled-upgrade-config', from: 'scheduledUpgradeConfigCrd()', build: scheduledUpgradeConfigCrd },
  { file: 'upgrade-job', from: 'upgradeJobCrd()', build: upgradeJobCrd },
  { file: 'upgrade-job-hook', from: 'upgradeJobHookCrd()', build: upgradeJobHookCrd },
  { file: 'upgrade-suspension-window', from: 'upgradeSuspensionWindowCrd()', build: upgradeSuspensionWindowCrd },
  { file: 'managed-cluster-version', from: 'managedClusterVersionCrd()', build: managedClusterVersionCrd },
  { file: 'node-force-drain', from: 'nodeForceDrainCrd()', build: nodeForceDrainCrd },
  {
    file: 'openshift-cluster-version',
    from: 'the ClusterVersion of openshiftCustomResourceDefinitions()',
    build: () => openshiftCrd('ClusterVersion'),
  },
];
