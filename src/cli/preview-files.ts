/**
 * What `preview -f` reads from files: APPUiO and MUO UpgradeConfigs, UpgradeSuspensionWindows and
 * the MUO operator ConfigMap, admitted as the API server admits them. Loaded only with `-f`, so
 * `preview --cron` never loads the schema-validation code (docs/design/command-line.md#lazy-commands).
 */
import { scheduledUpgradeConfigCrd } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-config.js';
import { upgradeSuspensionWindowCrd } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-suspension-window.js';
import type { UpgradeSuspensionWindow } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-suspension-window.js';
import type { ScheduledUpgradeConfig } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-config.js';
import { managedUpgradeConfigCrd } from '../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import type { ManagedUpgradeConfig } from '../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import {
  MANAGED_UPGRADE_CONFIGMAP_KEY,
  MANAGED_UPGRADE_CONFIGMAP_NAME,
} from '../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import {
  defaultManagedOperatorConfig,
  parseManagedOperatorConfig,
  type ManagedOperatorConfig,
} from '../managed/config/managed-operator-config.js';
import { upgradeWindowClosesAt } from '../managed/upgraders/osd-upgrader.js';
import { isJsonObject, type JsonObject } from '../lib/json.js';
import { admitFileObjects, crdApiVersion, readObjectFile } from './object-file.js';
import { MANAGED_API_VERSION, type PreviewDeps, type PreviewFlags, type PreviewSource } from './preview.js';

/** The `config.yaml` of the operator ConfigMap in a file, parsed; its problems are warnings. */
function readOperatorConfig(path: string, text: string, deps: PreviewDeps): ManagedOperatorConfig {
  const named = readObjectFile(text, path).find((fileObject) => {
    const { apiVersion, kind, metadata } = fileObject.object;
    return (
      apiVersion === 'v1' &&
      kind === 'ConfigMap' &&
      isJsonObject(metadata) &&
      metadata['name'] === MANAGED_UPGRADE_CONFIGMAP_NAME
    );
  });
  if (!named) throw new Error(`${path}: no ConfigMap ${MANAGED_UPGRADE_CONFIGMAP_NAME} found`);
  const data = isJsonObject(named.object['data']) ? named.object['data'] : {};
  const configText = data[MANAGED_UPGRADE_CONFIGMAP_KEY];
  const parsed = parseManagedOperatorConfig(typeof configText === 'string' ? configText : undefined);
  for (const p of parsed.problems)
    deps.warn(
      `${path}: document ${named.document}: data[${MANAGED_UPGRADE_CONFIGMAP_KEY}]: ${p.key === MANAGED_UPGRADE_CONFIGMAP_KEY ? '' : `${p.key}: `}${p.message}`,
    );
  return parsed.config;
}

/** The UpgradeConfigs of a file, of both APIs; there must be at least one. */
function readUpgradeConfigs(
  path: string,
  deps: PreviewDeps,
): { scheduled: ScheduledUpgradeConfig[]; managed: ManagedUpgradeConfig[] } {
  const text = deps.readFile(path);
  const options = { keepStatus: false, warn: (t: string) => deps.warn(t) };
  const scheduledCrd = scheduledUpgradeConfigCrd();
  const scheduled = admitFileObjects(path, text, scheduledCrd, { ...options, alsoRead: [MANAGED_API_VERSION] });
  const managed = admitFileObjects(path, text, managedUpgradeConfigCrd(), {
    ...options,
    alsoRead: [crdApiVersion(scheduledCrd)],
    warnSkipped: false,
  });
  if (scheduled.length + managed.length === 0)
    throw new Error(`${path}: no UpgradeConfig (${crdApiVersion(scheduledCrd)} or ${MANAGED_API_VERSION}) found`);
  return {
    scheduled: scheduled as unknown as ScheduledUpgradeConfig[],
    managed,
  };
}

/** Admits the objects of the CRD's kind in a file; there must be at least one. */
function admitAll(path: string, text: string, crd: JsonObject, deps: PreviewDeps): JsonObject[] {
  const admitted = admitFileObjects(path, text, crd, { keepStatus: false, warn: (t) => deps.warn(t) });
  if (admitted.length === 0) {
    const spec = crd['spec'] as { names: { kind: string } };
    throw new Error(`${path}: no ${spec.names.kind} (${crdApiVersion(crd)}) found`);
  }
  return admitted;
}

/** The preview sources of `-f FILE` (and `--suspension-windows`, `--operator-config`). */
export function previewFileSources(
  flags: PreviewFlags & { readonly filename: string },
  deps: PreviewDeps,
): PreviewSource[] {
  const sources: PreviewSource[] = [];
  const configs = readUpgradeConfigs(flags.filename, deps);
  const windows =
    flags.suspensionWindows === undefined
      ? []
      : admitAll(flags.suspensionWindows, deps.readFile(flags.suspensionWindows), upgradeSuspensionWindowCrd(), deps);
  for (const c of configs.scheduled)
    sources.push({ kind: 'config', config: c, windows: windows as unknown as UpgradeSuspensionWindow[] });
  const operatorConfig =
    flags.operatorConfig === undefined
      ? defaultManagedOperatorConfig()
      : readOperatorConfig(flags.operatorConfig, deps.readFile(flags.operatorConfig), deps);
  for (const c of configs.managed) sources.push(managedPreviewSource(c, operatorConfig));
  return sources;
}

/** The preview source of a MUO UpgradeConfig, its failure window closing as the managed flow computes it. */
export function managedPreviewSource(
  config: ManagedUpgradeConfig,
  operatorConfig: ManagedOperatorConfig,
): Extract<PreviewSource, { kind: 'managed' }> {
  return {
    kind: 'managed',
    config,
    operatorConfig,
    windowClosesAt: upgradeWindowClosesAt({ upgradeConfig: config, config: operatorConfig }),
  };
}
