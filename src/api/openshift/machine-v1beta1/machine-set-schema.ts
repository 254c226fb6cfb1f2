/**
 * Schema of the Machine API's MachineSet (machine.openshift.io/v1beta1, with a `scale` subresource)
 * for its CRD (docs/design/cluster-model.md#machinesets). Like openshift/api, the status has no
 * `labelSelector` field, so the Scale's `status.selector` stays empty. Plain TS types:
 * `machine-set.ts`.
 */
import { Type } from 'typebox';
import { labelSelector, listMap, stringEnum, typeMeta } from '../../schema.js';
import { MachineConditionSchema, MachineSpecSchema, machineObjectMetaSchema } from './machine-schema.js';

/** `spec` of a MachineSet. */
export const MachineSetSpecSchema = Type.Object(
  {
    replicas: Type.Optional(
      Type.Integer({ description: 'Desired number of machines; default 1.', format: 'int32', default: 1 }),
    ),
    minReadySeconds: Type.Optional(
      Type.Integer({
        description: 'Seconds a new machine must be ready before it counts as available.',
        format: 'int32',
      }),
    ),
    deletePolicy: Type.Optional(
      stringEnum(['Random', 'Newest', 'Oldest'], 'Which machines go first on scale-down; default Random.'),
    ),
    selector: labelSelector('Machines counted by this MachineSet; must match the template labels.'),
    template: Type.Optional(
      Type.Object(
        {
          metadata: Type.Optional(
            machineObjectMetaSchema('Labels and annotations of the machines made from the template.'),
          ),
          spec: Type.Optional(MachineSpecSchema),
        },
        { description: 'The machine to create when machines are missing.' },
      ),
    ),
    authoritativeAPI: Type.Optional(
      Type.String({ description: 'MachineAPI or ClusterAPI (feature gate MachineAPIMigration).' }),
    ),
  },
  { description: 'The desired machines.' },
);

const count = (description: string) => Type.Optional(Type.Integer({ description, format: 'int32' }));

/** `status` of a MachineSet. */
export const MachineSetStatusSchema = Type.Object(
  {
    replicas: Type.Integer({ description: 'Machines observed.', format: 'int32' }),
    fullyLabeledReplicas: count('Machines whose labels match the template labels.'),
    readyReplicas: count('Machines whose Node is Ready.'),
    availableReplicas: count('Machines ready for at least minReadySeconds.'),
    observedGeneration: Type.Optional(Type.Integer({ description: 'The generation last observed.', format: 'int64' })),
    errorReason: Type.Optional(Type.String({ description: 'Terminal error, machine-readable.' })),
    errorMessage: Type.Optional(Type.String({ description: 'Terminal error, human-readable.' })),
    conditions: Type.Optional(
      listMap(MachineConditionSchema, ['type'], 'Observations of the state of the MachineSet.'),
    ),
  },
  { description: 'The observed state of the MachineSet.' },
);

/** A whole MachineSet. */
export const MachineSetSchema = Type.Object(
  { ...typeMeta(), spec: Type.Optional(MachineSetSpecSchema), status: Type.Optional(MachineSetStatusSchema) },
  { description: 'Keeps a number of machines made from one template.' },
);

/** The `scale` subresource of MachineSet, as openshift/api declares it. */
export const MACHINE_SET_SCALE = {
  specReplicasPath: '.spec.replicas',
  statusReplicasPath: '.status.replicas',
  labelSelectorPath: '.status.labelSelector',
} as const;

/** Printer columns of `oc get machinesets`. */
export const MACHINE_SET_PRINTER_COLUMNS = [
  { name: 'Desired', type: 'integer', jsonPath: '.spec.replicas', description: 'Desired replicas.' },
  { name: 'Current', type: 'integer', jsonPath: '.status.replicas', description: 'Current replicas.' },
  { name: 'Ready', type: 'integer', jsonPath: '.status.readyReplicas', description: 'Ready replicas.' },
  { name: 'Available', type: 'string', jsonPath: '.status.availableReplicas', description: 'Available replicas.' },
  { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: 'Age of the MachineSet.' },
] as const;
