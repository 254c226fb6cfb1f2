/**
 * JSON Patch (RFC 6902) with the semantics of gopkg.in/evanphx/json-patch.v4, the library
 * kube-apiserver applies `application/json-patch+json` with. Written by hand (see
 * docs/design/dependencies.md#patches): the npm libraries differ from the server on its quirks
 * (negative indexes, `replace` of a missing object member, the lax path split) and on errors.
 *
 * Errors, as the server answers them: a body that is not a list of operations is a 400 with
 * Go's decoding message; more than 10000 operations is a 413; any operation that does not apply
 * (missing path, failed `test`, bad index) is a 422 whose message is the generic
 * "the server rejected our request due to an error in our request" — the library's own text is
 * kept in `PatchError.detail`.
 */
import { cloneJson, isJsonObject, jsonEqual, type JsonObject, type JsonValue } from '../../lib/json.js';
import { GENERIC_INVALID_MESSAGE, PatchError } from './errors.js';
import { goJsonType } from './go-format.js';

const MAX_OPERATIONS = 10000;

type Container = JsonObject | JsonValue[];

class OpFailure extends Error {}

function fail(message: string): never {
  throw new OpFailure(message);
}

/** RFC 6901 unescaping of one reference token. */
export function decodePointerToken(token: string): string {
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** RFC 6901 escaping of one reference token. */
export function encodePointerToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** strconv.Atoi, as far as JSON pointer tokens need it. */
function atoi(text: string): number | undefined {
  if (!/^[+-]?\d+$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : undefined;
}

function atoiOrFail(text: string): number {
  const n = atoi(text);
  if (n === undefined) fail(`strconv.Atoi: parsing ${JSON.stringify(text)}: invalid syntax`);
  return n;
}

function invalidIndex(idx: number): never {
  fail(`Unable to access invalid index: ${idx}: invalid index referenced`);
}

function isContainer(value: JsonValue | undefined): value is Container {
  return typeof value === 'object' && value !== null;
}

function getChild(container: Container, key: string): JsonValue | undefined {
  if (!Array.isArray(container)) return Object.hasOwn(container, key) ? container[key] : undefined;
  let idx = atoiOrFail(key);
  if (idx < 0) {
    if (idx < -container.length) invalidIndex(idx);
    idx += container.length;
  }
  if (idx >= container.length) invalidIndex(idx);
  return container[idx];
}

/** The parent container of `path` and the last (decoded) token, or undefined (findObject). */
function findParent(doc: Container, path: string): [Container, string] | undefined {
  const split = path.split('/');
  if (split.length < 2) return undefined;
  let cur: Container = doc;
  for (const part of split.slice(1, -1)) {
    let next: JsonValue | undefined;
    try {
      next = getChild(cur, decodePointerToken(part));
    } catch {
      return undefined;
    }
    if (!isContainer(next)) return undefined;
    cur = next;
  }
  return [cur, decodePointerToken(split[split.length - 1] ?? '')];
}

function addTo(container: Container, key: string, value: JsonValue): void {
  if (!Array.isArray(container)) {
    container[key] = value;
    return;
  }
  if (key === '-') {
    container.push(value);
    return;
  }
  const n = atoi(key);
  if (n === undefined)
    fail(`value was not a proper array index: '${key}': strconv.Atoi: parsing ${JSON.stringify(key)}: invalid syntax`);
  let idx = n;
  const size = container.length + 1;
  if (idx >= size) invalidIndex(idx);
  if (idx < 0) {
    if (idx < -size) invalidIndex(idx);
    idx += size;
  }
  container.splice(idx, 0, value);
}

function removeFrom(container: Container, key: string): void {
  if (!Array.isArray(container)) {
    if (!Object.hasOwn(container, key)) fail(`Unable to remove nonexistent key: ${key}: missing value`);
    delete container[key];
    return;
  }
  let idx = atoiOrFail(key);
  if (idx >= container.length) invalidIndex(idx);
  if (idx < 0) {
    if (idx < -container.length) invalidIndex(idx);
    idx += container.length;
  }
  container.splice(idx, 1);
}

function setIn(container: Container, key: string, value: JsonValue): void {
  if (!Array.isArray(container)) {
    container[key] = value;
    return;
  }
  let idx = atoiOrFail(key);
  if (idx < 0) idx += container.length;
  container[idx] = value;
}

function stringField(op: JsonObject, name: 'path' | 'from', verb: string): string {
  const v = op[name];
  if (v === undefined || v === null)
    fail(`${verb} operation failed to decode ${name}: operation missing ${name} field: missing value`);
  if (typeof v !== 'string')
    fail(
      `${verb} operation failed to decode ${name}: json: cannot unmarshal ${goJsonType(v)} into Go value of type string`,
    );
  return v;
}

/** Applies one operation to `root` in place; returns the (possibly replaced) root. */
function applyOne(root: Container, op: JsonObject): Container {
  const kind = typeof op.op === 'string' ? op.op : 'unknown';
  const value: JsonValue = op.value === undefined ? null : cloneJson(op.value);
  switch (kind) {
    case 'add': {
      const path = stringField(op, 'path', 'add');
      const found =
        findParent(root, path) ?? fail(`add operation does not apply: doc is missing path: "${path}": missing value`);
      wrap(`error in add for path: '${path}'`, () => addTo(found[0], found[1], value));
      return root;
    }
    case 'remove': {
      const path = stringField(op, 'path', 'remove');
      const found =
        findParent(root, path) ??
        fail(`remove operation does not apply: doc is missing path: "${path}": missing value`);
      wrap(`error in remove for path: '${path}'`, () => removeFrom(found[0], found[1]));
      return root;
    }
    case 'replace': {
      const path = stringField(op, 'path', 'replace');
      if (path === '') {
        if (!isContainer(value)) fail('replace operation value must be object or array');
        return value;
      }
      const found =
        findParent(root, path) ?? fail(`replace operation does not apply: doc is missing path: ${path}: missing value`);
      try {
        getChild(found[0], found[1]);
      } catch {
        fail(`replace operation does not apply: doc is missing key: ${path}: missing value`);
      }
      setIn(found[0], found[1], value);
      return root;
    }
    case 'move': {
      const from = stringField(op, 'from', 'move');
      const src =
        findParent(root, from) ??
        fail(`move operation does not apply: doc is missing from path: ${from}: missing value`);
      const moved = wrap(`error in move for path: '${src[1]}'`, () => getChild(src[0], src[1])) ?? null;
      wrap(`error in move for path: '${src[1]}'`, () => removeFrom(src[0], src[1]));
      const path = stringField(op, 'path', 'move');
      const dst =
        findParent(root, path) ??
        fail(`move operation does not apply: doc is missing destination path: ${path}: missing value`);
      wrap(`error in move for path: '${path}'`, () => addTo(dst[0], dst[1], moved));
      return root;
    }
    case 'copy': {
      const from = stringField(op, 'from', 'copy');
      const src =
        findParent(root, from) ??
        fail(`copy operation does not apply: doc is missing from path: ${from}: missing value`);
      const copied = wrap(`error in copy for from: '${from}'`, () => getChild(src[0], src[1])) ?? null;
      const path = stringField(op, 'path', 'copy');
      const dst =
        findParent(root, path) ??
        fail(`copy operation does not apply: doc is missing destination path: ${path}: missing value`);
      wrap('error while adding value during copy', () => addTo(dst[0], dst[1], cloneJson(copied)));
      return root;
    }
    case 'test': {
      const path = stringField(op, 'path', 'test');
      if (path === '') {
        if (!jsonEqual(root, op.value)) fail(`testing value ${path} failed: test failed`);
        return root;
      }
      const found =
        findParent(root, path) ?? fail(`test operation does not apply: is missing path: ${path}: missing value`);
      const actual = wrap(`error in test for path: '${path}'`, () => getChild(found[0], found[1]));
      const expected = op.value;
      const ok =
        actual === undefined || actual === null
          ? expected === undefined || expected === null
          : expected !== undefined && jsonEqual(actual, expected);
      if (!ok) fail(`testing value ${path} failed: test failed`);
      return root;
    }
    default:
      return fail(`Unexpected kind: ${kind}`);
  }
}

function wrap<T>(prefix: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof OpFailure) throw new OpFailure(`${prefix}: ${e.message}`);
    throw e;
  }
}

/**
 * Applies an RFC 6902 patch to a copy of `doc` (the input is never changed) and returns the result.
 * Throws PatchError (400 malformed patch, 413 too many operations, 422 operation failed).
 */
export function applyJsonPatch(doc: JsonValue, patch: JsonValue): JsonValue {
  if (patch === null) return cloneJson(doc);
  if (!Array.isArray(patch))
    throw new PatchError(
      'BadRequest',
      `json: cannot unmarshal ${goJsonType(patch)} into Go value of type jsonpatch.Patch`,
    );
  for (const op of patch) {
    if (op !== null && !isJsonObject(op))
      throw new PatchError(
        'BadRequest',
        `json: cannot unmarshal ${goJsonType(op)} into Go value of type jsonpatch.Operation`,
      );
  }
  if (patch.length > MAX_OPERATIONS) {
    throw new PatchError(
      'RequestEntityTooLarge',
      `The allowed maximum operations in a JSON patch is ${MAX_OPERATIONS}, got ${patch.length}`,
    );
  }
  if (!isContainer(doc))
    throw new PatchError('Invalid', GENERIC_INVALID_MESSAGE, 'the document is not a JSON object or array');
  let root: Container = cloneJson(doc);
  for (const op of patch) {
    try {
      root = applyOne(root, isJsonObject(op) ? op : {});
    } catch (e) {
      if (e instanceof OpFailure) throw new PatchError('Invalid', GENERIC_INVALID_MESSAGE, e.message);
      throw e;
    }
  }
  return root;
}
