/**
 * What a step of the managed flow may read and do. The controller builds one per pass: the
 * UpgradeConfig and its history entry (mutated by the recorder and the steps, written back by
 * the controller), the operator configuration, cached cluster reads, the outside APIs, the
 * notifier, metrics and Events. Steps reach the cluster only through this.
 */
import type { Node } from 'kubernetes-types/core/v1.js';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import type { ClusterOperator } from '../../api/openshift/config-v1/cluster-operator.js';
import type { ClusterVersion } from '../../api/openshift/config-v1/cluster-version.js';
import type { Machine } from '../../api/openshift/machine-v1beta1/machine.js';
import type { MachineSet } from '../../api/openshift/machine-v1beta1/machine-set.js';
import type { MachineConfigPool } from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import type {
  ManagedUpgradeConfig,
  UpgradeHistory,
} from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import type { ManagedOperatorConfig } from '../config/managed-operator-config.js';
import type { AlertmanagerApi } from '../../integrations/alertmanager-api.js';
import type { PrometheusApi } from '../../integrations/prometheus-api.js';
import type { KubeClient } from '../../kube/client.js';
import type { Clock } from '../../lib/clock.js';
import type { Logger } from '../../lib/log.js';
import type { ManagedUpgradeMetrics } from '../metrics/managed-upgrade-metrics.js';
import type { DvoMetricsSource } from '../health/deployment-validation.js';
import type { NotifyStateName } from '../notifiers/notifier.js';

/** The kinds a step may wait on, by the names the controller's WakeRegistry uses. */
export const WatchedKind = {
  ClusterVersion: 'ClusterVersion',
  ClusterOperator: 'ClusterOperator',
  MachineConfigPool: 'MachineConfigPool',
  Node: 'Node',
  MachineSet: 'MachineSet',
  Machine: 'Machine',
  PodDisruptionBudget: 'PodDisruptionBudget',
} as const;

/** Cached reads of the cluster (informer caches in the operator). */
export interface ClusterReads {
  clusterVersion(): ClusterVersion | undefined;
  pools(): MachineConfigPool[];
  nodes(): Node[];
  machineSets(): MachineSet[];
  machines(): Machine[];
  clusterOperators(): ClusterOperator[];
  podDisruptionBudgets(): PodDisruptionBudget[];
}

/** The context of one pass of the managed flow. */
export interface StepContext {
  readonly upgradeConfig: ManagedUpgradeConfig;
  /** The entry for the desired version (conditions are recorded into it). */
  readonly history: UpgradeHistory;
  readonly config: ManagedOperatorConfig;
  readonly clock: Clock;
  readonly client: KubeClient;
  readonly cluster: ClusterReads;
  readonly prometheus: PrometheusApi;
  readonly alertmanager: AlertmanagerApi;
  readonly dvo: DvoMetricsSource;
  readonly metrics: ManagedUpgradeMetrics;
  readonly log: Logger;
  /** Sends a notification once per (state, version); `firstFalse` picks Delayed/Failed texts. */
  notify(state: NotifyStateName, signal: AbortSignal, detail?: string): Promise<void>;
  /** An Event on the UpgradeConfig. */
  event(type: 'Normal' | 'Warning', reason: string, message: string): void;
  /** Runs the drain strategies on one node (capacity scale-down). */
  drainNode(nodeName: string, signal: AbortSignal): Promise<{ failed: boolean; nextDueAt?: number | undefined }>;
}

/** The UpgradeConfig's name (metrics label). */
export function configName(ctx: StepContext): string {
  return ctx.upgradeConfig.metadata?.name ?? '';
}

/** The desired version (empty when the spec names only an image not yet resolved). */
export function desiredVersion(ctx: StepContext): string {
  return ctx.upgradeConfig.spec?.desired.version ?? '';
}
