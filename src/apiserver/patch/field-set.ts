/**
 * Sets of field paths, as structured-merge-diff keeps them for managedFields: a tree whose edges
 * are path elements encoded the FieldsV1 way — `f:<name>` (object field), `k:<json>` (list-map
 * item by its keys), `v:<json>` (set item), `i:<n>` (list index) — and whose nodes say whether
 * the path itself is in the set. Serialises to and from `fieldsV1`.
 *
 * Sets are immutable once built (only the builders `insertPath` and `fromFieldsV1` fill fresh
 * ones), so the operations share unchanged subtrees with their inputs instead of copying, and
 * every node of a set is non-empty (a member or with children) except possibly the root. That
 * sharing lets the encodings be memoised by identity: the managedFields of a typical update
 * re-encode only the entries the write changed.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../lib/json.js';

/** A node of a field set: `member` when the path ending here is in the set. */
export interface FieldSet {
  member: boolean;
  children: Map<string, FieldSet>;
}

/** A path: encoded path elements from the root. */
export type FieldPath = readonly string[];

/** An empty set. */
export function emptySet(): FieldSet {
  return { member: false, children: new Map() };
}

/** The path element of an object field. */
export function fieldElement(name: string): string {
  return `f:${name}`;
}

/** The path element of a list-map item: its key fields, sorted by name. */
export function keyElement(keys: Readonly<Record<string, JsonValue>>): string {
  const sorted: JsonObject = {};
  for (const k of Object.keys(keys).sort()) sorted[k] = keys[k] ?? null;
  return `k:${JSON.stringify(sorted)}`;
}

/** The path element of a set item. */
export function valueElement(value: JsonValue): string {
  return `v:${JSON.stringify(value)}`;
}

/** The path element of a list index. */
export function indexElement(index: number): string {
  return `i:${index}`;
}

/** Adds `path` to the set (no-op for the empty path). */
export function insertPath(set: FieldSet, path: FieldPath): void {
  if (path.length === 0) return;
  let node = set;
  for (const pe of path) {
    let next = node.children.get(pe);
    if (!next) {
      next = emptySet();
      node.children.set(pe, next);
    }
    node = next;
  }
  node.member = true;
}

/** The node at `path`, if the set has one. */
export function nodeAt(set: FieldSet, path: FieldPath): FieldSet | undefined {
  let node: FieldSet | undefined = set;
  for (const pe of path) {
    node = node.children.get(pe);
    if (!node) return undefined;
  }
  return node;
}

/** True when `path` is a member. */
export function hasPath(set: FieldSet, path: FieldPath): boolean {
  return nodeAt(set, path)?.member === true;
}

/** True when the set has no member. */
export function isEmptySet(set: FieldSet): boolean {
  if (set.member) return false;
  for (const c of set.children.values()) if (!isEmptySet(c)) return false;
  return true;
}

/** True when the set contains nothing (for nodes below the root: never, see above). */
function empty(set: FieldSet): boolean {
  return !set.member && set.children.size === 0;
}

/** a ∪ b (sharing the subtrees only one side has). */
export function union(left: FieldSet, right: FieldSet): FieldSet {
  if (empty(right) || left === right) return left;
  if (empty(left)) return right;
  const children = new Map(left.children);
  let changed = right.member && !left.member;
  for (const [pe, c] of right.children) {
    const mine = left.children.get(pe);
    const merged = mine ? union(mine, c) : c;
    if (merged !== mine) {
      children.set(pe, merged);
      changed = true;
    }
  }
  return changed ? { member: left.member || right.member, children } : left;
}

/** Members of a that are not members of b (a itself when nothing is taken away). */
export function difference(left: FieldSet, right: FieldSet): FieldSet {
  if (empty(right)) return left;
  let changed = left.member && right.member;
  const children = new Map<string, FieldSet>();
  for (const [pe, c] of left.children) {
    const other = right.children.get(pe);
    const d = other ? difference(c, other) : c;
    if (d !== c) changed = true;
    if (!empty(d)) children.set(pe, d);
  }
  return changed ? { member: left.member && !right.member, children } : left;
}

/** Members of both a and b. */
export function intersection(left: FieldSet, right: FieldSet): FieldSet {
  const children = new Map<string, FieldSet>();
  for (const [pe, c] of left.children) {
    const other = right.children.get(pe);
    if (!other) continue;
    const i = intersection(c, other);
    if (!empty(i)) children.set(pe, i);
  }
  return { member: left.member && right.member, children };
}

/** Members of a that are neither members of b nor below a member of b. */
export function recursiveDifference(left: FieldSet, right: FieldSet): FieldSet {
  if (empty(right)) return left;
  let changed = left.member && right.member;
  const children = new Map<string, FieldSet>();
  for (const [pe, c] of left.children) {
    const other = right.children.get(pe);
    const d = !other ? c : other.member ? undefined : recursiveDifference(c, other);
    if (d !== c) changed = true;
    if (d && !empty(d)) children.set(pe, d);
  }
  return changed ? { member: left.member && !right.member, children } : left;
}

/** The rank of a path element's type (its first character): fields, keys, values, indexes. */
function typeRank(pe: string): number {
  switch (pe.charCodeAt(0)) {
    case 0x66: // f
      return 0;
    case 0x6b: // k
      return 1;
    case 0x76: // v
      return 2;
    case 0x69: // i
      return 3;
    default:
      return 4;
  }
}

/** structured-merge-diff's order of path elements: fields, keys, values, indexes. */
export function comparePathElements(left: string, right: string): number {
  const ta = typeRank(left);
  const tb = typeRank(right);
  if (ta !== tb) return ta - tb;
  if (ta === 3) return Number(left.slice(2)) - Number(right.slice(2));
  // Same two-character prefix: the whole strings order as their bodies do.
  return left < right ? -1 : left > right ? 1 : 0;
}

function sortedChildren(set: FieldSet): [string, FieldSet][] {
  const children = [...set.children];
  return children.length > 1 ? children.sort(([a], [b]) => comparePathElements(a, b)) : children;
}

/** Every member path, in structured-merge-diff's iteration order (a level's leaves, then its subtrees). */
export function memberPaths(set: FieldSet): string[][] {
  const out: string[][] = [];
  const walk = (node: FieldSet, prefix: string[]): void => {
    const children = sortedChildren(node);
    for (const [pe, c] of children) if (c.member) out.push([...prefix, pe]);
    for (const [pe, c] of children) if (c.children.size > 0) walk(c, [...prefix, pe]);
  };
  walk(set, []);
  return out;
}

/** Whole-set encodings already made, by set (sets are immutable); the JSON is shared, so never change it. */
const encoded = new WeakMap<FieldSet, JsonObject>();
/** Sets already decoded, by the JSON they came from (stored objects are immutable, too). */
const decoded = new WeakMap<JsonObject, FieldSet>();

/** The set as `fieldsV1` JSON (memoised: treat the result as read-only). */
export function toFieldsV1(set: FieldSet): JsonObject {
  let out = encoded.get(set);
  if (out) return out;
  out = encodeFieldsV1(set);
  encoded.set(set, out);
  decoded.set(out, set);
  return out;
}

function encodeFieldsV1(set: FieldSet): JsonObject {
  const out: JsonObject = {};
  for (const [pe, c] of sortedChildren(set)) {
    const body = encodeFieldsV1(c);
    out[pe] = c.member && c.children.size > 0 ? { '.': {}, ...body } : body;
  }
  return out;
}

/** A set from `fieldsV1` JSON; undefined when it is not well formed (memoised by the JSON object). */
export function fromFieldsV1(json: JsonValue | undefined): FieldSet | undefined {
  if (!isJsonObject(json)) return undefined;
  const known = decoded.get(json);
  if (known) return known;
  const set = decodeFieldsV1(json);
  if (set) decoded.set(json, set);
  return set;
}

/**
 * Drops the decoded set of a `fieldsV1` JSON from the memo (the object that held it has left the
 * store; a copy kept only for watch history needs no decoded form).
 */
export function forgetDecoded(json: JsonValue | undefined): void {
  if (isJsonObject(json)) decoded.delete(json);
}

function decodeFieldsV1(json: JsonValue | undefined): FieldSet | undefined {
  if (!isJsonObject(json)) return undefined;
  const set = emptySet();
  for (const [pe, body] of Object.entries(json)) {
    if (pe === '.') continue;
    if (!/^[fkvi]:/.test(pe)) return undefined;
    const child = decodeFieldsV1(body);
    if (!child) return undefined;
    const keys = isJsonObject(body) ? Object.keys(body) : [];
    child.member = keys.length === 0 || keys.includes('.');
    set.children.set(pe, child);
  }
  return set;
}

/** A path as structured-merge-diff prints it: `.spec.containers[name="app"].image`, `.metadata.finalizers[="x"]`, `[0]`. */
export function pathString(path: FieldPath): string {
  return path
    .map((pe) => {
      const body = pe.slice(2);
      const type = pe.slice(0, 1);
      switch (type) {
        case 'f':
          return `.${body}`;
        case 'k': {
          const keys = JSON.parse(body) as JsonObject;
          return `[${Object.entries(keys)
            .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
            .join(',')}]`;
        }
        case 'v':
          return `[=${body}]`;
        default:
          return `[${body}]`;
      }
    })
    .join('');
}
