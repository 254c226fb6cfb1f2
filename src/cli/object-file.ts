/**
 * Reading custom resources from YAML files the way `kubectl apply -f` and the API server would,
 * for the offline commands (`preview -f`, `hook-env`): YAML 1.1 documents and `List`s, then
 * admission with the API server's own pruning, defaulting and schema validation, so a file is
 * judged by exactly the rules a cluster would apply.
 */
import { crdVersionSchema } from '../apiserver/crd/crd-validate.js';
import { applySchemaDefaults } from '../apiserver/crd/defaults.js';
import { pruneUnknownFields } from '../apiserver/crd/prune.js';
import { validateAgainstSchema } from '../apiserver/crd/schema-validate.js';
import { fieldErrorMessage, goQuote, type FieldError } from '../apiserver/field-errors.js';
import { validateObjectName } from '../apiserver/storage/object-meta.js';
import { isJsonObject, type JsonObject } from '../lib/json.js';
import { readGoYamlDocuments } from '../lib/yaml-text.js';

/** One object of a YAML file, with the 1-based number of the document it came from. */
export interface FileObject {
  readonly document: number;
  readonly object: JsonObject;
}

/** One document of a file: its objects (a `List`'s items unpacked), or why it cannot be read. */
export type FileDocument =
  | { readonly document: number; readonly ok: true; readonly objects: JsonObject[] }
  | { readonly document: number; readonly ok: false; readonly error: string };

/**
 * Every non-empty document of a YAML (or JSON) text, read as kubectl reads a file: YAML 1.1
 * (sigs.k8s.io/yaml uses go-yaml v2), plain dates kept as strings, `kind: List` items unpacked.
 * A document that is not valid YAML or not a mapping is returned with the reason, the others
 * are still read.
 */
export function readFileDocuments(text: string): FileDocument[] {
  const out: FileDocument[] = [];
  readGoYamlDocuments(text).forEach((read, index) => {
    const document = index + 1;
    if (!read.ok) {
      out.push({ document, ok: false, error: `is not valid YAML: ${read.error}` });
      return;
    }
    const value = read.value;
    if (value === null || value === undefined) return;
    if (!isJsonObject(value)) {
      out.push({ document, ok: false, error: 'is not an object' });
      return;
    }
    const items = value['items'];
    const objects =
      value['kind'] === 'List' && Array.isArray(items) ? items.filter((item) => isJsonObject(item)) : [value];
    out.push({ document, ok: true, objects });
  });
  return out;
}

/**
 * The objects of a YAML (or JSON) text, as kubectl reads a file (see {@link readFileDocuments}).
 * Throws with the document number when a document is not valid YAML or not a mapping.
 */
export function readObjectFile(text: string, source: string): FileObject[] {
  const out: FileObject[] = [];
  for (const d of readFileDocuments(text)) {
    if (!d.ok) throw new Error(`${source}: document ${d.document} ${d.error}`);
    for (const object of d.objects) out.push({ document: d.document, object });
  }
  return out;
}

/** The objects of one kind (`apiVersion` and `kind` both match). */
export function objectsOfKind(objects: readonly FileObject[], apiVersion: string, kind: string): FileObject[] {
  return objects.filter((o) => o.object['apiVersion'] === apiVersion && o.object['kind'] === kind);
}

/** Outcome of {@link admitObject}. */
export type AdmitResult = { ok: true; object: JsonObject; warnings: string[] } | { ok: false; message: string };

/** Outcome of {@link admitObjectDetailed}: every field error and every pruned field, one by one. */
export interface DetailedAdmission {
  /** The object as it would be stored (pruned and defaulted); meaningful when `errors` is empty. */
  readonly object: JsonObject;
  readonly errors: FieldError[];
  /** Paths of the unknown fields pruned (each one a warning with fieldValidation=Warn). */
  readonly unknownFields: string[];
}

/**
 * What {@link admitObject} decides, with the field errors and pruned fields kept apart, for a
 * caller that reports them one by one.
 */
export function admitObjectDetailed(
  object: JsonObject,
  crd: JsonObject,
  options: { keepStatus: boolean },
): DetailedAdmission {
  const spec = crd['spec'] as { group: string; names: { kind: string }; versions: { name: string }[] };
  const version = spec.versions[0]?.name ?? '';
  const schema = crdVersionSchema(crd, version);
  if (schema === undefined) throw new Error(`the CRD of ${spec.names.kind} has no schema`);
  const input = structuredClone(object);
  if (!options.keepStatus) delete input['status'];
  const { object: pruned, unknownFields } = pruneUnknownFields(input, schema);
  const defaulted = applySchemaDefaults(pruned, schema);
  const metadata = isJsonObject(defaulted['metadata']) ? defaulted['metadata'] : {};
  const errors = [...validateObjectName(metadata, 'subdomain', false), ...validateAgainstSchema(defaulted, schema)];
  return { object: defaulted, errors, unknownFields };
}

/**
 * The object as the API server would store it from a create: unknown fields pruned (each one a
 * warning, as with fieldValidation=Warn), CRD defaults applied, then validated against the CRD's
 * schema and the name rules, with kube-apiserver's wording. `keepStatus: false` drops `status`
 * as a create of a kind with a status subresource does.
 */
export function admitObject(object: JsonObject, crd: JsonObject, options: { keepStatus: boolean }): AdmitResult {
  const kind = (crd['spec'] as { names: { kind: string } }).names.kind;
  const { object: defaulted, errors, unknownFields } = admitObjectDetailed(object, crd, options);
  if (errors.length > 0) {
    const metadata = isJsonObject(defaulted['metadata']) ? defaulted['metadata'] : {};
    const name = typeof metadata['name'] === 'string' ? metadata['name'] : '';
    const lines = [...new Set(errors.map((e) => `* ${fieldErrorMessage(e)}`))];
    return { ok: false, message: `The ${kind} ${goQuote(name)} is invalid:\n${lines.join('\n')}` };
  }
  return { ok: true, object: defaulted, warnings: unknownFields.map((f) => `unknown field ${goQuote(f)}`) };
}

/** Options of {@link admitFileObjects}. */
export interface AdmitFileOptions {
  readonly keepStatus: boolean;
  warn(text: string): void;
  /**
   * apiVersions of the same kind the caller reads with another call: not skipped with a warning,
   * and named with the CRD's own in the warning for any other apiVersion.
   */
  readonly alsoRead?: readonly string[];
  /** False: objects of another apiVersion are skipped silently (another call warns). */
  readonly warnSkipped?: boolean;
}

/** The apiVersion a CRD serves its objects under (its first version). */
export function crdApiVersion(crd: JsonObject): string {
  const spec = crd['spec'] as { group: string; versions: { name: string }[] };
  return `${spec.group}/${spec.versions[0]?.name ?? ''}`;
}

/**
 * Admits every object of the CRD's kind in a file (objects of that kind under another apiVersion
 * are skipped with a warning; pruning warnings go to `warn` too); throws every field error at once.
 */
export function admitFileObjects(path: string, text: string, crd: JsonObject, options: AdmitFileOptions): JsonObject[] {
  const spec = crd['spec'] as { names: { kind: string } };
  const kind = spec.names.kind;
  const apiVersion = crdApiVersion(crd);
  const expected = [apiVersion, ...(options.alsoRead ?? [])];
  const all = readObjectFile(text, path);
  for (const o of all) {
    const other = o.object['apiVersion'];
    if (o.object['kind'] !== kind || (typeof other === 'string' && expected.includes(other))) continue;
    if (options.warnSkipped !== false)
      options.warn(
        `${path}: document ${o.document}: skipping ${kind} of ${JSON.stringify(other ?? null)} (expected ${expected.join(' or ')})`,
      );
  }
  const errors: string[] = [];
  const admitted: JsonObject[] = [];
  for (const o of objectsOfKind(all, apiVersion, kind)) {
    const r = admitObject(o.object, crd, { keepStatus: options.keepStatus });
    if (!r.ok) errors.push(`${path}: document ${o.document}: ${r.message}`);
    else {
      for (const w of r.warnings) options.warn(`${path}: document ${o.document}: ${w}`);
      admitted.push(r.object);
    }
  }
  if (errors.length > 0) throw new Error(errors.join('\n'));
  return admitted;
}
