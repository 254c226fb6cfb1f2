/**
 * CRD-safe schema helpers on TypeBox, and `crdFor`, which turns one kind's schema into an
 * apiextensions.k8s.io/v1 CustomResourceDefinition.
 *
 * TypeBox's own `Union(Literal…)` emits `anyOf`+`const` and its `Record` emits `patternProperties`;
 * a structural CRD schema allows neither. These helpers emit only what apiextensions accepts (see
 * docs/design/dependencies.md#crd-schemas), and `schema.test.ts` walks every generated CRD to prove
 * it. Importing this module loads TypeBox (~20 MiB): the operator's runtime must only `import type`
 * from schema modules, and take constants from the `*-contract.ts` files.
 */
import {
  Type,
  type Static,
  type TSchema,
  type TString,
  type TUnsafe,
  type TArray,
  type TOptional,
  type TObject,
} from 'typebox';
import type { Condition, LabelSelector, ObjectMeta } from 'kubernetes-types/meta/v1.js';
import type { JsonObject, JsonValue } from '../lib/json.js';

/** Extra keywords a field may carry besides its description. */
export type FieldExtras = Record<string, JsonValue>;

/** A string restricted to `values` (`type`+`enum`, never `anyOf`+`const`). */
export function stringEnum<const T extends readonly string[]>(
  values: T,
  description: string,
  extras: FieldExtras = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], description, ...extras });
}

/** A string→V map (`additionalProperties`, never `patternProperties`). */
export function map<V extends TSchema>(
  value: V,
  description: string,
  extras: FieldExtras = {},
): TUnsafe<Record<string, Static<V>>> {
  return Type.Unsafe<Record<string, Static<V>>>({
    type: 'object',
    additionalProperties: value,
    description,
    ...extras,
  });
}

/** An integer or a string, as `intstr.IntOrString`. */
export function intOrString(description: string, extras: FieldExtras = {}): TUnsafe<number | string> {
  return Type.Unsafe<number | string>({
    anyOf: [{ type: 'integer' }, { type: 'string' }],
    'x-kubernetes-int-or-string': true,
    description,
    ...extras,
  });
}

/** An object whose fields the API server keeps as written, unvalidated. */
export function preserveUnknown<T = JsonObject>(description: string, extras: FieldExtras = {}): TUnsafe<T> {
  return Type.Unsafe<T>({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true, description, ...extras });
}

/** A list merged by the given keys (`x-kubernetes-list-type: map`); the keys must be required in `items`. */
export function listMap<I extends TSchema>(
  items: I,
  keys: readonly string[],
  description: string,
  extras: FieldExtras = {},
): TArray<I> {
  return Type.Array(items, {
    description,
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': [...keys],
    ...extras,
  });
}

/** The same schema, also accepting JSON null (`nullable: true`, never `type: null`). */
export function nullable<S extends TSchema>(schema: S): TUnsafe<Static<S> | null> {
  return Type.Unsafe<Static<S> | null>({ ...toJsonSchema(schema), nullable: true });
}

/** A metav1.Time: RFC 3339 text. */
export function dateTime(description: string, extras: FieldExtras = {}): TString {
  return Type.String({ format: 'date-time', description, ...extras });
}

/** A metav1.Duration checked by the API server's `duration` format (Go duration text, e.g. `1h30m`). */
export function duration(description: string, extras: FieldExtras = {}): TString {
  return Type.String({ format: 'duration', description, ...extras });
}

/** The metadata controller-gen keeps for an embedded ObjectMeta (`generateEmbeddedObjectMeta`). */
export interface EmbeddedObjectMeta {
  name?: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
}

/** An embedded ObjectMeta: name, namespace, labels, annotations, finalizers; other keys are pruned. */
export function embeddedObjectMeta(description: string): TUnsafe<EmbeddedObjectMeta> {
  const s = Type.Object(
    {
      name: Type.Optional(Type.String({ description: 'Name of the object.' })),
      namespace: Type.Optional(Type.String({ description: 'Namespace of the object.' })),
      labels: Type.Optional(map(Type.String(), 'Labels of the object.')),
      annotations: Type.Optional(map(Type.String(), 'Annotations of the object.')),
      finalizers: Type.Optional(Type.Array(Type.String(), { description: 'Finalizers of the object.' })),
    },
    { description },
  );
  return Type.Unsafe<EmbeddedObjectMeta>(s);
}

/** A metav1.LabelSelector (atomic, like upstream). */
export function labelSelector(description: string): TUnsafe<LabelSelector> {
  const requirement = Type.Object(
    {
      key: Type.String({ description: 'The label key the selector applies to.' }),
      operator: Type.String({
        description: "The key's relationship to the values: In, NotIn, Exists or DoesNotExist.",
      }),
      values: Type.Optional(
        Type.Array(Type.String(), {
          description: 'Values for In and NotIn (non-empty); empty for Exists and DoesNotExist.',
          'x-kubernetes-list-type': 'atomic',
        }),
      ),
    },
    { description: 'One label selector requirement: a key, an operator and values.' },
  );
  const s = Type.Object(
    {
      matchExpressions: Type.Optional(
        Type.Array(requirement, {
          description: 'Label selector requirements, ANDed.',
          'x-kubernetes-list-type': 'atomic',
        }),
      ),
      matchLabels: Type.Optional(
        map(Type.String(), 'Labels that must all be present with these values; ANDed with matchExpressions.'),
      ),
    },
    { description, 'x-kubernetes-map-type': 'atomic' },
  );
  return Type.Unsafe<LabelSelector>(s);
}

/** A metav1.Condition with apimachinery's standard validation. */
export function condition(): TUnsafe<Condition> {
  const s = Type.Object(
    {
      type: Type.String({
        description: 'Type of the condition, in CamelCase or foo.example.com/CamelCase.',
        maxLength: 316,
        pattern:
          '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$',
      }),
      status: stringEnum(['True', 'False', 'Unknown'], 'Status of the condition: True, False or Unknown.'),
      observedGeneration: Type.Optional(
        Type.Integer({
          description: 'The .metadata.generation the condition was set from.',
          format: 'int64',
          minimum: 0,
        }),
      ),
      lastTransitionTime: dateTime('When the condition last changed status.'),
      reason: Type.String({
        description: "A CamelCase identifier of the reason for the condition's last transition.",
        maxLength: 1024,
        minLength: 1,
        pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$',
      }),
      message: Type.String({
        description: 'A human-readable message about the transition; may be empty.',
        maxLength: 32768,
      }),
    },
    { description: 'One aspect of the current state of this object (metav1.Condition).' },
  );
  return Type.Unsafe<Condition>(s);
}

/** `status.conditions`: metav1.Conditions keyed by type. */
export function conditions(description: string): TArray<TUnsafe<Condition>> {
  return listMap(condition(), ['type'], description);
}

/** The fields every object has: apiVersion, kind, metadata. Spread into a kind's Type.Object. */
export function typeMeta(): {
  apiVersion: TOptional<TString>;
  kind: TOptional<TString>;
  metadata: TOptional<TUnsafe<ObjectMeta>>;
} {
  return {
    apiVersion: Type.Optional(
      Type.String({ description: 'The versioned schema of this representation of an object.' }),
    ),
    kind: Type.Optional(Type.String({ description: 'The REST resource this object represents, in CamelCase.' })),
    metadata: Type.Optional(Type.Unsafe<ObjectMeta>({ type: 'object' })),
  };
}

/** The plain JSON of a schema: TypeBox's symbol keys dropped, object keys sorted, `required` sorted. */
export function toJsonSchema(schema: TSchema | JsonObject): JsonObject {
  return canonical(JSON.parse(JSON.stringify(schema)) as JsonValue) as JsonObject;
}

function canonical(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  const out: JsonObject = {};
  for (const k of Object.keys(value).sort()) {
    const child = value[k] as JsonValue;
    out[k] = k === 'required' && Array.isArray(child) ? [...child].sort() : canonical(child);
  }
  return out;
}

/** One additional printer column of a CRD version. */
export interface PrinterColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  jsonPath: string;
  description?: string;
  priority?: number;
}

/** Everything `crdFor` needs to know about one kind. */
export interface CrdDefinition {
  group: string;
  version: string;
  kind: string;
  plural: string;
  singular: string;
  scope: 'Namespaced' | 'Cluster';
  shortNames?: readonly string[];
  /** The whole object's schema (apiVersion, kind, metadata, spec, status). */
  schema: TObject;
  printerColumns?: readonly PrinterColumn[];
  /** Adds `subresources.status`. */
  statusSubresource: boolean;
}

/** A CustomResourceDefinition (apiextensions.k8s.io/v1) for one kind, one served+storage version. */
export function crdFor(def: CrdDefinition): JsonObject {
  const version: JsonObject = {
    name: def.version,
    served: true,
    storage: true,
    schema: { openAPIV3Schema: toJsonSchema(def.schema) },
  };
  if (def.statusSubresource) version['subresources'] = { status: {} };
  if (def.printerColumns && def.printerColumns.length > 0) {
    version['additionalPrinterColumns'] = def.printerColumns.map((c) => ({ ...c }));
  }
  const names: JsonObject = { kind: def.kind, listKind: `${def.kind}List`, plural: def.plural, singular: def.singular };
  if (def.shortNames && def.shortNames.length > 0) names['shortNames'] = [...def.shortNames];
  return toJsonSchema({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${def.plural}.${def.group}` },
    spec: { group: def.group, names, scope: def.scope, versions: [version] },
  });
}
