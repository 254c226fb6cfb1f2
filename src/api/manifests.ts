/**
 * The install manifests as YAML. The CustomResourceDefinitions of our seven kinds, rendered
 * like controller-gen's output (`---` first, keys sorted, YAML 1.1 so Go tools read strings
 * like `on` as strings), go to `deploy/crds/<group>_<plural>.yaml`; the objects that run the
 * operator (src/api/deploy/) go to `deploy/operator/NN-<what>.yaml` (the managed flow) and
 * `deploy/scheduled-operator/NN-<what>.yaml` (the scheduled flow), keys in the order written,
 * with the reason of each RBAC rule as a comment above it. `npm run manifests` writes all three;
 * golden tests compare the committed files with `renderCrdFiles()`, `renderOperatorFiles()` and
 * `renderScheduledOperatorFiles()`.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Document, isSeq, stringify } from 'yaml';
import {
  managedOperatorManifestFiles,
  type ManagedOperatorManifestOptions,
} from './deploy/managed-operator-manifests.js';
import type { ManifestDocument, ManifestFile } from './deploy/operator-objects.js';
import {
  scheduledOperatorManifestFiles,
  type ScheduledOperatorManifestOptions,
} from './deploy/scheduled-operator-manifests.js';
import type { JsonObject } from '../lib/json.js';
import { rulesFile, shippedRuleGroups } from './deploy/alert-rules.js';
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
  return writeFiles(dir, renderCrdFiles());
}

/** One document, starting with `---` (its comment above it), YAML 1.1, keys in the order written. */
export function renderManifestDocument(manifestDocument: ManifestDocument): string {
  const doc = new Document(manifestDocument.object, { version: '1.1', aliasDuplicateObjects: false });
  if (manifestDocument.comment !== undefined && doc.contents !== null)
    doc.contents.commentBefore = manifestDocument.comment;
  const rules = doc.get('rules');
  if (manifestDocument.ruleComments && isSeq(rules)) {
    rules.items.forEach((item, index) => {
      const c = manifestDocument.ruleComments?.[index];
      if (c !== undefined && item !== null && typeof item === 'object')
        (item as { commentBefore?: string }).commentBefore = c;
    });
  }
  return `---\n${doc.toString({ lineWidth: 0, indentSeq: false })}`;
}

/** File name → YAML text of each file, in the order given. */
export function renderManifestFiles(files: readonly ManifestFile[]): Map<string, string> {
  return new Map(files.map((f) => [f.name, f.documents.map(renderManifestDocument).join('')]));
}

/** File name → YAML text of every file of `deploy/operator/` (the managed flow), in apply order. */
export function renderOperatorFiles(options: ManagedOperatorManifestOptions): Map<string, string> {
  return renderManifestFiles(managedOperatorManifestFiles(options));
}

/** Writes the managed flow's operator manifests to `dir` (created if missing); returns the paths written. */
export async function writeOperatorFiles(dir: string, options: ManagedOperatorManifestOptions): Promise<string[]> {
  return writeFiles(dir, renderOperatorFiles(options));
}

/** File name → YAML text of every file of `deploy/scheduled-operator/` (the scheduled flow), in apply order. */
export function renderScheduledOperatorFiles(options: ScheduledOperatorManifestOptions): Map<string, string> {
  return renderManifestFiles(scheduledOperatorManifestFiles(options));
}

/** Writes the scheduled flow's operator manifests to `dir` (created if missing); returns the paths written. */
export async function writeScheduledOperatorFiles(
  dir: string,
  options: ScheduledOperatorManifestOptions,
): Promise<string[]> {
  return writeFiles(dir, renderScheduledOperatorFiles(options));
}

/** File name → YAML text of the plain rules file of each shipped group (`<group>.rules.yaml`, for Prometheus and promtool). */
export function renderRuleFiles(): Map<string, string> {
  return new Map(
    shippedRuleGroups().map((g) => [
      `${g.name}.rules.yaml`,
      `# The ${g.name} rules of the install's PrometheusRule, for promtool and Prometheus outside OpenShift
# (generated by \`upgrade-operator manifests\` from src/api/deploy/alert-rules.ts).
${stringify(rulesFile(g), { lineWidth: 0 })}`,
    ]),
  );
}

/** Writes the plain rules files to `dir` (created if missing); returns the paths written. */
export async function writeRuleFiles(dir: string): Promise<string[]> {
  return writeFiles(dir, renderRuleFiles());
}

async function writeFiles(dir: string, files: Map<string, string>): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  for (const [name, text] of files) {
    const path = join(dir, name);
    await writeFile(path, text);
    written.push(path);
  }
  return written;
}
