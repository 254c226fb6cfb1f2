/**
 * Server-side apply (`application/apply-patch+yaml`), as far as `kubectl apply --server-side`
 * and controllers need it, with structured-merge-diff's semantics: the applied configuration is
 * merged into the live object (maps by key, list-maps by their keys, sets by value, atomic lists
 * and maps replaced), fields this manager applied before and omits now are removed unless
 * another manager owns them, changing a value another manager owns is a conflict (unless
 * `force`, which takes the field over), and the manager's Apply entry holds exactly what it
 * applied. For the manager `kubectl`, conflicts with fields recorded in the client-side apply
 * annotation are allowed and the annotation is kept in sync (kube's lastAppliedManager and
 * lastAppliedUpdater), so that `kubectl apply --server-side` works after `kubectl apply`.
 */
import { cloneJson, isJsonObject, jsonEqual, type JsonObject, type JsonValue } from '../../lib/json.js';
import type { KubeObject } from '../types.js';
import { ApplyConflictError, PatchError, type ApplyConflict } from './errors.js';
import { compareObjects, listItemElements, MissingKeyError, toFieldSet } from './field-walk.js';
import {
  difference,
  emptySet,
  fieldElement,
  intersection,
  isEmptySet,
  memberPaths,
  pathString,
  union,
  type FieldSet,
} from './field-set.js';
import {
  decodeManagedFields,
  defaultIgnoredFields,
  encodeManagedFields,
  managerId,
  pathsToSet,
  trackable,
  type ManagerEntry,
} from './managers.js';
import { childMeta, type FieldMeta, type PatchMeta } from './patch-meta.js';

/** The annotation client-side `kubectl apply` records its configuration in. */
export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

/** Arguments of serverSideApply. */
export interface ServerSideApplyArgs {
  /** The live object; undefined when the apply creates it. */
  live: KubeObject | undefined;
  /** The applied configuration (the request body). */
  applied: KubeObject;
  manager: string;
  force: boolean;
  /** metav1.Time of the write. */
  time: string;
  /** patchMetaFor(…) for built-in kinds, patchMetaFromSchema(…) for custom resources; undefined: lists atomic, maps granular. */
  meta: PatchMeta | undefined;
  /** The subresource applied to ('status'); undefined for the main resource. */
  subresource?: string;
  /** Field-name paths the apply neither changes nor owns; default: `status` for the main resource, all but `status` for /status. */
  ignoredFields?: readonly (readonly string[])[];
}

function stripNulls(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(stripNulls);
  if (!isJsonObject(value)) return value;
  const out: JsonObject = {};
  for (const [k, child] of Object.entries(value)) if (child !== null) out[k] = stripNulls(child);
  return out;
}

function withoutPaths(value: JsonObject, paths: readonly (readonly string[])[]): JsonObject {
  const out = cloneJson(value);
  for (const p of paths) {
    let node: JsonValue | undefined = out;
    for (let i = 0; i < p.length - 1 && isJsonObject(node); i++) node = node[p[i] ?? ''];
    const last = p[p.length - 1];
    if (isJsonObject(node) && last !== undefined) delete node[last];
  }
  return out;
}

function withoutManagedFields(kubeObject: KubeObject): KubeObject {
  const metadata = { ...kubeObject.metadata };
  delete metadata.managedFields;
  return { ...kubeObject, metadata };
}

/** Merges an applied configuration into a live value (structured-merge-diff's merge). */
function merge(
  live: JsonValue | undefined,
  applied: JsonValue,
  meta: FieldMeta | undefined,
  path: string[],
): JsonValue {
  if (isJsonObject(applied)) {
    if (path.length > 0 && meta?.mapType === 'atomic') return cloneJson(applied);
    const out: JsonObject = isJsonObject(live) ? { ...live } : {};
    for (const [k, child] of Object.entries(applied))
      out[k] = merge(Object.hasOwn(out, k) ? out[k] : undefined, child, childMeta(meta, k), [...path, fieldElement(k)]);
    return out;
  }
  if (!Array.isArray(applied)) return applied;
  const re = listItemElements(applied, meta, path, 'throw');
  if (!re) return cloneJson(applied);
  const lhs = Array.isArray(live) ? live : [];
  const le = listItemElements(lhs, meta, path, 'index') ?? new Map<string, number>();
  const item = (pe: string): JsonValue => {
    const li = le.get(pe);
    const ri = re.get(pe);
    const lv = li === undefined ? undefined : lhs[li];
    if (ri === undefined) return lv ?? null;
    return merge(lv, applied[ri] ?? null, meta?.items, [...path, pe]);
  };
  const lOrder = [...le.keys()];
  const rOrder = [...re.keys()];
  const shared = rOrder.filter((pe) => le.has(pe));
  let nextShared = shared.shift();
  const out: JsonValue[] = [];
  let lI = 0;
  let rI = 0;
  // The item order of structured-merge-diff's visitListItems: applied order wins, live-only items stay in place.
  while (lI < lOrder.length || rI < rOrder.length) {
    const lpe = lOrder[lI];
    const rpe = rOrder[rI];
    if (lpe !== undefined && rpe !== undefined) {
      if (lpe === rpe) {
        out.push(item(lpe));
        lI++;
        rI++;
        nextShared = shared.shift();
        continue;
      }
      if (re.has(lpe) && nextShared !== undefined && nextShared !== lpe) {
        lI++;
        continue;
      }
    }
    if (lpe !== undefined && !re.has(lpe)) {
      out.push(item(lpe));
      lI++;
      continue;
    }
    if (rpe === undefined) break;
    out.push(item(rpe));
    rI++;
    if (nextShared === rpe) nextShared = shared.shift();
  }
  return out;
}

function hasMember(set: FieldSet | undefined): boolean {
  return set !== undefined && !isEmptySet(set);
}

/**
 * Removes what `last` (the manager's previous Apply set) holds and nobody owns any more
 * (merge.Updater's prune): a path goes when neither it nor anything below it is owned.
 */
function prune(
  value: JsonValue,
  last: FieldSet,
  owned: FieldSet | undefined,
  meta: FieldMeta | undefined,
  path: string[],
): JsonValue {
  if (isJsonObject(value)) {
    const out: JsonObject = { ...value };
    for (const [pe, lastChild] of last.children) {
      if (!pe.startsWith('f:')) continue;
      const k = pe.slice(2);
      if (!Object.hasOwn(out, k)) continue;
      const ownedChild = owned?.children.get(pe);
      if (!hasMember(ownedChild)) delete out[k];
      else if (lastChild.children.size > 0)
        out[k] = prune(out[k] ?? null, lastChild, ownedChild, childMeta(meta, k), [...path, pe]);
    }
    return out;
  }
  if (Array.isArray(value)) {
    const elements = listItemElements(value, meta, path, 'index');
    if (!elements) return value;
    const drop = new Set<number>();
    const replaced = new Map<number, JsonValue>();
    for (const [pe, lastChild] of last.children) {
      const i = elements.get(pe);
      if (i === undefined) continue;
      const ownedChild = owned?.children.get(pe);
      if (!hasMember(ownedChild) && (lastChild.member || lastChild.children.size === 0)) drop.add(i);
      else if (lastChild.children.size > 0)
        replaced.set(i, prune(value[i] ?? null, lastChild, ownedChild, meta?.items, [...path, pe]));
    }
    return value.flatMap((v, i) => (drop.has(i) ? [] : [replaced.get(i) ?? v]));
  }
  return value;
}

/** The fields of the client-side apply annotation that still match the live object. */
function allowedFromLastApplied(live: KubeObject, meta: FieldMeta | undefined): FieldSet | undefined {
  const annotations = live.metadata.annotations;
  const text = isJsonObject(annotations) ? annotations[LAST_APPLIED_ANNOTATION] : undefined;
  if (typeof text !== 'string' || text === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isJsonObject(parsed)) return undefined;
  const last = stripNulls(parsed) as JsonObject;
  let set: FieldSet;
  try {
    set = toFieldSet(last, meta);
  } catch {
    return undefined;
  }
  const c = compareObjects(last, live, meta);
  return difference(difference(difference(set, c.modified), c.added), c.removed);
}

/** The annotation value kube's lastAppliedUpdater writes: the applied object without the annotation, as sorted JSON. */
function buildLastApplied(applied: KubeObject): string {
  const copy = cloneJson(applied);
  const annotations = copy.metadata.annotations;
  if (isJsonObject(annotations)) delete annotations[LAST_APPLIED_ANNOTATION];
  return `${JSON.stringify(sortKeys(copy))}\n`;
}

function sortKeys(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isJsonObject(value)) return value;
  const out: JsonObject = {};
  for (const k of Object.keys(value).sort()) out[k] = sortKeys(value[k] ?? null);
  return out;
}

function conflictsOf(
  entries: readonly ManagerEntry[],
  myId: string,
  changed: FieldSet,
): { entry: ManagerEntry; set: FieldSet }[] {
  return entries
    .filter((e) => managerId(e) !== myId)
    .map((entry) => ({ entry, set: intersection(entry.set, changed) }))
    .filter((c) => !isEmptySet(c.set))
    .sort((a, b) => (managerId(a.entry) < managerId(b.entry) ? -1 : 1));
}

function describe(conflicts: readonly { entry: ManagerEntry; set: FieldSet }[]): ApplyConflict[] {
  return conflicts.flatMap(({ entry, set }) =>
    memberPaths(set).map((path) => {
      const c: ApplyConflict = {
        manager: entry.manager,
        field: pathString(path),
        operation: entry.operation,
        apiVersion: entry.apiVersion,
      };
      if (entry.subresource) c.subresource = entry.subresource;
      return c;
    }),
  );
}

/**
 * Applies `applied` for `manager` onto `live` (or onto nothing, to create) and returns the object
 * to store, with its new metadata.managedFields. Throws ApplyConflictError (409) on conflicts
 * without `force`, PatchError (400) for a malformed configuration. Pure: inputs are not changed.
 */
export function serverSideApply(args: ServerSideApplyArgs): KubeObject {
  const { live, applied, manager, force, time, meta, subresource } = args;
  const appliedMeta: JsonValue | undefined = (applied as JsonObject).metadata;
  if (isJsonObject(appliedMeta) && appliedMeta.managedFields !== undefined && appliedMeta.managedFields !== null) {
    throw new PatchError('BadRequest', 'metadata.managedFields must be nil');
  }
  if (live && applied.apiVersion !== live.apiVersion) {
    throw new PatchError(
      'BadRequest',
      `Incorrect version specified in apply patch. Specified patch version: ${applied.apiVersion}, expected: ${live.apiVersion}`,
    );
  }
  const base: KubeObject = live
    ? withoutManagedFields(live)
    : { apiVersion: applied.apiVersion, kind: applied.kind, metadata: {} };
  const ignoredPaths = args.ignoredFields ?? defaultIgnoredFields(subresource, [base, applied]);
  const ignored = pathsToSet(ignoredPaths);

  let entries: ManagerEntry[] = live ? (decodeManagedFields(live.metadata.managedFields) ?? []) : [];
  if (live && entries.length === 0) {
    // An object nobody manages yet: its current fields belong to "before-first-apply" (skipNonAppliedManager).
    const c = compareObjects({}, base, meta);
    const set = trackable(union(c.added, c.modified), ignored);
    if (!isEmptySet(set))
      entries = [
        {
          manager: 'before-first-apply',
          operation: 'Update',
          apiVersion: live.apiVersion,
          time,
          subresource: undefined,
          set,
        },
      ];
  }

  const config = withoutPaths(stripNulls(applied) as JsonObject, ignoredPaths);
  let configSet: FieldSet;
  let merged: JsonObject;
  try {
    configSet = trackable(toFieldSet(config, meta), ignored);
    merged = merge(base, config, meta, []) as JsonObject;
  } catch (e) {
    if (!(e instanceof MissingKeyError)) throw e;
    const gv = applied.apiVersion.includes('/') ? applied.apiVersion : `/${applied.apiVersion}`;
    throw new PatchError(
      'BadRequest',
      `failed to create typed patch object (${gv}, Kind=${applied.kind}): ${e.message}`,
    );
  }

  const myId = managerId({ manager, operation: 'Apply', apiVersion: applied.apiVersion, subresource });
  const previous = entries.find((e) => managerId(e) === myId);
  const mine: ManagerEntry = {
    manager,
    operation: 'Apply',
    apiVersion: applied.apiVersion,
    time: previous?.time,
    subresource,
    set: configSet,
  };
  entries = [...entries.filter((e) => managerId(e) !== myId), mine];
  if (previous && !isEmptySet(previous.set)) {
    const owned = entries.reduce((acc, e) => union(acc, e.set), emptySet());
    merged = prune(merged, trackable(previous.set, ignored), owned, meta, []) as JsonObject;
  }

  const c = compareObjects(base, merged, meta);
  const changed = trackable(union(c.added, c.modified), ignored);
  const removed = trackable(c.removed, ignored);
  const conflicts = conflictsOf(entries, myId, changed);
  if (conflicts.length > 0 && !force) {
    const allowed = manager === 'kubectl' && live ? allowedFromLastApplied(base, meta) : undefined;
    const remaining = allowed
      ? conflicts.map((x) => ({ ...x, set: difference(x.set, allowed) })).filter((x) => !isEmptySet(x.set))
      : conflicts;
    if (remaining.length > 0) throw new ApplyConflictError(describe(remaining));
  }
  entries = entries.map((e) => (e === mine ? e : { ...e, set: difference(difference(e.set, changed), removed) }));
  if (!previous || !jsonEqual(base, merged)) mine.time = time;

  const metadata: JsonObject = isJsonObject(merged.metadata) ? { ...merged.metadata } : {};
  const annotations = metadata.annotations;
  if (manager === 'kubectl' && isJsonObject(annotations) && Object.hasOwn(annotations, LAST_APPLIED_ANNOTATION)) {
    metadata.annotations = { ...annotations, [LAST_APPLIED_ANNOTATION]: buildLastApplied(applied) };
  }
  metadata.managedFields = encodeManagedFields(entries);
  const apiVersion = typeof merged.apiVersion === 'string' ? merged.apiVersion : applied.apiVersion;
  const kind = typeof merged.kind === 'string' ? merged.kind : applied.kind;
  return { ...merged, apiVersion, kind, metadata };
}
