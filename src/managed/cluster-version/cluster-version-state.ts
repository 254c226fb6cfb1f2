/**
 * What the managed flow reads from ClusterVersion (docs/design/managed-flow.md#commencement,
 * docs/design/managed-flow.md#commencing-the-upgrade,
 * docs/design/managed-flow.md#control-plane-completion,
 * docs/design/managed-flow.md#preceding-version): whether the CVO was already commanded to the
 * target, the cluster's current and preceding versions, where a target is offered (available or
 * conditional), and whether the control plane has completed it. Pure functions over the object as
 * read from the API.
 */
import type { ClusterVersion, Release } from '../../api/openshift/config-v1/cluster-version.js';
import type { ManagedUpgradeDesired } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import { targetCompleted } from '../../engine/cvo-progress.js';

/** MUO's error when the UpgradeConfig names neither an image nor channel + version. */
export const NO_UPGRADE_SPEC_SOURCE = 'cannot find the correct upgrade spec source';

/**
 * MUO's `HasUpgradeCommenced`: image mode ⇒ the CVO's desired image is ours; version mode
 * (needs channel and version) ⇒ its desired version is ours. Throws {@link NO_UPGRADE_SPEC_SOURCE}
 * when the spec has neither.
 */
export function hasUpgradeCommenced(cv: ClusterVersion, desired: ManagedUpgradeDesired): boolean {
  const update = cv.spec.desiredUpdate;
  if (desired.image) return update?.image === desired.image;
  if (desired.channel && desired.version) return update?.version === desired.version;
  throw new Error(NO_UPGRADE_SPEC_SOURCE);
}

/** The newest Completed history entry by completionTime: the version the cluster runs. */
export function currentVersion(cv: ClusterVersion | undefined): string | undefined {
  let best: { version: string; at: number } | undefined;
  for (const h of cv?.status?.history ?? []) {
    if (h.state !== 'Completed' || !h.completionTime) continue;
    const at = Date.parse(h.completionTime);
    if (!best || at > best.at) best = { version: h.version, at };
  }
  return best?.version;
}

/**
 * MUO's `GetPrecedingVersion` (docs/design/managed-flow.md#preceding-version): when the CVO already
 * targets `desiredVersion`, the first Completed, non-empty history version other than it; otherwise
 * (or when there is none) the CVO's desired version.
 */
export function precedingVersion(cv: ClusterVersion, desiredVersion: string | undefined): string {
  const desired = cv.status?.desired.version ?? '';
  if (desired === desiredVersion) {
    const prev = (cv.status?.history ?? []).find(
      (h) => h.state === 'Completed' && h.version !== '' && h.version !== desiredVersion,
    );
    if (prev) return prev.version;
  }
  return desired;
}

/** Where the CVO offers `version`: among available updates, or as a conditional update (with its image). */
export type OfferedTarget = { kind: 'available'; release: Release } | { kind: 'conditional'; release: Release };

/** Finds `version` among the CVO's offered updates (releases without an image do not count). */
export function offeredTarget(cv: ClusterVersion, version: string): OfferedTarget | undefined {
  const available = (cv.status?.availableUpdates ?? []).find((r) => r.version === version && r.image);
  if (available) return { kind: 'available', release: available };
  const conditional = (cv.status?.conditionalUpdates ?? []).find(
    (c) => c.release.version === version && c.release.image,
  );
  return conditional ? { kind: 'conditional', release: conditional.release } : undefined;
}

/**
 * The control plane has completed `version`: the CVO has observed the current spec and the history
 * head is `version`, Completed. MUO accepts any Completed entry for the version; an older entry (a
 * retarget back, a rollback) would then read as done before the CVO even took the new target
 * (docs/design/cluster-model.md#behaviour-7-a-retarget-and-a-stale-status), so only the head
 * counts.
 */
export function controlPlaneCompleted(cv: ClusterVersion | undefined, version: string): boolean {
  return cv !== undefined && targetCompleted(cv, { version });
}

/** When the CVO started updating to `version` (epoch ms), if it has. */
export function controlPlaneStartedAt(cv: ClusterVersion | undefined, version: string): number | undefined {
  const h = (cv?.status?.history ?? []).find((x) => x.version === version && x.startedTime);
  return h ? Date.parse(h.startedTime) : undefined;
}

/** A ClusterVersion condition's status and text, for "why not?" messages. */
export function clusterVersionCondition(
  cv: ClusterVersion | undefined,
  type: string,
): { status: string; reason: string; message: string } | undefined {
  const c = cv?.status?.conditions?.find((x) => x.type === type);
  return c ? { status: c.status, reason: c.reason ?? '', message: c.message ?? '' } : undefined;
}
