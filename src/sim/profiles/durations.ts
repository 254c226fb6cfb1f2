/**
 * The three duration columns of docs/design/cluster-model.md#durations (HA cloud, bare metal,
 * single-node), gathered per component from the presets each component module defines. A profile
 * names its column; `createSimulatedCluster` hands each part to its component.
 */
import { DEFAULT_CVO_DURATIONS } from '../cvo/durations.js';
import { DEFAULT_MACHINE_API_DURATIONS } from '../machineapi/machine-controller.js';
import {
  BARE_METAL_DAEMON_DURATIONS,
  DEFAULT_DRAIN_DURATIONS,
  HA_CLOUD_DAEMON_DURATIONS,
  SINGLE_NODE_DAEMON_DURATIONS,
} from '../mco/daemon/durations.js';
import { DEFAULT_MCO_DURATIONS } from '../mco/operator.js';
import { BARE_METAL_DURATIONS, HA_CLOUD_DURATIONS, SINGLE_NODE_DURATIONS } from '../operators/durations.js';
import type { ProfileDurations } from '../profiles.js';

/** HA cloud: the default column. */
export const HA_CLOUD_COLUMN: ProfileDurations = {
  cvo: DEFAULT_CVO_DURATIONS,
  operators: HA_CLOUD_DURATIONS,
  machineConfigOperator: DEFAULT_MCO_DURATIONS,
  daemon: HA_CLOUD_DAEMON_DURATIONS,
  drain: DEFAULT_DRAIN_DURATIONS,
  machineApi: DEFAULT_MACHINE_API_DURATIONS,
};

/** Bare metal: slower etcd/kube-apiserver rollouts and OS updates, long reboots (8–20 min), new hosts 15–45 min. */
export const BARE_METAL_COLUMN: ProfileDurations = {
  ...HA_CLOUD_COLUMN,
  operators: BARE_METAL_DURATIONS,
  daemon: BARE_METAL_DAEMON_DURATIONS,
  machineApi: { ...DEFAULT_MACHINE_API_DURATIONS, running: [15, 25, 45] },
};

/**
 * Single-node: a longer CVO restart gap (1–4 min), faster control-plane operators (one replica
 * each), a fixed network/dns range, a quicker MCO self-rollout, reboots of 5–12 min. Drain
 * durations are kept but unused: the MCD skips drain and cordon on a SingleReplica control plane.
 */
export const SINGLE_NODE_COLUMN: ProfileDurations = {
  ...HA_CLOUD_COLUMN,
  cvo: { ...DEFAULT_CVO_DURATIONS, cvoRestartGap: [1, 2, 4] },
  operators: SINGLE_NODE_DURATIONS,
  // The real MCO waits 10 min per required machine, but on one node its own pod goes down with
  // the reboot and the wait starts afresh afterwards; modelled as a wait that covers the OS
  // update and the longest reboot (≤ 16 min) plus the 10 minutes after it.
  machineConfigOperator: { ...DEFAULT_MCO_DURATIONS, selfRollout: [2, 3, 5], requiredPoolsTimeoutPerMachine: 30 },
  daemon: SINGLE_NODE_DAEMON_DURATIONS,
};
