/**
 * APPUiO's NodeForceDrain controller (docs/design/scheduled-flow.md#nodeforcedrain,
 * docs/design/scheduled-flow.md#force-drain): for the nodes a NodeForceDrain selects, it notices
 * drains started by the machine-config daemon (`desiredDrain` ≠ `lastAppliedDrain`), records when
 * it first saw each one, and once a node has drained for `nodeDrainGracePeriod` deletes the pods
 * left on it (a plain DELETE, so PodDisruptionBudgets do not hold it back) and,
 * `podForceDeleteGracePeriod` after a pod's deletion was requested, deletes it again with a 1 s
 * grace period. Each delete is a Warning Event on the Node and a counter.
 *
 * It watches NodeForceDrains (spec and metadata changes; its own status writes are not worth a
 * pass) and Nodes (each to the NodeForceDrains whose nodeSelector selects it). Pods are listed
 * uncached per node (field selector `spec.nodeName`), as APPUiO does, so the operator never
 * caches every pod of the cluster; while a node drains the controller looks again at least every
 * `drainReconcileInterval`. Pure decisions live in `scheduled/drain/force-drain.ts`.
 *
 * Differences from APPUiO, deliberate: status writes do not end the pass (the pass goes on with
 * what it wrote, since its own status writes do not trigger a reconcile); deletes carry a UID
 * precondition, so a pod re-created under the same name (a StatefulSet's) is not deleted by a
 * decision about its predecessor; an invalid object (bad duration, selector or jq program) gets
 * a Warning Event and a log line once per distinct problem and deletes nothing, where APPUiO
 * retried the error with backoff; entries of nodes that stopped draining leave the status
 * (see force-drain.ts).
 */
import type { Node, Pod } from 'kubernetes-types/core/v1.js';
import { DaemonSetResource, NamespaceResource, NodeResource, PodResource } from '../../api/builtin.js';
import {
  FORCE_DELETE_GRACE_PERIOD_SECONDS,
  NodeForceDrainEventReason,
  NodeForceDrainResource,
} from '../../api/managedupgrade.appuio.io/v1beta1/node-force-drain-contract.js';
import type { NodeForceDrain } from '../../api/managedupgrade.appuio.io/v1beta1/node-force-drain.js';
import type { PodJqSelector } from '../../integrations/jq-selector.js';
import { Controller, type Predicate, type ReconcileResult } from '../../kube/controller.js';
import type { EventRecorder } from '../../kube/event-recorder.js';
import { objectKey, splitKey } from '../../kube/indexer.js';
import { isConflict, isNotFound } from '../../kube/status-error.js';
import { updateStatusWithRetry } from '../../kube/status-writer.js';
import { errorMessage } from '../../lib/errors.js';
import { jsonEqual, type JsonValue } from '../../lib/json.js';
import type { NodeForceDrainMetrics, NodeForceDrainPodLabels } from '../metrics/node-force-drain-metrics.js';
import {
  daemonSetOf,
  drainingNodes,
  isStaticPod,
  observeNodeDrains,
  parseForceDrainSpec,
  podAction,
  PodExclusion,
  requeueAfter,
  selects,
  timeUntilDrain,
  type DrainingNode,
  type ForceDrainSettings,
  type PodExclusionReason,
} from '../drain/force-drain.js';
import { MachineConfigNodeAnnotation } from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { runtimeOf, type ControllerDeps } from '../../engine/controller-deps.js';

/** APPUiO's `--node-drain-reconcile-interval` default. */
export const DEFAULT_DRAIN_RECONCILE_INTERVAL_MS = 3 * 60_000;

/** Warning Event reasons this controller records on NodeForceDrains (ours; APPUiO records none there). */
export const NodeForceDrainProblemReason = {
  /** The spec cannot be acted on: a duration, a selector or the jq program is invalid. */
  Invalid: 'InvalidNodeForceDrain',
  /** The jq program failed (or timed out) on some pods this pass; they were left alone. */
  PodJQSelectorFailed: 'PodJQSelectorFailed',
} as const;

/** The message of the {@link NodeForceDrainProblemReason.Invalid} Event of `namespace/name`. */
export function invalidForceDrainMessage(key: string, problems: readonly string[]): string {
  return `NodeForceDrain ${key} is invalid and deletes nothing: ${problems.join('; ')}`;
}

/** The problem of a `spec.podJQSelector` that jq does not compile. */
export function podJqSelectorProblem(compileError: string): string {
  return `spec.podJQSelector: ${compileError}`;
}

/** What the controller needs. */
export interface NodeForceDrainControllerOptions extends ControllerDeps {
  events: EventRecorder;
  /** The namespace whose NodeForceDrains are watched; undefined or `""`: all. */
  namespace?: string;
  /** Longest interval between passes while a selected node drains, in ms (default 3 min); 0: no cap. */
  drainReconcileInterval?: number;
  /** Evaluates `podJQSelector` (a {@link JqSelector} in production). */
  jq: PodJqSelector;
  metrics?: NodeForceDrainMetrics;
}

/** The controller (start it with `controller.start(signal)` or through a Manager). */
export interface NodeForceDrainController {
  controller: Controller;
}

/** The part of a NodeForceDrain worth a pass: everything but status and bookkeeping metadata. */
function withoutStatus(fd: NodeForceDrain): string {
  const { resourceVersion: _rv, managedFields: _mf, ...metadata } = fd.metadata ?? {};
  return JSON.stringify({ ...fd, status: null, metadata });
}

/** Node updates that matter: labels (selection) and the two drain annotations. */
function nodeChanged(): Predicate<Node> {
  const drainState = (node: Node): [string, string] => {
    const a = node.metadata?.annotations ?? {};
    return [a[MachineConfigNodeAnnotation.DesiredDrain] ?? '', a[MachineConfigNodeAnnotation.LastAppliedDrain] ?? ''];
  };
  return {
    update: (a, b) =>
      !jsonEqual(a.metadata?.labels ?? {}, b.metadata?.labels ?? {}) || !jsonEqual(drainState(a), drainState(b)),
  };
}

/** Go's %q for the names in Event messages (Kubernetes names are plain ASCII, where the two agree). */
function q(text: string): string {
  return JSON.stringify(text);
}

/** One pass's findings across nodes. */
interface PassState {
  deletedPods: boolean;
  untilNextForceDeleteMs: number | undefined;
  errors: string[];
  jqErrors: string[];
  namespaces: Map<string, boolean | 'error'>;
  daemonSets: Map<string, boolean | 'error'>;
}

/** Builds the controller. */
export function createNodeForceDrainController(options: NodeForceDrainControllerOptions): NodeForceDrainController {
  const ns = options.namespace === '' ? undefined : options.namespace;
  const log = options.logger.child({ controller: 'nodeforcedrain' });
  const interval = options.drainReconcileInterval ?? DEFAULT_DRAIN_RECONCILE_INTERVAL_MS;
  const fds = options.informers.informerFor(NodeForceDrainResource, { namespace: ns });
  const nodes = options.informers.informerFor(NodeResource);
  /** `key\0reason` → the problem last reported (each distinct text is reported once, until the problem goes away). */
  const reported = new Map<string, string>();

  const report = (key: string, fd: NodeForceDrain, reason: string, message: string): void => {
    if (reported.get(`${key}\u0000${reason}`) === message) return;
    reported.set(`${key}\u0000${reason}`, message);
    log.warn({ nodeforcedrain: key, reason }, message);
    options.events.event(fd, 'Warning', reason, message);
  };
  const resolved = (key: string, reason: string): void => {
    reported.delete(`${key}\u0000${reason}`);
  };

  /** The pod as APPUiO's typed client hands it to gojq: list items carry no apiVersion/kind. */
  const jqInput = (pod: Pod): JsonValue => {
    const { apiVersion: _a, kind: _k, ...rest } = pod;
    return rest as JsonValue;
  };

  const exclusionOf = async (
    pod: Pod,
    forceDrainSettings: ForceDrainSettings,
    pass: PassState,
    signal: AbortSignal,
  ): Promise<PodExclusionReason | undefined> => {
    const podNs = pod.metadata?.namespace ?? '';
    const podName = pod.metadata?.name ?? '';
    if (isStaticPod(pod)) return PodExclusion.Static;
    if (forceDrainSettings.namespaceSelector) {
      let selected = pass.namespaces.get(podNs);
      if (selected === undefined) {
        try {
          const namespace = await options.client.get(NamespaceResource, undefined, podNs, { signal });
          selected = selects(forceDrainSettings.namespaceSelector, namespace.metadata?.labels);
        } catch (err) {
          log.error({ namespace: podNs, pod: podName, err: errorMessage(err) }, 'Failed to get namespace for pod');
          selected = 'error';
        }
        pass.namespaces.set(podNs, selected);
      }
      if (selected === 'error') return PodExclusion.NamespaceError;
      if (!selected) return PodExclusion.NamespaceMismatch;
    }
    const ds = daemonSetOf(pod);
    if (ds !== undefined) {
      const dsKey = `${podNs}/${ds}`;
      let exists = pass.daemonSets.get(dsKey);
      if (exists === undefined) {
        try {
          // An orphaned DaemonSet pod (its DaemonSet is gone) is a candidate, as in kubectl drain.
          exists = (await options.client.getIfExists(DaemonSetResource, podNs, ds, { signal })) !== undefined;
        } catch (err) {
          log.error(
            { daemonSet: dsKey, pod: podName, err: errorMessage(err) },
            'Failed to check if pod is controlled by an existing DaemonSet',
          );
          exists = 'error';
        }
        pass.daemonSets.set(dsKey, exists);
      }
      if (exists === 'error') return PodExclusion.DaemonSetError;
      if (exists) return PodExclusion.DaemonSet;
    }
    if (forceDrainSettings.podJQSelector !== undefined) {
      const r = await options.jq.matches(forceDrainSettings.podJQSelector, jqInput(pod));
      if (r.error !== undefined) {
        pass.jqErrors.push(`${podNs}/${podName}: ${r.error}`);
        return PodExclusion.JqError;
      }
      if (!r.matched) return PodExclusion.JqMismatch;
    }
    return undefined;
  };

  /** Deletes (plain or forced) one candidate pod; the Event comes first, as APPUiO's. */
  const deletePod = async (
    fd: NodeForceDrain,
    node: Node,
    pod: Pod,
    force: boolean,
    pass: PassState,
    signal: AbortSignal,
  ): Promise<void> => {
    const podNs = pod.metadata?.namespace ?? '';
    const podName = pod.metadata?.name ?? '';
    const nodeName = node.metadata?.name ?? '';
    const labels: NodeForceDrainPodLabels = {
      node_force_drain: fd.metadata?.name ?? '',
      node: nodeName,
      namespace: podNs,
      pod_name: podName,
      pod_uid: pod.metadata?.uid ?? '',
    };
    const logFields = { nodeforcedrain: objectKey(fd), node: nodeName, pod: podName, podNamespace: podNs };
    if (force) {
      log.info(logFields, 'Forcing pod termination');
      options.events.event(
        node,
        'Warning',
        NodeForceDrainEventReason.ForcingPodTermination,
        `Forcing pod termination: Deleting pod ${q(podName)} in namespace ${q(podNs)} with grace period of ${FORCE_DELETE_GRACE_PERIOD_SECONDS}.`,
      );
    } else {
      log.info(logFields, 'Deleting pod');
      options.events.event(
        node,
        'Warning',
        NodeForceDrainEventReason.DeletePod,
        `Deleting pod ${q(podName)} in namespace ${q(podNs)}`,
      );
      pass.deletedPods = true;
    }
    try {
      await options.client.delete(PodResource, podNs, podName, {
        ...(pod.metadata?.uid ? { preconditions: { uid: pod.metadata.uid } } : {}),
        ...(force ? { gracePeriodSeconds: FORCE_DELETE_GRACE_PERIOD_SECONDS } : {}),
        signal,
      });
    } catch (err) {
      // Gone already, or replaced by a new pod of the same name (UID precondition): nothing to do.
      if (isNotFound(err) || isConflict(err)) return;
      pass.errors.push(`failed to delete pod ${podNs}/${podName} on node ${nodeName}: ${errorMessage(err)}`);
      return;
    }
    if (force) options.metrics?.podTerminated(labels);
    else options.metrics?.podDeleted(labels);
  };

  const drainNode = async (
    fd: NodeForceDrain,
    nodeName: string,
    forceDrainSettings: ForceDrainSettings,
    now: number,
    pass: PassState,
    signal: AbortSignal,
  ): Promise<void> => {
    const node = nodes.get(undefined, nodeName);
    if (!node) return;
    let pods: Pod[];
    try {
      pods = (await options.client.list(PodResource, { fieldSelector: `spec.nodeName=${nodeName}`, signal })).items;
    } catch (err) {
      pass.errors.push(`failed to list pods on node ${nodeName}: ${errorMessage(err)}`);
      return;
    }
    const ignored: Array<{ pod: string; reason: PodExclusionReason }> = [];
    for (const pod of pods) {
      const action = podAction(pod, forceDrainSettings, now);
      if (action.kind === 'none') continue;
      const exclusion = await exclusionOf(pod, forceDrainSettings, pass, signal);
      if (exclusion !== undefined) {
        ignored.push({ pod: `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`, reason: exclusion });
        continue;
      }
      if (action.kind === 'wait') {
        if (pass.untilNextForceDeleteMs === undefined || action.inMs < pass.untilNextForceDeleteMs)
          pass.untilNextForceDeleteMs = action.inMs;
        continue;
      }
      await deletePod(fd, node, pod, action.kind === 'force', pass, signal);
    }
    if (ignored.length > 0) log.debug({ nodeforcedrain: objectKey(fd), node: nodeName, ignored }, 'Ignoring pods');
  };

  const reconcile = async (key: string, signal: AbortSignal): Promise<ReconcileResult> => {
    const target = splitKey(key);
    let fd = fds.get(target.namespace || undefined, target.name);
    if (!fd || fd.metadata?.deletionTimestamp !== undefined) {
      for (const reason of Object.values(NodeForceDrainProblemReason)) resolved(key, reason);
      return {};
    }
    const parsed = parseForceDrainSpec(fd.spec);
    if (!parsed.ok) {
      report(key, fd, NodeForceDrainProblemReason.Invalid, invalidForceDrainMessage(key, parsed.problems));
      return {};
    }
    const s = parsed.settings;
    if (s.podJQSelector !== undefined) {
      const compiled = await options.jq.compile(s.podJQSelector);
      if (!compiled.ok && !compiled.compileError) throw new Error(`cannot check spec.podJQSelector: ${compiled.error}`);
      if (!compiled.ok) {
        report(
          key,
          fd,
          NodeForceDrainProblemReason.Invalid,
          invalidForceDrainMessage(key, [podJqSelectorProblem(compiled.error)]),
        );
        return {};
      }
    }
    resolved(key, NodeForceDrainProblemReason.Invalid);

    const now = options.clock.now();
    const draining: DrainingNode[] = drainingNodes(nodes.list(), s.nodeSelector);
    if (draining.length > 0)
      log.info({ nodeforcedrain: key, nodes: draining.map((n) => n.name) }, 'Found draining nodes');
    const observed = observeNodeDrains(fd.status?.lastObservedNodeDrain, draining, now);
    if (observed.changed) {
      try {
        fd = await updateStatusWithRetry(
          options.client,
          NodeForceDrainResource,
          key,
          (current) => {
            const next = observeNodeDrains(current.status?.lastObservedNodeDrain, draining, now);
            if (!next.changed) return undefined;
            const { lastObservedNodeDrain: _old, ...rest } = current.status ?? {};
            return {
              ...current,
              status: next.observed.length > 0 ? { ...rest, lastObservedNodeDrain: next.observed } : rest,
            };
          },
          { clock: options.clock, signal },
        );
      } catch (err) {
        if (isNotFound(err)) return {};
        throw err;
      }
      log.info(
        { nodeforcedrain: key, lastObservedNodeDrain: fd.status?.lastObservedNodeDrain ?? [] },
        'Observed new node drain timestamps',
      );
    }

    const entries = new Map((fd.status?.lastObservedNodeDrain ?? []).map((e) => [e.nodeName, e]));
    let untilNextDrainMs: number | undefined;
    const pastGrace: string[] = [];
    for (const n of draining) {
      const entry = entries.get(n.name);
      if (!entry) continue;
      const until = timeUntilDrain(entry, s.nodeDrainGracePeriodMs, now);
      if (until > 0) {
        if (untilNextDrainMs === undefined || until < untilNextDrainMs) untilNextDrainMs = until;
        log.debug({ nodeforcedrain: key, node: n.name, timeUntilDrainMs: until }, 'Node is still in grace period');
      } else {
        pastGrace.push(n.name);
      }
    }

    const pass: PassState = {
      deletedPods: false,
      untilNextForceDeleteMs: undefined,
      errors: [],
      jqErrors: [],
      namespaces: new Map(),
      daemonSets: new Map(),
    };
    if (s.nodeDrainGracePeriodMs !== 0 || s.podForceDeleteGracePeriodMs !== 0) {
      for (const nodeName of pastGrace) await drainNode(fd, nodeName, s, now, pass, signal);
    }
    if (pass.jqErrors.length > 0) {
      const shown = pass.jqErrors.slice(0, 3).join('; ');
      const more = pass.jqErrors.length > 3 ? ` (and ${pass.jqErrors.length - 3} more)` : '';
      report(
        key,
        fd,
        NodeForceDrainProblemReason.PodJQSelectorFailed,
        `spec.podJQSelector failed on ${pass.jqErrors.length} pod(s), which were left alone: ${shown}${more}`,
      );
    } else {
      resolved(key, NodeForceDrainProblemReason.PodJQSelectorFailed);
    }
    if (pass.errors.length > 0) throw new Error(pass.errors.join('; '));
    const after = requeueAfter({
      untilNextDrainMs,
      deletedPods: pass.deletedPods,
      podForceDeleteGracePeriodMs: s.podForceDeleteGracePeriodMs,
      untilNextForceDeleteMs: pass.untilNextForceDeleteMs,
      draining: draining.length > 0,
      drainReconcileIntervalMs: interval,
    });
    return after === undefined ? {} : { requeueAfter: after };
  };

  const controller = new Controller({
    name: 'nodeforcedrain',
    ...runtimeOf(options),
    reconcile,
  })
    .for(NodeForceDrainResource, {
      namespace: ns,
      predicates: [{ update: (a, b) => withoutStatus(a) !== withoutStatus(b) }],
    })
    .watches(
      NodeResource,
      (node: Node) =>
        fds
          .list()
          .filter((fd) => selects(fd.spec?.nodeSelector ?? {}, node.metadata?.labels))
          .map((fd) => objectKey(fd)),
      {
        predicates: [nodeChanged()],
      },
    );
  return { controller };
}
