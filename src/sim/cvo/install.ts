/**
 * The ClusterVersion of a freshly installed cluster (docs/design/cluster-model.md#clusterversion):
 * spec with the cluster ID and channel; status with the installed release as `desired`, one
 * Completed history entry (installs from the release image are not verified), and the conditions an
 * idle cluster shows. Upgradeable is absent (nothing blocks) and `availableUpdates` stays null
 * until the CVO retrieves the graph.
 */
import {
  CLUSTER_VERSION_NAME,
  ClusterVersionResource,
  type ClusterVersion,
} from '../../api/openshift/config-v1/cluster-version.js';
import { formatTime } from '../../lib/clock.js';
import type { SimContext } from '../context.js';
import { buildCatalogue, findRelease, type Catalogue } from '../releases/catalogue.js';
import { payloadFor } from '../releases/payload.js';
import { capabilitiesFor, releaseStatus, versionHash } from './release-info.js';

export interface InstallStateOptions {
  version: string;
  channel: string;
  clusterID: string;
  /** Default: the default catalogue. */
  catalogue?: Catalogue;
  /** `spec.upstream` (e.g. the simulated update service's graph URL). */
  upstream?: string;
  /** When the install started (default: 40 min before now); it completed now. */
  installStartedAt?: number;
}

/** Creates the ClusterVersion `version` as an installed cluster has it; returns the stored object. */
export async function installState(ctx: SimContext, options: InstallStateOptions): Promise<ClusterVersion> {
  const catalogue = options.catalogue ?? buildCatalogue();
  const release = findRelease(catalogue, options.version);
  if (!release) throw new Error(`installState: release ${options.version} is not in the catalogue`);
  const now = ctx.clock.now();
  const started = options.installStartedAt ?? now - 40 * 60_000;
  const payload = payloadFor(release);
  const spec: ClusterVersion['spec'] = { clusterID: options.clusterID, channel: options.channel };
  if (options.upstream) spec.upstream = options.upstream;
  const created = await ctx.client.create(ClusterVersionResource, {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: { name: CLUSTER_VERSION_NAME },
    spec,
  });
  const t = formatTime(now);
  const image = release.pullSpec;
  const caps = capabilitiesFor(release.minor);
  created.status = {
    desired: releaseStatus(catalogue, release, now),
    history: [
      {
        state: 'Completed',
        startedTime: formatTime(started),
        completionTime: t,
        version: release.version,
        image,
        verified: false,
      },
    ],
    observedGeneration: created.metadata?.generation ?? 1,
    versionHash: versionHash(payload),
    capabilities: { enabledCapabilities: caps, knownCapabilities: [...caps] },
    conditions: [
      { type: 'RetrievedUpdates', status: 'True', lastTransitionTime: formatTime(started) },
      {
        type: 'ImplicitlyEnabledCapabilities',
        status: 'False',
        reason: 'AsExpected',
        message: 'Capabilities match configured spec',
        lastTransitionTime: formatTime(started),
      },
      {
        type: 'ReleaseAccepted',
        status: 'True',
        reason: 'PayloadLoaded',
        message: `Payload loaded version=${JSON.stringify(release.version)} image=${JSON.stringify(image)} architecture="amd64"`,
        lastTransitionTime: formatTime(started),
      },
      { type: 'Available', status: 'True', message: `Done applying ${release.version}`, lastTransitionTime: t },
      { type: 'Failing', status: 'False', lastTransitionTime: t },
      { type: 'Progressing', status: 'False', message: `Cluster version is ${release.version}`, lastTransitionTime: t },
    ],
    availableUpdates: null,
  };
  return ctx.client.updateStatus(ClusterVersionResource, created);
}
