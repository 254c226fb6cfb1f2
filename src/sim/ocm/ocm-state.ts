/**
 * What the simulated OCM holds — clusters, upgrade policies with their states, service logs —
 * and the in-process API that scenarios and tests use to add, change or cancel policies and
 * to read back the state history and the service logs. The HTTP side is `ocm-api.ts`.
 */
import type { Clock } from '../../lib/clock.js';
import type { Random } from '../../lib/random.js';
import type { OcmCluster, OcmLogEntry, OcmUpgradePolicy, PolicyStateValue } from './ocm-model.js';

/** Who changed a policy state: a client over HTTP, or the scenario through this API. */
export type StateChangeSource = 'api' | 'scenario';

/** One entry of the state history of a policy. */
export interface PolicyStateChange {
  clusterId: string;
  policyId: string;
  /** ms */
  at: number;
  value: PolicyStateValue;
  description: string;
  source: StateChangeSource;
}

/** What a scenario gives to add a cluster (defaults in brackets). */
export interface ClusterInput {
  /** OCM's internal id [drawn]. */
  id?: string;
  externalId: string;
  /** [`sim-cluster`] */
  name?: string;
  version: string;
  /** [`stable`] */
  channelGroup?: string;
  availableUpgrades?: string[];
  /** [60 minutes] */
  nodeDrainGracePeriod?: { value: number; unit: string };
  /** [`osd`] */
  product?: string;
  /** [`aws`] */
  cloudProvider?: string;
  /** [`us-east-1`] */
  region?: string;
}

/** A change to a cluster (version after an upgrade, channel group, grace period …). */
export type ClusterPatch = Partial<
  Pick<OcmCluster, 'name' | 'version' | 'channelGroup' | 'availableUpgrades' | 'nodeDrainGracePeriod' | 'state'>
>;

/** What a scenario gives to add a policy. */
export interface PolicyInput {
  id?: string;
  version: string;
  /** ms */
  nextRun: number;
  /** [`manual`] */
  scheduleType?: string;
  /** [`OSD`] */
  upgradeType?: string;
  schedule?: string;
  enableMinorVersionUpgrades?: boolean;
  capacityReservation?: boolean;
  architecture?: string;
  /** [`scheduled`, description `Upgrade scheduled.`] */
  state?: PolicyStateValue;
  description?: string;
}

/** A change to a policy. */
export type PolicyPatch = Partial<
  Pick<OcmUpgradePolicy, 'version' | 'nextRun' | 'schedule' | 'enableMinorVersionUpgrades' | 'capacityReservation'>
>;

/** What a client posts as a service log (validated by the API). */
export interface LogInput {
  clusterId?: string;
  clusterUuid?: string;
  subscriptionId?: string;
  severity?: string;
  serviceName: string;
  logType?: string;
  summary: string;
  description?: string;
  docReferences?: string[];
  internalOnly?: boolean;
  username?: string;
}

export interface OcmStateOptions {
  clock: Clock;
  random: Random;
  /** `created_by` of posted service logs [`service-account-managed-upgrade-operator`]. */
  logAuthor?: string;
}

/** Thrown by the in-process API for an unknown cluster or policy. */
export class OcmNotFoundError extends Error {
  override readonly name = 'OcmNotFoundError';
}

const B32 = 'abcdefghijklmnopqrstuv0123456789';
const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** The simulated OCM's data. */
export class OcmState {
  readonly #clock: Clock;
  readonly #random: Random;
  readonly #author: string;
  readonly #clusters = new Map<string, OcmCluster>();
  /** cluster id → policies in creation order. */
  readonly #policies = new Map<string, OcmUpgradePolicy[]>();
  readonly #history: PolicyStateChange[] = [];
  readonly #logs: OcmLogEntry[] = [];

  constructor(options: OcmStateOptions) {
    this.#clock = options.clock;
    this.#random = options.random;
    this.#author = options.logAuthor ?? 'service-account-managed-upgrade-operator';
  }

  /** A random string over an alphabet (ids, operation ids). */
  randomString(length: number, alphabet: string = ALNUM): string {
    let s = '';
    for (let i = 0; i < length; i++) s += alphabet[Math.floor(this.#random.next() * alphabet.length)];
    return s;
  }

  /** A version-4 UUID from the seeded stream. */
  uuid(): string {
    const hex = this.randomString(32, '0123456789abcdef').split('');
    hex[12] = '4';
    hex[16] = '89ab'[Math.floor(this.#random.next() * 4)]!;
    const h = hex.join('');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  /** Adds a cluster; returns it. */
  addCluster(input: ClusterInput): OcmCluster {
    const c: OcmCluster = {
      id: input.id ?? this.randomString(32, B32),
      externalId: input.externalId,
      name: input.name ?? 'sim-cluster',
      version: input.version,
      channelGroup: input.channelGroup ?? 'stable',
      availableUpgrades: [...(input.availableUpgrades ?? [])],
      nodeDrainGracePeriod: { ...(input.nodeDrainGracePeriod ?? { value: 60, unit: 'minutes' }) },
      product: input.product ?? 'osd',
      cloudProvider: input.cloudProvider ?? 'aws',
      region: input.region ?? 'us-east-1',
      state: 'ready',
      createdAt: this.#clock.now(),
    };
    this.#clusters.set(c.id, c);
    this.#policies.set(c.id, []);
    return { ...c };
  }

  /** Changes a cluster (e.g. its version once an upgrade completed). */
  updateCluster(clusterId: string, patch: ClusterPatch): OcmCluster {
    const c = this.#cluster(clusterId);
    Object.assign(c, patch);
    return { ...c };
  }

  /** Every cluster. */
  clusters(): OcmCluster[] {
    return [...this.#clusters.values()].map((c) => ({ ...c }));
  }

  /** A cluster by internal id, or undefined. */
  cluster(clusterId: string): OcmCluster | undefined {
    const c = this.#clusters.get(clusterId);
    return c && { ...c };
  }

  /** A cluster by external id, or undefined. */
  clusterByExternalId(externalId: string): OcmCluster | undefined {
    for (const c of this.#clusters.values()) if (c.externalId === externalId) return { ...c };
    return undefined;
  }

  /** Adds an upgrade policy to a cluster; its first state is recorded as a scenario change. */
  addPolicy(clusterId: string, input: PolicyInput, source: StateChangeSource = 'scenario'): OcmUpgradePolicy {
    this.#cluster(clusterId);
    const p: OcmUpgradePolicy = {
      id: input.id ?? this.uuid(),
      clusterId,
      scheduleType: input.scheduleType ?? 'manual',
      upgradeType: input.upgradeType ?? 'OSD',
      version: input.version,
      nextRun: input.nextRun,
      prevRun: undefined,
      schedule: input.schedule,
      enableMinorVersionUpgrades: input.enableMinorVersionUpgrades,
      capacityReservation: input.capacityReservation,
      architecture: input.architecture,
      state: { value: input.state ?? 'scheduled', description: input.description ?? 'Upgrade scheduled.' },
      createdAt: this.#clock.now(),
    };
    this.#policies.get(clusterId)!.push(p);
    this.#record(p, source);
    return clonePolicy(p);
  }

  /** Changes a policy (reschedule, other version …). */
  updatePolicy(clusterId: string, policyId: string, patch: PolicyPatch): OcmUpgradePolicy {
    const p = this.#policy(clusterId, policyId);
    Object.assign(p, patch);
    return clonePolicy(p);
  }

  /** Sets a policy's state. */
  setPolicyState(
    clusterId: string,
    policyId: string,
    value: PolicyStateValue,
    description: string,
    source: StateChangeSource = 'scenario',
  ): OcmUpgradePolicy {
    const p = this.#policy(clusterId, policyId);
    p.state = { value, description };
    this.#record(p, source);
    return clonePolicy(p);
  }

  /** Cancels a policy as a user would in OCM: state `cancelled`. */
  cancelPolicy(clusterId: string, policyId: string, description = 'Upgrade cancelled.'): OcmUpgradePolicy {
    return this.setPolicyState(clusterId, policyId, 'cancelled', description);
  }

  /** Removes a policy. */
  deletePolicy(clusterId: string, policyId: string): void {
    const list = this.#policies.get(clusterId);
    const i = list?.findIndex((p) => p.id === policyId) ?? -1;
    if (!list || i < 0) throw new OcmNotFoundError(`Upgrade policy '${policyId}' not found`);
    list.splice(i, 1);
  }

  /** The policies of a cluster in creation order. */
  policies(clusterId: string): OcmUpgradePolicy[] {
    return (this.#policies.get(clusterId) ?? []).map(clonePolicy);
  }

  /** One policy, or undefined. */
  policy(clusterId: string, policyId: string): OcmUpgradePolicy | undefined {
    const p = this.#policies.get(clusterId)?.find((x) => x.id === policyId);
    return p && clonePolicy(p);
  }

  /** Every state change, oldest first (optionally of one policy). */
  stateHistory(policyId?: string): PolicyStateChange[] {
    return this.#history.filter((h) => policyId === undefined || h.policyId === policyId).map((h) => ({ ...h }));
  }

  /** Stores a service log; returns it. */
  addLog(input: LogInput): OcmLogEntry {
    const byId = input.clusterId !== undefined ? this.#clusters.get(input.clusterId) : undefined;
    const byUuid = input.clusterUuid !== undefined ? this.clusterByExternalId(input.clusterUuid) : undefined;
    const e: OcmLogEntry = {
      id: this.randomString(27),
      clusterId: input.clusterId ?? byUuid?.id,
      clusterUuid: input.clusterUuid ?? byId?.externalId,
      subscriptionId: input.subscriptionId,
      severity: input.severity ?? 'Info',
      serviceName: input.serviceName,
      logType: input.logType,
      summary: input.summary,
      description: input.description ?? '',
      docReferences: [...(input.docReferences ?? [])],
      internalOnly: input.internalOnly ?? false,
      eventStreamId: this.randomString(27),
      username: input.username,
      createdBy: this.#author,
      timestamp: this.#clock.now(),
    };
    this.#logs.push(e);
    return { ...e, docReferences: [...e.docReferences] };
  }

  /** Service logs, oldest first (optionally of one cluster, by internal or external id). */
  serviceLogs(cluster?: string): OcmLogEntry[] {
    return this.#logs
      .filter((e) => cluster === undefined || e.clusterId === cluster || e.clusterUuid === cluster)
      .map((e) => ({ ...e, docReferences: [...e.docReferences] }));
  }

  #record(ocmUpgradePolicy: OcmUpgradePolicy, source: StateChangeSource): void {
    this.#history.push({
      clusterId: ocmUpgradePolicy.clusterId,
      policyId: ocmUpgradePolicy.id,
      at: this.#clock.now(),
      value: ocmUpgradePolicy.state.value,
      description: ocmUpgradePolicy.state.description,
      source,
    });
  }

  #cluster(clusterId: string): OcmCluster {
    const c = this.#clusters.get(clusterId);
    if (!c) throw new OcmNotFoundError(`Cluster '${clusterId}' not found`);
    return c;
  }

  #policy(clusterId: string, policyId: string): OcmUpgradePolicy {
    this.#cluster(clusterId);
    const p = this.#policies.get(clusterId)!.find((x) => x.id === policyId);
    if (!p) throw new OcmNotFoundError(`Upgrade policy '${policyId}' not found`);
    return p;
  }
}

function clonePolicy(ocmUpgradePolicy: OcmUpgradePolicy): OcmUpgradePolicy {
  return { ...ocmUpgradePolicy, state: { ...ocmUpgradePolicy.state } };
}
