/**
 * Serves CustomResourceDefinitions at runtime: a CRD that is created or updated registers its
 * resource type at once (versions, scope, names, subresources, printer columns, schemas); its
 * status gets NamesAccepted/Established, acceptedNames and storedVersions; deleting it deletes
 * its objects (finalizer customresourcecleanup.apiextensions.k8s.io) and unregisters the type.
 */
import type { ActivityTracker } from '../lib/activity.js';
import { NO_ACTIVITY } from '../lib/activity.js';
import type { Clock } from '../lib/clock.js';
import { formatTime } from '../lib/clock.js';
import { cloneJson, isJsonObject, jsonEqual, type JsonObject, type JsonValue } from '../lib/json.js';
import type { Logger } from '../lib/log.js';
import { crdType } from './builtin/kinds.js';
import { calculateAcceptedNames, claimNames, type ClaimedNames, type NamingResult } from './crd/accepted-names.js';
import { compareKubeVersions } from './discovery.js';
import type { ServedType } from './storage/served-type.js';
import type { MemoryStore } from './storage/store.js';
import type { KubeObject, StoreEvent } from './types.js';

export const CRD_CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

function obj(value: JsonValue | undefined): JsonObject {
  return isJsonObject(value) ? value : {};
}

function strs(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((x): x is string => typeof x === 'string') : [];
}

function str(value: JsonValue | undefined): string {
  return typeof value === 'string' ? value : '';
}

/** The names a CRD asks for, with kube's defaults (singular = lower-case kind, listKind = kind + List). */
export function requestedNames(crd: KubeObject): JsonObject {
  const names = obj(obj(crd.spec).names);
  const kind = str(names.kind);
  const out: JsonObject = {
    plural: str(names.plural),
    singular: str(names.singular) || kind.toLowerCase(),
    kind,
    listKind: str(names.listKind) || `${kind}List`,
  };
  if (strs(names.shortNames).length > 0) out.shortNames = strs(names.shortNames);
  if (strs(names.categories).length > 0) out.categories = strs(names.categories);
  return out;
}

/** The served type a CRD describes, under its requested names or the given (accepted) ones. */
export function servedTypeOf(crd: KubeObject, acceptedNames?: JsonObject): ServedType {
  const spec = obj(crd.spec);
  const names = acceptedNames ?? requestedNames(crd);
  const versions = (Array.isArray(spec.versions) ? spec.versions : []).filter(isJsonObject);
  const served = versions.filter((v) => v.served !== false).map((v) => str(v.name));
  const storage = versions.find((v) => v.storage === true) ?? versions[0] ?? {};
  const schemas: Record<string, JsonObject> = {};
  const printerColumns: Record<string, JsonObject[]> = {};
  const subresources = new Set<string>();
  let scale: ServedType['scale'];
  const selectable = new Set<string>();
  for (const v of versions) {
    const name = str(v.name);
    const schema = obj(v.schema).openAPIV3Schema;
    if (isJsonObject(schema)) schemas[name] = schema;
    if (Array.isArray(v.additionalPrinterColumns))
      printerColumns[name] = v.additionalPrinterColumns.filter(isJsonObject);
    const subs = obj(v.subresources);
    if (subs.status !== undefined) subresources.add('status');
    if (isJsonObject(subs.scale)) {
      subresources.add('scale');
      scale = {
        specReplicasPath: str(subs.scale.specReplicasPath),
        statusReplicasPath: str(subs.scale.statusReplicasPath),
      };
      if (str(subs.scale.labelSelectorPath) !== '') scale.labelSelectorPath = str(subs.scale.labelSelectorPath);
    }
    if (Array.isArray(v.selectableFields))
      for (const f of v.selectableFields) if (isJsonObject(f)) selectable.add(str(f.jsonPath).replace(/^\./, ''));
  }
  const type: ServedType = {
    group: str(spec.group),
    version: str(storage.name),
    versions: served.sort(compareKubeVersions),
    resource: str(names.plural),
    singular: str(names.singular),
    kind: str(names.kind),
    listKind: str(names.listKind),
    namespaced: spec.scope !== 'Cluster',
    shortNames: strs(names.shortNames),
    categories: strs(names.categories),
    subresources: [...subresources],
    custom: true,
    schemas,
    printerColumns,
  };
  if (scale) type.scale = scale;
  if (selectable.size > 0) type.selectableFields = [...selectable];
  return type;
}

/** True when the CRD's status says Established=True. */
function wasEstablished(crd: KubeObject): boolean {
  const conds = obj(crd.status).conditions;
  return Array.isArray(conds) && conds.some((c) => isJsonObject(c) && c.type === 'Established' && c.status === 'True');
}

/** The CRD that serves group/resource is named `resource.group` (validation ties the name to them). */
function ownsType(crd: KubeObject, text: { group: string; resource: string }): boolean {
  return str(crd.metadata.name) === `${text.resource}.${text.group}`;
}

function condition(
  type: string,
  status: string,
  reason: string,
  message: string,
  old: JsonObject[],
  now: string,
): JsonObject {
  const prev = old.find((c) => c.type === type);
  const lastTransitionTime = prev && prev.status === status ? str(prev.lastTransitionTime) || now : now;
  return { type, status, lastTransitionTime, reason, message };
}

export interface CrdRegistryOptions {
  store: MemoryStore;
  clock: Clock;
  logger: Logger;
  activity?: ActivityTracker;
}

/** Keeps the store's served custom types in step with the CRD objects. */
export class CrdRegistry {
  readonly #store: MemoryStore;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #activity: ActivityTracker;
  readonly #pending = new Set<string>();
  #unsubscribe: (() => void) | undefined;
  #stopped = false;

  constructor(options: CrdRegistryOptions) {
    this.#store = options.store;
    this.#clock = options.clock;
    this.#log = options.logger.child({ component: 'crd-registry' });
    this.#activity = options.activity ?? NO_ACTIVITY;
  }

  /** Registers every stored CRD and follows changes. */
  start(): void {
    this.#unsubscribe = this.#store.subscribe((e) => this.#onEvent(e));
    for (const crd of this.#store.list(crdType)) {
      this.#register(crd);
      this.#schedule(str(crd.metadata.name));
    }
  }

  stop(): void {
    this.#stopped = true;
    this.#unsubscribe?.();
  }

  #onEvent(storeEvent: StoreEvent): void {
    const rt = storeEvent.resourceType;
    if (rt.group === crdType.group && rt.resource === crdType.resource) {
      const name = str(storeEvent.object.metadata.name);
      if (storeEvent.type === 'DELETED') {
        const group = str(obj(storeEvent.object.spec).group);
        for (const plural of new Set([
          str(obj(obj(storeEvent.object.status).acceptedNames).plural),
          servedTypeOf(storeEvent.object).resource,
        ])) {
          const t = this.#store.resourceType(group, plural);
          if (t?.custom && ownsType(storeEvent.object, t)) this.#store.unregisterResourceType(t.group, t.resource);
        }
        return;
      }
      if (storeEvent.oldObject) {
        const before = servedTypeOf(storeEvent.oldObject);
        const after = servedTypeOf(storeEvent.object);
        if (
          (before.group !== after.group || before.resource !== after.resource) &&
          this.#store.resourceType(before.group, before.resource)?.custom
        ) {
          this.#store.unregisterResourceType(before.group, before.resource);
        }
      }
      this.#register(storeEvent.object);
      this.#schedule(name);
      return;
    }
    if (rt.custom && storeEvent.type === 'DELETED') {
      const crd = this.#store.get(crdType, '', `${rt.resource}.${rt.group}`);
      if (crd?.metadata.deletionTimestamp !== undefined) this.#schedule(str(crd.metadata.name));
    }
  }

  /**
   * The names the group claims, as the naming controller sees them (every CRD's accepted names,
   * this one's included), plus the types served in the group that this CRD does not serve
   * (CRDs whose status is not written yet, and built-in kinds, which must not be shadowed).
   */
  #claimed(crd: KubeObject): ClaimedNames {
    const group = str(obj(crd.spec).group);
    const claimed: ClaimedNames = { resources: new Set(), kinds: new Set() };
    for (const other of this.#store.list(crdType)) {
      if (str(obj(other.spec).group) === group) claimNames(claimed, obj(other.status).acceptedNames);
    }
    for (const t of this.#store.resourceTypes()) {
      if (t.group !== group || (t.custom && ownsType(crd, t))) continue;
      claimNames(claimed, {
        plural: t.resource,
        singular: t.singular,
        shortNames: t.shortNames,
        kind: t.kind,
        listKind: t.listKind,
      });
    }
    return claimed;
  }

  #naming(crd: KubeObject): NamingResult {
    return calculateAcceptedNames(requestedNames(crd), obj(obj(crd.status).acceptedNames), this.#claimed(crd));
  }

  /** Serves the CRD under its accepted names when it is (or stays) established. */
  #register(crd: KubeObject): void {
    const naming = this.#naming(crd);
    if (naming.condition.status !== 'True' && !wasEstablished(crd)) return;
    const t = servedTypeOf(crd, naming.acceptedNames);
    if (t.group === '' || t.resource === '' || t.kind === '' || t.versions.length === 0) return;
    this.#store.registerResourceType(t);
  }

  /** Status and cleanup run after the current write completes (never inside a store callback). */
  #schedule(name: string): void {
    if (this.#pending.has(name) || this.#stopped) return;
    this.#pending.add(name);
    const done = this.#activity.begin('crd-registry');
    queueMicrotask(() => {
      this.#pending.delete(name);
      try {
        if (!this.#stopped) this.#reconcile(name);
      } catch (err) {
        this.#log.error({ err, crd: name }, 'reconciling a CustomResourceDefinition failed');
      } finally {
        done();
      }
    });
  }

  #reconcile(name: string): void {
    let crd = this.#store.get(crdType, '', name);
    if (!crd) return;
    if (crd.metadata.deletionTimestamp !== undefined) {
      this.#cleanup(crd);
      return;
    }
    if (!strs(crd.metadata.finalizers).includes(CRD_CLEANUP_FINALIZER)) {
      const next = cloneJson(crd);
      next.metadata.finalizers = [...strs(crd.metadata.finalizers), CRD_CLEANUP_FINALIZER];
      crd = this.#store.update(crdType, next);
    }
    const status = this.#status(crd);
    if (!jsonEqual(status, crd.status)) this.#store.update(crdType, { ...crd, status }, { subresource: 'status' });
  }

  #status(crd: KubeObject): JsonObject {
    const now = formatTime(this.#clock.now());
    const old = obj(crd.status);
    const oldConds = (Array.isArray(old.conditions) ? old.conditions : []).filter(isJsonObject);
    const { acceptedNames, condition: named } = this.#naming(crd);
    const t = servedTypeOf(crd);
    const stored = new Set(strs(old.storedVersions));
    if (t.version !== '') stored.add(t.version);
    const previous = oldConds.find((c) => c.type === 'Established');
    let established: JsonObject;
    if (named.status === 'True')
      established = condition(
        'Established',
        'True',
        'InitialNamesAccepted',
        'the initial names have been accepted',
        oldConds,
        now,
      );
    else if (previous) established = previous;
    else established = condition('Established', 'False', 'NotAccepted', 'not all names are accepted', oldConds, now);
    const conditions = [
      condition('NamesAccepted', named.status, named.reason, named.message, oldConds, now),
      established,
    ];
    return { conditions, acceptedNames, storedVersions: [...stored] };
  }

  #cleanup(crd: KubeObject): void {
    const t = this.#store.resourceType(str(obj(crd.spec).group), str(obj(obj(crd.status).acceptedNames).plural));
    if (t?.custom) {
      for (const o of this.#store.list(t)) {
        if (o.metadata.deletionTimestamp === undefined)
          this.#store.delete(t, str(o.metadata.namespace), str(o.metadata.name));
      }
      if (this.#store.list(t).length > 0) return;
    }
    const next = cloneJson(crd);
    next.metadata.finalizers = strs(crd.metadata.finalizers).filter((f) => f !== CRD_CLEANUP_FINALIZER);
    this.#store.update(crdType, next);
  }
}
