/**
 * The cluster's OCM credential (docs/design/managed-flow.md#ocm): the cluster id from
 * `ClusterVersion.spec.clusterID` and the token `auths["cloud.openshift.com"].auth` of
 * `openshift-config/pull-secret`. Read through the Kubernetes API and kept for a minute on the
 * clock, so that the OCM client (which asks before every request) costs no API call per request yet
 * picks up a rotated pull-secret.
 */
import { SecretResource } from '../../api/builtin.js';
import { ClusterVersionResource } from '../../api/openshift/config-v1/cluster-version.js';
import { ocmTokenFromPullSecret, type OcmCredentials } from '../../integrations/ocm-client.js';
import type { KubeClient } from '../../kube/client.js';
import type { Clock } from '../../lib/clock.js';

/** Where the pull-secret lives. */
export const PULL_SECRET = { namespace: 'openshift-config', name: 'pull-secret' } as const;
/** How long credentials read once are reused. */
export const CREDENTIALS_TTL_MS = 60_000;

/** Why the credential could not be read (the message says what to fix). */
export class OcmCredentialsError extends Error {
  readonly reason = 'CredentialsUnavailable';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OcmCredentialsError';
  }
}

/** Reads the OCM credential of this cluster, cached for {@link CREDENTIALS_TTL_MS}. */
export class ClusterCredentials {
  readonly #client: KubeClient;
  readonly #clock: Clock;
  #cached: { at: number; value: OcmCredentials } | undefined;

  constructor(client: KubeClient, clock: Clock) {
    this.#client = client;
    this.#clock = clock;
  }

  /** The credential (from the cache when fresh). */
  async get(signal?: AbortSignal): Promise<OcmCredentials> {
    const now = this.#clock.now();
    if (this.#cached && now - this.#cached.at < CREDENTIALS_TTL_MS) return this.#cached.value;
    const opts = signal ? { signal } : {};
    const [cv, secret] = await Promise.all([
      this.#client.getIfExists(ClusterVersionResource, undefined, 'version', opts),
      this.#client.getIfExists(SecretResource, PULL_SECRET.namespace, PULL_SECRET.name, opts),
    ]);
    const clusterId = cv?.spec?.clusterID ?? '';
    if (clusterId === '') throw new OcmCredentialsError('ClusterVersion "version" has no spec.clusterID');
    if (!secret) throw new OcmCredentialsError(`Secret ${PULL_SECRET.namespace}/${PULL_SECRET.name} not found`);
    const token = ocmTokenFromPullSecret(secret);
    if (token === undefined)
      throw new OcmCredentialsError(
        `Secret ${PULL_SECRET.namespace}/${PULL_SECRET.name} has no auths["cloud.openshift.com"].auth in .dockerconfigjson`,
      );
    const value = { clusterId, token };
    this.#cached = { at: now, value };
    return value;
  }

  /** Forgets the cached credential (after OCM refused it). */
  invalidate(): void {
    this.#cached = undefined;
  }
}
