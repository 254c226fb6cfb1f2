/**
 * Schema of the MCO's MachineConfigPool (machineconfiguration.openshift.io/v1, short name `mcp`)
 * for its CRD (docs/design/cluster-model.md#pools). Plain TS types:
 * `machine-config-pool.ts`.
 */
import { Type } from 'typebox';
import { dateTime, intOrString, labelSelector, nullable, typeMeta } from '../../schema.js';
import { coreObjectReferenceSchema, typedString } from '../schema-common.js';

/** A rendered config (ObjectReference) plus the MachineConfigs it was rendered from. */
export const MachineConfigPoolStatusConfigurationSchema = Type.Object(
  {
    apiVersion: Type.Optional(Type.String({ description: 'API version of the rendered config.' })),
    kind: Type.Optional(Type.String({ description: 'Kind of the rendered config (MachineConfig).' })),
    name: Type.Optional(Type.String({ description: 'Name of the rendered config, rendered-<pool>-<hash>.' })),
    namespace: Type.Optional(Type.String({ description: 'Namespace of the referent; empty for MachineConfigs.' })),
    uid: Type.Optional(Type.String({ description: 'UID of the rendered config.' })),
    resourceVersion: Type.Optional(Type.String({ description: 'Resource version of the rendered config.' })),
    fieldPath: Type.Optional(Type.String({ description: 'Unused part of the ObjectReference shape.' })),
    source: Type.Optional(
      Type.Array(coreObjectReferenceSchema('A MachineConfig merged into the rendered config.'), {
        description: 'The MachineConfigs merged into the rendered config.',
      }),
    ),
  },
  { description: 'A rendered MachineConfig and its sources.', 'x-kubernetes-map-type': 'atomic' },
);

/** `spec` of a MachineConfigPool. */
export const MachineConfigPoolSpecSchema = Type.Object(
  {
    machineConfigSelector: Type.Optional(
      labelSelector('Which MachineConfigs are merged into the rendered config of the pool.'),
    ),
    nodeSelector: Type.Optional(labelSelector('Which nodes belong to the pool.')),
    paused: Type.Optional(
      Type.Boolean({ description: 'Stop rolling out new rendered configs to the nodes of the pool.' }),
    ),
    maxUnavailable: Type.Optional(
      intOrString(
        'How many nodes (number or percentage) may be unavailable at once during an update, for any reason; default 1, 0 means 1.',
      ),
    ),
    configuration: Type.Optional(MachineConfigPoolStatusConfigurationSchema),
  },
  { description: 'Which configs and nodes make up the pool, and how it updates.' },
);

/** A condition of a MachineConfigPool. */
export const MachineConfigPoolConditionSchema = Type.Object(
  {
    type: Type.String({
      description: 'Type of the condition: Updated, Updating, NodeDegraded, RenderDegraded, Degraded.',
    }),
    status: typedString<'True' | 'False' | 'Unknown'>('Status of the condition: True, False or Unknown.'),
    lastTransitionTime: nullable(dateTime('When the status last changed.')),
    reason: Type.String({ description: 'Machine-readable reason for the last transition; may be empty.' }),
    message: Type.String({ description: 'Human-readable details of the last transition; may be empty.' }),
  },
  { description: 'One observation of the state of the pool.' },
);

const count = (description: string) => Type.Integer({ description, format: 'int32' });

/** `status` of a MachineConfigPool, as the MCO's node controller computes it. */
export const MachineConfigPoolStatusSchema = Type.Object(
  {
    observedGeneration: Type.Optional(
      Type.Integer({ description: 'The pool generation the controller observed.', format: 'int64' }),
    ),
    configuration: MachineConfigPoolStatusConfigurationSchema,
    machineCount: count('Nodes in the pool.'),
    updatedMachineCount: count('Nodes on the target rendered config, done.'),
    readyMachineCount: count('Updated nodes that are also ready and schedulable.'),
    unavailableMachineCount: count('Nodes not ready, unschedulable, or updating.'),
    degradedMachineCount: count('Nodes whose update failed (Degraded or Unreconcilable).'),
    conditions: Type.Optional(
      Type.Array(MachineConfigPoolConditionSchema, { description: 'Observations of the state of the pool.' }),
    ),
    certExpirys: Type.Optional(
      Type.Array(
        Type.Object(
          {
            bundle: Type.String({ description: 'The bundle the certificate is in.' }),
            subject: Type.String({ description: 'Subject of the certificate.' }),
            expiry: Type.Optional(dateTime('When the certificate expires.')),
          },
          { description: 'One certificate and when it expires.' },
        ),
        { description: 'Expiry of the certificates the pool nodes trust.', 'x-kubernetes-list-type': 'atomic' },
      ),
    ),
  },
  { description: 'The observed state of the pool.' },
);

/** A whole MachineConfigPool. */
export const MachineConfigPoolSchema = Type.Object(
  { ...typeMeta(), spec: MachineConfigPoolSpecSchema, status: Type.Optional(MachineConfigPoolStatusSchema) },
  { description: 'A pool of nodes that run the same rendered MachineConfig.' },
);

/** Printer columns of `oc get mcp`. */
export const MACHINE_CONFIG_POOL_PRINTER_COLUMNS = [
  { name: 'Config', type: 'string', jsonPath: '.status.configuration.name' },
  {
    name: 'Updated',
    type: 'string',
    jsonPath: '.status.conditions[?(@.type=="Updated")].status',
    description: 'Whether every node of the pool runs the target config.',
  },
  {
    name: 'Updating',
    type: 'string',
    jsonPath: '.status.conditions[?(@.type=="Updating")].status',
    description: 'Whether nodes are moving to the target config.',
  },
  {
    name: 'Degraded',
    type: 'string',
    jsonPath: '.status.conditions[?(@.type=="Degraded")].status',
    description: 'Whether the update of a node or the rendering of the config fails.',
  },
  { name: 'MachineCount', type: 'number', jsonPath: '.status.machineCount', description: 'Nodes in the pool.' },
  {
    name: 'ReadyMachineCount',
    type: 'number',
    jsonPath: '.status.readyMachineCount',
    description: 'Updated nodes that are ready.',
  },
  {
    name: 'UpdatedMachineCount',
    type: 'number',
    jsonPath: '.status.updatedMachineCount',
    description: 'Nodes on the target config.',
  },
  {
    name: 'DegradedMachineCount',
    type: 'number',
    jsonPath: '.status.degradedMachineCount',
    description: 'Nodes whose update failed.',
  },
  { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
] as const;
