/**
 * Builders shared by the install manifests of both flows (`deploy/managed/` for the managed
 * flow, `deploy/scheduled/` for the scheduled one): the document and file shapes the
 * renderer writes, object metadata, the Namespace and ServiceAccount, RBAC Roles built from
 * permission grants (each rule with its reason), the monitoring roles, the pod's probes and
 * security context, and the metrics Services with their ServiceMonitors. Pure functions.
 */
import type {
  Namespace,
  Probe,
  SecurityContext,
  Service,
  ServiceAccount,
  PodSecurityContext,
  EnvVar,
} from 'kubernetes-types/core/v1.js';
import type {
  ClusterRole,
  ClusterRoleBinding,
  PolicyRule,
  Role,
  RoleBinding,
  Subject,
} from 'kubernetes-types/rbac/v1.js';
import type { JsonObject } from '../../lib/json.js';

/** Name of the Deployment, ServiceAccount, ClusterRole and Roles. */
export const OPERATOR_NAME = 'upgrade-operator';
/** The image repository; the tag is the package version. */
export const OPERATOR_IMAGE_REPOSITORY = 'quay.io/upgrade-operator/upgrade-operator';
/** The label every object carries and the Deployment selects its pods by. */
export const OPERATOR_LABELS: Readonly<Record<string, string>> = { 'app.kubernetes.io/name': OPERATOR_NAME };
/** The OpenShift monitoring namespace (Prometheus, Alertmanager, their service account). */
export const MONITORING_NAMESPACE = 'openshift-monitoring';
/** The label that makes the platform Prometheus scrape a namespace. */
export const CLUSTER_MONITORING_LABEL = 'openshift.io/cluster-monitoring';

/**
 * The V8 options the Deployments run the operator with (`NODE_OPTIONS`): the old-space cap below
 * the memory limit, and young-generation semi-spaces of 2 MiB instead of Node's default of up to
 * 16 MiB. The operator's allocations are small and short-lived (informer LIST pages, JSON
 * bodies), so the bigger semi-spaces buy little but stay committed after every LIST burst: with
 * 2 MiB the informer footprint benchmark (500 Nodes, 10,000 Pods) stays near 105–120 MiB RSS
 * instead of about 130–150. The benchmark runs its runtime process with these same options.
 */
export function operatorNodeOptions(maxOldSpaceMib: number): string {
  return `--max-old-space-size=${maxOldSpaceMib} --max-semi-space-size=2`;
}

/** A ServiceMonitor (monitoring.coreos.com/v1): only the fields written here. */
export interface ServiceMonitor {
  apiVersion: 'monitoring.coreos.com/v1';
  kind: 'ServiceMonitor';
  metadata: { name: string; namespace: string; labels: Record<string, string> };
  spec: {
    endpoints: Array<{
      port: string;
      path: string;
      scheme: 'http' | 'https';
      interval: string;
      metricRelabelings?: MetricRelabeling[];
    }>;
    selector: { matchLabels: Record<string, string> };
  };
}

/** One `metricRelabelings` entry of a ServiceMonitor endpoint (the fields written here). */
export interface MetricRelabeling {
  action: 'keep' | 'drop';
  sourceLabels: string[];
  regex: string;
}

/** One YAML document: an object, a comment above it, and optional comments above each of its `rules`. */
export interface ManifestDocument {
  object: JsonObject;
  comment?: string;
  ruleComments?: string[];
}

/** One file of a manifest folder. */
export interface ManifestFile {
  name: string;
  documents: ManifestDocument[];
}

/** Where a rule applies. */
export type GrantScope =
  | { kind: 'cluster' }
  /** The operator's own namespace (where its Deployment runs). */
  | { kind: 'operator-namespace' }
  | { kind: 'namespace'; namespace: string };

/** One RBAC rule and why the operator needs it. */
export interface PermissionGrant {
  scope: GrantScope;
  rule: PolicyRule;
  /** Why, in one sentence. */
  reason: string;
  /** The source files whose requests need the rule. */
  code: string[];
}

/** A PolicyRule; `resourceNames` only when given. */
export function policyRule(
  apiGroups: string[],
  resources: string[],
  verbs: string[],
  resourceNames?: string[],
): PolicyRule {
  return { apiGroups, resources, verbs, ...(resourceNames ? { resourceNames } : {}) };
}

/** A typed Kubernetes object as the plain JSON the renderer takes (drops undefined fields). */
export function toJsonObject(value: object): JsonObject {
  return JSON.parse(JSON.stringify(value)) as JsonObject;
}

/** Object metadata with the operator's labels (plus `extraLabels`). */
export function objectMeta(
  name: string,
  namespace?: string,
  extraLabels: Record<string, string> = {},
): { name: string; namespace?: string; labels: Record<string, string> } {
  return { name, ...(namespace !== undefined ? { namespace } : {}), labels: { ...OPERATOR_LABELS, ...extraLabels } };
}

/** The operator's ServiceAccount as a binding subject. */
export function serviceAccountSubject(namespace: string): Subject {
  return { kind: 'ServiceAccount', name: OPERATOR_NAME, namespace };
}

/** The operator's Namespace, labelled so that the platform Prometheus scrapes it. */
export function namespaceObject(namespace: string): Namespace {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: objectMeta(namespace, undefined, { [CLUSTER_MONITORING_LABEL]: 'true' }),
  };
}

/** The operator's ServiceAccount (its token also authenticates to Prometheus). */
export function serviceAccountObject(namespace: string): ServiceAccount {
  return { apiVersion: 'v1', kind: 'ServiceAccount', metadata: objectMeta(OPERATOR_NAME, namespace) };
}

/** The namespace a grant applies in: undefined for cluster-wide. */
export function namespaceOfScope(scope: GrantScope, operatorNamespace: string): string | undefined {
  return scope.kind === 'cluster'
    ? undefined
    : scope.kind === 'operator-namespace'
      ? operatorNamespace
      : scope.namespace;
}

/** One Role (namespace set) or ClusterRole (namespace undefined) made of grants, and who gets it. */
export interface RoleSpec {
  name: string;
  namespace: string | undefined;
  /** The comment above the role's document. */
  comment: string;
  grants: PermissionGrant[];
}

function ruleComment(permissionGrant: PermissionGrant): string {
  return ` ${permissionGrant.reason} (${permissionGrant.code.join(', ')})`;
}

/** The role of `spec` (each rule commented with its reason and code) and its binding to `subjects`. */
export function roleDocuments(spec: RoleSpec, subjects: Subject[]): ManifestDocument[] {
  const rules: PolicyRule[] = spec.grants.map((g) => g.rule);
  const ruleComments = spec.grants.map(ruleComment);
  if (spec.namespace === undefined) {
    const role: ClusterRole = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: objectMeta(spec.name),
      rules,
    };
    const binding: ClusterRoleBinding = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: objectMeta(spec.name),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: spec.name },
      subjects,
    };
    return [{ object: toJsonObject(role), comment: spec.comment, ruleComments }, { object: toJsonObject(binding) }];
  }
  const role: Role = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: objectMeta(spec.name, spec.namespace),
    rules,
  };
  const binding: RoleBinding = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: objectMeta(spec.name, spec.namespace),
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: spec.name },
    subjects,
  };
  return [{ object: toJsonObject(role), comment: spec.comment, ruleComments }, { object: toJsonObject(binding) }];
}

/** Binds the operator (in `namespace`) to OpenShift's `cluster-monitoring-view` ClusterRole: Prometheus queries with its own token. */
export function monitoringViewBinding(
  namespace: string,
  name = `${OPERATOR_NAME}-cluster-monitoring-view`,
): ClusterRoleBinding {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: objectMeta(name),
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-monitoring-view' },
    subjects: [serviceAccountSubject(namespace)],
  };
}

/** The Role and RoleBinding that let the platform Prometheus discover the metrics endpoints of `namespace`. */
export function prometheusScrapeDocuments(namespace: string): ManifestDocument[] {
  const scrapeRules: PolicyRule[] = [
    { apiGroups: [''], resources: ['services', 'endpoints', 'pods'], verbs: ['get', 'list', 'watch'] },
    { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['get', 'list', 'watch'] },
  ];
  const scrape: Role = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: objectMeta('prometheus-k8s', namespace),
    rules: scrapeRules,
  };
  const scrapeBinding: RoleBinding = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: objectMeta('prometheus-k8s', namespace),
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'prometheus-k8s' },
    subjects: [{ kind: 'ServiceAccount', name: 'prometheus-k8s', namespace: MONITORING_NAMESPACE }],
  };
  return [
    {
      object: toJsonObject(scrape),
      comment: ' Lets the platform Prometheus discover the metrics endpoints of this namespace (ServiceMonitors).',
      ruleComments: [' Service discovery through Endpoints', ' Service discovery through EndpointSlices'],
    },
    { object: toJsonObject(scrapeBinding) },
  ];
}

/** An environment variable from the pod's own fields (downward API). */
export function fieldEnv(name: string, fieldPath: string): EnvVar {
  return { name, valueFrom: { fieldRef: { fieldPath } } };
}

/** An HTTP probe on the named probes port. */
export function httpProbe(path: string, portName: string, periodSeconds: number): Probe {
  return { httpGet: { path, port: portName, scheme: 'HTTP' }, periodSeconds, timeoutSeconds: 5, failureThreshold: 3 };
}

/** The pod security context of the `restricted-v2` SCC: non-root with the user OpenShift assigns, seccomp RuntimeDefault. */
export function restrictedPodSecurityContext(): PodSecurityContext {
  return { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } };
}

/** The container security context of `restricted-v2`, with a read-only root filesystem. */
export function restrictedContainerSecurityContext(): SecurityContext {
  return {
    allowPrivilegeEscalation: false,
    readOnlyRootFilesystem: true,
    runAsNonRoot: true,
    capabilities: { drop: ['ALL'] },
  };
}

/** The annotation that pins the pod to the `restricted-v2` SCC. */
export const REQUIRED_SCC_ANNOTATIONS: Readonly<Record<string, string>> = {
  'openshift.io/required-scc': 'restricted-v2',
};

/** A ClusterIP Service in front of one named container port of the operator pod. */
export function metricsService(
  namespace: string,
  name: string,
  component: string,
  port: { port: number; name: string },
): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: objectMeta(name, namespace, { 'app.kubernetes.io/component': component }),
    spec: {
      type: 'ClusterIP',
      selector: { ...OPERATOR_LABELS },
      ports: [{ name: port.name, port: port.port, targetPort: port.name, protocol: 'TCP' }],
    },
  };
}

/**
 * The ServiceMonitor of the Service with `component`'s label: `/metrics` over HTTP every 30 s. It
 * has no `namespaceSelector`: Prometheus Operator then looks in the ServiceMonitor's own
 * namespace, so the install can move to another namespace (kustomization.yaml) as a whole.
 */
export function serviceMonitor(
  namespace: string,
  name: string,
  component: string,
  portName: string,
  metricRelabelings?: MetricRelabeling[],
): ServiceMonitor {
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'ServiceMonitor',
    metadata: { name, namespace, labels: { ...OPERATOR_LABELS, 'app.kubernetes.io/component': component } },
    spec: {
      endpoints: [
        {
          port: portName,
          path: '/metrics',
          scheme: 'http',
          interval: '30s',
          ...(metricRelabelings ? { metricRelabelings } : {}),
        },
      ],
      selector: { matchLabels: { ...OPERATOR_LABELS, 'app.kubernetes.io/component': component } },
    },
  };
}
