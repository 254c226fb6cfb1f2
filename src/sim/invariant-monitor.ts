/**
 * Asserts the invariants of docs/design/cluster-model.md#invariants continuously during a simulated
 * run: it watches ClusterVersion, ClusterOperators, MachineConfigPools and Nodes through the shared
 * informers and applies the pure checks of each domain after every event (the transition checks
 * with the object before and after), and reads the rule evaluator's alert log. A violation is
 * recorded once per distinct message, with the virtual time it was first and last seen and how
 * often. Cheap per event: a node event checks only that node's pool.
 */
import type { Node } from 'kubernetes-types/core/v1.js';
import { NodeResource } from '../api/builtin.js';
import { ClusterOperatorResource, type ClusterOperator } from '../api/openshift/config-v1/cluster-operator.js';
import {
  CLUSTER_VERSION_NAME,
  ClusterVersionResource,
  type ClusterVersion,
} from '../api/openshift/config-v1/cluster-version.js';
import {
  MachineConfigPoolResource,
  type MachineConfigPool,
} from '../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import {
  clusterVersionTransitionViolations,
  clusterVersionViolations,
  completionViolations,
  headCompleted,
} from './cvo/invariants.js';
import { poolStatusViolations, poolTransitionViolations, UpdatingNodesTracker } from './mco/invariants.js';
import { alertTransitionViolations, newAlertCheckState } from './monitoring/invariants.js';
import type { AlertTransition } from './monitoring/rules.js';
import { operatorState, trackOperatorVersion, type OperatorTrack } from './operators/invariants.js';
import type { SimContext } from './context.js';

/** The domain of a violated invariant. */
export type InvariantKind = 'pool' | 'cluster-version' | 'cluster-operator' | 'alert';

/** One distinct violation. */
export interface InvariantViolation {
  readonly kind: InvariantKind;
  readonly message: string;
  /** Virtual ms when it was first and last seen. */
  readonly firstAt: number;
  readonly lastAt: number;
  /** How many times it was seen. */
  readonly count: number;
}

/** Where the alert state changes come from (the simulated cluster's `monitoring`). */
export interface AlertLogSource {
  readonly rules: { transitions(): readonly AlertTransition[] };
}

/** A running monitor. */
export interface InvariantMonitor {
  /** Every distinct violation so far, in the order first seen (reads the alert log first). */
  violations(): InvariantViolation[];
  /** Stops watching (the violations stay readable). */
  stop(): void;
}

/**
 * Starts checking the invariants (docs/design/cluster-model.md#invariants) on `ctx`'s shared
 * informers (and `monitoring`'s alert log).
 */
export function startInvariantMonitor(ctx: SimContext, monitoring?: AlertLogSource): InvariantMonitor {
  const { clock, informers } = ctx;
  const found = new Map<
    string,
    { kind: InvariantKind; message: string; firstAt: number; lastAt: number; count: number }
  >();
  const record = (kind: InvariantKind, messages: readonly string[], at = clock.now()): void => {
    for (const message of messages) {
      const key = `${kind}\u0000${message}`;
      const v = found.get(key);
      if (v) {
        v.count++;
        v.lastAt = Math.max(v.lastAt, at);
      } else {
        found.set(key, { kind, message, firstAt: at, lastAt: at, count: 1 });
      }
    }
  };

  const cvs = informers.informerFor(ClusterVersionResource);
  const cos = informers.informerFor(ClusterOperatorResource);
  const pools = informers.informerFor(MachineConfigPoolResource);
  const nodes = informers.informerFor(NodeResource);

  // Pools and nodes.
  const updating = new UpdatingNodesTracker();
  const checkPools = (names: readonly string[]): void => {
    for (const name of names) {
      const pool = pools.get(undefined, name);
      if (pool) record('pool', updating.violations(pool));
    }
  };
  const membershipChanged = (before: MachineConfigPool | undefined, after: MachineConfigPool | undefined): boolean =>
    !before ||
    !after ||
    JSON.stringify(before.spec.nodeSelector ?? null) !== JSON.stringify(after.spec.nodeSelector ?? null) ||
    before.metadata?.deletionTimestamp !== after.metadata?.deletionTimestamp;
  const onPool = (before: MachineConfigPool | undefined, after: MachineConfigPool | undefined): void => {
    if (membershipChanged(before, after)) {
      updating.reset(nodes.list(), pools.list());
      checkPools(pools.list().map((p) => p.metadata?.name ?? ''));
    } else if (after && before && String(before.spec.maxUnavailable) !== String(after.spec.maxUnavailable)) {
      checkPools([after.metadata?.name ?? '']);
    }
    if (!after) return;
    record('pool', poolStatusViolations(after));
    if (before) record('pool', poolTransitionViolations(before, after));
  };
  const onNode = (node: Node): void => checkPools(updating.setNode(node, pools.list()));

  // ClusterOperators.
  const tracks = new Map<string, OperatorTrack>();
  const updateStartedSince = (version: string, since: number): boolean =>
    (cvs.get(undefined, CLUSTER_VERSION_NAME)?.status?.history ?? []).some(
      (h) => h.version === version && Date.parse(h.startedTime) > since - 1000,
    );
  const onOperator = (co: ClusterOperator): void => {
    const name = co.metadata?.name ?? '';
    const r = trackOperatorVersion(name, tracks.get(name), operatorState(co), clock.now(), updateStartedSince);
    tracks.set(name, r.track);
    record('cluster-operator', r.violations);
  };

  // ClusterVersion.
  const onClusterVersion = (before: ClusterVersion | undefined, after: ClusterVersion): void => {
    record('cluster-version', clusterVersionViolations(after));
    if (!before) return;
    record('cluster-version', clusterVersionTransitionViolations(before, after));
    const completed = headCompleted(before, after);
    if (completed) record('cluster-version', completionViolations(completed.version, cos.list(), pools.list()));
  };

  // Alerts: the evaluator's log, read from where the last read stopped.
  const alertState = newAlertCheckState();
  let alertsRead = 0;
  const readAlerts = (): void => {
    const log = monitoring?.rules.transitions() ?? [];
    for (; alertsRead < log.length; alertsRead++) {
      const t = log[alertsRead]!;
      record('alert', alertTransitionViolations([t], alertState), t.at);
    }
  };

  const unsubscribe = [
    pools.addHandlers({ onAdd: (p) => onPool(undefined, p), onUpdate: onPool, onDelete: (p) => onPool(p, undefined) }),
    nodes.addHandlers({
      onAdd: onNode,
      onUpdate: (_b, n) => onNode(n),
      onDelete: (n) => checkPools(updating.deleteNode(n.metadata?.name ?? '')),
    }),
    cos.addHandlers({
      onAdd: onOperator,
      onUpdate: (_b, co) => onOperator(co),
      onDelete: (co) => void tracks.delete(co.metadata?.name ?? ''),
    }),
    cvs.addHandlers({ onAdd: (cv) => onClusterVersion(undefined, cv), onUpdate: onClusterVersion }),
  ];

  return {
    violations(): InvariantViolation[] {
      readAlerts();
      return [...found.values()].map((v) => ({ ...v }));
    },
    stop(): void {
      readAlerts();
      for (const u of unsubscribe) u();
    },
  };
}
