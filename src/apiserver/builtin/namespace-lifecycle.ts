/**
 * Namespace lifecycle, as kube-controller-manager's namespace controller
 * (pkg/controller/namespace/deletion) and the NamespaceLifecycle admission plugin do it:
 *  - a Namespace with a deletionTimestamp has every namespaced object deleted (Background), its
 *    status conditions kept current with kube's exact types, reasons and messages, and, once
 *    nothing remains, the `kubernetes` entry removed from spec.finalizers through the
 *    `finalize` subresource (the store then removes the namespace);
 *  - {@link admitNamespace} refuses creates in a missing or terminating namespace.
 * It is event-driven: any change to an object in a terminating namespace re-syncs it, and kube's
 * estimate-based requeue (graceful pod termination, finalizers) is kept as a clock timer.
 */
import type { Logger } from '../../lib/log.js';
import { formatTime } from '../../lib/clock.js';
import { cloneJson, isJsonObject, type JsonObject } from '../../lib/json.js';
import { apiErrors } from '../status.js';
import type { KubeObject, ResourceType, Store, StoreEvent } from '../types.js';
import { StoreDrivenQueue, type BuiltinControllerOptions, type DeferredQueue } from './deferred-queue.js';
import { finalizersOf, isApiError, metaString } from './garbage-collector.js';

/** The spec.finalizers token this controller owns. */
export const FINALIZER_KUBERNETES = 'kubernetes';

/** Namespace condition types maintained during deletion, in the order kube adds them. */
const CONDITION_TYPES = [
  'NamespaceDeletionDiscoveryFailure',
  'NamespaceDeletionGroupVersionParsingFailure',
  'NamespaceDeletionContentFailure',
  'NamespaceContentRemaining',
  'NamespaceFinalizersRemaining',
] as const;
type ConditionType = (typeof CONDITION_TYPES)[number];

const OK_CONDITION: Record<ConditionType, { reason: string; message: string }> = {
  NamespaceDeletionDiscoveryFailure: {
    reason: 'ResourcesDiscovered',
    message: 'All resources successfully discovered',
  },
  NamespaceDeletionGroupVersionParsingFailure: {
    reason: 'ParsedGroupVersions',
    message: 'All legacy kube types successfully parsed',
  },
  NamespaceDeletionContentFailure: {
    reason: 'ContentDeleted',
    message: 'All content successfully deleted, may be waiting on finalization',
  },
  NamespaceContentRemaining: { reason: 'ContentRemoved', message: 'All content successfully removed' },
  NamespaceFinalizersRemaining: {
    reason: 'ContentHasNoFinalizers',
    message: 'All content-preserving finalizers finished',
  },
};

/** kube's default wait for finalizers found on remaining content. */
const FINALIZER_ESTIMATE_SECONDS = 15;
const CONFLICT_RETRIES = 10;

/** What deleting the content of a namespace found. */
export interface ContentDeletion {
  /** Seconds kube would wait before looking again (0: no reason to wait). */
  estimateSeconds: number;
  /** `resource.group` → objects remaining. */
  remaining: Map<string, number>;
  /** finalizer → objects remaining that carry it. */
  finalizers: Map<string, number>;
  /** Deletion errors, as messages. */
  errors: string[];
}

/** A namespace condition failing (status True) or absent (the "ok" variant is used). */
export interface FailingCondition {
  type: ConditionType;
  reason: string;
  message: string;
}

/**
 * The failing conditions for a content deletion result, worded as kube's
 * namespaceConditionUpdater words them.
 */
export function failingConditions(result: ContentDeletion): FailingCondition[] {
  const out: FailingCondition[] = [];
  if (result.errors.length > 0) {
    const msgs = [...result.errors].sort();
    out.push({
      type: 'NamespaceDeletionContentFailure',
      reason: 'ContentDeletionFailed',
      message: `Failed to delete all resource types, ${msgs.length} remaining: ${msgs.join(', ')}`,
    });
  }
  const remaining = [...result.remaining]
    .filter(([, n]) => n > 0)
    .map(([gr, n]) => `${gr} has ${n} resource instances`);
  if (result.remaining.size > 0) {
    out.push({
      type: 'NamespaceContentRemaining',
      reason: 'SomeResourcesRemain',
      message: `Some resources are remaining: ${remaining.sort().join(', ')}`,
    });
  }
  const finalizers = [...result.finalizers].filter(([, n]) => n > 0).map(([f, n]) => `${f} in ${n} resource instances`);
  if (result.finalizers.size > 0) {
    out.push({
      type: 'NamespaceFinalizersRemaining',
      reason: 'SomeFinalizersRemain',
      message: `Some content in the namespace has finalizers remaining: ${finalizers.sort().join(', ')}`,
    });
  }
  return out;
}

/**
 * Merges the deletion conditions into status.conditions as kube's updateConditions does: each
 * maintained type is present, failing ones True, others False with their "ok" reason;
 * lastTransitionTime moves only when the status flips. Returns the new list, or undefined when
 * nothing changed.
 */
export function mergeNamespaceConditions(
  existing: JsonObject[],
  failing: FailingCondition[],
  now: number,
): JsonObject[] | undefined {
  const conditions = existing.map((c) => ({ ...c }));
  let changed = false;
  for (const type of CONDITION_TYPES) {
    const fail = failing.find((f) => f.type === type);
    const want = fail
      ? { status: 'True', reason: fail.reason, message: fail.message }
      : { status: 'False', ...OK_CONDITION[type] };
    const old = conditions.find((c) => c.type === type);
    if (!old) {
      conditions.push({
        type,
        status: want.status,
        lastTransitionTime: formatTime(now),
        reason: want.reason,
        message: want.message,
      });
      changed = true;
    } else if (old.status !== want.status || old.reason !== want.reason || old.message !== want.message) {
      if (old.status !== want.status) old.lastTransitionTime = formatTime(now);
      old.status = want.status;
      old.reason = want.reason;
      old.message = want.message;
      changed = true;
    }
  }
  return changed ? conditions : undefined;
}

/**
 * The NamespaceLifecycle admission check for a create of a namespaced object: 404 when the
 * namespace does not exist, 403 (cause NamespaceTerminating) when it is being terminated.
 * `object` is the object being created; its name (or generateName) is the name in the 403, as
 * kube's admission.NewForbidden takes it. Cluster-scoped kinds are always admitted.
 */
export function admitNamespace(store: Store, rt: ResourceType, namespace: string, object?: KubeObject): void {
  if (!rt.namespaced) return;
  // Access reviews never leak whether a namespace exists.
  if (rt.group === 'authorization.k8s.io' && rt.resource === 'localsubjectaccessreviews') return;
  const nsType = store.resourceType('', 'namespaces');
  const ns = nsType ? store.get(nsType, '', namespace) : undefined;
  if (!ns) throw apiErrors.notFound({ group: '', resource: 'namespaces' }, namespace);
  const phase = isJsonObject(ns.status) ? ns.status.phase : undefined;
  if (phase !== 'Terminating' && ns.metadata.deletionTimestamp === undefined) return;
  let name = 'Unknown';
  if (object) name = metaString(object, 'name') || metaString(object, 'generateName') || name;
  throw apiErrors.forbidden(
    { group: rt.group, resource: rt.resource },
    name,
    `unable to create new content in namespace ${namespace} because it is being terminated`,
    [
      {
        reason: 'NamespaceTerminating',
        message: `namespace ${namespace} is being terminated`,
        field: 'metadata.namespace',
      },
    ],
  );
}

function specFinalizers(ns: KubeObject): string[] {
  const f = isJsonObject(ns.spec) ? ns.spec.finalizers : undefined;
  return Array.isArray(f) ? f.filter((x): x is string => typeof x === 'string') : [];
}

/** Deletes namespaces' content and finalizes them; see the module comment. */
export class NamespaceController {
  readonly #store: Store;
  readonly #clock: BuiltinControllerOptions['clock'];
  readonly #log: Logger;
  readonly #queue: DeferredQueue<string>;
  /** Names of namespaces with a deletionTimestamp. */
  readonly #terminating = new Set<string>();
  readonly #runner: StoreDrivenQueue<string>;

  constructor(options: BuiltinControllerOptions) {
    this.#store = options.store;
    this.#clock = options.clock;
    this.#runner = new StoreDrivenQueue<string>(options, 'namespace', (name) => this.#sync(name));
    this.#log = this.#runner.log;
    this.#queue = this.#runner.queue;
  }

  /** Subscribes to the store and queues the work its current contents need. */
  start(): void {
    if (this.#runner.running) return;
    this.#terminating.clear();
    this.#runner.start((e) => this.#onEvent(e));
    const nsType = this.#nsType();
    for (const ns of nsType ? this.#store.list(nsType) : []) {
      if (ns.metadata.deletionTimestamp === undefined) continue;
      const name = metaString(ns, 'name');
      this.#terminating.add(name);
      this.#queue.add(name, name);
    }
  }

  /** Unsubscribes and drops queued and delayed work. */
  stop(): void {
    this.#runner.stop();
  }

  /** Resolves when no work is queued. */
  idle(): Promise<void> {
    return this.#runner.idle();
  }

  #nsType(): ResourceType | undefined {
    return this.#store.resourceType('', 'namespaces');
  }

  #onEvent(storeEvent: StoreEvent): void {
    const rt = storeEvent.resourceType;
    if (rt.group === '' && rt.resource === 'namespaces') {
      const name = metaString(storeEvent.object, 'name');
      if (storeEvent.type === 'DELETED') this.#terminating.delete(name);
      else if (storeEvent.object.metadata.deletionTimestamp !== undefined) {
        this.#terminating.add(name);
        this.#queue.add(name, name);
      }
      return;
    }
    if (!rt.namespaced) return;
    const ns = metaString(storeEvent.object, 'namespace');
    if (this.#terminating.has(ns)) this.#queue.add(ns, ns);
  }

  #sync(name: string): void {
    const nsType = this.#nsType();
    if (!nsType) return;
    let ns = this.#store.get(nsType, '', name);
    if (!ns || ns.metadata.deletionTimestamp === undefined) return;
    ns = this.#ensureTerminating(nsType, ns);
    if (!ns || specFinalizers(ns).length === 0) return;
    const result = this.#deleteAllContent(name, Date.parse(metaString(ns, 'deletionTimestamp')));
    this.#updateConditions(nsType, name, failingConditions(result));
    if (result.errors.length > 0) throw new Error(result.errors.join('; '));
    if (result.estimateSeconds > 0) {
      // As kube: look again after half the estimate (events usually bring us back sooner).
      this.#queue.addAfter(name, name, (Math.floor(result.estimateSeconds / 2) + 1) * 1000);
      return;
    }
    if (result.remaining.size > 0) return;
    this.#finalize(nsType, name);
  }

  #ensureTerminating(nsType: ResourceType, ns: KubeObject): KubeObject | undefined {
    const status = isJsonObject(ns.status) ? ns.status : {};
    if (status.phase === 'Terminating') return ns;
    const next = cloneJson(ns);
    next.status = { ...status, phase: 'Terminating' };
    try {
      return this.#store.update(nsType, next, { subresource: 'status' });
    } catch (err) {
      if (isApiError(err, 404)) return undefined;
      throw err;
    }
  }

  /** kube's deleteAllContent over every namespaced type the store serves. */
  #deleteAllContent(ns: string, deletedAt: number): ContentDeletion {
    const result: ContentDeletion = { estimateSeconds: 0, remaining: new Map(), finalizers: new Map(), errors: [] };
    for (const rt of this.#store.resourceTypes()) {
      if (!rt.namespaced) continue;
      const gr = `${rt.resource}.${rt.group}`;
      let estimate = rt.group === '' && rt.resource === 'pods' ? this.#podGraceEstimate(ns) : 0;
      if (estimate > 0 && this.#clock.now() - deletedAt >= estimate * 1000) estimate = 0;
      let failed = false;
      for (const obj of this.#store.list(rt, ns)) {
        if (obj.metadata.deletionTimestamp !== undefined) continue;
        try {
          this.#store.delete(rt, ns, metaString(obj, 'name'), { propagationPolicy: 'Background' });
        } catch (err) {
          if (isApiError(err, 404) || isApiError(err, 405)) continue;
          result.errors.push(err instanceof Error ? err.message : String(err));
          failed = true;
          break;
        }
      }
      result.estimateSeconds = Math.max(result.estimateSeconds, estimate);
      if (failed) continue;
      const left = this.#store.list(rt, ns);
      if (left.length === 0) continue;
      result.remaining.set(gr, left.length);
      let withFinalizers = false;
      for (const obj of left) {
        for (const f of finalizersOf(obj)) {
          result.finalizers.set(f, (result.finalizers.get(f) ?? 0) + 1);
          withFinalizers = true;
        }
      }
      if (estimate === 0 && withFinalizers)
        result.estimateSeconds = Math.max(result.estimateSeconds, FINALIZER_ESTIMATE_SECONDS);
      else if (estimate === 0)
        result.errors.push(
          `unexpected items still remain in namespace: ${ns} for gvr: ${rt.group}/${rt.version}, Resource=${rt.resource}`,
        );
    }
    return result;
  }

  /** The longest termination grace period of the namespace's non-terminal pods. */
  #podGraceEstimate(ns: string): number {
    const pods = this.#store.resourceType('', 'pods');
    let estimate = 0;
    for (const pod of pods ? this.#store.list(pods, ns) : []) {
      const phase = isJsonObject(pod.status) ? pod.status.phase : undefined;
      if (phase === 'Succeeded' || phase === 'Failed') continue;
      const grace = isJsonObject(pod.spec) ? pod.spec.terminationGracePeriodSeconds : undefined;
      if (typeof grace === 'number' && grace > estimate) estimate = grace;
    }
    return estimate;
  }

  #updateConditions(nsType: ResourceType, name: string, failing: FailingCondition[]): void {
    for (let attempt = 0; ; attempt++) {
      const ns = this.#store.get(nsType, '', name);
      if (!ns) return;
      const status = isJsonObject(ns.status) ? ns.status : {};
      const existing = Array.isArray(status.conditions) ? status.conditions.filter(isJsonObject) : [];
      const merged = mergeNamespaceConditions(existing, failing, this.#clock.now());
      if (!merged) return;
      const next = cloneJson(ns);
      next.status = { ...status, conditions: merged };
      try {
        this.#store.update(nsType, next, { subresource: 'status' });
        return;
      } catch (err) {
        if (isApiError(err, 404)) return;
        if (!isApiError(err, 409) || attempt >= CONFLICT_RETRIES) {
          // kube only logs a failed condition update.
          this.#log.warn({ err, namespace: name }, "couldn't update status condition for namespace");
          return;
        }
      }
    }
  }

  #finalize(nsType: ResourceType, name: string): void {
    for (let attempt = 0; ; attempt++) {
      const ns = this.#store.get(nsType, '', name);
      if (!ns) return;
      const finalizers = specFinalizers(ns);
      if (!finalizers.includes(FINALIZER_KUBERNETES)) return;
      const next = cloneJson(ns);
      const spec = isJsonObject(next.spec) ? next.spec : {};
      spec.finalizers = [...new Set(finalizers.filter((f) => f !== FINALIZER_KUBERNETES))].sort();
      next.spec = spec;
      try {
        this.#store.update(nsType, next, { subresource: 'finalize' });
        this.#log.debug({ namespace: name }, 'namespace content removed; finalized');
        return;
      } catch (err) {
        if (isApiError(err, 404)) return;
        if (!isApiError(err, 409) || attempt >= CONFLICT_RETRIES) throw err;
      }
    }
  }
}
