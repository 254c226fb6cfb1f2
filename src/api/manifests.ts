/**
 * The CustomResourceDefinitions of our seven kinds, rendered as YAML like controller-gen's
 * output (`---` first, keys sorted, YAML 1.1 so Go tools read strings like `on` as strings),
 * and written to `deploy/crds/<group>_<plural>.yaml`. `npm run manifests` calls
 * `writeCrdFiles`; a golden test compares the committed files with `renderCrdFiles()`.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { JsonObject } from '../lib/json.js';
import { toJsonSchema } from './schema.js';
import { managedUpgradeConfigCrd } from './upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import { scheduledUpgradeConfigCrd } from './managedupgrade.appuio.io/v1beta1/upgrade-config.js';
import { upgradeJobCrd } from './managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import { upgradeJobHookCrd } from './managedupgrade.appuio.io/v1beta1/upgrade-job-hook.js';
import { upgradeSuspensionWindowCrd } from './managedupgrade.appuio.io/v1beta1/upgrade-suspension-window.js';
import { managedClusterVersionCrd } from './managedupgrade.appuio.io/v1beta1/cluster-version.js';
import { nodeForceDrainCrd } from './managedupgrade.appuio.io/v1beta1/node-force-drain.js';

/** The CRDs of the seven kinds: MUO's UpgradeConfig, then APPUiO's six. */
export function customResourceDefinitions(): JsonObject[] {
  return [
    managedUpgradeConfigCrd(),
    scheduledUpgradeConfigCrd(),
    upgradeJobCrd(),
    upgradeJobHookCrd(),
    upgradeSuspensionWindowCrd(),
    managedClusterVersionCrd(),
    nodeForceDrainCrd(),
  ];
}

/** One CRD as a YAML document, starting with `---`, keys sorted, in YAML 1.1. */
export function renderCrdYaml(crd: JsonObject): string {
  return `---\n${stringify(toJsonSchema(crd), { version: '1.1', lineWidth: 0, indentSeq: false, aliasDuplicateObjects: false })}`;
}

/** `<group>_<plural>.yaml`, controller-gen's file name. */
export function crdFileName(crd: JsonObject): string {
  const spec = crd['spec'] as { group: string; names: { plural: string } };
  return `${spec.group}_${spec.names.plural}.yaml`;
}

/** File name → YAML text of every CRD, in file-name order. */
export function renderCrdFiles(): Map<string, string> {
  const files = customResourceDefinitions()
    .map((crd) => [crdFileName(crd), renderCrdYaml(crd)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return new Map(files);
}

/** Writes every CRD to `dir` (created if missing); returns the paths written. */
export async function writeCrdFiles(dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  for (const [name, text] of renderCrdFiles()) {
    const path = join(dir, name);
    await writeFile(path, text);
    written.push(path);
  }
  return written;
}
