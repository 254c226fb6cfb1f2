/**
 * How long a simulated ClusterOperator takes to roll out a new release
 * (docs/design/cluster-model.md#durations). The table gives per-stage (min, mode, max) ranges in
 * virtual minutes; each operator's profile ({@link OperatorDurationProfile}) names its stage and
 * its share of the stage, so that the slowest operator of a stage draws the stage's own range and
 * the others finish inside it.
 */
import type { Triangle } from '../durations.js';

/** A duration that grows with the number of nodes (full-cluster DaemonSets): `min(cap, base + perNode × nodes)` minutes. */
export interface NodeScaled {
  base: number;
  perNode: number;
  cap: number;
}

/** The per-stage ranges (virtual minutes). */
export interface OperatorDurations {
  /** The new operator pod starting after the CVO applied its Deployment (10–60 s). */
  operatorPodStart: Triangle;
  /** Runlevel 10: config-operator. */
  configOperator: Triangle;
  /** Runlevel 20: etcd + kube-apiserver (static-pod revisions rolled master by master). */
  etcdKubeApiserver: Triangle;
  /** Runlevels 25–26: kube-controller-manager, kube-scheduler, then cloud-controller-manager. */
  kcmSchedulerCcm: Triangle;
  /** Runlevels 30–40: machine-api, openshift-apiserver, control-plane-machine-set, baremetal, then kube-storage-version-migrator. */
  runlevel30to40: Triangle;
  /** Runlevel 50: the slowest of the 19 operators. */
  runlevel50: Triangle;
  /** Runlevel 70: network and dns, scaling with the node count (a fixed range on single-node). */
  networkDns: NodeScaled | Triangle;
}

/** The stages of {@link OperatorDurations} an operator can belong to. */
export type StageName = Exclude<keyof OperatorDurations, 'operatorPodStart'>;

/** HA cloud (3 masters + workers): the default column of docs/design/cluster-model.md#durations. */
export const HA_CLOUD_DURATIONS: OperatorDurations = {
  operatorPodStart: [1 / 6, 1 / 3, 1],
  configOperator: [1, 2, 4],
  etcdKubeApiserver: [8, 15, 25],
  kcmSchedulerCcm: [3, 6, 10],
  runlevel30to40: [3, 5, 8],
  runlevel50: [8, 12, 20],
  networkDns: { base: 4, perNode: 1.2, cap: 25 },
};

/** Bare metal: slower static-pod rollouts (docs/design/cluster-model.md#durations). */
export const BARE_METAL_DURATIONS: OperatorDurations = { ...HA_CLOUD_DURATIONS, etcdKubeApiserver: [10, 18, 30] };

/** Single-node (docs/design/cluster-model.md#durations). */
export const SINGLE_NODE_DURATIONS: OperatorDurations = {
  ...HA_CLOUD_DURATIONS,
  etcdKubeApiserver: [5, 8, 12],
  kcmSchedulerCcm: [2, 4, 6],
  runlevel30to40: [2, 3, 5],
  runlevel50: [3, 6, 10],
  networkDns: [3, 5, 8],
};

/** An operator's place in the duration table: its stage and the share of the stage's range it takes. */
export interface OperatorDurationProfile {
  stage: StageName;
  /** Multiplies (min, mode, max) of the stage; [1, 1, 1] for the operator that sets the stage's pace. */
  share: Triangle;
}

/** Sets the pace of its stage. */
export const LEAD: Triangle = [1, 1, 1];
/** Runs in parallel with the lead of its stage and usually finishes earlier. */
export const FOLLOWER: Triangle = [0.25, 0.5, 0.75];

/** The range (minutes) an operator draws its rollout from, given the cluster's node count. */
export function rolloutRange(
  profile: OperatorDurationProfile,
  durations: OperatorDurations,
  nodeCount: number,
): Triangle {
  const stage = durations[profile.stage];
  const base: Triangle = isTriangle(stage) ? stage : nodeScaledRange(stage, nodeCount);
  const [a, b, c] = profile.share;
  const lo = base[0] * a;
  const hi = Math.max(lo, base[2] * c);
  return [lo, Math.min(hi, Math.max(lo, base[1] * b)), hi];
}

/** A node-scaled stage as a range: ±10 % around `min(cap, base + perNode × nodes)`, never above the cap. */
export function nodeScaledRange(nodeScaled: NodeScaled, nodeCount: number): Triangle {
  const mode = Math.min(nodeScaled.cap, nodeScaled.base + nodeScaled.perNode * Math.max(0, nodeCount));
  return [mode * 0.9, mode, Math.min(nodeScaled.cap, mode * 1.1)];
}

function isTriangle(value: NodeScaled | Triangle): value is Triangle {
  return Array.isArray(value);
}
