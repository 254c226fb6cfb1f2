/**
 * Schema of OpenShift's ClusterVersion (config.openshift.io/v1) for its CRD: fields, required
 * lists, enums and validation as openshift/api's Default feature set serves them
 * (docs/design/cluster-model.md#clusterversion). The plain TS types live in `cluster-version.ts`;
 * `schema-types.test.ts` proves the two agree.
 */
import { Type } from 'typebox';
import { conditions, dateTime, listMap, nullable, stringEnum, toJsonSchema, typeMeta } from '../../schema.js';
import { clusterVersionSpecSchema } from '../../managedupgrade.appuio.io/v1beta1/cluster-version-spec.js';
import { ClusterOperatorStatusConditionSchema, typedString, withRequired } from '../schema-common.js';
import { CAPABILITIES, type ClusterVersionSpec, type UpdateState } from './cluster-version.js';
import type { JsonObject } from '../../../lib/json.js';

/** `configv1.Release`: a release image and its metadata. */
export const ReleaseSchema = withRequired(
  Type.Object(
    {
      version: Type.String({ description: 'Semantic version of the release.' }),
      image: Type.String({ description: 'Pull spec of the release image.' }),
      url: Type.Optional(
        Type.String({
          description: 'Link to information about the release (errata), from the update service metadata.',
        }),
      ),
      channels: Type.Optional(
        Type.Array(Type.String(), { description: 'Update channels the release belongs to, sorted.' }),
      ),
      architecture: Type.Optional(stringEnum(['Multi', ''], 'Multi for a multi-architecture payload, else empty.')),
    },
    { description: 'An OpenShift release image and its metadata.' },
  ),
  [],
);

/** One entry of `status.history`, newest first. */
export const UpdateHistorySchema = withRequired(
  Type.Object(
    {
      state: typedString<UpdateState>(
        'Completed once every part of the update was applied at least once, else Partial.',
      ),
      startedTime: dateTime('When the update started.'),
      completionTime: nullable(
        dateTime('When the update was fully applied or superseded; null while it is in progress.'),
      ),
      version: Type.String({
        description: 'Semantic version of the update; may be empty when the image carries none.',
      }),
      image: Type.String({ description: 'Pull spec of the release image of the update.' }),
      verified: Type.Boolean({ description: 'Whether the release image was verified before it was applied.' }),
      acceptedRisks: Type.Optional(
        Type.String({
          description: 'Risks overridden to start the update (forced verification, failed preconditions).',
        }),
      ),
    },
    { description: 'One attempted update of the cluster.' },
  ),
  ['completionTime', 'image', 'startedTime', 'state', 'verified'],
);

/** One rule of a conditional-update risk. */
export const ClusterConditionSchema = Type.Object(
  {
    type: stringEnum(['Always', 'PromQL'], 'Kind of rule: Always matches; PromQL runs a query.'),
    promql: Type.Optional(
      Type.Object(
        {
          promql: Type.String({
            description: 'A PromQL query returning one sample: 1 when the cluster is exposed, 0 when not.',
          }),
        },
        { description: 'A rule evaluated with PromQL.' },
      ),
    ),
  },
  { description: 'A rule deciding whether a cluster is exposed to a risk.' },
);

/** A known risk of a conditional update. */
export const ConditionalUpdateRiskSchema = Type.Object(
  {
    url: Type.String({ description: 'Link to details of the risk.', format: 'uri', minLength: 1 }),
    name: Type.String({ description: 'CamelCase name of the risk.', minLength: 1 }),
    message: Type.String({
      description: 'Human-readable description of the risk; may contain line feeds.',
      minLength: 1,
    }),
    matchingRules: Type.Array(ClusterConditionSchema, {
      description: 'Rules in decreasing precedence; the first one that evaluates decides.',
      minItems: 1,
      'x-kubernetes-list-type': 'atomic',
    }),
    conditions: Type.Optional(
      conditions('Observations of the risk, e.g. Applies (feature gate ClusterUpdateAcceptRisks).'),
    ),
  },
  { description: 'A reason not to recommend a conditional update, and the clusters it applies to.' },
);

/** An update recommended only to clusters that are not exposed to its risks. */
export const ConditionalUpdateSchema = Type.Object(
  {
    release: ReleaseSchema,
    risks: listMap(
      ConditionalUpdateRiskSchema,
      ['name'],
      'Risks of the update; it is recommended only if none applies.',
      { minItems: 1 },
    ),
    conditions: Type.Optional(conditions('Observations of the update, e.g. Recommended.')),
    riskNames: Type.Optional(
      Type.Array(Type.String(), {
        description:
          'Names of the risks, pointing into conditionalUpdateRisks (feature gate ClusterUpdateAcceptRisks).',
      }),
    ),
  },
  { description: 'An update that may be recommended, depending on the cluster.' },
);

const capabilityList = (description: string) =>
  Type.Array(stringEnum(CAPABILITIES, 'An optional cluster capability.'), {
    description,
    'x-kubernetes-list-type': 'atomic',
  });

/** `status` of ClusterVersion. */
export const ClusterVersionStatusSchema = Type.Object(
  {
    desired: ReleaseSchema,
    history: Type.Optional(Type.Array(UpdateHistorySchema, { description: 'The most recent updates, newest first.' })),
    observedGeneration: Type.Integer({ description: 'The spec generation being synced.', format: 'int64' }),
    versionHash: Type.String({ description: 'Fingerprint of the payload content being applied.' }),
    capabilities: Type.Optional(
      Type.Object(
        {
          enabledCapabilities: Type.Optional(capabilityList('Capabilities currently managed.')),
          knownCapabilities: Type.Optional(capabilityList('Capabilities known to the current release.')),
        },
        { description: 'The state of the optional cluster capabilities.' },
      ),
    ),
    conditions: Type.Optional(
      Type.Array(ClusterOperatorStatusConditionSchema, {
        description: 'Conditions of the cluster version operator; find them by type.',
      }),
    ),
    availableUpdates: nullable(
      Type.Array(ReleaseSchema, { description: 'Recommended updates, newest first; null when there are none.' }),
    ),
    conditionalUpdates: Type.Optional(
      Type.Array(ConditionalUpdateSchema, {
        description: 'Updates recommended only to some clusters, newest first.',
        'x-kubernetes-list-type': 'atomic',
      }),
    ),
    conditionalUpdateRisks: Type.Optional(
      listMap(
        ConditionalUpdateRiskSchema,
        ['name'],
        'Every risk of the conditional updates, by name (feature gate ClusterUpdateAcceptRisks).',
      ),
    ),
  },
  { description: 'What the cluster version operator observes: the desired release, history, updates and conditions.' },
);

/** The spec schema shared with APPUiO's copy, with the description the real CRD gives desiredUpdate. */
function specSchema() {
  const shared = toJsonSchema(
    clusterVersionSpecSchema('The desired state of the cluster version; the operator works towards it.', true),
  );
  const props = shared['properties'] as JsonObject;
  props['desiredUpdate'] = {
    ...(props['desiredUpdate'] as JsonObject),
    description:
      'The release the cluster should run. Setting it starts an update; version alone must name an available update, image names any release.',
  };
  return Type.Unsafe<ClusterVersionSpec>(shared);
}

/** openshift/api's CEL rules on the whole ClusterVersion, with their exact messages. */
export const CLUSTER_VERSION_VALIDATIONS = [
  {
    rule: "has(self.spec.capabilities) && has(self.spec.capabilities.additionalEnabledCapabilities) && self.spec.capabilities.baselineCapabilitySet == 'None' && 'baremetal' in self.spec.capabilities.additionalEnabledCapabilities ? 'MachineAPI' in self.spec.capabilities.additionalEnabledCapabilities || (has(self.status) && has(self.status.capabilities) && has(self.status.capabilities.enabledCapabilities) && 'MachineAPI' in self.status.capabilities.enabledCapabilities) : true",
    message:
      'the `baremetal` capability requires the `MachineAPI` capability, which is neither explicitly or implicitly enabled in this cluster, please enable the `MachineAPI` capability',
  },
  {
    rule: "has(self.spec.capabilities) && has(self.spec.capabilities.additionalEnabledCapabilities) && self.spec.capabilities.baselineCapabilitySet == 'None' && 'marketplace' in self.spec.capabilities.additionalEnabledCapabilities ? 'OperatorLifecycleManager' in self.spec.capabilities.additionalEnabledCapabilities || (has(self.status) && has(self.status.capabilities) && has(self.status.capabilities.enabledCapabilities) && 'OperatorLifecycleManager' in self.status.capabilities.enabledCapabilities) : true",
    message:
      'the `marketplace` capability requires the `OperatorLifecycleManager` capability, which is neither explicitly or implicitly enabled in this cluster, please enable the `OperatorLifecycleManager` capability',
  },
] as const;

/** A whole ClusterVersion. */
export const ClusterVersionSchema = Type.Object(
  {
    ...typeMeta(),
    spec: specSchema(),
    status: Type.Optional(ClusterVersionStatusSchema),
  },
  {
    description:
      'The configuration of the cluster version operator: the desired release, update channel and service; status reports updates.',
    'x-kubernetes-validations': CLUSTER_VERSION_VALIDATIONS.map((v) => ({ ...v })),
  },
);

/** Printer columns of `oc get clusterversion`. */
export const CLUSTER_VERSION_PRINTER_COLUMNS = [
  { name: 'Version', type: 'string', jsonPath: '.status.history[?(@.state=="Completed")].version' },
  { name: 'Available', type: 'string', jsonPath: '.status.conditions[?(@.type=="Available")].status' },
  { name: 'Progressing', type: 'string', jsonPath: '.status.conditions[?(@.type=="Progressing")].status' },
  { name: 'Since', type: 'date', jsonPath: '.status.conditions[?(@.type=="Progressing")].lastTransitionTime' },
  { name: 'Status', type: 'string', jsonPath: '.status.conditions[?(@.type=="Progressing")].message' },
] as const;
