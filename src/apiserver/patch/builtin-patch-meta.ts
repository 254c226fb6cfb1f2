/**
 * Patch metadata of the built-in kinds the embedded API server serves, transcribed from the
 * `patchStrategy`/`patchMergeKey` struct tags and the `+listType`/`+listMapKey`/`+mapType`
 * markers of k8s.io/api (core/v1, apps/v1, batch/v1, policy/v1, coordination/v1, events/v1, rbac/v1)
 * and k8s.io/apiextensions-apiserver. Only fields with something to say are listed: any other
 * object merges key by key and any other list is atomic (replaced whole).
 */
import type { FieldMeta, PatchMeta } from './patch-meta.js';

/** `patchStrategy:"merge" patchMergeKey:"type"`, `+listType=map +listMapKey=type`. */
const CONDITIONS: FieldMeta = { strategy: 'merge', mergeKey: 'type' };

/** metav1.LabelSelector is `+structType=atomic`. */
const LABEL_SELECTOR: FieldMeta = { mapType: 'atomic' };

/** metav1.ObjectMeta. */
const OBJECT_META: FieldMeta = {
  fields: {
    finalizers: { strategy: 'merge', listType: 'set' },
    ownerReferences: { strategy: 'merge', mergeKey: 'uid' },
    managedFields: { listType: 'atomic' },
  },
};

/** core/v1 Container (and EphemeralContainerCommon, which has the same tags). */
const CONTAINER: FieldMeta = {
  fields: {
    ports: {
      strategy: 'merge',
      mergeKey: 'containerPort',
      listType: 'map',
      listMapKeys: ['containerPort', 'protocol'],
      keyDefaults: { protocol: 'TCP' },
    },
    env: { strategy: 'merge', mergeKey: 'name' },
    volumeMounts: { strategy: 'merge', mergeKey: 'mountPath' },
    volumeDevices: { strategy: 'merge', mergeKey: 'devicePath' },
  },
};

/** core/v1 PodSpec. */
const POD_SPEC: FieldMeta = {
  fields: {
    volumes: { strategy: 'merge,retainKeys', mergeKey: 'name' },
    initContainers: { strategy: 'merge', mergeKey: 'name', items: CONTAINER },
    containers: { strategy: 'merge', mergeKey: 'name', items: CONTAINER },
    ephemeralContainers: { strategy: 'merge', mergeKey: 'name', items: CONTAINER },
    imagePullSecrets: { strategy: 'merge', mergeKey: 'name' },
    hostAliases: { strategy: 'merge', mergeKey: 'ip' },
    topologySpreadConstraints: {
      strategy: 'merge',
      mergeKey: 'topologyKey',
      listType: 'map',
      listMapKeys: ['topologyKey', 'whenUnsatisfiable'],
    },
    schedulingGates: { strategy: 'merge', mergeKey: 'name' },
    resourceClaims: { strategy: 'merge,retainKeys', mergeKey: 'name' },
  },
};

/** core/v1 PodStatus. */
const POD_STATUS: FieldMeta = {
  fields: {
    conditions: CONDITIONS,
    podIPs: { strategy: 'merge', mergeKey: 'ip' },
    hostIPs: { strategy: 'merge', mergeKey: 'ip' },
    resourceClaimStatuses: { strategy: 'merge,retainKeys', mergeKey: 'name' },
  },
};

/** core/v1 PodTemplateSpec. */
const POD_TEMPLATE: FieldMeta = { fields: { metadata: OBJECT_META, spec: POD_SPEC } };

/** A kind: ObjectMeta plus the given top-level fields. */
function kind(fields: Readonly<Record<string, FieldMeta>> = {}): PatchMeta {
  return { fields: { metadata: OBJECT_META, ...fields } };
}

const STATUS_WITH_CONDITIONS: FieldMeta = { fields: { conditions: CONDITIONS } };

const tables: ReadonlyMap<string, PatchMeta> = new Map<string, PatchMeta>([
  ['/Namespace', kind({ status: STATUS_WITH_CONDITIONS })],
  [
    '/Node',
    kind({
      spec: { fields: { podCIDRs: { strategy: 'merge', listType: 'set' } } },
      status: { fields: { conditions: CONDITIONS, addresses: { strategy: 'merge', mergeKey: 'type' } } },
    }),
  ],
  ['/Pod', kind({ spec: POD_SPEC, status: POD_STATUS })],
  ['/ConfigMap', kind()],
  ['/Secret', kind()],
  ['/ServiceAccount', kind({ secrets: { strategy: 'merge', mergeKey: 'name' } })],
  [
    '/Service',
    kind({
      spec: {
        fields: {
          ports: {
            strategy: 'merge',
            mergeKey: 'port',
            listType: 'map',
            listMapKeys: ['port', 'protocol'],
            keyDefaults: { protocol: 'TCP' },
          },
          selector: { mapType: 'atomic' },
        },
      },
      status: STATUS_WITH_CONDITIONS,
    }),
  ],
  ['/Event', kind()],
  ['events.k8s.io/Event', kind()],
  [
    'policy/PodDisruptionBudget',
    kind({ spec: { fields: { selector: LABEL_SELECTOR } }, status: STATUS_WITH_CONDITIONS }),
  ],
  [
    'batch/Job',
    kind({
      spec: { fields: { selector: LABEL_SELECTOR, template: POD_TEMPLATE } },
      // JobStatus.conditions: SMP merges by type, but the list is `+listType=atomic` for apply.
      status: { fields: { conditions: { strategy: 'merge', mergeKey: 'type', listType: 'atomic' } } },
    }),
  ],
  ['coordination.k8s.io/Lease', kind()],
  // rbac/v1: rules, subjects and clusterRoleSelectors are `+listType=atomic`, roleRef a plain struct.
  ['rbac.authorization.k8s.io/Role', kind()],
  [
    'rbac.authorization.k8s.io/ClusterRole',
    kind({ aggregationRule: { fields: { clusterRoleSelectors: { listType: 'atomic', items: LABEL_SELECTOR } } } }),
  ],
  ['rbac.authorization.k8s.io/RoleBinding', kind()],
  ['rbac.authorization.k8s.io/ClusterRoleBinding', kind()],
  [
    'apps/Deployment',
    kind({
      spec: { fields: { selector: LABEL_SELECTOR, template: POD_TEMPLATE, strategy: { strategy: 'retainKeys' } } },
      status: STATUS_WITH_CONDITIONS,
    }),
  ],
  [
    'apps/DaemonSet',
    kind({ spec: { fields: { selector: LABEL_SELECTOR, template: POD_TEMPLATE } }, status: STATUS_WITH_CONDITIONS }),
  ],
  [
    'apiextensions.k8s.io/CustomResourceDefinition',
    kind({ status: { fields: { conditions: { listType: 'map', listMapKeys: ['type'] } } } }),
  ],
]);

/**
 * The patch metadata of a built-in kind the server serves, by API group ('' for core) and kind;
 * undefined for anything else (custom resources take theirs from patchMetaFromSchema).
 */
export function patchMetaFor(group: string, kind: string): PatchMeta | undefined {
  return tables.get(`${group}/${kind}`);
}
