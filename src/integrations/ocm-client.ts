/**
 * The OpenShift Cluster Manager client (clusters_mgmt/v1 and service_logs/v1), over the shared
 * {@link HttpClient}: the cluster by `external_id`, every upgrade policy of a cluster (all
 * pages: MUO fetched only the first policy), a policy's state (GET and PATCH), and service
 * logs (POST). Authentication is OCM's cluster credential
 * `Authorization: AccessToken <clusterID>:<pull-secret token>`, asked for before each request
 * so that a rotated pull-secret is picked up. Every call is retried like MUO's SDK connection
 * (5 retries from 2 s, doubling, 30 % jitter, on the injected clock) when the failure is a
 * transport failure, a timeout or a 5xx answer; a 4xx answer is final. Errors are
 * {@link IntegrationError}s whose message carries OCM's error code and reason, never the token.
 *
 * The OCM agent variant (`createOcmAgentClient`) talks to the in-cluster agent: the cluster
 * is `GET /`, everything else the same paths relative to the agent's URL, never via a proxy.
 */
import type { Secret } from 'kubernetes-types/core/v1.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/log.js';
import type { Random } from '../lib/random.js';
import { HttpClient, type HttpCall, type HttpTransportOptions } from './http/http-client.js';
import { NO_PROXY_CONFIG } from './http/proxy-env.js';
import { OCM_RETRY, isTransientHttpFailure, retry, type BackoffPolicy } from './http/retry.js';
import { IntegrationError } from './integration-error.js';
import {
  ocmErrorDetail,
  parseCluster,
  parseListPage,
  parsePolicy,
  parsePolicyState,
  serviceLogJson,
  type OcmCluster,
  type OcmPolicyState,
  type OcmServiceLog,
  type OcmUpgradePolicy,
} from './ocm-model.js';

const CLUSTERS_MGMT = '/api/clusters_mgmt/v1';
const SERVICE_LOGS = '/api/service_logs/v1';
/** Page size of policy lists. */
const PAGE_SIZE = 100;
/** A runaway paging guard (100 pages of 100 policies). */
const MAX_PAGES = 100;

/** The credential of OCM's `AccessToken` scheme. */
export interface OcmCredentials {
  /** `ClusterVersion.spec.clusterID`. */
  clusterId: string;
  /** `auths["cloud.openshift.com"].auth` of the pull-secret. */
  token: string;
}

/** What the providers and the notifier need of OCM (the OCM API or the OCM agent). */
export interface OcmApi {
  /** `ocm` or `ocm-agent`. */
  readonly api: string;
  /** The cluster whose `external_id` is `externalId`; undefined when OCM knows none (or several). */
  findCluster(externalId: string, signal?: AbortSignal): Promise<OcmCluster | undefined>;
  /** Every upgrade policy of the cluster (OCM's internal id), all pages. */
  upgradePolicies(clusterId: string, signal?: AbortSignal): Promise<OcmUpgradePolicy[]>;
  policyState(clusterId: string, policyId: string, signal?: AbortSignal): Promise<OcmPolicyState>;
  setPolicyState(
    clusterId: string,
    policyId: string,
    state: OcmPolicyState,
    signal?: AbortSignal,
  ): Promise<OcmPolicyState>;
  postServiceLog(log: OcmServiceLog, signal?: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

/** Options of {@link OcmClient}. */
export interface OcmClientOptions extends Omit<HttpTransportOptions, 'clock' | 'bearerToken' | 'authScheme'> {
  /** Clock of the retries and (unless `timeoutClock`) the request timeouts. */
  clock: Clock;
  /** Clock of the request timeouts (default `clock`; a rehearsal on scaled time: the wall clock). */
  timeoutClock?: Clock;
  /** `configManager.ocmBaseUrl`. */
  baseUrl: string;
  /** Asked before every request (the caller reads the pull-secret and the ClusterVersion). */
  credentials: () => Promise<OcmCredentials>;
  /** Jitter of the retries. */
  random: Random;
  /** Default {@link OCM_RETRY}. */
  retry?: BackoffPolicy;
  logger?: Logger;
}

/**
 * The token of OCM's `AccessToken` credential: `auths["cloud.openshift.com"].auth` of the
 * pull-secret's `.dockerconfigjson` (undefined when absent or unreadable).
 */
export function ocmTokenFromPullSecret(secret: Secret | undefined): string | undefined {
  const raw = secret?.data?.['.dockerconfigjson'];
  if (raw === undefined) return undefined;
  try {
    const config = JSON.parse(Buffer.from(raw, 'base64').toString('utf8')) as unknown;
    const auths = (config as { auths?: Record<string, { auth?: unknown }> } | null)?.auths;
    const auth = auths?.['cloud.openshift.com']?.auth;
    return typeof auth === 'string' && auth !== '' ? auth : undefined;
  } catch {
    return undefined;
  }
}

/** The OCM API client (see the module header). Close it when done. */
export class OcmClient implements OcmApi {
  readonly api: string;
  readonly #http: HttpClient;
  readonly #o: OcmClientOptions;
  readonly #agent: boolean;

  constructor(options: OcmClientOptions, variant: { agent?: boolean } = {}) {
    this.#agent = variant.agent === true;
    this.api = this.#agent ? 'ocm-agent' : 'ocm';
    this.#o = options;
    const { credentials, random: _r, retry: _p, logger: _l, timeoutClock, ...transport } = options;
    this.#http = new HttpClient({
      ...transport,
      ...(timeoutClock ? { clock: timeoutClock } : {}),
      api: this.api,
      authScheme: 'AccessToken',
      bearerToken: async () => {
        const c = await credentials();
        return `${c.clusterId}:${c.token}`;
      },
      ...(this.#agent ? { proxy: NO_PROXY_CONFIG } : {}),
    });
  }

  async findCluster(externalId: string, signal?: AbortSignal): Promise<OcmCluster | undefined> {
    if (this.#agent) return parseCluster(this.api, await this.#json({ path: '/', ...sig(signal) }));
    const query = { search: `external_id = '${externalId.replaceAll("'", "''")}'`, size: '1' };
    const page = parseListPage(
      this.api,
      await this.#json({ path: `${CLUSTERS_MGMT}/clusters`, query, ...sig(signal) }),
    );
    const first = page.items[0];
    if ((page.total ?? page.items.length) !== 1 || first === undefined) return undefined;
    return parseCluster(this.api, first);
  }

  async upgradePolicies(clusterId: string, signal?: AbortSignal): Promise<OcmUpgradePolicy[]> {
    const path = `${CLUSTERS_MGMT}/clusters/${encodeURIComponent(clusterId)}/upgrade_policies`;
    const all: OcmUpgradePolicy[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const res = parseListPage(
        this.api,
        await this.#json({ path, query: { page: String(page), size: String(PAGE_SIZE) }, ...sig(signal) }),
      );
      for (const item of res.items) all.push(parsePolicy(this.api, item));
      if (res.items.length < PAGE_SIZE || (res.total !== undefined && all.length >= res.total)) return all;
    }
    throw new IntegrationError(this.api, 'BadResponse', `${path}: more than ${MAX_PAGES * PAGE_SIZE} upgrade policies`);
  }

  async policyState(clusterId: string, policyId: string, signal?: AbortSignal): Promise<OcmPolicyState> {
    return parsePolicyState(this.api, await this.#json({ path: statePath(clusterId, policyId), ...sig(signal) }));
  }

  async setPolicyState(
    clusterId: string,
    policyId: string,
    state: OcmPolicyState,
    signal?: AbortSignal,
  ): Promise<OcmPolicyState> {
    const body = { value: state.value, description: state.description };
    return parsePolicyState(
      this.api,
      await this.#json({ method: 'PATCH', path: statePath(clusterId, policyId), json: body, ...sig(signal) }),
    );
  }

  async postServiceLog(log: OcmServiceLog, signal?: AbortSignal): Promise<void> {
    await this.#json({
      method: 'POST',
      path: `${SERVICE_LOGS}/cluster_logs`,
      json: serviceLogJson(log),
      ...sig(signal),
    });
  }

  async close(): Promise<void> {
    await this.#http.close();
  }

  /** One call with OCM's retries; an error answer becomes an IntegrationError with OCM's code and reason. */
  async #json(call: HttpCall): Promise<unknown> {
    const policy = this.#o.retry ?? OCM_RETRY;
    const res = await retry(
      async (_attempt, signal) => {
        const r = await this.#http.request({
          ...call,
          ...sig(signal),
          acceptErrorStatus: true,
          headers: { accept: 'application/json' },
        });
        if (r.status >= 400) {
          const where = `${call.method ?? 'GET'} ${r.url}`;
          throw new IntegrationError(
            this.api,
            'HttpStatus',
            this.#http.redact(`${where}: HTTP ${r.status}: ${ocmErrorDetail(r.text)}`),
            { status: r.status },
          );
        }
        return r;
      },
      {
        policy,
        clock: this.#o.clock,
        random: this.#o.random,
        retryable: isTransientHttpFailure,
        ...sig(call.signal),
        onRetry: (n) =>
          this.#o.logger?.warn(
            {
              api: this.api,
              attempt: n.attempt,
              delayMs: n.delayMs,
              err: n.error instanceof Error ? n.error.message : String(n.error),
            },
            'OCM request failed; retrying',
          ),
      },
    );
    if (res.status === 204 || res.text.trim() === '') return {};
    try {
      return JSON.parse(res.text) as unknown;
    } catch (err) {
      throw new IntegrationError(this.api, 'BadResponse', `${res.url}: the answer is not JSON`, {
        status: res.status,
        cause: err,
      });
    }
  }
}

/** The OCM agent client: same API, cluster from `GET /`, never proxied. */
export function createOcmAgentClient(options: OcmClientOptions): OcmClient {
  return new OcmClient(options, { agent: true });
}

function statePath(clusterId: string, policyId: string): string {
  return `${CLUSTERS_MGMT}/clusters/${encodeURIComponent(clusterId)}/upgrade_policies/${encodeURIComponent(policyId)}/state`;
}

function sig(signal: AbortSignal | undefined): { signal?: AbortSignal } {
  return signal ? { signal } : {};
}
