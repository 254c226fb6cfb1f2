/** `validate`'s rules for upgrade.managed.openshift.io/v1alpha1 UpgradeConfigs (the managed flow). */
import type { ClusterVersion } from '../../api/openshift/config-v1/cluster-version.js';
import type { ManagedUpgradeConfig } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import type { JsonObject } from '../../lib/json.js';
import { acceptsUpgradeConfigName, defaultOperatorSettings } from '../../managed/config/operator-settings.js';
import { ignoredUpgradeConfigMessage } from '../../managed/controllers/upgrade-config-controller.js';
import { validationRefusal } from '../../managed/controllers/upgrade-config-pass.js';
import type { UrlProbe } from '../../managed/steps/external-dependency-step.js';
import { upgraderFor } from '../../managed/upgraders/upgrader.js';
import {
  currentClusterVersion,
  isValidationFailure,
  validateUpgradeConfig,
  type ValidationDeps,
  type ValidationReasonName,
} from '../../managed/validation/upgrade-config-validation.js';
import { CRD } from '../crds/managed-upgrade-config.generated.js';
import { CHECK_NEEDS_CLUSTER, operatorProblem, type Findings, type KindRules, type RunContext } from './findings.js';

/**
 * Without `--cluster-version`: a ClusterVersion with no completed update, so the managed
 * validation stops (`UnknownCurrentVersion`) at the first check that needs the cluster.
 */
const OFFLINE_CLUSTER_VERSION: ClusterVersion = {
  apiVersion: 'config.openshift.io/v1',
  kind: 'ClusterVersion',
  metadata: { name: 'version' },
  spec: { clusterID: '' },
};

/** The upgraders' URL probe: validate runs no step, so no URL is ever probed. */
const NO_URL_PROBE: UrlProbe = () => Promise.reject(new Error('validate probes no URL'));

const REASON_FIELD: Partial<Record<ValidationReasonName, string>> = {
  InvalidUpgradeAt: 'spec.upgradeAt',
  MissingTarget: 'spec.desired',
  InvalidImage: 'spec.desired.image',
  ImageUnresolvable: 'spec.desired.image',
  InvalidVersion: 'spec.desired.version',
  Downgrade: 'spec.desired.version',
  SameVersion: 'spec.desired.version',
  NotInAvailableUpdates: 'spec.desired.version',
  NotInUpdateGraph: 'spec.desired.version',
};

async function managedUpgradeConfigRules(object: JsonObject, ctx: RunContext): Promise<Findings> {
  const cr = object as unknown as ManagedUpgradeConfig;
  const out: Findings = { problems: [], skipped: [] };
  const name = cr.metadata?.name ?? '';
  const settings = defaultOperatorSettings();
  if (!acceptsUpgradeConfigName(settings, name)) {
    out.problems.push(
      operatorProblem(
        'warning',
        ignoredUpgradeConfigMessage(settings.upgradeConfigNames, settings.watchNamespace, name),
        { field: 'metadata.name', reason: 'Ignored' },
      ),
    );
  }
  const namespace = cr.metadata?.namespace;
  if (namespace !== undefined && namespace !== settings.watchNamespace) {
    out.problems.push(
      operatorProblem(
        'warning',
        `the operator watches UpgradeConfigs in ${settings.watchNamespace} only (WATCH_NAMESPACE) and never sees this one`,
        { field: 'metadata.namespace', reason: 'Ignored' },
      ),
    );
  }

  // The operator's validation, with look-ups that only record that they were reached.
  let registryAsked = false;
  let graphAsked = false;
  const deps: ValidationDeps = {
    releaseVersionOfImage: () => {
      registryAsked = true;
      return Promise.reject(new Error('offline: the registry is not asked'));
    },
    fetchGraph: () => {
      graphAsked = true;
      return Promise.reject(new Error('offline: the update service is not asked'));
    },
  };
  const cv = ctx.clusterVersion ?? OFFLINE_CLUSTER_VERSION;
  const operatorConfig = await ctx.operatorConfig();
  const cincinnati = operatorConfig.validation.cincinnati;
  const v = await validateUpgradeConfig(
    { config: cr, clusterVersion: cv, cincinnatiEnabled: cincinnati, now: ctx.nowMs },
    deps,
  );
  const desired = cr.spec?.desired ?? {};
  if (registryAsked) {
    out.skipped.push(`the version of the release image ${desired.image ?? ''} (needs the image registry)`);
    out.skipped.push(
      'comparing that version with the cluster’s: no downgrade, not the same version (needs the image registry and --cluster-version)',
    );
  } else if (ctx.clusterVersion === undefined && v.reason === 'UnknownCurrentVersion') {
    out.skipped.push(
      `comparing ${desired.version ?? ''} with the cluster’s current version: no downgrade, not the same version (${CHECK_NEEDS_CLUSTER})`,
    );
    out.skipped.push(
      `${desired.version ?? ''} among the ClusterVersion’s available or conditional updates, or with another channel than the cluster’s${cincinnati ? ' in the update graph' : ''} (${CHECK_NEEDS_CLUSTER})`,
    );
  } else if (graphAsked) {
    const from = currentClusterVersion(cv) ?? '';
    out.skipped.push(
      `${desired.version ?? ''} reachable from ${from} in channel ${desired.channel ?? ''} of the update graph (needs the update service)`,
    );
  } else {
    const refusal = validationRefusal(v);
    if (refusal)
      out.problems.push(
        operatorProblem(isValidationFailure(v) ? 'error' : 'warning', refusal.message, {
          field: REASON_FIELD[v.reason],
          reason: refusal.reason,
        }),
      );
  }

  // A past upgradeAt is a state, not an error: within the window the upgrade starts at once; past
  // it an upgrade that has not commenced fails by its upgrader's failure policy (OSD has one, ARO none).
  const policy = cr.spec ? upgraderFor(cr.spec.type, NO_URL_PROBE).failurePolicy : undefined;
  const failure = policy?.failsUnlessCommenced({ upgradeConfig: cr, config: operatorConfig }, ctx.nowMs);
  if (failure !== undefined)
    out.problems.push(operatorProblem('warning', failure, { field: 'spec.upgradeAt', reason: 'UpgradeFailed' }));
  return out;
}

/** The managed flow's UpgradeConfig. */
export const kindRules: KindRules = { crd: CRD, rules: managedUpgradeConfigRules };
