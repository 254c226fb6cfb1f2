/**
 * Schema pieces shared by the OpenShift kinds (openshift/api field shapes, CRD-safe): the
 * ClusterOperator-style condition, core ObjectReference, and a string typed narrower than its
 * schema. Loads TypeBox: import only from `*-schema.ts` files, `crds.ts` and tests.
 */
import { Type, type Static, type TObject, type TUnsafe } from 'typebox';
import type { ObjectReference } from 'kubernetes-types/core/v1.js';
import type { FieldExtras } from '../schema.js';
import { dateTime, toJsonSchema } from '../schema.js';

/**
 * A string whose TypeScript type is the union T while its schema stays a plain string, as in
 * openshift/api where e.g. condition `status` has no enum: the API server accepts any text,
 * our code only writes the listed values.
 */
export function typedString<T extends string>(description: string, extras: FieldExtras = {}): TUnsafe<T> {
  return Type.Unsafe<T>({ type: 'string', description, ...extras });
}

/** `configv1.ClusterOperatorStatusCondition` (ClusterVersion and ClusterOperator conditions). */
export const ClusterOperatorStatusConditionSchema = Type.Object(
  {
    type: Type.String({ description: 'The aspect of the component this condition reports on.' }),
    status: typedString<'True' | 'False' | 'Unknown'>('Status of the condition: True, False or Unknown.'),
    lastTransitionTime: dateTime('When the status last changed.'),
    reason: Type.Optional(Type.String({ description: "CamelCase reason for the condition's status." })),
    message: Type.Optional(Type.String({ description: 'Human-readable details; may contain line feeds.' })),
  },
  { description: 'The state of one aspect of an operator and its operands.' },
);

/** A core/v1 ObjectReference (atomic), as the MCO uses for rendered configs and their sources. */
export function coreObjectReferenceSchema(description: string): TUnsafe<ObjectReference> {
  const s = Type.Object(
    {
      apiVersion: Type.Optional(Type.String({ description: 'API version of the referent.' })),
      kind: Type.Optional(Type.String({ description: 'Kind of the referent.' })),
      name: Type.Optional(Type.String({ description: 'Name of the referent.' })),
      namespace: Type.Optional(Type.String({ description: 'Namespace of the referent.' })),
      uid: Type.Optional(Type.String({ description: 'UID of the referent.' })),
      resourceVersion: Type.Optional(
        Type.String({ description: 'Resource version of the referent this reference was made at.' }),
      ),
      fieldPath: Type.Optional(
        Type.String({ description: 'Path of a part of the referent, e.g. spec.containers{name}.' }),
      ),
    },
    { description, 'x-kubernetes-map-type': 'atomic' },
  );
  return Type.Unsafe<ObjectReference>(s);
}

/**
 * The object schema `obj` with its `required` list replaced by `required`, keeping the static
 * type of `obj`. For fields openshift/api leaves optional in the CRD but its controllers always
 * write (e.g. a Release's version and image): the API server accepts what the real one
 * accepts, and our code may rely on what the real controllers write.
 */
export function withRequired<T extends TObject>(obj: T, required: readonly string[]): TUnsafe<Static<T>> {
  const json = toJsonSchema(obj);
  delete json['required'];
  if (required.length > 0) json['required'] = [...required];
  return Type.Unsafe<Static<T>>(json);
}
