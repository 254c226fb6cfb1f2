/**
 * CommenceUpgrade's write to ClusterVersion (docs/design/managed-flow.md#commencing-the-upgrade):
 * the channel first (merge patch), then `spec.desiredUpdate` — `{image, version: null}` in image
 * mode; in version mode `{version, image: null}` for an available update or `{version, image}` for
 * a conditional one, once the CVO offers the version. Idempotent: nothing is written when the CVO
 * already has it. Before `desiredUpdate` is written the target's risks are judged afresh
 * (update-risk.ts): a conditional update not known to be recommended is not commanded unless its
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
import { judgeUpdateRisk, type RiskVerdict } from './update-risk.js';

/** What one call did. */
export type CommenceResult =
  | { state: 'commanded'; target: OfferedTarget | { kind: 'image'; image: string }; channelChanged: boolean }
  | { state: 'notOffered'; channelChanged: boolean }
  | { state: 'notRecommended'; verdict: Extract<RiskVerdict, { risks: unknown }>; channelChanged: boolean };

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

/**
 * Sets channel and desiredUpdate as MUO's `EnsureDesiredConfig` does, once the target's risks
 * are known-good or all in `acceptedRisks` (risk names the UpgradeConfig accepts).
 */
export async function commenceUpgrade(
  client: KubeClient,
  desired: ManagedUpgradeDesired,
  signal: AbortSignal,
  acceptedRisks: readonly string[] = [],
): Promise<CommenceResult> {
  let cv = await client.get(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME, { signal });
  if (desired.image) {
    if (cv.spec.desiredUpdate?.image !== desired.image) {
      // An image the CVO does not list (a hand-picked release) is MUO's case and still goes; a listed conditional one is judged.
      const verdict = judgeUpdateRisk(cv, { image: desired.image }, acceptedRisks);
      if (!verdict.go && verdict.reason !== 'NotOffered')
        return { state: 'notRecommended', verdict, channelChanged: false };
      await patch(client, desiredUpdatePatch(desired, undefined)!, signal);
    }
    return { state: 'commanded', target: { kind: 'image', image: desired.image }, channelChanged: false };
  }
  let channelChanged = false;
  if (desired.channel && cv.spec.channel !== desired.channel) {
    cv = await patch(client, { spec: { channel: desired.channel } }, signal);
    channelChanged = true;
  }
  const target = offeredTarget(cv, desired.version ?? '');
  if (!target) return { state: 'notOffered', channelChanged };
  if (cv.spec.desiredUpdate?.version !== desired.version) {
    const verdict = judgeUpdateRisk(cv, { version: desired.version }, acceptedRisks);
    if (!verdict.go && verdict.reason !== 'NotOffered') return { state: 'notRecommended', verdict, channelChanged };
    await patch(client, desiredUpdatePatch(desired, target)!, signal);
  }
  return { state: 'commanded', target, channelChanged };
}

function patch(client: KubeClient, body: JsonObject, signal: AbortSignal): Promise<ClusterVersion> {
  return client.patch(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME, body, { type: 'merge', signal });
}
