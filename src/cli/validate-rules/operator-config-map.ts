/** `validate`'s rules for the managed operator's ConfigMap (`managed-upgrade-operator-config`). */
import { MANAGED_UPGRADE_CONFIGMAP_KEY } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { isJsonObject, type JsonObject } from '../../lib/json.js';
import { formatConfigProblems } from '../../managed/config/config-problem.js';
import {
  parseManagedOperatorConfig,
  type ManagedOperatorConfig,
} from '../../managed/config/managed-operator-config.js';
import { operatorProblem, type Findings } from './findings.js';

/** The `config.yaml` of the managed operator's ConfigMap (undefined when missing). */
function operatorConfigText(object: JsonObject): string | undefined {
  const data = isJsonObject(object['data']) ? object['data'] : {};
  const text = data[MANAGED_UPGRADE_CONFIGMAP_KEY];
  return typeof text === 'string' ? text : undefined;
}

/** The settings of the ConfigMap, the documented defaults without one. */
export function operatorConfigOf(configMap: JsonObject | undefined): ManagedOperatorConfig {
  return parseManagedOperatorConfig(configMap && operatorConfigText(configMap)).config;
}

/** The managed operator's ConfigMap: every {@link parseManagedOperatorConfig} problem. */
export function operatorConfigMapRules(object: JsonObject): Findings {
  const { problems } = parseManagedOperatorConfig(operatorConfigText(object));
  return {
    problems: problems.map((p) =>
      operatorProblem(p.severity, formatConfigProblems([p]), {
        field: `data[${MANAGED_UPGRADE_CONFIGMAP_KEY}]${p.key === MANAGED_UPGRADE_CONFIGMAP_KEY ? '' : `.${p.key}`}`,
        reason: 'InvalidOperatorConfig',
      }),
    ),
    skipped: [],
  };
}
