/**
 * The policy provider and the notifier of the current operator configuration
 * (`configManager.source`, `ocmBaseUrl`, `upgradeType`, feature gates), as the UpgradeConfig
 * controller, its kill switch and the UpgradeConfigManager ask for them: LOCAL → the local
 * provider and the log notifier; OCM → the OCM provider and notifier, over the OCM client, or
 * over the OCM agent client when `ocmBaseUrl` names the agent's service; no source → no
 * provider and the log notifier. The OCM client is made once per URL and replaced (the old
 * one closed) when the ConfigMap changes it.
 */
import { FeatureGate } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { isFeatureGateEnabled, usesOcmAgent, type ManagedOperatorConfig } from '../config/managed-operator-config.js';
import type { HttpTransportOptions } from '../../integrations/http/http-client.js';
import { OcmClient, createOcmAgentClient, type OcmApi, type OcmClientOptions } from '../../integrations/ocm-client.js';
import type { KubeClient } from '../../kube/client.js';
import type { Clock } from '../../lib/clock.js';
import type { Logger } from '../../lib/log.js';
import type { Random } from '../../lib/random.js';
import { ClusterCredentials } from './ocm-credentials.js';
import { OcmNotifier } from '../notifiers/ocm-notifier.js';
import { OcmPolicyProvider } from './ocm-provider.js';
import { LocalPolicyProvider, type PolicyProvider } from './policy-provider.js';
import { LogNotifier, type Notification, type Notifier } from '../notifiers/notifier.js';

/** Options of {@link PolicySources}. */
export interface PolicySourcesOptions {
  client: KubeClient;
  clock: Clock;
  random: Random;
  logger: Logger;
  /** The operator configuration now (the ConfigMap, parsed). */
  config: () => ManagedOperatorConfig;
  /** Connection options of the OCM clients (user agent, activity, CA bundle, proxy; no token). */
  transport?: Omit<HttpTransportOptions, 'clock' | 'bearerToken' | 'authScheme'>;
  /** Clock of the OCM request timeouts (default `clock`; a rehearsal on scaled time: the wall clock). */
  timeoutClock?: Clock;
  /** Replaces the pull-secret/ClusterVersion reader (tests). */
  credentials?: OcmClientOptions['credentials'];
}

/** The OCM parts made for one URL and upgrade type. */
interface OcmParts {
  key: string;
  upgradeType: string;
  client: OcmApi;
  provider: OcmPolicyProvider;
  notifier: OcmNotifier;
}

/** Providers and notifiers by configuration. Close it when done. */
export class PolicySources {
  readonly #o: PolicySourcesOptions;
  readonly #credentials: ClusterCredentials;
  readonly #local = new LocalPolicyProvider();
  readonly #logNotifier: LogNotifier;
  #ocm: OcmParts | undefined;
  readonly #retired: OcmApi[] = [];

  constructor(options: PolicySourcesOptions) {
    this.#o = options;
    this.#credentials = new ClusterCredentials(options.client, options.clock);
    this.#logNotifier = new LogNotifier(options.logger);
  }

  /** The provider of `config` (undefined: no source configured, or OCM without a URL). */
  provider(config: ManagedOperatorConfig): PolicyProvider | undefined {
    if (config.configManager.source === 'LOCAL') return this.#local;
    return this.#ocmFor(config)?.provider;
  }

  /** The notifier of `config`: OCM's when the source is OCM, else the log notifier. */
  notifierFor(config: ManagedOperatorConfig): Notifier {
    return this.#ocmFor(config)?.notifier ?? this.#logNotifier;
  }

  /** A notifier that follows the configuration at each notification (for the controller's wiring). */
  notifier(): Notifier {
    return {
      kind: 'by-source',
      notify: (n: Notification, signal: AbortSignal) => this.notifierFor(this.#o.config()).notify(n, signal),
    };
  }

  /** Closes every OCM client made. */
  async close(): Promise<void> {
    const all = [...this.#retired, ...(this.#ocm ? [this.#ocm.client] : [])];
    this.#retired.length = 0;
    this.#ocm = undefined;
    await Promise.allSettled(all.map((c) => c.close()));
  }

  #ocmFor(config: ManagedOperatorConfig): OcmParts | undefined {
    const url = config.configManager.ocmBaseUrl;
    if (config.configManager.source !== 'OCM' || url === undefined) return undefined;
    const agent = usesOcmAgent(config);
    const key = `${agent ? 'agent' : 'ocm'} ${url}`;
    const current = this.#ocm;
    if (current && current.key === key && current.upgradeType === config.upgradeType) return current;
    const o = this.#o;
    const credentials = o.credentials ?? ((): ReturnType<OcmClientOptions['credentials']> => this.#credentials.get());
    const externalId = async (): Promise<string> => (await credentials()).clusterId;
    let client = current?.key === key ? current.client : undefined;
    if (!client) {
      if (current) this.#retired.push(current.client);
      const options: OcmClientOptions = {
        ...o.transport,
        baseUrl: url,
        clock: o.clock,
        ...(o.timeoutClock ? { timeoutClock: o.timeoutClock } : {}),
        random: o.random,
        logger: o.logger,
        credentials,
      };
      client = agent ? createOcmAgentClient(options) : new OcmClient(options);
    }
    const next: OcmParts = {
      key,
      client,
      upgradeType: config.upgradeType,
      provider: new OcmPolicyProvider({ ocm: client, externalId, upgradeType: config.upgradeType }),
      notifier: new OcmNotifier({
        ocm: client,
        externalId,
        serviceLogs: () => isFeatureGateEnabled(o.config(), FeatureGate.ServiceLogNotification),
        logger: o.logger,
      }),
    };
    this.#ocm = next;
    return next;
  }
}
