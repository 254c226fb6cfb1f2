/**
 * Test support for the managed upgraders and the UpgradeConfig pass: a ClusterVersion before,
 * during and after the upgrade from {@link FROM} to {@link TO}; an in-memory Alertmanager that
 * can be taken down; a Prometheus with no alert firing; metrics read back from their registry;
 * and a step context that records its notifications and Events.
 */
import { Registry } from 'prom-client';
import type { ClusterVersion, UpdateHistory } from '../../api/openshift/config-v1/cluster-version.js';
import type { UpgradeType } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import type {
  ManagedUpgradeConfig,
  UpgradeHistory,
} from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import type { AlertmanagerApi, GettableSilence } from '../../integrations/alertmanager-api.js';
import { IntegrationError } from '../../integrations/integration-error.js';
import type { PrometheusApi } from '../../integrations/prometheus-api.js';
import type { KubeClient } from '../../kube/client.js';
import { parseExposition, valueOf } from '../../kube/metrics-exposition.test-support.js';
import { formatTime, ManualClock } from '../../lib/clock.js';
import { silentLogger } from '../../lib/log.js';
import { defaultManagedOperatorConfig, type ManagedOperatorConfig } from '../config/managed-operator-config.js';
import { MAINTENANCE_CREATED_BY, defaultSilenceMatchers } from '../maintenance/maintenance-window.js';
import { ManagedUpgradeMetrics } from '../metrics/managed-upgrade-metrics.js';
import type { NotifyStateName } from '../notifiers/notifier.js';
import type { ClusterReads, StepContext } from '../steps/step-context.js';

/** The version the cluster runs before the upgrade. */
export const FROM = '4.15.37';
/** The version it is upgraded to. */
export const TO = '4.15.38';
/** The channel of both. */
export const CHANNEL = 'stable-4.15';
/** The UpgradeConfig's name (the only one the operator acts on). */
export const UPGRADE_CONFIG_NAME = 'managed-upgrade-config';
/** The UpgradeConfig's namespace. */
export const NAMESPACE = 'openshift-managed-upgrade-operator';
/** Minutes, in ms. */
export const MINUTE = 60_000;

/** Where the cluster is in the upgrade: not commanded, commanded and rolling, control plane done. */
export type ClusterVersionState = 'before' | 'upgrading' | 'upgraded';

function historyEntry(version: string, completed: boolean, startedAt: number): UpdateHistory {
  return {
    state: completed ? 'Completed' : 'Partial',
    startedTime: formatTime(startedAt),
    completionTime: completed ? formatTime(startedAt + 40 * MINUTE) : null,
    version,
    image: `quay.io/openshift-release-dev/ocp-release@sha256:${version.replaceAll('.', '').padStart(64, '0')}`,
    verified: true,
  };
}

/**
 * The ClusterVersion in `state`, its spec observed by the CVO. `notUpgradeable` sets
 * Upgradeable=False with that message (it blocks only a minor upgrade).
 */
export function clusterVersion(
  state: ClusterVersionState,
  options: { at?: number; notUpgradeable?: string } = {},
): ClusterVersion {
  const at = options.at ?? Date.UTC(2026, 2, 1);
  const before = historyEntry(FROM, true, at - 30 * 86_400_000);
  const history = state === 'before' ? [before] : [historyEntry(TO, state === 'upgraded', at), before];
  const commanded = state !== 'before';
  const lastTransitionTime = formatTime(at);
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: { name: 'version', generation: commanded ? 3 : 2 },
    spec: {
      clusterID: '6b7a9c2e-3f4d-4e5a-8b6c-7d8e9f0a1b2c',
      channel: CHANNEL,
      ...(commanded ? { desiredUpdate: { version: TO, image: '', force: false } } : {}),
    },
    status: {
      desired: { version: commanded ? TO : FROM, image: history[0]!.image },
      history,
      observedGeneration: commanded ? 3 : 2,
      versionHash: 'abc',
      availableUpdates: commanded ? null : [{ version: TO, image: historyEntry(TO, false, at).image }],
      conditions: [
        { type: 'Available', status: 'True', lastTransitionTime },
        {
          type: 'Progressing',
          status: state === 'upgrading' ? 'True' : 'False',
          message: state === 'upgrading' ? `Working towards ${TO}: 103 of 883 done (11% complete)` : '',
          lastTransitionTime,
        },
        { type: 'ReleaseAccepted', status: 'True', reason: 'PayloadLoaded', message: '', lastTransitionTime },
        ...(options.notUpgradeable !== undefined
          ? [
              {
                type: 'Upgradeable',
                status: 'False' as const,
                reason: 'AdminAckRequired',
                message: options.notUpgradeable,
                lastTransitionTime,
              },
            ]
          : []),
      ],
    },
  };
}

/** Cluster reads over a ClusterVersion that may be replaced (`cv.set`); nothing else is in the cluster. */
export function clusterReads(initial: ClusterVersion | undefined): ClusterReads & {
  set(next: ClusterVersion | undefined): void;
} {
  let cv = initial;
  return {
    set: (next) => {
      cv = next;
    },
    clusterVersion: () => cv,
    pools: () => [],
    nodes: () => [],
    machineSets: () => [],
    machines: () => [],
    clusterOperators: () => [],
    podDisruptionBudgets: () => [],
  };
}

/** An in-memory Alertmanager; while `down`, every call rejects as an unreachable one does. */
export interface FakeAlertmanager extends AlertmanagerApi {
  readonly silences: GettableSilence[];
  down: boolean;
}

/** Starts with `silences` (kept by reference: expiring one changes its state there). */
export function fakeAlertmanager(silences: GettableSilence[] = []): FakeAlertmanager {
  let next = 0;
  const unreachable = (): Promise<never> =>
    Promise.reject(new IntegrationError('alertmanager', 'Unreachable', 'connect ECONNREFUSED 127.0.0.1:9093'));
  const am: FakeAlertmanager = {
    silences,
    down: false,
    listSilences: () => (am.down ? unreachable() : Promise.resolve(silences.map((s) => ({ ...s })))),
    createSilence: (postable) => {
      if (am.down) return unreachable();
      const existing = silences.find((s) => s.id === postable.id);
      if (existing) {
        Object.assign(existing, { ...postable, id: existing.id });
        return Promise.resolve(existing.id);
      }
      const id = `silence-${++next}`;
      silences.push({ ...postable, id, status: { state: 'active' }, updatedAt: postable.startsAt });
      return Promise.resolve(id);
    },
    expireSilence: (id) => {
      if (am.down) return unreachable();
      const s = silences.find((x) => x.id === id);
      if (s) s.status = { state: 'expired' };
      return Promise.resolve();
    },
  };
  return am;
}

/** An active silence created by the operator (`comment` says which window), or by someone else. */
export function silence(
  id: string,
  comment: string,
  options: { at?: number; createdBy?: string } = {},
): GettableSilence {
  const at = options.at ?? Date.UTC(2026, 2, 1);
  return {
    id,
    status: { state: 'active' },
    updatedAt: at,
    matchers: defaultSilenceMatchers(),
    startsAt: at,
    endsAt: at + 90 * MINUTE,
    createdBy: options.createdBy ?? MAINTENANCE_CREATED_BY,
    comment,
  };
}

/** A Prometheus where no alert fires; it records its queries. */
export function quietPrometheus(): PrometheusApi & { queries: string[] } {
  const queries: string[] = [];
  return {
    queries,
    query: (promql) => {
      queries.push(promql);
      return Promise.resolve([]);
    },
  };
}

/** A Prometheus that cannot be reached; it records the queries tried. */
export function unreachablePrometheus(): PrometheusApi & { queries: string[] } {
  const queries: string[] = [];
  return {
    queries,
    query: (promql) => {
      queries.push(promql);
      return Promise.reject(new IntegrationError('prometheus', 'Unreachable', 'connect ECONNREFUSED 127.0.0.1:9090'));
    },
  };
}

/** Metrics on a registry of their own, and one gauge's value read back from the exposition. */
export function testMetrics(): {
  metrics: ManagedUpgradeMetrics;
  value: (name: string, labels: Record<string, string>) => Promise<number | undefined>;
} {
  const registry = new Registry();
  const metrics = new ManagedUpgradeMetrics(registry);
  return {
    metrics,
    value: async (name, labels) => valueOf(parseExposition(await registry.metrics()), name, labels),
  };
}

/** An Event as a step or policy emitted it. */
export interface RecordedEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/** A KubeClient without an API server: every call rejects, with `message` when given. */
export function noApiServer(message?: string): KubeClient {
  return new Proxy({} as KubeClient, {
    get: (_target, property) => () => Promise.reject(new Error(message ?? `unexpected API call: ${String(property)}`)),
  });
}

/** What {@link fakeStepContext} builds the context from. */
export interface FakeStepContextOptions {
  type?: UpgradeType;
  upgradeAt: number;
  now: number;
  clusterVersion?: ClusterVersion;
  /** The history entry's conditions and start time (phase Upgrading, version {@link TO}). */
  history?: Pick<UpgradeHistory, 'conditions' | 'startTime'>;
  upgradeWindow?: Partial<ManagedOperatorConfig['upgradeWindow']>;
  client?: KubeClient;
  alertmanager?: AlertmanagerApi;
  /** Answers a notification (default: sent). */
  notify?: (state: NotifyStateName) => Promise<void>;
}

/** A step context and what it recorded. */
export interface FakeStepContext {
  ctx: StepContext;
  clock: ManualClock;
  /** The notifications sent, in order. */
  notified: NotifyStateName[];
  events: RecordedEvent[];
  /** A gauge of the context's metrics, read back. */
  metric(name: string, labels: Record<string, string>): Promise<number | undefined>;
}

/** The context of one pass of an Upgrading UpgradeConfig from {@link FROM} to {@link TO}. */
export function fakeStepContext(options: FakeStepContextOptions): FakeStepContext {
  const defaults = defaultManagedOperatorConfig();
  const config: ManagedOperatorConfig = {
    ...defaults,
    upgradeWindow: { ...defaults.upgradeWindow, ...options.upgradeWindow },
  };
  const upgradeConfig: ManagedUpgradeConfig = {
    apiVersion: 'upgrade.managed.openshift.io/v1alpha1',
    kind: 'UpgradeConfig',
    metadata: { name: UPGRADE_CONFIG_NAME, namespace: NAMESPACE },
    spec: {
      type: options.type ?? 'OSD',
      upgradeAt: formatTime(options.upgradeAt),
      PDBForceDrainTimeout: 60,
      desired: { version: TO, channel: CHANNEL },
    },
  };
  const history: UpgradeHistory = {
    version: TO,
    precedingVersion: FROM,
    phase: 'Upgrading',
    conditions: options.history?.conditions ?? [],
    ...(options.history?.startTime !== undefined ? { startTime: options.history.startTime } : {}),
  };
  const clock = new ManualClock(options.now);
  const notified: NotifyStateName[] = [];
  const events: RecordedEvent[] = [];
  const { metrics, value } = testMetrics();
  const notify = options.notify ?? (() => Promise.resolve());
  const ctx: StepContext = {
    upgradeConfig,
    history,
    config,
    clock,
    client: options.client ?? noApiServer(),
    cluster: clusterReads(options.clusterVersion ?? clusterVersion('before')),
    prometheus: quietPrometheus(),
    alertmanager: options.alertmanager ?? fakeAlertmanager(),
    dvo: 'not-installed',
    metrics,
    log: silentLogger(),
    event: (type, reason, message) => void events.push({ type, reason, message }),
    drainNode: () => Promise.reject(new Error('no node is drained in these tests')),
    notify: async (state) => {
      await notify(state);
      notified.push(state);
    },
  };
  return { ctx, clock, notified, events, metric: value };
}
