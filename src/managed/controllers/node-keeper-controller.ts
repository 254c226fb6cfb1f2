/**
 * The NodeKeeper (docs/design/managed-flow.md#the-nodekeeper-and-drain-strategies): while a managed
 * upgrade is rolling the workers, it force-drains cordoned worker nodes with MUO's timed strategies
 * and reports nodes whose drain failed.
 *
 * Unlike MUO it never polls: a reconcile asks to be requeued exactly when the plan next
 * changes by time alone (a strategy falls due, a failure threshold passes), and pod events
 * (a pod re-created on the node, a pod stuck terminating, finalizers changing) wake the node
 * at once. `wakeAll()` requeues every worker when the upgrade state changes.
 */
import type { Node, Pod } from 'kubernetes-types/core/v1.js';
import { NodeResource, PodResource } from '../../api/builtin.js';
import {
  MachineConfigDaemonState,
  MachineConfigNodeAnnotation,
} from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import type { KubeClient } from '../../kube/client.js';
import { Controller, type Predicate, type ReconcileResult } from '../../kube/controller.js';
import type { EventRecorder } from '../../kube/event-recorder.js';
import type { InformerFactory } from '../../kube/informer-factory.js';
import { drainPodTransform } from '../../kube/pod-transform.js';
import { isNotFound } from '../../kube/status-error.js';
import type { ActivityTracker } from '../../lib/activity.js';
import { formatTime, type Clock } from '../../lib/clock.js';
import { jsonEqual, type JsonValue } from '../../lib/json.js';
import type { Logger } from '../../lib/log.js';
import { errorMessage } from '../../lib/errors.js';
import { formatDuration, type DrainAction, type DrainSettings } from '../drain/drain-strategies.js';
import { drainNodeWithStrategies } from '../drain/node-drainer.js';
import { runtimeOf } from '../../engine/controller-deps.js';

/** Node labels of control-plane nodes, which the NodeKeeper never touches. */
export const CONTROL_PLANE_NODE_LABELS = [
  'node-role.kubernetes.io/master',
  'node-role.kubernetes.io/control-plane',
] as const;

/** Event reasons the NodeKeeper records on Nodes. */
export const NodeKeeperEventReason = {
  PodDeleted: 'ForceDrainPodDeleted',
  FinalizersRemoved: 'ForceDrainPodFinalizersRemoved',
  DrainTimeout: 'NodeDrainTimeout',
  DrainStartUnknown: 'NodeDrainStartUnknown',
} as const;

/** What the lead's wiring tells the NodeKeeper on every reconcile. */
export interface NodeKeeperState {
  /** The managed upgrade's history phase is Upgrading and the worker MachineConfigPool is upgrading. */
  active: boolean;
  settings: DrainSettings;
}

export interface NodeKeeperOptions {
  informers: InformerFactory;
  client: KubeClient;
  clock: Clock;
  logger: Logger;
  activity?: ActivityTracker;
  events: EventRecorder;
  state: () => NodeKeeperState;
  /** Sets (true) or resets (false) `upgradeoperator_node_drain_timeout{node_name}`. */
  onDrainTimeout(nodeName: string, on: boolean): void;
  /**
   * PDB-DELETE started deleting pods on this node (MUO sends the "delayed" notification, KCS
   * 7075425). Called once per drain of a node; a rejection is logged (the notification metrics
   * tell a failed send) and does not stop the drain.
   */
  onPdbForceDrainStarted(nodeName: string, signal: AbortSignal): Promise<void>;
}

/** The controller, and a way to requeue every worker node. */
export interface NodeKeeper {
  controller: Controller;
  /** Requeues every (non-control-plane) node in the cache, e.g. when the upgrade enters Upgrading. */
  wakeAll(): void;
}

/** True for nodes labelled master or control-plane. */
export function isControlPlaneNode(node: Node): boolean {
  const labels = node.metadata?.labels ?? {};
  return CONTROL_PLANE_NODE_LABELS.some((l) => Object.hasOwn(labels, l));
}

/** Creates the NodeKeeper controller (start it with `controller.start(signal)` or a Manager). */
export function createNodeKeeperController(options: NodeKeeperOptions): NodeKeeper {
  const log = options.logger.child({ controller: 'nodekeeper' });
  const nodes = options.informers.informerFor(NodeResource);
  // The cluster-wide Pod cache keeps only the drain-relevant fields (if this is its first request).
  options.informers.informerFor(PodResource, { transform: drainPodTransform });
  /** node → drain start for which onPdbForceDrainStarted was called / NodeDrainTimeout recorded. */
  const pdbSignalled = new Map<string, number>();
  const timeoutRecorded = new Map<string, number>();
  const forget = (name: string): void => {
    pdbSignalled.delete(name);
    timeoutRecorded.delete(name);
  };

  const reconcile = async (name: string, signal: AbortSignal): Promise<ReconcileResult> => {
    const state = options.state();
    if (!state.active) return {};
    // Keys come from the node cache (node events, wakeAll, pods mapped to cached nodes); a node
    // the cache does not hold is gone, and one it shows as control plane is never touched.
    const cached = nodes.get(undefined, name);
    if (cached && isControlPlaneNode(cached)) return {};
    if (!cached) {
      forget(name);
      options.onDrainTimeout(name, false);
      return {};
    }
    const now = options.clock.now();
    let outcome;
    try {
      outcome = await drainNodeWithStrategies(options.client, name, state.settings, now, signal);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      forget(name);
      options.onDrainTimeout(name, false);
      return {};
    }
    const { node, plan } = outcome;
    if (isControlPlaneNode(node)) return {};
    if (plan.status === 'not-cordoned') {
      forget(name);
      options.onDrainTimeout(name, false);
      return {};
    }
    if (plan.status === 'unknown-start') {
      // A change of the node (a taint with timeAdded, an uncordon) wakes it again.
      log.warn({ node: name }, plan.message ?? 'cannot determine drain commencement time');
      options.events.event(
        node,
        'Warning',
        NodeKeeperEventReason.DrainStartUnknown,
        plan.message ?? `cannot determine drain commencement time for node ${name}`,
      );
      return {};
    }
    const start = plan.drainStartedAt ?? now;
    for (const a of outcome.actionsTaken) {
      const verb = a.type === 'delete' ? 'deleted pod' : 'removed the finalizers of pod';
      const message = `Drain strategy ${a.strategy} ${verb} ${a.pod.namespace}/${a.pod.name}: ${a.reason}`;
      log.info({ node: name, strategy: a.strategy, pod: `${a.pod.namespace}/${a.pod.name}`, action: a.type }, message);
      options.events.event(
        node,
        'Warning',
        a.type === 'delete' ? NodeKeeperEventReason.PodDeleted : NodeKeeperEventReason.FinalizersRemoved,
        message,
      );
    }
    if (
      outcome.actionsTaken.some((a: DrainAction) => a.strategy === 'PDB-DELETE') &&
      pdbSignalled.get(name) !== start
    ) {
      pdbSignalled.set(name, start);
      await options
        .onPdbForceDrainStarted(name, signal)
        .catch((err: unknown) =>
          log.warn({ node: name, err: errorMessage(err) }, 'could not send the drain-delay notification'),
        );
    }
    reportFailure(node, outcome.failed, start, now, state.settings);
    if (outcome.failures.length > 0) {
      for (const f of outcome.failures)
        log.warn(
          {
            node: name,
            strategy: f.action.strategy,
            pod: `${f.action.pod.namespace}/${f.action.pod.name}`,
            err: f.error.message,
          },
          'drain action failed',
        );
      const first = outcome.failures[0];
      throw new Error(
        `${outcome.failures.length} drain action(s) failed on node ${name}; first: ${first?.action.strategy ?? ''} ${first?.action.pod.namespace ?? ''}/${first?.action.pod.name ?? ''}: ${first?.error.message ?? ''}`,
      );
    }
    return outcome.nextDueAt !== undefined ? { requeueAfter: Math.max(1, outcome.nextDueAt - now) } : {};
  };

  const reportFailure = (node: Node, failed: boolean, start: number, now: number, settings: DrainSettings): void => {
    const name = node.metadata?.name ?? '';
    if (!failed) {
      timeoutRecorded.delete(name);
      options.onDrainTimeout(name, false);
      return;
    }
    if (node.metadata?.deletionTimestamp) {
      log.info({ node: name }, `DeletionTimestamp set for the node ${name}. Re-setting NodeDrainFailed metric`);
      options.onDrainTimeout(name, false);
      return;
    }
    const upgrading =
      node.metadata?.annotations?.[MachineConfigNodeAnnotation.State] === MachineConfigDaemonState.Working;
    log.info(
      { node: name, upgrading },
      `Node drain timed out ${name}.${upgrading ? ' Alerting.' : ' Not alerting: the node is not being updated by the MCO.'}`,
    );
    if (!upgrading) return;
    options.onDrainTimeout(name, true);
    if (timeoutRecorded.get(name) === start) return;
    timeoutRecorded.set(name, start);
    const how = settings.disableDrainStrategies
      ? 'drain strategies are disabled'
      : 'the drain strategies did not empty it';
    options.events.event(
      node,
      'Warning',
      NodeKeeperEventReason.DrainTimeout,
      `Node ${name} has not drained ${formatDuration(now - start)} after it was cordoned at ${formatTime(start)} (nodeDrain.timeOut ${formatDuration(settings.drainTimeoutMs)}; ${how})`,
    );
  };

  const controller = new Controller({
    name: 'nodekeeper',
    ...runtimeOf(options),
    reconcile,
  })
    .for(NodeResource, { predicates: [notControlPlane(), nodeChanged()] })
    .watches(
      PodResource,
      (pod: Pod) => {
        const nodeName = pod.spec?.nodeName;
        if (!nodeName || !options.state().active) return [];
        const node = nodes.get(undefined, nodeName);
        return node && !isControlPlaneNode(node) ? [nodeName] : [];
      },
      { predicates: [podChanged()] },
    );

  return {
    controller,
    wakeAll(): void {
      for (const n of nodes.list()) {
        const name = n.metadata?.name;
        if (name && !isControlPlaneNode(n)) controller.queue.add(name);
      }
    },
  };
}

function notControlPlane(): Predicate<Node> {
  return {
    create: (n) => !isControlPlaneNode(n),
    update: (_o, n) => !isControlPlaneNode(n),
    delete: (n) => !isControlPlaneNode(n),
  };
}

/** Node updates that matter: spec (cordon, taints), labels, annotations (MCO state), deletion. Heartbeats do not. */
function nodeChanged(): Predicate<Node> {
  return {
    update: (a, b) =>
      !jsonEqual((a.spec ?? {}) as JsonValue, (b.spec ?? {}) as JsonValue) ||
      !jsonEqual(a.metadata?.labels ?? {}, b.metadata?.labels ?? {}) ||
      !jsonEqual(a.metadata?.annotations ?? {}, b.metadata?.annotations ?? {}) ||
      a.metadata?.deletionTimestamp !== b.metadata?.deletionTimestamp,
  };
}

/** Pod updates that matter to the drain: binding, labels (PDB membership), finalizers, deletion. */
function podChanged(): Predicate<Pod> {
  return {
    update: (a, b) =>
      a.spec?.nodeName !== b.spec?.nodeName ||
      a.metadata?.deletionTimestamp !== b.metadata?.deletionTimestamp ||
      !jsonEqual(a.metadata?.labels ?? {}, b.metadata?.labels ?? {}) ||
      !jsonEqual(a.metadata?.finalizers ?? [], b.metadata?.finalizers ?? []),
  };
}
