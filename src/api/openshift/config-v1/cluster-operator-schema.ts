/**
 * Schema of OpenShift's ClusterOperator (config.openshift.io/v1, short name `co`) for its CRD
 * (docs/design/cluster-model.md#clusteroperator-shape). Plain TS types: `cluster-operator.ts`.
 */
import { Type } from 'typebox';
import { preserveUnknown, nullable, typeMeta } from '../../schema.js';
import type { JsonObject } from '../../../lib/json.js';
import { ClusterOperatorStatusConditionSchema } from '../schema-common.js';

/** A version the operator reports; `operator` is the operator's own. */
export const OperandVersionSchema = Type.Object(
  {
    name: Type.String({
      description: 'The operand (usually an image) this version is for; operator for the operator itself.',
    }),
    version: Type.String({ description: 'The version of the operand that is available now.' }),
  },
  { description: 'The version of one operand.' },
);

/** An object related to the operator. */
export const ClusterOperatorObjectReferenceSchema = Type.Object(
  {
    group: Type.String({ description: 'API group of the object.' }),
    resource: Type.String({ description: 'Resource (plural) of the object.' }),
    namespace: Type.Optional(Type.String({ description: 'Namespace of the object, if namespaced.' })),
    name: Type.String({ description: 'Name of the object.' }),
  },
  { description: 'An object relevant to the operator.' },
);

/** `status` of a ClusterOperator. */
export const ClusterOperatorStatusSchema = Type.Object(
  {
    conditions: Type.Optional(
      Type.Array(ClusterOperatorStatusConditionSchema, { description: 'The state of the operator and its operands.' }),
    ),
    versions: Type.Optional(
      Type.Array(OperandVersionSchema, { description: 'Versions of the operator and its operands.' }),
    ),
    relatedObjects: Type.Optional(
      Type.Array(ClusterOperatorObjectReferenceSchema, {
        description: 'Objects of interest: the resources driving the operator, its namespaces.',
      }),
    ),
    extension: Type.Optional(nullable(preserveUnknown('Operator-specific status, kept as written.'))),
  },
  { description: 'The observed state of the operator, as the cluster version operator reads it.' },
);

/** A whole ClusterOperator; `spec` is required and empty. */
export const ClusterOperatorSchema = Type.Object(
  {
    ...typeMeta(),
    spec: Type.Unsafe<JsonObject>({
      type: 'object',
      description: 'Empty: operators take their configuration elsewhere.',
    }),
    status: Type.Optional(ClusterOperatorStatusSchema),
  },
  { description: 'The state an operator reports to the rest of the cluster.' },
);

/**
 * Printer columns of `oc get co`. The real MESSAGE column is computed by OpenShift's API server
 * (not a CRD column); a CRD can only name one path, so we show the Progressing message, which is
 * what `oc get co` shows for an operator in the middle of an update.
 */
export const CLUSTER_OPERATOR_PRINTER_COLUMNS = [
  {
    name: 'Version',
    type: 'string',
    jsonPath: '.status.versions[?(@.name=="operator")].version',
    description: 'The version the operator is at.',
  },
  {
    name: 'Available',
    type: 'string',
    jsonPath: '.status.conditions[?(@.type=="Available")].status',
    description: 'Whether the operator is running and stable.',
  },
  {
    name: 'Progressing',
    type: 'string',
    jsonPath: '.status.conditions[?(@.type=="Progressing")].status',
    description: 'Whether the operator is rolling out changes.',
  },
  {
    name: 'Degraded',
    type: 'string',
    jsonPath: '.status.conditions[?(@.type=="Degraded")].status',
    description: 'Whether the operator is degraded.',
  },
  {
    name: 'Since',
    type: 'date',
    jsonPath: '.status.conditions[?(@.type=="Available")].lastTransitionTime',
    description: "When the operator's Available status last changed.",
  },
  {
    name: 'Message',
    type: 'string',
    jsonPath: '.status.conditions[?(@.type=="Progressing")].message',
    description: 'What the operator is rolling out.',
  },
] as const;
