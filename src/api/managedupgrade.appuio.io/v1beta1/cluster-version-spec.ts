/**
 * Schema of OpenShift's `configv1.ClusterVersionSpec` and `configv1.Update`, embedded by the APPUiO
 * ClusterVersion and UpgradeJob kinds, with openshift/api's validation rules (CEL included) written
 * from docs/design/cluster-model.md#spec-and-desiredupdate and
 * docs/design/scheduled-flow.md#clusterversion.
 */
import { Type, type TUnsafe } from 'typebox';
import { listMap, stringEnum } from '../../schema.js';
import {
  CAPABILITIES,
  CAPABILITY_SETS,
  type ClusterVersionSpec,
  type Update,
} from '../../openshift/config-v1/cluster-version.js';

/** The CEL rules of openshift/api on `Update`, with their exact messages. */
export const UPDATE_VALIDATIONS = [
  {
    rule: 'has(self.architecture) && has(self.image) ? (self.architecture == "" || self.image == "") : true',
    message: 'cannot set both Architecture and Image',
  },
  {
    rule: 'has(self.architecture) && self.architecture != "" ? self.version != "" : true',
    message: 'Version must be set if Architecture is set',
  },
] as const;

/** `configv1.Update`: an administrator's update request. */
export function updateSchema(description: string): TUnsafe<Update> {
  const s = Type.Object(
    {
      architecture: Type.Optional(
        stringEnum(
          ['Multi', ''],
          'Desired cluster architecture: Multi to migrate to a multi-architecture payload, or empty. Needs version; excludes image.',
        ),
      ),
      version: Type.Optional(
        Type.String({ description: 'Semantic version of the update; required when architecture is set.' }),
      ),
      image: Type.Optional(
        Type.String({ description: 'Release image of the update; cannot be combined with architecture.' }),
      ),
      force: Type.Optional(
        Type.Boolean({
          description:
            'Update even if the image failed verification or upgradeable checks. Use only with images verified out of band.',
        }),
      ),
    },
    { description, 'x-kubernetes-validations': UPDATE_VALIDATIONS.map((v) => ({ ...v })) },
  );
  return Type.Unsafe<Update>(s);
}

/**
 * `configv1.ClusterVersionSpec`. With `clusterIDRequired: false` it is APPUiO's overlay copy,
 * whose fields are all optional.
 */
export function clusterVersionSpecSchema(description: string, clusterIDRequired: boolean): TUnsafe<ClusterVersionSpec> {
  const clusterID = Type.String({ description: 'Unique identifier of the cluster: an RFC 4122 UUID.' });
  const s = Type.Object(
    {
      clusterID: clusterIDRequired ? clusterID : Type.Optional(clusterID),
      desiredUpdate: Type.Optional(
        updateSchema('The update the cluster should run. Ignored by the ClusterVersion sync: UpgradeJobs own it.'),
      ),
      upstream: Type.Optional(
        Type.String({ description: 'URL of the update service; empty means the default service.' }),
      ),
      channel: Type.Optional(
        Type.String({ description: 'Update channel, e.g. stable-4.15; empty disables update retrieval.' }),
      ),
      capabilities: Type.Optional(
        Type.Object(
          {
            baselineCapabilitySet: Type.Optional(
              stringEnum(
                CAPABILITY_SETS,
                'Initial set of optional capabilities to enable; unset means the cluster default (vCurrent).',
              ),
            ),
            additionalEnabledCapabilities: Type.Optional(
              Type.Array(stringEnum(CAPABILITIES, 'An optional capability.'), {
                description: 'Capabilities to enable beyond the baseline set.',
                'x-kubernetes-list-type': 'atomic',
              }),
            ),
          },
          { description: 'Which optional core cluster components are installed; null is the same as an empty object.' },
        ),
      ),
      signatureStores: Type.Optional(
        listMap(
          Type.Object(
            {
              url: Type.String({
                description: 'Absolute http or https URL of a release signature store.',
                'x-kubernetes-validations': [{ rule: 'isURL(self)', message: 'url must be a valid absolute URL' }],
              }),
              ca: Type.Optional(
                Type.Object(
                  { name: Type.String({ description: 'Name of the ConfigMap in openshift-config.' }) },
                  { description: 'ConfigMap holding the PEM CA bundle (key ca.crt) that verifies the store.' },
                ),
              ),
            },
            { description: 'A release signature store.' },
          ),
          ['url'],
          'Release signature stores to use instead of the default ones; at most 32.',
          { maxItems: 32 },
        ),
      ),
      overrides: Type.Optional(
        listMap(
          Type.Object(
            {
              kind: Type.String({ description: 'Kind of the object to override.' }),
              group: Type.String({ description: 'API group of the kind.' }),
              namespace: Type.String({ description: 'Namespace of the object; empty for cluster-scoped objects.' }),
              name: Type.String({ description: 'Name of the object.' }),
              unmanaged: Type.Boolean({ description: 'Stop the cluster version operator from managing the object.' }),
            },
            { description: 'An override of how the cluster version operator manages one object.' },
          ),
          ['kind', 'group', 'namespace', 'name'],
          'Objects the cluster version operator must stop managing.',
        ),
      ),
    },
    { description },
  );
  return Type.Unsafe<ClusterVersionSpec>(s);
}
