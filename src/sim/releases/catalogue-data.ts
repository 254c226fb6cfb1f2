/**
 * The default release catalogue of the simulation: OCP 4.13–4.16 z-streams, their minor-update
 * floors and the blocked edges (risks). Dates follow the real release cadence closely enough
 * (4.13.0 2023-05-17, 4.14.0 2023-10-31, 4.15.0 2024-02-27, 4.16.0 2024-06-27; about weekly
 * z-streams, then every other week); individual dates, skipped z numbers and most errata numbers
 * are illustrative. The risks of the sample graph (docs/design/cluster-model.md#the-sample-graph)
 * are reproduced on the same edges.
 */
import type { BlockedEdge, MinorStream } from './catalogue.js';

/** The four minors, oldest first. */
export const DEFAULT_MINORS: readonly MinorStream[] = [
  { minor: 13, gaDate: '2023-05-17', lastPatch: 54, skip: [9, 16, 33, 47] },
  // 4.13.z from 4.13.15 on may update to 4.14.
  { minor: 14, gaDate: '2023-10-31', lastPatch: 45, skip: [4, 22, 39], minorFloor: 15 },
  { minor: 15, gaDate: '2024-02-27', lastPatch: 38, skip: [1, 7, 26], minorFloor: 8 },
  { minor: 16, gaDate: '2024-06-27', lastPatch: 28, skip: [1, 12], minorFloor: 12 },
];

/**
 * Errata URLs that appear in the reference examples (src/api/openshift/testdata/examples.json,
 * docs/design/cluster-model.md#the-sample-graph).
 */
export const PINNED_ERRATA: Readonly<Record<string, string>> = {
  '4.14.10': 'https://access.redhat.com/errata/RHSA-2024:0290',
  '4.14.11': 'https://access.redhat.com/errata/RHSA-2024:0484',
  '4.14.12': 'https://access.redhat.com/errata/RHSA-2024:0741',
  '4.15.2': 'https://access.redhat.com/errata/RHSA-2024:1063',
  '4.15.3': 'https://access.redhat.com/errata/RHSA-2024:1210',
};

const OLM_FAILED_PROMQL = '(\n  group(csv_succeeded{_id=""})\n  or\n  0 * group(csv_count{_id=""})\n)\n';
const AWS_PROMQL =
  '(\n  group by (type) (cluster_infrastructure_provider{_id="",type="AWS"})\n  or\n  0 * group by (type) (cluster_infrastructure_provider{_id=""})\n)\n';
const AZURE_PROMQL =
  '(\n  group by (type) (cluster_infrastructure_provider{_id="",type="Azure"})\n  or\n  0 * group by (type) (cluster_infrastructure_provider{_id=""})\n)\n';
const BAREMETAL_PROMQL =
  '(\n  group by (type) (cluster_infrastructure_provider{_id="",type="BareMetal"})\n  or\n  0 * group by (type) (cluster_infrastructure_provider{_id=""})\n)\n';

/**
 * Blocked edges in the shape of cincinnati-graph-data's `blocked-edges/<to>-<Name>.yaml`. With
 * `matchingRules` an edge becomes conditional; without, it is removed. The first three are the
 * sample graph (docs/design/cluster-model.md#the-sample-graph); the others are illustrative, shaped
 * like real entries.
 */
export const DEFAULT_BLOCKED_EDGES: readonly BlockedEdge[] = [
  {
    to: '4.15.3',
    from: '4[.]14[.]1[01]',
    name: 'OLMOperatorsInFailedState',
    url: 'https://issues.redhat.com/browse/OPRUN-3267',
    message:
      "The Operator Lifecycle Manager (OLM) operators can't be upgraded and may incorrectly report failed status.",
    matchingRules: [{ type: 'PromQL', promql: { promql: OLM_FAILED_PROMQL } }],
  },
  {
    to: '4.15.3',
    from: '4[.]14[.]1[01]',
    name: 'AWSCustomDomainNodesNotReady',
    url: 'https://issues.redhat.com/browse/MCO-1031',
    message: 'Nodes on AWS with custom domain names will go to NotReady state.',
    matchingRules: [{ type: 'PromQL', promql: { promql: AWS_PROMQL } }],
  },
  {
    to: '4.15.2',
    from: '4[.]14[.]10',
    name: 'PreRelease',
    url: 'https://issues.redhat.com/browse/OTA-1599',
    message: 'Synthetic example of an Always-matching risk.',
    matchingRules: [{ type: 'Always' }],
  },
  {
    to: '4.14.0',
    from: '4[.]13[.].*',
    name: 'AzureRegistryImageMigrationUserProvisioned',
    url: 'https://issues.redhat.com/browse/IR-461',
    message:
      'Azure clusters with user-provisioned infrastructure may lose access to their internal image registry storage.',
    matchingRules: [{ type: 'PromQL', promql: { promql: AZURE_PROMQL } }],
  },
  {
    to: '4.16.0',
    from: '4[.]15[.].*',
    name: 'BareMetalProvisioningNetworkRegression',
    url: 'https://issues.redhat.com/browse/OCPBUGS-35012',
    message: 'Bare-metal clusters with a provisioning network may fail to reprovision hosts after the update.',
    matchingRules: [{ type: 'PromQL', promql: { promql: BAREMETAL_PROMQL } }],
  },
  {
    to: '4.16.3',
    from: '4[.]16[.][0-2]',
    name: 'APIRemovedInNextEUSReleaseInUse',
    url: 'https://issues.redhat.com/browse/OCPBUGS-36410',
    message:
      'Clusters using the removed API may fail to update; the update is only recommended once the API is no longer used.',
    matchingRules: [
      {
        type: 'PromQL',
        promql: {
          promql:
            'group(apiserver_requested_deprecated_apis{_id="",removed_release="1.29"}) or 0 * group(cluster_version{_id=""})\n',
        },
      },
    ],
  },
  // Removed outright (no matchingRules): nobody is offered 4.13.2 → 4.13.3.
  {
    to: '4.13.3',
    from: '4[.]13[.]2',
    name: 'IngressControllerCrashOnUpdate',
    url: 'https://issues.redhat.com/browse/OCPBUGS-14526',
    message: 'Ingress controllers may crash-loop during this update.',
  },
];
