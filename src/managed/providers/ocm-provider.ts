/**
 * The OCM policy provider (docs/design/managed-flow.md#ocm, and
 * docs/design/managed-flow.md#the-ocm-agent through the OCM agent client): finds this cluster in
 * OCM by its external id, reads every upgrade policy, and returns the spec of the one with the
 * earliest `next_run` whose state asks for an upgrade (none: no upgrade wanted). The decisions are
 * the pure functions of `ocm-policy.ts`.
 */
import type {
  ManagedUpgradeConfig,
  ManagedUpgradeConfigSpec,
} from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import type { UpgradeType } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { isIntegrationError } from '../../integrations/integration-error.js';
import type { OcmApi } from '../../integrations/ocm-client.js';
import type { OcmCluster, OcmUpgradePolicy } from '../../integrations/ocm-model.js';
import { byNextRun, isActionable, specFromPolicy } from './ocm-policy.js';
import type { PolicyProvider } from './policy-provider.js';

/** Why a provider could not answer. */
export type PolicyProviderFailure =
  /** OCM has no cluster (or several) with this cluster's id. */
  | 'ClusterNotFound'
  /** OCM did not answer usefully (unreachable, 5xx, refused credentials). */
  | 'ProviderUnavailable'
  /** The policy to apply cannot become an UpgradeConfig (its version is not a semantic version). */
  | 'InvalidPolicy';

/** A provider failure with a stable reason. */
export class PolicyProviderError extends Error {
  readonly reason: PolicyProviderFailure;
  constructor(reason: PolicyProviderFailure, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PolicyProviderError';
    this.reason = reason;
  }
}

/** Options of {@link OcmPolicyProvider}. */
export interface OcmPolicyProviderOptions {
  ocm: OcmApi;
  /** This cluster's external id (`ClusterVersion.spec.clusterID`). */
  externalId: (signal?: AbortSignal) => Promise<string>;
  /** `spec.type` of the UpgradeConfigs written (`upgradeType` of the ConfigMap). */
  upgradeType: UpgradeType;
}

/**
 * Looks the cluster up in OCM (`ClusterNotFound` when OCM knows no single cluster with this
 * id: the pull-secret may be invalid, or the cluster's owner disabled or banned).
 */
export async function findOcmCluster(ocm: OcmApi, externalId: string, signal?: AbortSignal): Promise<OcmCluster> {
  let cluster: OcmCluster | undefined;
  try {
    cluster = await ocm.findCluster(externalId, signal);
  } catch (err) {
    throw unavailable(ocm, err);
  }
  if (!cluster) {
    throw new PolicyProviderError(
      'ClusterNotFound',
      `${ocm.api}: no cluster with external_id ${externalId}: the pull-secret may be invalid, or the cluster's owner is disabled or banned`,
    );
  }
  return cluster;
}

/** The OCM (or OCM agent) policy provider. */
export class OcmPolicyProvider implements PolicyProvider {
  readonly source = 'OCM';
  readonly #o: OcmPolicyProviderOptions;

  constructor(options: OcmPolicyProviderOptions) {
    this.#o = options;
  }

  /**
   * The spec of the earliest actionable policy, or none. Rejects with `InvalidPolicy` when that
   * policy cannot become an UpgradeConfig (as MUO, whose sync then fails: nothing is written).
   */
  async specs(_current: ManagedUpgradeConfig | undefined, signal: AbortSignal): Promise<ManagedUpgradeConfigSpec[]> {
    const { ocm } = this.#o;
    const cluster = await findOcmCluster(ocm, await this.#o.externalId(signal), signal);
    let chosen: OcmUpgradePolicy | undefined;
    try {
      for (const policy of byNextRun(await ocm.upgradePolicies(cluster.id, signal))) {
        if (policy.version === '') continue;
        const state = await ocm.policyState(cluster.id, policy.id, signal);
        if (isActionable(policy, state)) {
          chosen = policy;
          break;
        }
      }
    } catch (err) {
      throw unavailable(ocm, err);
    }
    if (chosen === undefined) return [];
    const built = specFromPolicy(cluster, chosen, this.#o.upgradeType);
    if (!built.ok) throw new PolicyProviderError('InvalidPolicy', built.error);
    return [built.spec];
  }
}

function unavailable(ocm: OcmApi, err: unknown): unknown {
  if (signalAbort(err)) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new PolicyProviderError('ProviderUnavailable', isIntegrationError(err) ? message : `${ocm.api}: ${message}`, {
    cause: err,
  });
}

function signalAbort(err: unknown): boolean {
  return (isIntegrationError(err) && err.reason === 'Aborted') || (err instanceof Error && err.name === 'AbortError');
}
