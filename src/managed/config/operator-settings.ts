/**
 * The operator's own settings that MUO's ConfigMap does not carry: where it runs and which
 * UpgradeConfigs it acts on. Read from the environment (MUO's variable names where MUO has
 * them); the CLI may override them with flags.
 *
 * Difference from MUO (docs/design/managed-flow.md#one-fixed-upgradeconfig-name): MUO acts only on
 * the UpgradeConfig named `managed-upgrade-config`; `upgradeConfigNames` keeps that default but can
 * list other names or `*` for any.
 */
import {
  MANAGED_UPGRADE_CONFIG_NAME,
  MANAGED_UPGRADE_OPERATOR_NAMESPACE,
} from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import type { ConfigProblem } from './config-problem.js';

/** Where the operator runs and what it acts on. */
export interface OperatorSettings {
  /** The operator's namespace (`OPERATOR_NAMESPACE`): its ConfigMap, metrics, lease. */
  namespace: string;
  /** The namespace whose UpgradeConfigs are acted on (`WATCH_NAMESPACE`; default: `namespace`). */
  watchNamespace: string;
  /** Names of the UpgradeConfigs acted on (`UPGRADE_CONFIG_NAMES`, comma-separated); `*`: any name. */
  upgradeConfigNames: string[];
}

/** Environment variables read by {@link settingsFromEnv}. */
export const OPERATOR_SETTINGS_ENV = {
  namespace: 'OPERATOR_NAMESPACE',
  watchNamespace: 'WATCH_NAMESPACE',
  upgradeConfigNames: 'UPGRADE_CONFIG_NAMES',
} as const;

/** The name pattern that accepts every UpgradeConfig. */
export const ANY_UPGRADE_CONFIG_NAME = '*';

/** The settings when nothing is set: MUO's namespace and CR name. */
export function defaultOperatorSettings(): OperatorSettings {
  return {
    namespace: MANAGED_UPGRADE_OPERATOR_NAMESPACE,
    watchNamespace: MANAGED_UPGRADE_OPERATOR_NAMESPACE,
    upgradeConfigNames: [MANAGED_UPGRADE_CONFIG_NAME],
  };
}

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * Settings from environment variables. Unset or empty variables take their defaults; an
 * invalid value takes the default too and is reported (the CLI decides whether to refuse to
 * start).
 */
export function settingsFromEnv(env: Readonly<Record<string, string | undefined>>): {
  settings: OperatorSettings;
  problems: ConfigProblem[];
} {
  const problems: ConfigProblem[] = [];
  const defaults = defaultOperatorSettings();
  const namespace = namespaceFrom(env, OPERATOR_SETTINGS_ENV.namespace, defaults.namespace, problems);
  const watchNamespace = namespaceFrom(env, OPERATOR_SETTINGS_ENV.watchNamespace, namespace, problems);
  return {
    settings: { namespace, watchNamespace, upgradeConfigNames: namesFrom(env, defaults.upgradeConfigNames, problems) },
    problems,
  };
}

/** True when the settings say to act on an UpgradeConfig called `name`. */
export function acceptsUpgradeConfigName(settings: OperatorSettings, name: string): boolean {
  return settings.upgradeConfigNames.some((n) => n === ANY_UPGRADE_CONFIG_NAME || n === name);
}

function namespaceFrom(
  env: Readonly<Record<string, string | undefined>>,
  key: string,
  fallback: string,
  problems: ConfigProblem[],
): string {
  const v = env[key]?.trim();
  if (v === undefined || v === '') return fallback;
  if (v.length <= 63 && DNS1123_LABEL.test(v)) return v;
  problems.push({
    key,
    message: `must be a namespace name (got ${JSON.stringify(v)}); using ${fallback}`,
    severity: 'error',
  });
  return fallback;
}

function namesFrom(
  env: Readonly<Record<string, string | undefined>>,
  fallback: string[],
  problems: ConfigProblem[],
): string[] {
  const key = OPERATOR_SETTINGS_ENV.upgradeConfigNames;
  const v = env[key]?.trim();
  if (v === undefined || v === '') return fallback;
  const names: string[] = [];
  for (const raw of v.split(',')) {
    const name = raw.trim();
    if (name === '') continue;
    if (name === ANY_UPGRADE_CONFIG_NAME || (name.length <= 253 && DNS1123_SUBDOMAIN.test(name))) {
      if (!names.includes(name)) names.push(name);
    } else {
      problems.push({ key, message: `${JSON.stringify(name)} is not an object name or *; ignored`, severity: 'error' });
    }
  }
  if (names.length === 0) {
    problems.push({ key, message: `lists no usable name; using ${fallback.join(',')}`, severity: 'error' });
    return fallback;
  }
  return names;
}
