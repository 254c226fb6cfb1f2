/**
 * Pure decisions of the OCM provider (docs/design/managed-flow.md#ocm): which policy is actionable,
 * the order in which policies are considered (earliest `next_run` first), and the UpgradeConfig
 * spec a policy becomes — the channel `<channel_group or stable>-<major>.<minor>` (an odd minor
 * rounded up to the next even one for `eus`), `upgradeAt` from `next_run`, `PDBForceDrainTimeout`
 * from the cluster's `node_drain_grace_period` in its unit, and `capacityReservation` as OCM sends
 * it.
 *
 * A policy whose version is not a semantic version (MUO parses it with blang/semver's strict
 * `Parse`) has no channel: as in MUO, it becomes no UpgradeConfig and the sync fails, saying why.
 *
 * Differences from MUO, on purpose: every policy is considered (MUO fetched one); the
 * drain grace period's unit is honoured (MUO read the value as minutes whatever the unit);
 * `capacity_reservation` is honoured when OCM sends it (MUO always wrote true; true stays the
 * default when the field is absent).
 */
import type { ManagedUpgradeConfigSpec } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import type { UpgradeType } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import type { OcmCluster, OcmPolicyState, OcmUpgradePolicy } from '../../integrations/ocm-model.js';
import { formatTime } from '../../lib/clock.js';
import { parseStrictSemver, STRICT_SEMVER_EXPECTATION } from '../validation/strict-semver.js';

/** Policy states that ask for no upgrade (compared case-insensitively). */
export const NOT_ACTIONABLE_STATES: readonly string[] = ['pending', 'completed', 'cancelled'];

/** True when a policy with this state should become an UpgradeConfig. */
export function isActionable(policy: OcmUpgradePolicy, state: OcmPolicyState): boolean {
  return policy.version !== '' && !NOT_ACTIONABLE_STATES.includes(state.value.toLowerCase());
}

/** Policies in the order they are considered: earliest `next_run` first, unparsable ones last. */
export function byNextRun(policies: readonly OcmUpgradePolicy[]): OcmUpgradePolicy[] {
  const at = (ocmUpgradePolicy: OcmUpgradePolicy): number => {
    const ms = Date.parse(ocmUpgradePolicy.nextRun);
    return Number.isNaN(ms) ? Number.POSITIVE_INFINITY : ms;
  };
  return [...policies].sort((a, b) => at(a) - at(b) || a.id.localeCompare(b.id));
}

/**
 * The update channel of a version in a channel group: `stable-4.15` for 4.15.3 without a group;
 * `eus-4.14` for 4.13.x (EUS channels exist for even minors only). Undefined when `version` is
 * not a strict semantic version (MUO's `inferUpgradeChannelFromChannelGroup` fails then).
 */
export function ocmChannel(channelGroup: string, version: string): string | undefined {
  const group = channelGroup === '' ? 'stable' : channelGroup;
  const parsed = parseStrictSemver(version);
  if (parsed === undefined) return undefined;
  let minor = parsed.minor;
  if (group === 'eus' && minor % 2 === 1) minor += 1;
  return `${group}-${parsed.major}.${minor}`;
}

const UNIT_MINUTES: Readonly<Record<string, number>> = {
  s: 1 / 60,
  sec: 1 / 60,
  second: 1 / 60,
  seconds: 1 / 60,
  m: 1,
  min: 1,
  mins: 1,
  minute: 1,
  minutes: 1,
  h: 60,
  hr: 60,
  hour: 60,
  hours: 60,
  d: 1440,
  day: 1440,
  days: 1440,
};

/**
 * `PDBForceDrainTimeout` (whole minutes, rounded up) from a `node_drain_grace_period`; a
 * missing or unknown unit counts as minutes (OCM's only unit today), a missing period as 0.
 */
export function drainGraceMinutes(grace: OcmCluster['nodeDrainGracePeriod']): number {
  if (!grace || !(grace.value > 0)) return 0;
  const factor = UNIT_MINUTES[grace.unit.trim().toLowerCase()] ?? 1;
  return Math.min(2 ** 31 - 1, Math.ceil(grace.value * factor));
}

/** `next_run` as the UpgradeConfig writes it (RFC 3339, seconds, UTC); unparsable values pass through. */
export function upgradeAtOf(nextRun: string): string {
  const ms = Date.parse(nextRun);
  return Number.isNaN(ms) ? nextRun : formatTime(ms);
}

/** The UpgradeConfig spec a policy asks for, or why it cannot become one. */
export type PolicySpec = { ok: true; spec: ManagedUpgradeConfigSpec } | { ok: false; error: string };

/**
 * The UpgradeConfig spec a policy asks for. A version that is not a semantic version gives no
 * spec but MUO's error (`unable to determine channel from channel group '<group>' and version
 * '<version>' for policy ID '<id>'`, the group as OCM sends it) and the reason.
 */
export function specFromPolicy(cluster: OcmCluster, policy: OcmUpgradePolicy, upgradeType: UpgradeType): PolicySpec {
  const channel = ocmChannel(cluster.channelGroup, policy.version);
  if (channel === undefined) {
    return {
      ok: false,
      error: `unable to determine channel from channel group '${cluster.channelGroup}' and version '${policy.version}' for policy ID '${policy.id}': ${JSON.stringify(policy.version)} is not a semantic version (${STRICT_SEMVER_EXPECTATION})`,
    };
  }
  return {
    ok: true,
    spec: {
      desired: { version: policy.version, channel },
      upgradeAt: upgradeAtOf(policy.nextRun),
      PDBForceDrainTimeout: drainGraceMinutes(cluster.nodeDrainGracePeriod),
      type: upgradeType,
      capacityReservation: policy.capacityReservation ?? true,
    },
  };
}

/**
 * True when a policy is the one an UpgradeConfig came from: the same version and the same second.
 * `upgradeAt` holds `next_run` to the second ({@link upgradeAtOf}), so a `next_run` with a fraction
 * (OCM's scheduler writes them) is compared at that precision.
 */
export function policyMatches(policy: OcmUpgradePolicy, version: string, upgradeAt: string): boolean {
  if (policy.version !== version) return false;
  const nextRun = Date.parse(policy.nextRun);
  const at = Date.parse(upgradeAt);
  if (Number.isNaN(nextRun) || Number.isNaN(at)) return policy.nextRun === upgradeAt;
  return Math.floor(nextRun / 1000) === Math.floor(at / 1000);
}
