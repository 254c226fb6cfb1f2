/**
 * CommenceUpgrade's write to ClusterVersion (docs/design/managed-flow.md#commencing-the-upgrade):
 * the channel first (merge patch), then `spec.desiredUpdate` — `{image, version: null}` in image
 * mode; in version mode `{version, image: null}` for an available update or `{version, image}` for
 * a conditional one, once the CVO offers the version. Idempotent: nothing is written when the CVO
 * already has it. Before `desiredUpdate` is written the target's risks are judged afresh
 * (update-risk.ts): a conditional update not known to be recommended is commanded as MUO does and
 * its risks returned, or, when the risk policy requires acceptance, not commanded unless its
 * risks are accepted.
 */
import {
  CLUSTER_VERSION_NAME,
  ClusterVersionResource,
  type ClusterVersion,
} from '../../api/openshift/config-v1/cluster-version.js';
import type { ManagedUpgradeDesired } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import type { KubeClient } from '../../kube/client.js';
import type { JsonObject } from '../../lib/json.js';
import { offeredTarget, type OfferedTarget } from './cluster-version-state.js';
import { judgeUpdateRisk, type RiskAssessment, type RiskPolicy } from './update-risk.js';

/** What one call did. */
export type CommenceResult =
  | {
      state: 'commanded';
      target: OfferedTarget | { kind: 'image'; image: string };
      channelChanged: boolean;
      /** This call wrote desiredUpdate (false: the CVO already had it, nothing was judged). */
      written: boolean;
      /** Set when this call commanded a target that is not known-good: what the CVO says of it. */
      risk?: RiskAssessment;
    }
  | { state: 'notOffered'; channelChanged: boolean }
  | { state: 'notRecommended'; risk: RiskAssessment; channelChanged: boolean };

/** The merge patch that points the CVO at the target (pure). */
export function desiredUpdatePatch(
  desired: ManagedUpgradeDesired,
  target: OfferedTarget | undefined,
): JsonObject | undefined {
  if (desired.image) return { spec: { desiredUpdate: { image: desired.image, version: null } } };
  if (!target || !desired.version) return undefined;
  return {
    spec: {
      desiredUpdate:
        target.kind === 'conditional'
          ? { version: desired.version, image: target.release.image }
          : { version: desired.version, image: null },
    },
  };
}

/** MUO's behaviour: any offered target is commanded (its risks are only named). */
const MUO_RISK_POLICY: RiskPolicy = { accepted: [], requireAcceptance: false };

/**
 * Sets channel and desiredUpdate as MUO's `EnsureDesiredConfig` does. A target that is not
 * known-good is commanded and its risks returned, unless `policy` requires acceptance and a risk
 * is not among the accepted names (then `notRecommended`, nothing written to desiredUpdate).
 */
export async function commenceUpgrade(
  client: KubeClient,
  desired: ManagedUpgradeDesired,
  signal: AbortSignal,
  policy: RiskPolicy = MUO_RISK_POLICY,
): Promise<CommenceResult> {
  let cv = await client.get(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME, { signal });
  if (desired.image) {
    const target = { kind: 'image', image: desired.image } as const;
    if (cv.spec.desiredUpdate?.image === desired.image)
      return { state: 'commanded', target, channelChanged: false, written: false };
    // An image the CVO does not list (a hand-picked release) is MUO's case and still goes; a listed conditional one is judged.
    const verdict = judgeUpdateRisk(cv, { image: desired.image }, policy);
    if (!verdict.go && verdict.reason !== 'NotOffered')
      return { state: 'notRecommended', risk: verdict.risk, channelChanged: false };
    await patch(client, desiredUpdatePatch(desired, undefined)!, signal);
    return {
      state: 'commanded',
      target,
      channelChanged: false,
      written: true,
      ...(verdict.go && verdict.risk ? { risk: verdict.risk } : {}),
    };
  }
  let channelChanged = false;
  if (desired.channel && cv.spec.channel !== desired.channel) {
    cv = await patch(client, { spec: { channel: desired.channel } }, signal);
    channelChanged = true;
  }
  const target = offeredTarget(cv, desired.version ?? '');
  if (!target) return { state: 'notOffered', channelChanged };
  if (cv.spec.desiredUpdate?.version === desired.version)
    return { state: 'commanded', target, channelChanged, written: false };
  const verdict = judgeUpdateRisk(cv, { version: desired.version }, policy);
  if (!verdict.go && verdict.reason !== 'NotOffered')
    return { state: 'notRecommended', risk: verdict.risk, channelChanged };
  await patch(client, desiredUpdatePatch(desired, target)!, signal);
  return {
    state: 'commanded',
    target,
    channelChanged,
    written: true,
    ...(verdict.go && verdict.risk ? { risk: verdict.risk } : {}),
  };
}

function patch(client: KubeClient, body: JsonObject, signal: AbortSignal): Promise<ClusterVersion> {
  return client.patch(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME, body, { type: 'merge', signal });
}
