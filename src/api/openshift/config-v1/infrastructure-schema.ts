/**
 * Schema of OpenShift's Infrastructure (config.openshift.io/v1, one object `cluster`) for its
 * CRD. The per-platform blocks (`aws`, `vsphere`, …) are kept as written rather than modelled:
 * the upgrade operator reads only the infrastructure name, platform type and topology.
 */
import { Type } from 'typebox';
import { preserveUnknown, stringEnum, typeMeta } from '../../schema.js';
import { PLATFORM_KEYS, PLATFORM_TYPES, TOPOLOGY_MODES } from './infrastructure.js';

function platformBlocks(what: string) {
  const entries = PLATFORM_KEYS.map(
    (k) => [k, Type.Optional(preserveUnknown(`${what} of the ${k} platform, kept as written.`))] as const,
  );
  return Object.fromEntries(entries) as { [K in (typeof PLATFORM_KEYS)[number]]: (typeof entries)[number][1] };
}

/** `spec` of Infrastructure. */
export const InfrastructureSpecSchema = Type.Object(
  {
    cloudConfig: Type.Optional(
      Type.Object(
        {
          key: Type.Optional(Type.String({ description: 'Key of the cloud configuration in the ConfigMap.' })),
          name: Type.Optional(Type.String({ description: 'Name of the ConfigMap in openshift-config.' })),
        },
        { description: 'Where the cloud provider configuration is (deprecated).' },
      ),
    ),
    platformSpec: Type.Optional(
      Type.Object(
        { type: stringEnum(PLATFORM_TYPES, 'The underlying infrastructure provider.'), ...platformBlocks('Settings') },
        { description: 'Desired platform settings.' },
      ),
    ),
  },
  { description: 'Cluster-wide infrastructure settings.' },
);

/** `status.platformStatus`. */
export const PlatformStatusSchema = Type.Object(
  { type: stringEnum(PLATFORM_TYPES, 'The underlying infrastructure provider.'), ...platformBlocks('Status') },
  { description: 'The platform the cluster runs on, and its platform-specific status.' },
);

const topology = (description: string) => stringEnum(TOPOLOGY_MODES, description);

/** `status` of Infrastructure. */
export const InfrastructureStatusSchema = Type.Object(
  {
    infrastructureName: Type.Optional(
      Type.String({
        description: 'Unique ID of the cluster infrastructure, e.g. mycluster-x7k2p; MachineSet names start with it.',
      }),
    ),
    platform: Type.Optional(stringEnum(PLATFORM_TYPES, 'Deprecated: use platformStatus.type.')),
    platformStatus: Type.Optional(PlatformStatusSchema),
    etcdDiscoveryDomain: Type.Optional(Type.String({ description: 'Deprecated: domain used for etcd discovery.' })),
    apiServerURL: Type.Optional(Type.String({ description: 'URL of the external API server.' })),
    apiServerInternalURI: Type.Optional(Type.String({ description: 'URI of the internal API server.' })),
    controlPlaneTopology: Type.Optional(
      topology('How the control plane is run: HighlyAvailable, SingleReplica, External, ….'),
    ),
    infrastructureTopology: Type.Optional(
      topology('How infrastructure workloads are run: HighlyAvailable or SingleReplica.'),
    ),
    cpuPartitioning: Type.Optional(
      stringEnum(['None', 'AllNodes'], 'Whether nodes are set up for CPU partitioning.', { default: 'None' }),
    ),
  },
  { description: 'What the installer and operators observed about the infrastructure.' },
);

/** A whole Infrastructure. */
export const InfrastructureSchema = Type.Object(
  { ...typeMeta(), spec: InfrastructureSpecSchema, status: Type.Optional(InfrastructureStatusSchema) },
  { description: 'Cluster-wide infrastructure configuration: the platform, its name and topology.' },
);
