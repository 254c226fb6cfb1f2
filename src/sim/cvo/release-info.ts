/**
 * What the CVO publishes about a payload: `status.desired` (version, image, url and channels as the
 * update service lists them), `versionHash` (FNV-64a over the payload's manifests, base64 URL
 * encoding, 12 characters) and the 4.y capability sets
 * (docs/design/cluster-model.md#clusterversion-status). Pure.
 */
import type { Capability, Release } from '../../api/openshift/config-v1/cluster-version.js';
import { releaseChannelsAt, type Catalogue, type Release as CatalogueRelease } from '../releases/catalogue.js';
import type { ReleasePayload } from '../releases/payload.js';

const BASE_CAPABILITIES: readonly Capability[] = [
  'Build',
  'CSISnapshot',
  'CloudCredential',
  'Console',
  'DeploymentConfig',
  'ImageRegistry',
  'Insights',
  'MachineAPI',
  'NodeTuning',
  'OperatorLifecycleManager',
  'Storage',
  'baremetal',
  'marketplace',
  'openshift-samples',
];

/** The vCurrent capability set of 4.y (enabled = known on a default install), sorted as the CVO sorts. */
export function capabilitiesFor(minor: number): Capability[] {
  const caps: Capability[] = [...BASE_CAPABILITIES];
  if (minor >= 16) caps.push('Ingress', 'CloudControllerManager');
  if (minor >= 18) caps.push('OperatorLifecycleManagerV1');
  return caps.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** `status.desired` for a catalogue release at a time (channels are those it is in then). */
export function releaseStatus(catalogue: Catalogue, release: CatalogueRelease, now: number): Release {
  const r: Release = { version: release.version, image: release.pullSpec, url: release.url };
  const channels = releaseChannelsAt(catalogue, release, now);
  if (channels.length > 0) r.channels = channels;
  return r;
}

/** FNV-64a over the payload's manifest names and version, base64url with padding (e.g. `Zx3Q2k_9aLk=`). */
export function versionHash(payload: ReleasePayload): string {
  let h = 0xcbf29ce484222325n;
  const prime = 0x100000001b3n;
  const mask = 0xffffffffffffffffn;
  const feed = (text: string): void => {
    for (const byte of Buffer.from(text, 'utf8')) {
      h ^= BigInt(byte);
      h = (h * prime) & mask;
    }
  };
  feed(payload.version);
  for (const m of payload.manifests) feed(`\n${m.file}`);
  const buf = Buffer.alloc(8);
  buf.writeBigUInt64BE(h);
  return buf.toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
}
