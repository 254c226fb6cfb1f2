/**
 * Test support for the managed flow's steps: one builder of a fake {@link StepContext}. Time is a
 * ManualClock; the cached cluster reads answer from plain arrays the test may change between two
 * runs; Prometheus, Alertmanager, DVO, the notifier and the drain are fakes that record every
 * call and can be told to fail; the metrics are the real ManagedUpgradeMetrics on a fresh
 * prom-client Registry; the operator configuration is parsed from `config.yaml` text (none: the
 * defaults). A step that needs the Kubernetes API gets the embedded API server
 * ({@link startStepApi}); without one, any API call rejects, so a test also shows that a step
 * did not write. The pieces serve on their own too: the UpgradeConfig pass's tests build its
 * dependencies from the same fakes.
 */
import type { TestContext } from 'node:test';
import type { Node } from 'kubernetes-types/core/v1.js';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import { Registry } from 'prom-client';
import type { ClusterOperator } from '../../api/openshift/config-v1/cluster-operator.js';
import type {
  ClusterOperatorStatusCondition,
  ClusterVersion,
  ConditionalUpdate,
  Release,
} from '../../api/openshift/config-v1/cluster-version.js';
import { openshiftCustomResourceDefinitions } from '../../api/openshift/crds.js';
import type { Machine } from '../../api/openshift/machine-v1beta1/machine.js';
import type { MachineSet } from '../../api/openshift/machine-v1beta1/machine-set.js';
import type { MachineConfigPool } from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import type {
  ManagedUpgradeConfig,
  ManagedUpgradeConfigSpec,
  UpgradeCondition,
  UpgradeHistory,
} from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import {
  MANAGED_UPGRADE_CONFIG_NAME,
  MANAGED_UPGRADE_OPERATOR_NAMESPACE,
} from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { startApiServer } from '../../apiserver/server.js';
import type { AlertmanagerApi, GettableSilence, PostableSilence } from '../../integrations/alertmanager-api.js';
import { IntegrationError } from '../../integrations/integration-error.js';
import type { PrometheusApi, PromSample } from '../../integrations/prometheus-api.js';
import type { KubeClient } from '../../kube/client.js';
import { testClient } from '../../kube/test-helpers.test-support.js';
import { ManualClock, type Clock } from '../../lib/clock.js';
import { capturedLogger } from '../../lib/log.test-support.js';
import { silentLogger } from '../../lib/log.js';
import { installCustomResourceDefinitions } from '../../sim/install-crds.js';
import { parseManagedOperatorConfig, type ManagedOperatorConfig } from '../config/managed-operator-config.js';
import type { DvoMetricsSource } from '../health/deployment-validation.js';
import { MAINTENANCE_CREATED_BY, defaultSilenceMatchers } from '../maintenance/maintenance-window.js';
import { ManagedUpgradeMetrics } from '../metrics/managed-upgrade-metrics.js';
import type { NotifyStateName } from '../notifiers/notifier.js';
import type { ClusterReads, StepContext } from './step-context.js';

/** The scheduled start of the upgrade every fake context describes (`spec.upgradeAt`). */
export const T0 = Date.UTC(2026, 2, 2, 1);
/** {@link T0} as the UpgradeConfig writes it. */
export const UPGRADE_AT = '2026-03-02T01:00:00Z';
/** The version the fake UpgradeConfig asks for. */
export const DESIRED = '4.15.38';
/** Its channel. */
export const CHANNEL = 'stable-4.15';
/** The version the fake cluster runs before the upgrade. */
export const CURRENT = '4.14.30';
/** `spec.clusterID` of the fake ClusterVersion (the `_id` label of the lifecycle timestamps). */
export const CLUSTER_ID = 'c0ffee00-0000-4000-8000-000000000001';
/** The name of the fake UpgradeConfig (the `upgradeconfig_name` label). */
export const CONFIG_NAME = MANAGED_UPGRADE_CONFIG_NAME;
/** An abort signal that never aborts. */
export const NEVER = new AbortController().signal;
/** A minute, in ms. */
export const MINUTE = 60_000;
/** An hour, in ms. */
export const HOUR = 60 * MINUTE;

/** The local port each outside API is unreachable on. */
const OUTSIDE_API_PORT = { alertmanager: 9093, prometheus: 9090 } as const;

/** An IntegrationError as an unreachable outside API gives it. */
export function unreachable(api: keyof typeof OUTSIDE_API_PORT): IntegrationError {
  return new IntegrationError(api, 'Unreachable', `connect ECONNREFUSED 127.0.0.1:${OUTSIDE_API_PORT[api]}`);
}

/** A condition of the history entry, as the recorder writes it. */
export function condition(type: string, status: 'True' | 'False' = 'True'): UpgradeCondition {
  return { type, status };
}

/** Options of {@link clusterVersion}. */
export interface ClusterVersionOptions {
  /** The Completed version at the head of the history (default {@link CURRENT}). */
  current?: string;
  /**
   * `spec.desiredUpdate`: what the CVO was told (default: the current version, i.e. not commenced;
   * null: none, a CVO never told to update).
   */
  desiredUpdate?: { version?: string; image?: string } | null;
  /** `spec.channel` (default {@link CHANNEL}). */
  channel?: string;
  availableUpdates?: Release[];
  conditionalUpdates?: ConditionalUpdate[];
  conditions?: ClusterOperatorStatusCondition[];
}

/** A ClusterVersion at rest on `current`; `desiredUpdate` says what the CVO was commanded. */
export function clusterVersion(options: ClusterVersionOptions = {}): ClusterVersion {
  const current = options.current ?? CURRENT;
  const desired =
    options.desiredUpdate === undefined
      ? { version: current, image: `quay.io/openshift-release-dev/ocp@${current}` }
      : options.desiredUpdate;
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: { name: 'version', generation: 1 },
    spec: {
      clusterID: CLUSTER_ID,
      channel: options.channel ?? CHANNEL,
      ...(desired
        ? { desiredUpdate: { version: desired.version ?? '', image: desired.image ?? '', force: false } }
        : {}),
    },
    status: {
      desired: { version: current, image: `quay.io/openshift-release-dev/ocp@${current}` },
      history: [
        {
          version: current,
          state: 'Completed',
          startedTime: '2026-01-10T00:00:00Z',
          completionTime: '2026-01-10T01:00:00Z',
          image: `quay.io/openshift-release-dev/ocp@${current}`,
          verified: true,
        },
      ],
      observedGeneration: 1,
      versionHash: '',
      availableUpdates: options.availableUpdates ?? null,
      ...(options.conditionalUpdates ? { conditionalUpdates: options.conditionalUpdates } : {}),
      conditions: options.conditions ?? [],
    },
  };
}

/** The cached reads of a cluster whose CVO was told to upgrade to {@link DESIRED}: the upgrade has commenced. */
export function commencedCluster(): Partial<FakeCluster> {
  return { clusterVersion: clusterVersion({ desiredUpdate: { version: DESIRED } }) };
}

/** Options of {@link machineConfigPool}. */
export interface MachineConfigPoolOptions {
  machineCount: number;
  /** Machines on the target rendered config (default: all). */
  updatedMachineCount?: number;
  paused?: boolean;
  /** `metadata.generation` (default 2) and `status.observedGeneration` (default: the same). */
  generation?: number;
  observedGeneration?: number;
}

/** A MachineConfigPool rolling out `rendered-<name>-new`; Updated=True once every machine is on it. */
export function machineConfigPool(name: string, options: MachineConfigPoolOptions): MachineConfigPool {
  const generation = options.generation ?? 2;
  const updated = options.updatedMachineCount ?? options.machineCount;
  const target = `rendered-${name}-new`;
  const done = updated === options.machineCount;
  const at = '2026-03-02T01:00:00Z';
  return {
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfigPool',
    metadata: { name, generation },
    spec: { paused: options.paused ?? false, configuration: { name: target } },
    status: {
      observedGeneration: options.observedGeneration ?? generation,
      configuration: { name: done ? target : `rendered-${name}-old` },
      machineCount: options.machineCount,
      updatedMachineCount: updated,
      readyMachineCount: updated,
      unavailableMachineCount: done ? 0 : 1,
      degradedMachineCount: 0,
      conditions: [
        { type: 'Updated', status: done ? 'True' : 'False', lastTransitionTime: at, reason: '', message: '' },
        { type: 'Updating', status: done ? 'False' : 'True', lastTransitionTime: at, reason: '', message: '' },
      ],
    },
  };
}

/** What the cached cluster reads answer; the test may replace or change any of it between runs. */
export interface FakeCluster {
  clusterVersion: ClusterVersion | undefined;
  pools: MachineConfigPool[];
  nodes: Node[];
  machineSets: MachineSet[];
  machines: Machine[];
  clusterOperators: ClusterOperator[];
  podDisruptionBudgets: PodDisruptionBudget[];
}

/** The cached reads: a ClusterVersion at rest on {@link CURRENT} and nothing else, but for `parts`. */
export function fakeCluster(parts: Partial<FakeCluster> = {}): FakeCluster {
  return {
    clusterVersion: clusterVersion(),
    pools: [],
    nodes: [],
    machineSets: [],
    machines: [],
    clusterOperators: [],
    podDisruptionBudgets: [],
    ...parts,
  };
}

/** The cached reads answering from `cluster` as it is at each call. */
export function clusterReads(cluster: FakeCluster): ClusterReads {
  return {
    clusterVersion: () => cluster.clusterVersion,
    pools: () => cluster.pools,
    nodes: () => cluster.nodes,
    machineSets: () => cluster.machineSets,
    machines: () => cluster.machines,
    clusterOperators: () => cluster.clusterOperators,
    podDisruptionBudgets: () => cluster.podDisruptionBudgets,
  };
}

/**
 * Prometheus answering a query over `ALERTS` with `alerts`: the critical-alert query of the health
 * checks (what the steps ask), or the paging-alert query of the upgrade result (what the
 * UpgradeConfig pass asks once an upgrade is done). Any other query rejects. Records every query.
 */
export class FakePrometheus implements PrometheusApi {
  alerts: PromSample[];
  readonly queries: string[] = [];
  #failure: Error | undefined;

  constructor(alerts: PromSample[] = []) {
    this.alerts = alerts;
  }

  /** Every query rejects with `err` from now on (undefined: answers again). */
  failWith(err: Error | undefined): void {
    this.#failure = err;
  }

  query(promql: string): Promise<PromSample[]> {
    this.queries.push(promql);
    if (this.#failure) return Promise.reject(this.#failure);
    if (!promql.includes('ALERTS{')) return Promise.reject(new Error(`unexpected query ${promql}`));
    return Promise.resolve(this.alerts.map((sample) => structuredClone(sample)));
  }
}

/** A firing critical alert as the critical-alert query returns it. */
export function firingAlert(alertname: string, namespace = 'openshift-kube-apiserver'): PromSample {
  return { metric: { __name__: 'ALERTS', alertname, namespace, severity: 'critical' }, value: 1, timestamp: T0 };
}

type AlertmanagerOperation = 'list' | 'create' | 'expire';

/**
 * Alertmanager's silences in memory, with its API v2 semantics as the maintenance windows use
 * them: a POST without ID creates `silence-<n>`; a POST with the ID of a live silence updates it
 * in place (or, with `replaceOnUpdate`, expires it and answers a new ID, as Alertmanager does when
 * it cannot update); a DELETE expires. States follow the clock on every list. Records every call
 * (`list`, `create <id>`, `update <id>`, `expire <id>`).
 */
export class FakeAlertmanager implements AlertmanagerApi {
  readonly silences: GettableSilence[];
  readonly calls: string[] = [];
  /** Answer an update with a new silence (the old one expired) instead of updating in place. */
  replaceOnUpdate = false;
  readonly #clock: Clock;
  readonly #failures = new Map<AlertmanagerOperation, Error>();
  #next = 1;

  constructor(clock: Clock, silences: GettableSilence[] = []) {
    this.#clock = clock;
    this.silences = silences;
  }

  /** The named operations (default: all) reject with `err` from now on; undefined clears them. */
  failWith(err: Error | undefined, operations: AlertmanagerOperation[] = ['list', 'create', 'expire']): void {
    for (const operation of operations) {
      if (err) this.#failures.set(operation, err);
      else this.#failures.delete(operation);
    }
  }

  /** The silences that are not expired, as `state comment` lines (sorted). */
  live(): string[] {
    this.#refresh();
    return this.silences
      .filter((silence) => silence.status.state !== 'expired')
      .map((silence) => `${silence.status.state} ${silence.comment}`)
      .sort();
  }

  listSilences(): Promise<GettableSilence[]> {
    this.calls.push('list');
    const failure = this.#failures.get('list');
    if (failure) return Promise.reject(failure);
    this.#refresh();
    return Promise.resolve(this.silences.map((silence) => structuredClone(silence)));
  }

  createSilence(postable: PostableSilence): Promise<string> {
    const failure = this.#failures.get('create');
    if (failure) {
      this.calls.push(`create ${postable.id ?? '(new)'}`);
      return Promise.reject(failure);
    }
    const now = this.#clock.now();
    this.#refresh();
    if (postable.id !== undefined) {
      const existing = this.silences.find((silence) => silence.id === postable.id);
      if (!existing) {
        this.calls.push(`update ${postable.id}`);
        return Promise.reject(
          new IntegrationError('alertmanager', 'HttpStatus', `silence ${postable.id} not found`, { status: 404 }),
        );
      }
      if (existing.status.state !== 'expired' && !this.replaceOnUpdate) {
        this.calls.push(`update ${postable.id}`);
        Object.assign(existing, {
          matchers: structuredClone(postable.matchers),
          startsAt: postable.startsAt,
          endsAt: postable.endsAt,
          createdBy: postable.createdBy,
          comment: postable.comment,
          updatedAt: now,
        });
        this.#refresh();
        return Promise.resolve(existing.id);
      }
      if (existing.status.state !== 'expired') this.#expire(existing, now);
    }
    const id = `silence-${this.#next++}`;
    this.calls.push(postable.id !== undefined ? `update ${postable.id} as ${id}` : `create ${id}`);
    this.silences.push({
      id,
      status: { state: 'active' },
      updatedAt: now,
      matchers: structuredClone(postable.matchers),
      startsAt: Math.max(postable.startsAt, postable.id !== undefined ? now : postable.startsAt),
      endsAt: postable.endsAt,
      createdBy: postable.createdBy,
      comment: postable.comment,
    });
    this.#refresh();
    return Promise.resolve(id);
  }

  expireSilence(id: string): Promise<void> {
    this.calls.push(`expire ${id}`);
    const failure = this.#failures.get('expire');
    if (failure) return Promise.reject(failure);
    const silence = this.silences.find((candidate) => candidate.id === id);
    if (!silence)
      return Promise.reject(
        new IntegrationError('alertmanager', 'HttpStatus', `silence ${id} not found`, { status: 404 }),
      );
    if (silence.status.state !== 'expired') this.#expire(silence, this.#clock.now());
    return Promise.resolve();
  }

  #expire(silence: GettableSilence, now: number): void {
    silence.endsAt = now;
    silence.updatedAt = now;
    silence.status = { state: 'expired' };
  }

  #refresh(): void {
    const now = this.#clock.now();
    for (const silence of this.silences) {
      if (silence.status.state === 'expired') continue;
      silence.status = { state: silence.endsAt <= now ? 'expired' : silence.startsAt > now ? 'pending' : 'active' };
    }
  }
}

/** A silence as Alertmanager lists it (default: active, created by the operator). */
export function silence(
  id: string,
  comment: string,
  options: Partial<Omit<GettableSilence, 'id' | 'comment'>> = {},
): GettableSilence {
  return {
    id,
    status: { state: 'active' },
    updatedAt: T0,
    matchers: defaultSilenceMatchers(),
    startsAt: T0,
    endsAt: T0 + 90 * MINUTE,
    createdBy: MAINTENANCE_CREATED_BY,
    comment,
    ...options,
  };
}

/** DVO's metrics endpoint: answers `text` (undefined: DVO went away), or fails. Counts calls. */
export class FakeDvo {
  text: string | undefined;
  calls = 0;
  #failure: Error | undefined;

  constructor(text: string | undefined = '') {
    this.text = text;
  }

  failWith(err: Error | undefined): void {
    this.#failure = err;
  }

  readonly source = (): Promise<string | undefined> => {
    this.calls++;
    return this.#failure ? Promise.reject(this.#failure) : Promise.resolve(this.text);
  };
}

/** One notify call. */
export interface NotifyCall {
  state: NotifyStateName;
  detail?: string;
}

/**
 * The notifier as the context offers it: records every call, and "sends" a state once (the
 * context's contract: once per state and version; the version is fixed here).
 */
export class FakeNotifier {
  readonly calls: NotifyCall[] = [];
  readonly sent: NotifyStateName[] = [];
  #failure: Error | undefined;

  failWith(err: Error | undefined): void {
    this.#failure = err;
  }

  readonly notify = (state: NotifyStateName, _signal: AbortSignal, detail?: string): Promise<void> => {
    this.calls.push({ state, ...(detail !== undefined ? { detail } : {}) });
    if (this.#failure) return Promise.reject(this.#failure);
    if (!this.sent.includes(state)) this.sent.push(state);
    return Promise.resolve();
  };
}

/** What draining one node answers. */
export type DrainAnswer = { failed: boolean; nextDueAt?: number };

/** The drain strategies: records the nodes, answers with `answer` (default: drained). */
export class FakeDrainer {
  readonly calls: string[] = [];
  answer: (node: string) => DrainAnswer | Error = () => ({ failed: false });

  readonly drainNode = (node: string): Promise<DrainAnswer> => {
    this.calls.push(node);
    const answer = this.answer(node);
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
  };
}

/** One Event on the UpgradeConfig. */
export interface RecordedEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/** One series of a gauge. */
export interface Series {
  labels: Record<string, string>;
  value: number;
}

/** Options of {@link fakeStepContext}. */
export interface FakeStepContextOptions {
  /** The clock (default: a ManualClock at `now`). */
  clock?: ManualClock;
  /** Start time of a new clock (default {@link T0}). */
  now?: number;
  /** Replaces fields of the default spec (OSD, {@link DESIRED} on {@link CHANNEL} at {@link UPGRADE_AT}, PDB timeout 60 min). */
  spec?: Partial<ManagedUpgradeConfigSpec>;
  /** Annotations of the UpgradeConfig. */
  annotations?: Record<string, string>;
  /** Replaces fields of the history entry (default: {@link DESIRED}, Upgrading, no conditions). */
  history?: Partial<UpgradeHistory>;
  /** `config.yaml` of the operator ConfigMap (default: none, every default); must parse without a problem. */
  operatorConfig?: string;
  /** The Kubernetes API (default: none; every call rejects). */
  client?: KubeClient;
  /** The cached reads (default: a ClusterVersion at rest on {@link CURRENT}, nothing else). */
  cluster?: Partial<FakeCluster>;
  /** Critical alerts firing. */
  alerts?: PromSample[];
  /** Alertmanager's silences. */
  silences?: GettableSilence[];
  /** DVO's metrics text (default ''); `{ installed: false }`: DVO is not installed (the check is skipped). */
  dvo?: string | { installed: false };
}

/** A fake context and everything it records. */
export interface FakeStepContext extends TestMetrics {
  ctx: StepContext;
  clock: ManualClock;
  cluster: FakeCluster;
  prometheus: FakePrometheus;
  alertmanager: FakeAlertmanager;
  dvo: FakeDvo;
  notifier: FakeNotifier;
  drainer: FakeDrainer;
  events: RecordedEvent[];
  /** The log lines written (level debug and up). */
  logs: Array<{ level: string; msg: string }>;
}

/** The real metrics on a fresh registry, and their gauges read back. */
export interface TestMetrics {
  registry: Registry;
  metrics: ManagedUpgradeMetrics;
  /** The series of a gauge family (empty when it has none), labels as strings. */
  series: (family: string) => Promise<Series[]>;
  /** The value of the one series of `family` whose labels are exactly `labels`, or undefined. */
  value: (family: string, labels: Record<string, string>) => Promise<number | undefined>;
}

/** ManagedUpgradeMetrics on a registry of their own. */
export function testMetrics(): TestMetrics {
  const registry = new Registry();
  const metrics = new ManagedUpgradeMetrics(registry);
  const series = async (family: string): Promise<Series[]> => {
    const metric = registry.getSingleMetric(family);
    if (!metric) throw new Error(`${family} is not registered`);
    const values = (await metric.get()).values;
    return values.map((sample) => ({
      labels: Object.fromEntries(Object.entries(sample.labels).map(([key, label]) => [key, String(label)])),
      value: sample.value,
    }));
  };
  return {
    registry,
    metrics,
    series,
    value: async (family, labels) => {
      const want = JSON.stringify(Object.entries(labels).sort());
      return (await series(family)).find((one) => JSON.stringify(Object.entries(one.labels).sort()) === want)?.value;
    },
  };
}

/**
 * A client for code that must not reach the API: any call rejects, with `message` when given (an
 * API server that does not answer).
 */
export function noApiClient(message?: string): KubeClient {
  return new Proxy({} as KubeClient, {
    get: (_target, property) => (): Promise<never> =>
      Promise.reject(
        new Error(message ?? `the step called the Kubernetes API (${String(property)}) in a test that gives it none`),
      ),
  });
}

/**
 * The operator configuration of `text` (none: the defaults). Throws on any problem but a required
 * setting left to its default, so a misspelt or bad value cannot pass unseen.
 */
export function operatorConfig(text?: string): ManagedOperatorConfig {
  if (text === undefined) return parseManagedOperatorConfig(undefined).config;
  const parsed = parseManagedOperatorConfig(text);
  const problems = parsed.problems.filter((problem) => !problem.message.startsWith('not set; using the default'));
  if (problems.length > 0) throw new Error(`operator config problems: ${JSON.stringify(problems)}`);
  return parsed.config;
}

/** Builds the fake context. */
export function fakeStepContext(options: FakeStepContextOptions = {}): FakeStepContext {
  const clock = options.clock ?? new ManualClock(options.now ?? T0);
  const cluster = fakeCluster(options.cluster);
  const upgradeConfig: ManagedUpgradeConfig = {
    apiVersion: 'upgrade.managed.openshift.io/v1alpha1',
    kind: 'UpgradeConfig',
    metadata: {
      name: CONFIG_NAME,
      namespace: MANAGED_UPGRADE_OPERATOR_NAMESPACE,
      ...(options.annotations ? { annotations: options.annotations } : {}),
    },
    spec: {
      type: 'OSD',
      upgradeAt: UPGRADE_AT,
      PDBForceDrainTimeout: 60,
      desired: { version: DESIRED, channel: CHANNEL },
      ...options.spec,
    },
  };
  const history: UpgradeHistory = { version: DESIRED, phase: 'Upgrading', conditions: [], ...options.history };
  const prometheus = new FakePrometheus(options.alerts);
  const alertmanager = new FakeAlertmanager(clock, options.silences);
  const dvo = new FakeDvo();
  if (typeof options.dvo === 'string') dvo.text = options.dvo;
  const dvoSource: DvoMetricsSource = typeof options.dvo === 'object' ? 'not-installed' : dvo.source;
  const notifier = new FakeNotifier();
  const drainer = new FakeDrainer();
  const events: RecordedEvent[] = [];
  const { logger, lines } = capturedLogger<{ level: string; msg: string }>('debug');
  const measured = testMetrics();
  const ctx: StepContext = {
    upgradeConfig,
    history,
    config: operatorConfig(options.operatorConfig),
    clock,
    client: options.client ?? noApiClient(),
    cluster: clusterReads(cluster),
    prometheus,
    alertmanager,
    dvo: dvoSource,
    metrics: measured.metrics,
    log: logger,
    notify: notifier.notify,
    event: (type, reason, message) => void events.push({ type, reason, message }),
    drainNode: drainer.drainNode,
  };
  return { ...measured, ctx, clock, cluster, prometheus, alertmanager, dvo, notifier, drainer, events, logs: lines };
}

/**
 * The embedded API server with the OpenShift CRDs, on `clock` (so creation timestamps are the
 * step's time), and a client on it; both closed when the test ends.
 */
export async function startStepApi(t: TestContext, clock: ManualClock): Promise<KubeClient> {
  const server = await startApiServer({ port: 0, clock, logger: silentLogger() });
  const client = testClient(server.url, clock);
  t.after(async () => {
    await client.close();
    await server.close();
  });
  await installCustomResourceDefinitions(client, openshiftCustomResourceDefinitions());
  return client;
}
