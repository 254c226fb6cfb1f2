/**
 * Upgrade-policy providers (docs/design/managed-flow.md#policy-providers): where the desired
 * UpgradeConfig spec comes from. The controller asks the configured provider once more just before
 * commencing (the "kill switch"); a changed policy sends the upgrade back to New instead of
 * starting it. This issue ships the LOCAL provider (the CR itself is the policy); OCM and the OCM
 * agent arrive with the providers issue.
 */
import type {
  ManagedUpgradeConfig,
  ManagedUpgradeConfigSpec,
} from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import { jsonEqual } from '../../lib/json.js';

/** A source of upgrade policies. */
export interface PolicyProvider {
  /** `LOCAL`, `OCM`, … */
  readonly source: string;
  /** The desired specs, the first being the one to apply; empty when no upgrade is wanted. */
  specs(current: ManagedUpgradeConfig | undefined, signal: AbortSignal): Promise<ManagedUpgradeConfigSpec[]>;
}

/**
 * LOCAL: the UpgradeConfig itself is the policy, so refreshing never changes it. (MUO's local
 * provider also made its sync loop delete Upgraded CRs; we never delete an UpgradeConfig.)
 */
export class LocalPolicyProvider implements PolicyProvider {
  readonly source = 'LOCAL';

  async specs(current: ManagedUpgradeConfig | undefined): Promise<ManagedUpgradeConfigSpec[]> {
    return current?.spec ? [current.spec] : [];
  }
}

/** What the kill-switch refresh found. */
export type RefreshResult =
  | { outcome: 'unchanged' }
  | { outcome: 'notConfigured' }
  | { outcome: 'changed'; spec: ManagedUpgradeConfigSpec | undefined; why: string };

/** Compares the provider's policy with the CR's spec (pure apart from the provider call). */
export async function refreshPolicy(
  provider: PolicyProvider | undefined,
  current: ManagedUpgradeConfig,
  signal: AbortSignal,
): Promise<RefreshResult> {
  if (!provider) return { outcome: 'notConfigured' };
  const specs = await provider.specs(current, signal);
  const first = specs[0];
  if (!first)
    return { outcome: 'changed', spec: undefined, why: `the ${provider.source} policy no longer asks for an upgrade` };
  if (jsonEqual(first, current.spec ?? {})) return { outcome: 'unchanged' };
  return {
    outcome: 'changed',
    spec: first,
    why: `the ${provider.source} policy changed since the UpgradeConfig was written`,
  };
}
