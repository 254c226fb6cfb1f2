/**
 * Schema of the Machine API's Machine (machine.openshift.io/v1beta1) for its CRD
 * (docs/design/cluster-model.md#machines). `providerSpec.value` and `status.providerStatus` are
 * kept as written, as openshift/api does. Plain TS types: `machine.ts`.
 */
import { Type } from 'typebox';
import type { OwnerReference } from 'kubernetes-types/meta/v1.js';
import { dateTime, listMap, map, preserveUnknown, typeMeta } from '../../schema.js';
import { coreObjectReferenceSchema, typedString } from '../schema-common.js';
import type { MachinePhase } from './machine.js';

const ownerReference = Type.Unsafe<OwnerReference>(
  Type.Object(
    {
      apiVersion: Type.String({ description: 'API version of the owner.' }),
      kind: Type.String({ description: 'Kind of the owner.' }),
      name: Type.String({ description: 'Name of the owner.' }),
      uid: Type.String({ description: 'UID of the owner.' }),
      controller: Type.Optional(Type.Boolean({ description: 'Whether the owner is the managing controller.' })),
      blockOwnerDeletion: Type.Optional(
        Type.Boolean({ description: 'Whether foreground deletion of the owner waits for this object.' }),
      ),
    },
    { description: 'An object owning this one.', 'x-kubernetes-map-type': 'atomic' },
  ),
);

/** The Machine API's ObjectMeta: what a template or a Machine puts on the objects it makes. */
export function machineObjectMetaSchema(description: string) {
  return Type.Object(
    {
      name: Type.Optional(Type.String({ description: 'Name of the object.' })),
      generateName: Type.Optional(Type.String({ description: 'Prefix of a generated name.' })),
      namespace: Type.Optional(Type.String({ description: 'Namespace of the object.' })),
      labels: Type.Optional(map(Type.String(), 'Labels of the object.')),
      annotations: Type.Optional(map(Type.String(), 'Annotations of the object.')),
      ownerReferences: Type.Optional(Type.Array(ownerReference, { description: 'Owners of the object.' })),
    },
    { description },
  );
}

/** A lifecycle hook: blocks drain or termination until removed. */
export const LifecycleHookSchema = Type.Object(
  {
    name: Type.String({ description: 'Unique name of the hook.' }),
    owner: Type.String({ description: 'Who owns the hook and will remove it.' }),
  },
  { description: 'A hook that pauses a step of the machine lifecycle.' },
);

const taint = Type.Object(
  {
    key: Type.String({ description: 'Taint key.' }),
    value: Type.Optional(Type.String({ description: 'Taint value.' })),
    effect: Type.String({ description: 'NoSchedule, PreferNoSchedule or NoExecute.' }),
    timeAdded: Type.Optional(dateTime('When a NoExecute taint was added.')),
  },
  { description: 'A taint to put on the Node.' },
);

/** `spec` of a Machine (also the template spec of a MachineSet). */
export const MachineSpecSchema = Type.Object(
  {
    metadata: Type.Optional(machineObjectMetaSchema('Labels and annotations to put on the Node of the machine.')),
    lifecycleHooks: Type.Optional(
      Type.Object(
        {
          preDrain: Type.Optional(
            listMap(LifecycleHookSchema, ['name'], 'Hooks that must be removed before the node is drained.'),
          ),
          preTerminate: Type.Optional(
            listMap(LifecycleHookSchema, ['name'], 'Hooks that must be removed before the instance is terminated.'),
          ),
        },
        { description: 'Hooks that pause deletion of the machine at given points.' },
      ),
    ),
    taints: Type.Optional(
      Type.Array(taint, { description: 'Taints to add to the Node.', 'x-kubernetes-list-type': 'atomic' }),
    ),
    providerSpec: Type.Optional(
      Type.Object(
        {
          value: Type.Optional(
            preserveUnknown('The provider configuration, e.g. an AWSMachineProviderConfig, kept as written.'),
          ),
        },
        { description: 'Provider-specific configuration of the instance.' },
      ),
    ),
    providerID: Type.Optional(
      Type.String({ description: 'ID of the instance at the provider; matches the Node spec.providerID.' }),
    ),
    authoritativeAPI: Type.Optional(
      Type.String({ description: 'MachineAPI or ClusterAPI (feature gate MachineAPIMigration).' }),
    ),
  },
  { description: 'The desired machine.' },
);

/** A condition of a Machine or MachineSet. */
export const MachineConditionSchema = Type.Object(
  {
    type: Type.String({ description: 'Type of the condition, e.g. InstanceExists, Drainable, Drained.' }),
    status: typedString<'True' | 'False' | 'Unknown'>('Status of the condition: True, False or Unknown.'),
    severity: Type.Optional(Type.String({ description: 'Error, Warning or Info, when status is False.' })),
    reason: Type.Optional(Type.String({ description: 'CamelCase reason for the last transition.' })),
    message: Type.Optional(Type.String({ description: 'Human-readable details of the last transition.' })),
    lastTransitionTime: Type.Optional(dateTime('When the condition last changed.')),
  },
  { description: 'One observation of the state of the object.' },
);

/** `status` of a Machine. */
export const MachineStatusSchema = Type.Object(
  {
    nodeRef: Type.Optional(coreObjectReferenceSchema('The Node of the machine, once it joined.')),
    lastUpdated: Type.Optional(dateTime('When the status last changed.')),
    errorReason: Type.Optional(
      Type.String({ description: 'Terminal error, machine-readable, e.g. InvalidConfiguration.' }),
    ),
    errorMessage: Type.Optional(Type.String({ description: 'Terminal error, human-readable.' })),
    providerStatus: Type.Optional(
      preserveUnknown('Provider-specific status, e.g. instanceId and instanceState, kept as written.'),
    ),
    addresses: Type.Optional(
      Type.Array(
        Type.Object(
          {
            type: Type.String({
              description: 'Address type: Hostname, InternalIP, ExternalIP, InternalDNS, ExternalDNS.',
            }),
            address: Type.String({ description: 'The address.' }),
          },
          { description: 'An address of the instance.' },
        ),
        { description: 'Addresses of the instance.' },
      ),
    ),
    lastOperation: Type.Optional(
      Type.Object(
        {
          description: Type.Optional(Type.String({ description: 'What the operation did.' })),
          lastUpdated: Type.Optional(dateTime('When the operation last changed.')),
          state: Type.Optional(Type.String({ description: 'Processing, Failed or Successful.' })),
          type: Type.Optional(Type.String({ description: 'Create, Update or Delete.' })),
        },
        { description: 'The last operation the machine controller ran.' },
      ),
    ),
    phase: Type.Optional(typedString<MachinePhase>('Provisioning, Provisioned, Running, Deleting or Failed.')),
    conditions: Type.Optional(
      Type.Array(MachineConditionSchema, { description: 'Observations of the state of the machine.' }),
    ),
  },
  { description: 'The observed state of the machine.' },
);

/** A whole Machine. */
export const MachineSchema = Type.Object(
  { ...typeMeta(), spec: Type.Optional(MachineSpecSchema), status: Type.Optional(MachineStatusSchema) },
  { description: 'A host of the cluster: a cloud instance or bare-metal machine.' },
);

/** Printer columns of `oc get machines` (Node, ProviderID and State with -o wide). */
export const MACHINE_PRINTER_COLUMNS = [
  { name: 'Phase', type: 'string', jsonPath: '.status.phase', description: 'Phase of the machine.' },
  {
    name: 'Type',
    type: 'string',
    jsonPath: ".metadata.labels['machine.openshift.io/instance-type']",
    description: 'Instance type.',
  },
  {
    name: 'Region',
    type: 'string',
    jsonPath: ".metadata.labels['machine.openshift.io/region']",
    description: 'Region of the machine.',
  },
  {
    name: 'Zone',
    type: 'string',
    jsonPath: ".metadata.labels['machine.openshift.io/zone']",
    description: 'Zone of the machine.',
  },
  { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: 'Age of the machine.' },
  { name: 'Node', type: 'string', jsonPath: '.status.nodeRef.name', description: 'Node of the machine.', priority: 1 },
  {
    name: 'ProviderID',
    type: 'string',
    jsonPath: '.spec.providerID',
    description: 'ID of the instance at the provider.',
    priority: 1,
  },
  {
    name: 'State',
    type: 'string',
    jsonPath: ".metadata.annotations['machine.openshift.io/instance-state']",
    description: 'State of the instance.',
    priority: 1,
  },
] as const;
