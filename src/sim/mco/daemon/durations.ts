/**
 * Per-node durations of a machine-config update (docs/design/cluster-model.md#durations), as
 * triangular (min, mode, max) draws in virtual minutes, and the profile presets of that table.
 */
import type { Triangle } from '../../durations.js';

/** What the machine-config daemon spends on one node. */
export interface DaemonDurations {
  /** rpm-ostree rebase onto the new OS image. */
  osUpdate: Triangle;
  /** Node NotReady during the reboot. */
  reboot: Triangle;
  /** From the kubelet being Ready again to the uncordon request (MCD start after boot). */
  rejoin: Triangle;
}

/** The HA-cloud column (the default). */
export const HA_CLOUD_DAEMON_DURATIONS: DaemonDurations = {
  osUpdate: [1, 2, 3],
  reboot: [1, 2, 4],
  rejoin: [0.5, 1, 2],
};

/** The bare-metal column. */
export const BARE_METAL_DAEMON_DURATIONS: DaemonDurations = {
  osUpdate: [1, 2, 4],
  reboot: [8, 12, 20],
  rejoin: [0.5, 1, 2],
};

/** The single-node column. */
export const SINGLE_NODE_DAEMON_DURATIONS: DaemonDurations = {
  osUpdate: [1, 2, 4],
  reboot: [5, 8, 12],
  rejoin: [0.5, 1, 2],
};

/** What the drain controller's drain takes when nothing blocks it (pods terminating), by node class. */
export interface DrainDurations {
  master: Triangle;
  worker: Triangle;
}

/** The HA-cloud (and bare-metal) drain durations; single-node clusters skip the drain. */
export const DEFAULT_DRAIN_DURATIONS: DrainDurations = {
  master: [0.5, 1.5, 3],
  worker: [1, 2, 5],
};
