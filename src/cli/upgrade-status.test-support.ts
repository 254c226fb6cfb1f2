/**
 * Hand-built snapshots for the tests of `upgrade-status.ts` and its renderer: a 4.14.10 → 4.15.3
 * update whose control plane completed while the workers roll (one updated, one draining, one
 * rebooting, one updating, one pending) and an infra node sits in a paused pool.
 */
import type { Node, Pod } from 'kubernetes-types/core/v1.js';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import type { ClusterOperator } from '../api/openshift/config-v1/cluster-operator.js';
import type {
  ClusterVersion,
  ClusterOperatorStatusCondition,
  UpdateHistory,
} from '../api/openshift/config-v1/cluster-version.js';
import type { MachineConfigPool } from '../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import type { MachineConfig } from '../api/openshift/machineconfiguration-v1/machine-config.js';
import type { SnapshotPart, UpgradeStatusSnapshot } from './upgrade-status-model.js';

export const NOW = Date.parse('2024-03-20T09:02:09Z');
export const MIN = 60_000;
export const OLD = '4.14.10';
export const NEW = '4.15.3';
export const CFG = {
  masterOld: 'rendered-master-old',
  masterNew: 'rendered-master-new',
  workerOld: 'rendered-worker-old',
  workerNew: 'rendered-worker-new',
  infraOld: 'rendered-infra-old',
  infraNew: 'rendered-infra-new',
};

export function ok<T>(value: T): SnapshotPart<T> {
  return { state: 'ok', value };
}

export function at(minutesBeforeNow: number): string {
  return new Date(NOW - minutesBeforeNow * MIN).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function c(
  type: string,
  status: 'True' | 'False' | 'Unknown',
  reason = '',
  message = '',
  since = 500,
): ClusterOperatorStatusCondition {
  return { type, status, reason, message, lastTransitionTime: at(since) };
}

/** Earlier updates: 4.14.8 → 4.14.10 took 80 min, 4.14.5 → 4.14.8 took 100 min; the install took 40. */
export const EARLIER: UpdateHistory[] = [
  {
    state: 'Completed',
    startedTime: at(30_000),
    completionTime: at(30_000 - 80),
    version: OLD,
    image: 'img-old',
    verified: true,
  },
  {
    state: 'Completed',
    startedTime: at(60_000),
    completionTime: at(60_000 - 100),
    version: '4.14.8',
    image: 'img-8',
    verified: true,
  },
  {
    state: 'Completed',
    startedTime: at(90_000),
    completionTime: at(90_000 - 40),
    version: '4.14.5',
    image: 'img-5',
    verified: true,
  },
];

export function clusterVersion(
  o: {
    head?: UpdateHistory | undefined;
    conditions?: ClusterOperatorStatusCondition[];
    desiredUpdate?: { version: string; image?: string };
  } = {},
): ClusterVersion {
  const head = o.head;
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: { name: 'version', generation: 2 },
    spec: { clusterID: 'id', ...(o.desiredUpdate ? { desiredUpdate: o.desiredUpdate } : {}) },
    status: {
      desired: { version: head?.version ?? OLD, image: head?.image ?? 'img-old' },
      history: head ? [head, ...EARLIER] : EARLIER,
      observedGeneration: 2,
      versionHash: 'h',
      availableUpdates: null,
      conditions: o.conditions ?? [
        c('Available', 'True'),
        c('Failing', 'False'),
        c('Progressing', 'False', '', `Cluster version is ${OLD}`),
        c('ReleaseAccepted', 'True', 'PayloadLoaded'),
      ],
    },
  };
}

export const PARTIAL: UpdateHistory = {
  state: 'Partial',
  startedTime: at(62),
  completionTime: null,
  version: NEW,
  image: 'img-new',
  verified: true,
};
export const DONE: UpdateHistory = { ...PARTIAL, state: 'Completed', completionTime: at(5) };

export function co(
  name: string,
  version: string,
  progressing = false,
  extra: ClusterOperatorStatusCondition[] = [],
): ClusterOperator {
  const conditions = [
    c('Available', 'True', 'AsExpected'),
    c('Degraded', 'False', 'AsExpected'),
    c('Progressing', progressing ? 'True' : 'False', '', progressing ? `Working towards ${NEW}` : '', 10),
  ];
  for (const e of extra)
    conditions.splice(
      conditions.findIndex((x) => x.type === e.type),
      1,
      e,
    );
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterOperator',
    metadata: { name },
    spec: {},
    status: { conditions, versions: [{ name: 'operator', version }] },
  };
}

export function pool(name: string, target: string, paused = false): MachineConfigPool {
  return {
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfigPool',
    metadata: {
      name,
      labels: name === 'master' ? { 'operator.machineconfiguration.openshift.io/required-for-upgrade': '' } : {},
    },
    spec: {
      nodeSelector: { matchLabels: { [`node-role.kubernetes.io/${name}`]: '' } },
      paused,
      configuration: { name: target },
    },
  };
}

export function rendered(name: string, version: string): MachineConfig {
  return {
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfig',
    metadata: { name, annotations: { 'machineconfiguration.openshift.io/release-image-version': version } },
  };
}

export const CONFIGS = [
  rendered(CFG.masterOld, OLD),
  rendered(CFG.masterNew, NEW),
  rendered(CFG.workerOld, OLD),
  rendered(CFG.workerNew, NEW),
  rendered(CFG.infraOld, OLD),
  rendered(CFG.infraNew, NEW),
];

export interface NodeOpts {
  current: string;
  desired?: string;
  state?: string;
  ready?: boolean;
  cordoned?: boolean;
  desiredDrain?: string;
  lastAppliedDrain?: string;
  reason?: string;
  roles?: string[];
}

export function node(name: string, role: string, o: NodeOpts): Node {
  const labels: Record<string, string> = { [`node-role.kubernetes.io/${role}`]: '' };
  for (const r of o.roles ?? []) labels[`node-role.kubernetes.io/${r}`] = '';
  const annotations: Record<string, string> = {
    'machineconfiguration.openshift.io/currentConfig': o.current,
    'machineconfiguration.openshift.io/desiredConfig': o.desired ?? o.current,
    'machineconfiguration.openshift.io/state': o.state ?? 'Done',
    'machineconfiguration.openshift.io/reason': o.reason ?? '',
  };
  if (o.desiredDrain) annotations['machineconfiguration.openshift.io/desiredDrain'] = o.desiredDrain;
  if (o.lastAppliedDrain) annotations['machineconfiguration.openshift.io/lastAppliedDrain'] = o.lastAppliedDrain;
  return {
    metadata: { name, labels, annotations },
    spec: o.cordoned
      ? { unschedulable: true, taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }] }
      : {},
    status: { conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }] },
  };
}

export const MASTERS_DONE = ['m0', 'm1', 'm2'].map((n) => node(n, 'master', { current: CFG.masterNew }));

/** Workers mid-rollout: one updated, one draining, one rebooting, one updating, one pending; an infra node in a paused pool. */
export const WORKERS_MID = [
  node('w0', 'worker', { current: CFG.workerNew }),
  node('w1', 'worker', {
    current: CFG.workerOld,
    desired: CFG.workerNew,
    state: 'Working',
    cordoned: true,
    desiredDrain: `drain-${CFG.workerNew}`,
    lastAppliedDrain: `uncordon-${CFG.workerOld}`,
  }),
  node('w2', 'worker', {
    current: CFG.workerOld,
    desired: CFG.workerNew,
    state: 'Working',
    cordoned: true,
    ready: false,
    desiredDrain: `drain-${CFG.workerNew}`,
    lastAppliedDrain: `drain-${CFG.workerNew}`,
  }),
  node('w3', 'worker', {
    current: CFG.workerOld,
    desired: CFG.workerNew,
    state: 'Working',
    cordoned: true,
    desiredDrain: `uncordon-${CFG.workerNew}`,
    lastAppliedDrain: `drain-${CFG.workerNew}`,
  }),
  node('w4', 'worker', { current: CFG.workerOld }),
  node('i0', 'infra', { current: CFG.infraOld, roles: ['worker'] }),
];

export function pod(
  ns: string,
  name: string,
  nodeName: string,
  labels: Record<string, string>,
  daemonSet = false,
): Pod {
  return {
    metadata: {
      namespace: ns,
      name,
      labels,
      ...(daemonSet
        ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'ds', uid: 'u', controller: true }] }
        : {}),
    },
    spec: { nodeName, containers: [] },
    status: { phase: 'Running' },
  };
}

export function pdb(ns: string, name: string, app: string, allowed: number, healthy = 2): PodDisruptionBudget {
  return {
    metadata: { namespace: ns, name },
    spec: { selector: { matchLabels: { app } }, minAvailable: healthy },
    status: {
      disruptionsAllowed: allowed,
      currentHealthy: healthy,
      desiredHealthy: healthy,
      expectedPods: healthy,
      observedGeneration: 1,
    },
  };
}

export const OPERATORS_DONE = ['etcd', 'kube-apiserver', 'machine-config', 'dns'].map((n) => co(n, NEW));

/** A complete snapshot; `over` replaces parts. */
export function snapshot(over: Partial<UpgradeStatusSnapshot> = {}): UpgradeStatusSnapshot {
  return {
    clusterVersion: ok(
      clusterVersion({
        head: DONE,
        conditions: [
          c('Available', 'True', '', `Done applying ${NEW}`),
          c('Failing', 'False'),
          c('Progressing', 'False', '', `Cluster version is ${NEW}`, 5),
          c('ReleaseAccepted', 'True', 'PayloadLoaded'),
        ],
      }),
    ),
    clusterOperators: ok(OPERATORS_DONE),
    machineConfigPools: ok([
      pool('master', CFG.masterNew),
      pool('worker', CFG.workerNew),
      pool('infra', CFG.infraNew, true),
    ]),
    renderedMachineConfigs: ok(CONFIGS),
    nodes: ok([...MASTERS_DONE, ...WORKERS_MID]),
    pods: ok([]),
    podDisruptionBudgets: ok([]),
    managedUpgradeConfigs: {
      state: 'absent',
      reason: 'upgradeconfigs.upgrade.managed.openshift.io is not served by this cluster',
    },
    scheduledUpgradeConfigs: { state: 'absent', reason: 'not served' },
    upgradeJobs: { state: 'absent', reason: 'not served' },
    hookJobs: ok([]),
    ...over,
  };
}
