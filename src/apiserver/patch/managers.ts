/**
 * metadata.managedFields as kube-apiserver's fieldmanager keeps it: decoding entries into field
 * sets, the identity of a manager (one entry per manager, operation, subresource and — for
 * Update — apiVersion), the fields no manager may own, and the encoding back in kube's order
 * (Apply entries first, then by time, manager, apiVersion, subresource).
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../lib/json.js';
import {
  difference,
  emptySet,
  fieldElement,
  fromFieldsV1,
  insertPath,
  isEmptySet,
  recursiveDifference,
  toFieldsV1,
  union,
  type FieldSet,
} from './field-set.js';

/** One decoded managedFields entry. */
export interface ManagerEntry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time: string | undefined;
  subresource: string | undefined;
  set: FieldSet;
}

/** The identity kube gives an entry (BuildManagerIdentifier): Apply entries ignore apiVersion. */
export function managerId(
  managerEntry: Pick<ManagerEntry, 'manager' | 'operation' | 'apiVersion' | 'subresource'>,
): string {
  // The JSON of {manager, operation, apiVersion?, subresource?}, built as text: every write asks
  // for it, and serialising a fresh object each time was a measurable share of a create.
  let id = `{"manager":${JSON.stringify(managerEntry.manager)},"operation":${JSON.stringify(managerEntry.operation)}`;
  if (managerEntry.operation === 'Update') id += `,"apiVersion":${JSON.stringify(managerEntry.apiVersion)}`;
  if (managerEntry.subresource) id += `,"subresource":${JSON.stringify(managerEntry.subresource)}`;
  return `${id}}`;
}

function optionalString(value: JsonValue | undefined): string | undefined | false {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : false;
}

/**
 * Decodes managedFields; entries with the same identity are merged. Undefined when the value is
 * not a well-formed managedFields list (kube then keeps the live object's entries).
 */
export function decodeManagedFields(value: JsonValue | undefined): ManagerEntry[] | undefined {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return undefined;
  const byId = new Map<string, ManagerEntry>();
  for (const raw of value) {
    if (!isJsonObject(raw)) return undefined;
    const manager = optionalString(raw.manager);
    const apiVersion = optionalString(raw.apiVersion);
    const time = optionalString(raw.time);
    const subresource = optionalString(raw.subresource);
    const fieldsType = optionalString(raw.fieldsType);
    if (manager === false || apiVersion === false || time === false || subresource === false) return undefined;
    if (raw.operation !== 'Apply' && raw.operation !== 'Update') return undefined;
    if (fieldsType !== undefined && fieldsType !== 'FieldsV1') return undefined;
    const set = raw.fieldsV1 === undefined || raw.fieldsV1 === null ? emptySet() : fromFieldsV1(raw.fieldsV1);
    if (!set) return undefined;
    const entry: ManagerEntry = {
      manager: manager ?? '',
      operation: raw.operation,
      apiVersion: apiVersion ?? '',
      time,
      subresource: subresource || undefined,
      set,
    };
    const id = managerId(entry);
    const seen = byId.get(id);
    if (seen) seen.set = union(seen.set, set);
    else byId.set(id, entry);
  }
  return [...byId.values()];
}

/** True for the `[{}]` that a client sends to reset managedFields. */
export function isResetManagedFields(value: JsonValue | undefined): boolean {
  return Array.isArray(value) && value.length === 1 && isJsonObject(value[0]) && Object.keys(value[0]).length === 0;
}

function seconds(time: string | undefined): number {
  if (time === undefined) return 0;
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

function cmp(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Encodes entries as managedFields, dropping empty ones, in kube's order. */
export function encodeManagedFields(entries: readonly ManagerEntry[]): JsonValue[] {
  const kept = entries.filter((e) => !isEmptySet(e.set));
  if (kept.length > 1) {
    // Each entry's time parsed once, not at every comparison.
    const at = new Map(kept.map((e) => [e, seconds(e.time)]));
    kept.sort(
      (p, q) =>
        cmp(p.operation, q.operation) ||
        (at.get(p) ?? 0) - (at.get(q) ?? 0) ||
        cmp(p.manager, q.manager) ||
        cmp(p.apiVersion, q.apiVersion) ||
        cmp(p.subresource ?? '', q.subresource ?? ''),
    );
  }
  return kept.map((managerEntry) => {
    const out: JsonObject = {
      manager: managerEntry.manager,
      operation: managerEntry.operation,
      apiVersion: managerEntry.apiVersion,
    };
    if (managerEntry.time !== undefined) out.time = managerEntry.time;
    out.fieldsType = 'FieldsV1';
    out.fieldsV1 = toFieldsV1(managerEntry.set);
    if (managerEntry.subresource) out.subresource = managerEntry.subresource;
    return out;
  });
}

const STRIP_EXACT = emptySet();
for (const p of [['apiVersion'], ['kind'], ['metadata']]) insertPath(STRIP_EXACT, p.map(fieldElement));
const STRIP_RECURSIVE = emptySet();
for (const f of [
  'name',
  'namespace',
  'creationTimestamp',
  'selfLink',
  'uid',
  'clusterName',
  'generation',
  'managedFields',
  'resourceVersion',
]) {
  insertPath(STRIP_RECURSIVE, [fieldElement('metadata'), fieldElement(f)]);
}

/** Sets of ignored paths already built: a handful per kind (`status`, or a kind's top-level fields). */
const pathSets = new Map<string, FieldSet>();
const PATH_SETS_MAX = 1024;
/** STRIP_RECURSIVE ∪ an ignored set, by ignored set. */
const stripSets = new WeakMap<FieldSet, FieldSet>();

/** The ignored paths of a write to the main resource (one array, so its set is found by identity). */
const STATUS_ONLY: readonly (readonly string[])[] = Object.freeze([Object.freeze(['status'])]);
/** Sets of the constant path lists, by identity (no JSON key to build). */
const constantPathSets = new WeakMap<readonly (readonly string[])[], FieldSet>();

/** Field-name paths, as a set whose members cover them and everything below (memoised; sets are immutable). */
export function pathsToSet(paths: readonly (readonly string[])[]): FieldSet {
  const constant = constantPathSets.get(paths);
  if (constant) return constant;
  const key = JSON.stringify(paths);
  let set = pathSets.get(key);
  if (!set) {
    set = emptySet();
    for (const p of paths) insertPath(set, p.map(fieldElement));
    if (pathSets.size >= PATH_SETS_MAX) pathSets.clear();
    pathSets.set(key, set);
  }
  if (paths === STATUS_ONLY) constantPathSets.set(paths, set);
  return set;
}

/**
 * The part of `set` managers may own: without the identity and server-set metadata kube strips
 * (apiVersion, kind, metadata.name, uid, resourceVersion, managedFields …) and without `ignored`.
 */
export function trackable(set: FieldSet, ignored: FieldSet): FieldSet {
  let strip = stripSets.get(ignored);
  if (!strip) {
    strip = union(STRIP_RECURSIVE, ignored);
    stripSets.set(ignored, strip);
  }
  return recursiveDifference(difference(set, STRIP_EXACT), strip);
}

/**
 * The fields whose changes a write does not track (kube's reset fields): a write to the main
 * resource leaves `status` alone, a write to `/status` only tracks `status`.
 */
export function defaultIgnoredFields(
  subresource: string | undefined,
  objects: readonly (JsonObject | undefined)[],
): readonly (readonly string[])[] {
  if (subresource !== 'status') return STATUS_ONLY;
  const keys = new Set<string>();
  for (const o of objects) if (o) for (const k of Object.keys(o)) keys.add(k);
  keys.delete('status');
  return [...keys].map((k) => [k]);
}
