/**
 * What the UpgradeJob steps may read and do: the job (a working copy whose status the steps and
 * the recorder change; the controller writes it back when it changed), its times, the cluster as
 * the informer caches see it, the API client for writes, Prometheus for the health checks, the
 * Clock, Events and the log, and a way to add a wake-up time whatever step the pass stops at.
 */
import type { Job } from 'kubernetes-types/batch/v1.js';
import type { UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import type { UpgradeJobHook } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook.js';
import type { UpgradeSuspensionWindow } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-suspension-window.js';
import type { ClusterOperator } from '../../api/openshift/config-v1/cluster-operator.js';
import type { ClusterVersion } from '../../api/openshift/config-v1/cluster-version.js';
import type { MachineConfigPool } from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import type { PrometheusApi } from '../../integrations/prometheus-api.js';
import type { KubeClient } from '../../kube/client.js';
import type { EventType } from '../../kube/event-recorder.js';
import type { Clock } from '../../lib/clock.js';
import type { Logger } from '../../lib/log.js';
import type { JobTiming } from './upgrade-job-gate.js';

/** The kinds a step may wait on, by the names the controller's WakeRegistry uses. */
export const WatchedKind = {
  ClusterVersion: 'ClusterVersion',
  MachineConfigPool: 'MachineConfigPool',
  ClusterOperator: 'ClusterOperator',
  Job: 'Job',
  UpgradeJobHook: 'UpgradeJobHook',
  UpgradeSuspensionWindow: 'UpgradeSuspensionWindow',
} as const;

/** The cluster as the caches see it. */
export interface ClusterReads {
  /** The upstream `config.openshift.io` ClusterVersion `version`. */
  clusterVersion(): ClusterVersion | undefined;
  pools(): MachineConfigPool[];
  clusterOperators(): ClusterOperator[];
  /** Every UpgradeJobHook of a namespace. */
  hooks(namespace: string): UpgradeJobHook[];
  /** The hook Jobs of one UpgradeJob (labelled with its name). */
  hookJobs(namespace: string, upgradeJob: string): Job[];
  suspensionWindows(namespace: string): UpgradeSuspensionWindow[];
}

/** The context of the UpgradeJob steps. */
export interface StepContext {
  /** The working copy: steps and the recorder change its status; the controller writes it back. */
  job: UpgradeJob;
  timing: JobTiming;
  clock: Clock;
  client: KubeClient;
  cluster: ClusterReads;
  /** The cluster's Prometheus, for the health checks that query it. */
  prometheus?: PrometheusApi;
  log: Logger;
  /** Records an Event on the UpgradeJob. */
  event(type: EventType, reason: string, message: string): void;
  /** Wake the controller at `at` (epoch ms) whatever step the pass stops at. */
  wakeAt(at: number): void;
}
