/**
 * The disruption controller of kube-controller-manager (pkg/controller/disruption), in process:
 * keeps every policy/v1 PodDisruptionBudget's status current from the pods its selector matches
 * (currentHealthy, desiredHealthy, expectedPods, disruptionsAllowed, observedGeneration,
 * disruptedPods with their 2-minute expiry, and the DisruptionAllowed condition).
 *
 * Deliberate difference (docs/compatibility.md): when the scale of a pod's controller cannot be
 * read (a kind without a scale subresource such as DaemonSet, a kind not served, a missing
 * controller), kube fails the sync (SyncFailed, no disruptions); we count that controller's
 * selected pods instead.
 */
import type { Logger } from '../../lib/log.js';
import { formatTime } from '../../lib/clock.js';
import { cloneJson, isJsonObject, jsonEqual, type JsonObject, type JsonValue } from '../../lib/json.js';
import type { KubeObject, ResourceType, Store, StoreEvent } from '../types.js';
import { StoreDrivenQueue, type BuiltinControllerOptions, type DeferredQueue } from './deferred-queue.js';
import {
  isApiError,
  metaString,
  ownerReferencesOf,
  resourceTypeForKind,
  type OwnerReference,
} from './garbage-collector.js';

/** How long an evicted pod may take to get its deletionTimestamp before the PDB stops waiting. */
export const DELETION_TIMEOUT_MS = 2 * 60 * 1000;

export type LabelMatcher = (labels: Record<string, string>) => boolean;

/** metadata.labels as a plain string map. */
export function labelsOf(obj: KubeObject): Record<string, string> {
  const l = obj.metadata.labels;
  const out: Record<string, string> = {};
  if (isJsonObject(l)) for (const [k, v] of Object.entries(l)) if (typeof v === 'string') out[k] = v;
  return out;
}

/**
 * metav1.LabelSelectorAsSelector: a missing (null) selector matches nothing, an empty one
 * everything. Throws on an invalid selector, with apimachinery's wording where it has one.
 */
export function labelSelectorMatcher(selector: JsonValue | undefined): LabelMatcher {
  if (selector === undefined || selector === null) return () => false;
  if (!isJsonObject(selector)) throw new Error('invalid label selector');
  const tests: LabelMatcher[] = [];
  const ml = selector.matchLabels;
  if (isJsonObject(ml)) {
    for (const [k, v] of Object.entries(ml)) {
      if (typeof v !== 'string') throw new Error(`invalid label value for key ${JSON.stringify(k)}`);
      tests.push((labels) => labels[k] === v);
    }
  }
  const exprs = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];
  for (const e of exprs) {
    if (!isJsonObject(e) || typeof e.key !== 'string') throw new Error('invalid label selector requirement');
    const key = e.key;
    const values = Array.isArray(e.values) ? e.values.filter((v): v is string => typeof v === 'string') : [];
    const op = typeof e.operator === 'string' ? e.operator : '';
    switch (op) {
      case 'In':
      case 'NotIn': {
        if (values.length === 0) throw new Error("for 'in', 'notin' operators, values set can't be empty");
        const set = new Set(values);
        tests.push(
          op === 'In'
            ? (l) => l[key] !== undefined && set.has(l[key])
            : (l) => l[key] === undefined || !set.has(l[key]),
        );
        break;
      }
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) throw new Error('values set must be empty for exists and does not exist');
        tests.push(op === 'Exists' ? (l) => key in l : (l) => !(key in l));
        break;
      default:
        throw new Error(`${JSON.stringify(op)} is not a valid label selector operator`);
    }
  }
  return (labels) => tests.every((t) => t(labels));
}

/** intstr.GetScaledValueFromIntOrPercent. */
export function scaledValue(value: JsonValue | undefined, total: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    if (!value.endsWith('%'))
      throw new Error('invalid value for IntOrString: invalid type: string is not a percentage');
    const n = Number(value.slice(0, -1));
    if (!Number.isInteger(n) || value.length === 1)
      throw new Error(`invalid value for IntOrString: invalid value ${JSON.stringify(value)}`);
    return roundUp ? Math.ceil((n * total) / 100) : Math.floor((n * total) / 100);
  }
  throw new Error('invalid value for IntOrString: invalid type: neither int nor percentage');
}

/** podutil.IsPodReady: the Ready condition is True. */
export function isPodReady(pod: KubeObject): boolean {
  const conds = isJsonObject(pod.status) && Array.isArray(pod.status.conditions) ? pod.status.conditions : [];
  return conds.some((c) => isJsonObject(c) && c.type === 'Ready' && c.status === 'True');
}

/** The owner reference marked controller: true. */
export function controllerOf(obj: KubeObject): OwnerReference | undefined {
  return ownerReferencesOf(obj).find((r) => r.controller === true);
}

/** The scale of a pod's controller: its uid (the Deployment's, for a ReplicaSet it owns) and replicas. */
export interface ControllerScale {
  uid: string;
  scale: number;
}

/** Finds a controller's scale; undefined when it cannot be read. */
export type ScaleFinder = (ref: OwnerReference, namespace: string) => ControllerScale | undefined;

/** expectedPods and desiredHealthy, as kube's getExpectedPodCount computes them. */
export function expectedPodCount(
  spec: JsonObject,
  pods: KubeObject[],
  findScale: ScaleFinder,
): { expectedCount: number; desiredHealthy: number } {
  const { minAvailable, maxUnavailable } = spec;
  if (maxUnavailable !== undefined && maxUnavailable !== null) {
    const expectedCount = expectedScale(pods, findScale);
    const desiredHealthy = Math.max(0, expectedCount - scaledValue(maxUnavailable, expectedCount, true));
    return { expectedCount, desiredHealthy };
  }
  if (typeof minAvailable === 'number') return { expectedCount: pods.length, desiredHealthy: minAvailable };
  if (typeof minAvailable === 'string') {
    const expectedCount = expectedScale(pods, findScale);
    return { expectedCount, desiredHealthy: scaledValue(minAvailable, expectedCount, true) };
  }
  return { expectedCount: 0, desiredHealthy: 0 };
}

function expectedScale(pods: KubeObject[], findScale: ScaleFinder): number {
  const scales = new Map<string, number>();
  const known = new Set<string>();
  const counted = new Map<string, number>();
  for (const pod of pods) {
    const ref = controllerOf(pod);
    if (!ref) continue; // unmanaged pods do not count (kube emits an UnmanagedPods warning)
    if (known.has(ref.uid)) continue;
    const found = counted.has(ref.uid) ? undefined : findScale(ref, metaString(pod, 'namespace'));
    if (found) {
      scales.set(found.uid, found.scale);
      known.add(ref.uid);
    } else {
      counted.set(ref.uid, (counted.get(ref.uid) ?? 0) + 1);
    }
  }
  let total = 0;
  for (const n of scales.values()) total += n;
  for (const n of counted.values()) total += n;
  return total;
}

/**
 * kube's buildDisruptedPodMap: keeps the entries of selected, not yet terminating pods whose
 * 2-minute wait has not passed, and says when to look again.
 */
export function buildDisruptedPodMap(
  pods: KubeObject[],
  disrupted: JsonValue | undefined,
  now: number,
): { map: Record<string, string>; recheckAt: number | undefined } {
  const map: Record<string, string> = {};
  let recheckAt: number | undefined;
  if (!isJsonObject(disrupted)) return { map, recheckAt };
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp !== undefined) continue;
    const at = disrupted[metaString(pod, 'name')];
    if (typeof at !== 'string') continue;
    const expected = Date.parse(at) + DELETION_TIMEOUT_MS;
    if (Number.isNaN(expected) || expected < now) continue;
    if (recheckAt === undefined || expected < recheckAt) recheckAt = expected;
    map[metaString(pod, 'name')] = at;
  }
  return { map, recheckAt };
}

/** kube's countHealthyPods: Ready, not terminating and not just evicted. */
export function countHealthyPods(pods: KubeObject[], disrupted: Record<string, string>, now: number): number {
  let n = 0;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp !== undefined) continue;
    const at = disrupted[metaString(pod, 'name')];
    if (at !== undefined && Date.parse(at) + DELETION_TIMEOUT_MS > now) continue;
    if (isPodReady(pod)) n++;
  }
  return n;
}

/** apimeta.SetStatusCondition on a copy of the list. */
export function setStatusCondition(
  conditions: JsonObject[],
  cond: { type: string; status: string; reason: string; message: string; observedGeneration: number },
  now: number,
): JsonObject[] {
  const out = conditions.map((c) => ({ ...c }));
  const existing = out.find((c) => c.type === cond.type);
  if (!existing) {
    const c: JsonObject = { type: cond.type, status: cond.status };
    if (cond.observedGeneration !== 0) c.observedGeneration = cond.observedGeneration;
    Object.assign(c, { lastTransitionTime: formatTime(now), reason: cond.reason, message: cond.message });
    out.push(c);
    return out;
  }
  if (existing.status !== cond.status) {
    existing.status = cond.status;
    existing.lastTransitionTime = formatTime(now);
  }
  existing.reason = cond.reason;
  existing.message = cond.message;
  if (cond.observedGeneration !== 0) existing.observedGeneration = cond.observedGeneration;
  else delete existing.observedGeneration;
  return out;
}

/** pdbhelper.UpdateDisruptionAllowedCondition on a status object (edited in place). */
export function updateDisruptionAllowedCondition(status: JsonObject, now: number): void {
  const conds = Array.isArray(status.conditions) ? status.conditions.filter(isJsonObject) : [];
  const allowed = typeof status.disruptionsAllowed === 'number' ? status.disruptionsAllowed : 0;
  const observedGeneration = typeof status.observedGeneration === 'number' ? status.observedGeneration : 0;
  status.conditions = setStatusCondition(
    conds,
    allowed > 0
      ? { type: 'DisruptionAllowed', status: 'True', reason: 'SufficientPods', message: '', observedGeneration }
      : { type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods', message: '', observedGeneration },
    now,
  );
}

function num(value: JsonValue | undefined): number {
  return typeof value === 'number' ? value : 0;
}

function conditionsUpToDate(pdb: KubeObject, status: JsonObject): boolean {
  const conds = Array.isArray(status.conditions) ? status.conditions.filter(isJsonObject) : [];
  const c = conds.find((x) => x.type === 'DisruptionAllowed');
  if (!c || num(status.observedGeneration) !== num(pdb.metadata.generation)) return false;
  return num(status.disruptionsAllowed) > 0
    ? c.status === 'True' && c.reason === 'SufficientPods'
    : c.status === 'False' && c.reason === 'InsufficientPods';
}

/** Reads `.spec.replicas`-style paths. */
function readPath(obj: JsonObject, path: string): JsonValue | undefined {
  let cur: JsonValue | undefined = obj;
  for (const part of path.replace(/^\./, '').split('.')) {
    if (!isJsonObject(cur)) return undefined;
    cur = cur[part];
  }
  return cur;
}

/** Keeps PodDisruptionBudget statuses current; see the module comment. */
export class DisruptionController {
  readonly #store: Store;
  readonly #clock: BuiltinControllerOptions['clock'];
  readonly #log: Logger;
  readonly #queue: DeferredQueue<string>;
  readonly #runner: StoreDrivenQueue<string>;

  constructor(options: BuiltinControllerOptions) {
    this.#store = options.store;
    this.#clock = options.clock;
    this.#runner = new StoreDrivenQueue<string>(options, 'disruption', (key) => this.#sync(key));
    this.#log = this.#runner.log;
    this.#queue = this.#runner.queue;
  }

  /** Subscribes to the store and queues the work its current contents need. */
  start(): void {
    if (this.#runner.running) return;
    this.#runner.start((e) => this.#onEvent(e));
    const pdbType = this.#pdbType();
    for (const pdb of pdbType ? this.#store.list(pdbType) : []) this.#enqueue(pdb);
  }

  /** Unsubscribes and drops queued and delayed work. */
  stop(): void {
    this.#runner.stop();
  }

  /** Resolves when no work is queued. */
  idle(): Promise<void> {
    return this.#runner.idle();
  }

  #pdbType(): ResourceType | undefined {
    return this.#store.resourceType('policy', 'poddisruptionbudgets');
  }

  #enqueue(pdb: KubeObject): void {
    const key = `${metaString(pdb, 'namespace')}/${metaString(pdb, 'name')}`;
    this.#queue.add(key, key);
  }

  #onEvent(storeEvent: StoreEvent): void {
    const rt = storeEvent.resourceType;
    if (rt.group === 'policy' && rt.resource === 'poddisruptionbudgets') {
      if (storeEvent.type !== 'DELETED') this.#enqueue(storeEvent.object);
      return;
    }
    const pdbType = this.#pdbType();
    if (!pdbType || !rt.namespaced) return;
    const ns = metaString(storeEvent.object, 'namespace');
    if (rt.group === '' && rt.resource === 'pods') {
      const labels = [labelsOf(storeEvent.object), ...(storeEvent.oldObject ? [labelsOf(storeEvent.oldObject)] : [])];
      for (const pdb of this.#store.list(pdbType, ns)) {
        let matches: LabelMatcher;
        try {
          matches = labelSelectorMatcher(isJsonObject(pdb.spec) ? pdb.spec.selector : undefined);
        } catch {
          continue;
        }
        if (labels.some(matches)) this.#enqueue(pdb);
      }
      return;
    }
    // A controller's scale changed: budgets in its namespace may expect a different count.
    if (
      storeEvent.type === 'MODIFIED' &&
      storeEvent.oldObject &&
      rt.subresources.includes('scale') &&
      !jsonEqual(readPath(storeEvent.object, 'spec.replicas'), readPath(storeEvent.oldObject, 'spec.replicas'))
    ) {
      for (const pdb of this.#store.list(pdbType, ns)) this.#enqueue(pdb);
    }
  }

  #sync(key: string): void {
    const pdbType = this.#pdbType();
    const slash = key.indexOf('/');
    const pdb = pdbType ? this.#store.get(pdbType, key.slice(0, slash), key.slice(slash + 1)) : undefined;
    if (!pdbType || !pdb) return;
    try {
      this.#trySync(pdbType, key, pdb);
    } catch (err) {
      if (isApiError(err, 409)) throw err; // requeued without failSafe, as kube does
      this.#log.warn({ err, pdb: key }, 'failed to sync PDB');
      this.#failSafe(pdbType, pdb, err instanceof Error ? err.message : String(err));
    }
  }

  #trySync(pdbType: ResourceType, key: string, pdb: KubeObject): void {
    const spec = isJsonObject(pdb.spec) ? pdb.spec : {};
    const matches = labelSelectorMatcher(spec.selector);
    const podType = this.#store.resourceType('', 'pods');
    const ns = metaString(pdb, 'namespace');
    const pods = (podType ? this.#store.list(podType, ns) : []).filter((p) => matches(labelsOf(p)));
    const { expectedCount, desiredHealthy } = expectedPodCount(spec, pods, (ref, namespace) =>
      this.#findScale(ref, namespace),
    );
    const now = this.#clock.now();
    const status = isJsonObject(pdb.status) ? pdb.status : {};
    const { map: disruptedPods, recheckAt } = buildDisruptedPodMap(pods, status.disruptedPods, now);
    const currentHealthy = countHealthyPods(pods, disruptedPods, now);
    let disruptionsAllowed = currentHealthy - desiredHealthy;
    if (expectedCount <= 0 || disruptionsAllowed <= 0) disruptionsAllowed = 0;
    const generation = num(pdb.metadata.generation);
    const oldDisrupted = isJsonObject(status.disruptedPods) ? status.disruptedPods : {};
    const unchanged =
      num(status.currentHealthy) === currentHealthy &&
      num(status.desiredHealthy) === desiredHealthy &&
      num(status.expectedPods) === expectedCount &&
      num(status.disruptionsAllowed) === disruptionsAllowed &&
      jsonEqual(oldDisrupted, disruptedPods) &&
      num(status.observedGeneration) === generation &&
      conditionsUpToDate(pdb, status);
    if (!unchanged) {
      const next: JsonObject = {};
      if (generation !== 0) next.observedGeneration = generation;
      if (Object.keys(disruptedPods).length > 0) next.disruptedPods = disruptedPods;
      Object.assign(next, { disruptionsAllowed, currentHealthy, desiredHealthy, expectedPods: expectedCount });
      if (Array.isArray(status.conditions)) next.conditions = status.conditions;
      updateDisruptionAllowedCondition(next, now);
      this.#writeStatus(pdbType, pdb, next);
    }
    // At least 1 ms later: an entry due exactly now expires only once time has moved on.
    if (recheckAt !== undefined) this.#queue.addAfter(key, key, Math.max(1, recheckAt - now));
  }

  #failSafe(pdbType: ResourceType, pdb: KubeObject, message: string): void {
    const status: JsonObject = isJsonObject(pdb.status) ? { ...pdb.status } : {};
    status.disruptionsAllowed = 0;
    const conds = Array.isArray(status.conditions) ? status.conditions.filter(isJsonObject) : [];
    status.conditions = setStatusCondition(
      conds,
      {
        type: 'DisruptionAllowed',
        status: 'False',
        reason: 'SyncFailed',
        message,
        observedGeneration: num(status.observedGeneration),
      },
      this.#clock.now(),
    );
    this.#writeStatus(pdbType, pdb, status);
  }

  /** One status write against the resourceVersion read (a conflict requeues the PDB). */
  #writeStatus(pdbType: ResourceType, pdb: KubeObject, status: JsonObject): void {
    const next = cloneJson(pdb);
    next.status = status;
    this.#store.update(pdbType, next, { subresource: 'status' });
  }

  /** kube's controller finders, over the kinds this server serves. */
  #findScale(ref: OwnerReference, namespace: string): ControllerScale | undefined {
    const rt = resourceTypeForKind(this.#store, ref.apiVersion, ref.kind);
    if (!rt) return undefined;
    const obj = this.#store.get(rt, rt.namespaced ? namespace : '', ref.name);
    if (!obj || metaString(obj, 'uid') !== ref.uid) return undefined;
    if (ref.kind === 'ReplicaSet' && (rt.group === 'apps' || rt.group === 'extensions')) {
      const owner = controllerOf(obj);
      if (owner?.kind === 'Deployment') {
        const depType = resourceTypeForKind(this.#store, owner.apiVersion, owner.kind);
        const dep = depType ? this.#store.get(depType, namespace, owner.name) : undefined;
        if (dep && metaString(dep, 'uid') === owner.uid)
          return { uid: owner.uid, scale: num(readPath(dep, 'spec.replicas')) };
      }
    }
    if (!rt.subresources.includes('scale')) return undefined;
    const scaleSpec = (rt as ResourceType & { scale?: { specReplicasPath?: string } }).scale;
    return { uid: ref.uid, scale: num(readPath(obj, scaleSpec?.specReplicasPath ?? '.spec.replicas')) };
  }
}
