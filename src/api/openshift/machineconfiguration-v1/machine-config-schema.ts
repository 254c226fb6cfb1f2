/**
 * Schema of the MCO's MachineConfig (machineconfiguration.openshift.io/v1, short name `mc`) for
 * its CRD. `spec.config` is an Ignition config, kept as written (openshift/api preserves it).
 */
import { Type } from 'typebox';
import { preserveUnknown, typeMeta } from '../../schema.js';

/** `spec` of a MachineConfig. */
export const MachineConfigSpecSchema = Type.Object(
  {
    config: Type.Optional(preserveUnknown('An Ignition config, kept as written.')),
    kernelArguments: Type.Optional(Type.Array(Type.String(), { description: 'Kernel arguments to add to the nodes.' })),
    extensions: Type.Optional(Type.Array(Type.String(), { description: 'RHCOS extensions to install on the nodes.' })),
    fips: Type.Optional(Type.Boolean({ description: 'Run the nodes in FIPS mode.' })),
    kernelType: Type.Optional(Type.String({ description: 'Kernel to run: default or realtime.' })),
    osImageURL: Type.Optional(Type.String({ description: 'The OS image the nodes boot.' })),
    baseOSExtensionsContainerImage: Type.Optional(
      Type.String({ description: 'Image holding the extensions of the OS image.' }),
    ),
  },
  { description: 'The configuration to apply to nodes.' },
);

/** A whole MachineConfig. */
export const MachineConfigSchema = Type.Object(
  { ...typeMeta(), spec: Type.Optional(MachineConfigSpecSchema) },
  { description: 'A piece of node configuration; the MCO merges those of a pool into a rendered config.' },
);

/** Printer columns of `oc get mc`. */
export const MACHINE_CONFIG_PRINTER_COLUMNS = [
  {
    name: 'GeneratedByController',
    type: 'string',
    jsonPath: ".metadata.annotations['machineconfiguration.openshift.io/generated-by-controller-version']",
    description: 'Version of the controller that generated the config.',
  },
  {
    name: 'IgnitionVersion',
    type: 'string',
    jsonPath: '.spec.config.ignition.version',
    description: 'Version of the Ignition config.',
  },
  { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
] as const;
