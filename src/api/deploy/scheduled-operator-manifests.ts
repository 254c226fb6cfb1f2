/**
 * The objects that run `upgrade-operator run --flows scheduled` (the APPUiO-compatible
 * scheduled flow) on OpenShift, in APPUiO's namespace `appuio-openshift-upgrade-controller`:
 * Namespace, ServiceAccount, RBAC (from {@link scheduledOperatorPermissions} and the
 * leader-election Role), the monitoring roles, viewer and editor ClusterRoles for the six
 * managedupgrade.appuio.io kinds, the Deployment, the metrics Service and its ServiceMonitor.
 * Pure builders: `upgrade-operator manifests` renders them to `deploy/scheduled/*.yaml` (a
 * kustomize base), in the order they are created.
 *
 * Every cluster-scoped object, and every Role in a namespace the managed flow's manifests also
 * use (`openshift-machine-api`, `default`), is named `upgrade-operator-scheduled…`, so that
 * applying both folders to one cluster never overwrites the other's roles.
 */
import type { Deployment } from 'kubernetes-types/apps/v1.js';
import type { Namespace, Service, ServiceAccount } from 'kubernetes-types/core/v1.js';
import type { ClusterRole, PolicyRule } from 'kubernetes-types/rbac/v1.js';
import { prometheusRule, scheduledUpgradeRuleGroup } from './alert-rules.js';
import { ManagedClusterVersionResource } from '../managedupgrade.appuio.io/v1beta1/cluster-version-contract.js';
import { APPUIO_CONTROLLER_NAMESPACE, APPUIO_GROUP } from '../managedupgrade.appuio.io/v1beta1/group.js';
import { NodeForceDrainResource } from '../managedupgrade.appuio.io/v1beta1/node-force-drain-contract.js';
import { ScheduledUpgradeConfigResource } from '../managedupgrade.appuio.io/v1beta1/upgrade-config-contract.js';
import { UpgradeJobResource } from '../managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import { UpgradeJobHookResource } from '../managedupgrade.appuio.io/v1beta1/upgrade-job-hook-contract.js';
import { UpgradeSuspensionWindowResource } from '../managedupgrade.appuio.io/v1beta1/upgrade-suspension-window-contract.js';
import type { ResourceDescriptor } from '../resource.js';
import {
  OPERATOR_IMAGE_REPOSITORY,
  OPERATOR_LABELS,
  OPERATOR_NAME,
  REQUIRED_SCC_ANNOTATIONS,
  fieldEnv,
  httpProbe,
  metricsService,
  monitoringViewBinding,
  namespaceObject,
  namespaceOfScope,
  objectMeta,
  prometheusScrapeDocuments,
  restrictedContainerSecurityContext,
  restrictedPodSecurityContext,
  roleDocuments,
  serviceAccountObject,
  serviceAccountSubject,
  serviceMonitor,
  toJsonObject,
  type ManifestDocument,
  type ManifestFile,
  type PermissionGrant,
  type RoleSpec,
  type ServiceMonitor,
  operatorNodeOptions,
} from './operator-objects.js';
import { scheduledLeaderElectionPermissions, scheduledOperatorPermissions } from './scheduled-operator-rbac.js';

/** Name of the ClusterRole, ClusterRoleBinding and Roles (distinct from the managed flow's `upgrade-operator`). */
export const SCHEDULED_RBAC_NAME = `${OPERATOR_NAME}-scheduled`;
/** The leader-election Role and RoleBinding. */
export const SCHEDULED_LEADER_ELECTION_ROLE = `${SCHEDULED_RBAC_NAME}-leader-election`;
/** The metrics Service and ServiceMonitor. */
export const SCHEDULED_METRICS_SERVICE_NAME = `${OPERATOR_NAME}-metrics`;
/** The label that aggregates a ClusterRole into OpenShift's `cluster-reader` (APPUiO's viewer roles carry it). */
export const AGGREGATE_TO_CLUSTER_READER = 'rbac.authorization.k8s.io/aggregate-to-cluster-reader';
/** The metric names the ServiceMonitor keeps, as APPUiO's. */
export const SCHEDULED_METRICS_KEEP_REGEX = 'openshift_upgrade_controller_.+';

/** The ports of `run` the pod exposes: metrics (`--metrics-bind-address`) and probes (`--health-probe-bind-address`). */
export const SCHEDULED_OPERATOR_PORTS = {
  metrics: { port: 8383, name: 'http-metrics' },
  probes: { port: 8081, name: 'health' },
} as const;

/**
 * Container resources, set from the measurements of `run --flows scheduled` itself with this
 * Deployment's NODE_OPTIONS (docs/benchmarks.md, benchmark `run-idle`): about 57 MiB resident
 * idle on an empty cluster and 65 MiB with an UpgradeConfig whose schedule names a time zone
 * (the time-zone data is loaded then), with a peak of about 71 MiB while it starts. The flow
 * caches no Pods (it lists them per draining node). APPUiO's controller asks for 10m CPU and
 * 32Mi and is limited to 100m and 128Mi. Requests: APPUiO's 10m CPU; memory 80Mi, the figure
 * with a schedule and some room. Limits: APPUiO's
 * 128Mi memory. NodeForceDrain's jq programs run in a worker thread that adds about 33 MiB while
 * it lives, and jq's WebAssembly memory is not bounded by V8's heap cap: a program that allocates
 * without bound gets the container OOM-killed (and restarted) before its 5 s timeout, where a
 * larger limit would have let the timeout end it. CPU 500m for the same reason as the managed
 * flow (a throttled Node process parses its first LISTs slowly).
 */
export const SCHEDULED_OPERATOR_RESOURCES = {
  requests: { cpu: '10m', memory: '80Mi' },
  limits: { cpu: '500m', memory: '128Mi' },
} as const;
/** V8 old-space cap (MiB) of the main thread, well below the memory limit. */
export const SCHEDULED_MAX_OLD_SPACE_MIB = 64;

/** The six kinds the viewer and editor roles cover. */
export const APPUIO_KINDS: readonly ResourceDescriptor[] = [
  ScheduledUpgradeConfigResource,
  UpgradeJobResource,
  UpgradeJobHookResource,
  UpgradeSuspensionWindowResource,
  ManagedClusterVersionResource,
  NodeForceDrainResource,
];

/** Options of the builders. */
export interface ScheduledOperatorManifestOptions {
  /** The image tag: the package version. */
  version: string;
  /** The Lease of leader election (`--leader-election-id`; `run`'s default for the scheduled flow is APPUiO's `9fced507.appuio.io`). */
  leaseName: string;
  /** Default: `appuio-openshift-upgrade-controller`. */
  namespace?: string;
}

function namespaceOf(options: ScheduledOperatorManifestOptions): string {
  return options.namespace ?? APPUIO_CONTROLLER_NAMESPACE;
}

/** The operator's Namespace, labelled so that the platform Prometheus scrapes it. */
export function scheduledNamespace(options: ScheduledOperatorManifestOptions): Namespace {
  return namespaceObject(namespaceOf(options));
}

/** The operator's ServiceAccount (its token also authenticates to Prometheus). */
export function scheduledServiceAccount(options: ScheduledOperatorManifestOptions): ServiceAccount {
  return serviceAccountObject(namespaceOf(options));
}

/**
 * The roles and what each grants: the ClusterRole, one Role per namespace (first-seen order),
 * then the leader-election Role in the operator namespace.
 */
export function scheduledRoles(options: ScheduledOperatorManifestOptions): RoleSpec[] {
  const ns = namespaceOf(options);
  const groups = new Map<string | undefined, PermissionGrant[]>();
  for (const g of scheduledOperatorPermissions({ leaseName: options.leaseName })) {
    const where = namespaceOfScope(g.scope, ns);
    groups.set(where, [...(groups.get(where) ?? []), g]);
  }
  const roles: RoleSpec[] = [...groups].map(([namespace, grants]) => ({
    name: SCHEDULED_RBAC_NAME,
    namespace,
    comment:
      namespace === undefined
        ? ' What the operator reads and changes cluster-wide.'
        : ` What the operator needs in ${namespace === namespaceOf(options) ? 'its own namespace' : namespace}.`,
    grants,
  }));
  roles.push({
    name: SCHEDULED_LEADER_ELECTION_ROLE,
    namespace: ns,
    comment: ' Leader election: the one Lease.',
    grants: scheduledLeaderElectionPermissions(options),
  });
  return roles;
}

/** RBAC: the ClusterRole with its binding, then the Roles and RoleBindings. */
export function scheduledRbacDocuments(options: ScheduledOperatorManifestOptions): {
  cluster: ManifestDocument[];
  namespaced: ManifestDocument[];
} {
  const subjects = [serviceAccountSubject(namespaceOf(options))];
  const cluster: ManifestDocument[] = [];
  const namespaced: ManifestDocument[] = [];
  for (const role of scheduledRoles(options))
    (role.namespace === undefined ? cluster : namespaced).push(...roleDocuments(role, subjects));
  return { cluster, namespaced };
}

/**
 * Monitoring access: the health checks query Prometheus (critical alerts, custom queries) with
 * the operator's token; the platform Prometheus discovers the metrics endpoint in our namespace.
 * No Alertmanager access: the scheduled flow creates no silences.
 */
export function scheduledMonitoringRbacDocuments(options: ScheduledOperatorManifestOptions): ManifestDocument[] {
  const view = monitoringViewBinding(namespaceOf(options), `${SCHEDULED_RBAC_NAME}-cluster-monitoring-view`);
  return [
    {
      object: toJsonObject(view),
      comment:
        " Prometheus queries of the UpgradeJob health checks (critical alerts, custom queries) with the operator's token.",
    },
    ...prometheusScrapeDocuments(namespaceOf(options)),
  ];
}

/** The singular of a kind, as APPUiO's role names use it (`upgradejob`). */
function singular(resourceDescriptor: ResourceDescriptor): string {
  return resourceDescriptor.kind.toLowerCase();
}

/**
 * Viewer and editor ClusterRoles of the six kinds, as APPUiO ships them: viewers get, list and
 * watch (and read status) and are aggregated into `cluster-reader`; editors may also create,
 * change and delete. Editors are aggregated into nothing: creating an UpgradeJob upgrades the
 * cluster, so it is granted only by binding the role on purpose.
 */
export function scheduledUserRoles(): ClusterRole[] {
  return APPUIO_KINDS.flatMap((resourceDescriptor): ClusterRole[] => {
    const status: PolicyRule = {
      apiGroups: [APPUIO_GROUP],
      resources: [`${resourceDescriptor.plural}/status`],
      verbs: ['get'],
    };
    return [
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: objectMeta(`${OPERATOR_NAME}-${singular(resourceDescriptor)}-viewer-role`, undefined, {
          [AGGREGATE_TO_CLUSTER_READER]: 'true',
        }),
        rules: [
          { apiGroups: [APPUIO_GROUP], resources: [resourceDescriptor.plural], verbs: ['get', 'list', 'watch'] },
          status,
        ],
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: objectMeta(`${OPERATOR_NAME}-${singular(resourceDescriptor)}-editor-role`),
        rules: [
          {
            apiGroups: [APPUIO_GROUP],
            resources: [resourceDescriptor.plural],
            verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
          },
          status,
        ],
      },
    ];
  });
}

/** The operator Deployment: one replica of `run --flows scheduled` (leader election lets more wait as standbys). */
export function scheduledDeployment(options: ScheduledOperatorManifestOptions): Deployment {
  const { metrics, probes } = SCHEDULED_OPERATOR_PORTS;
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: objectMeta(OPERATOR_NAME, namespaceOf(options)),
    spec: {
      replicas: 1,
      selector: { matchLabels: { ...OPERATOR_LABELS } },
      // The new pod syncs its caches as a standby and takes the Lease the old one releases on SIGTERM.
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      template: {
        metadata: { labels: { ...OPERATOR_LABELS }, annotations: { ...REQUIRED_SCC_ANNOTATIONS } },
        spec: {
          serviceAccountName: OPERATOR_NAME,
          securityContext: restrictedPodSecurityContext(),
          terminationGracePeriodSeconds: 30,
          containers: [
            {
              name: OPERATOR_NAME,
              image: `${OPERATOR_IMAGE_REPOSITORY}:${options.version}`,
              imagePullPolicy: 'IfNotPresent',
              // --namespace and --managed-cluster-version-namespace default to POD_NAMESPACE, where the Role grants the six kinds.
              args: ['run', '--flows=scheduled'],
              env: [
                fieldEnv('POD_NAMESPACE', 'metadata.namespace'),
                fieldEnv('POD_NAME', 'metadata.name'),
                { name: 'LOG_LEVEL', value: 'info' },
                { name: 'NODE_OPTIONS', value: operatorNodeOptions(SCHEDULED_MAX_OLD_SPACE_MIB) },
              ],
              ports: [
                { name: metrics.name, containerPort: metrics.port, protocol: 'TCP' },
                { name: probes.name, containerPort: probes.port, protocol: 'TCP' },
              ],
              livenessProbe: httpProbe('/healthz', probes.name, 20),
              readinessProbe: httpProbe('/readyz', probes.name, 10),
              resources: {
                requests: { ...SCHEDULED_OPERATOR_RESOURCES.requests },
                limits: { ...SCHEDULED_OPERATOR_RESOURCES.limits },
              },
              securityContext: restrictedContainerSecurityContext(),
              terminationMessagePolicy: 'FallbackToLogsOnError',
            },
          ],
        },
      },
    },
  };
}

/** The Service of the `openshift_upgrade_controller_*` metrics (8383). */
export function scheduledMetricsService(options: ScheduledOperatorManifestOptions): Service {
  return metricsService(
    namespaceOf(options),
    SCHEDULED_METRICS_SERVICE_NAME,
    'metrics',
    SCHEDULED_OPERATOR_PORTS.metrics,
  );
}

/** Its ServiceMonitor, keeping only `openshift_upgrade_controller_.+` as APPUiO's does. */
export function scheduledServiceMonitor(options: ScheduledOperatorManifestOptions): ServiceMonitor {
  return serviceMonitor(
    namespaceOf(options),
    SCHEDULED_METRICS_SERVICE_NAME,
    'metrics',
    SCHEDULED_OPERATOR_PORTS.metrics.name,
    [{ action: 'keep', sourceLabels: ['__name__'], regex: SCHEDULED_METRICS_KEEP_REGEX }],
  );
}

/** Every object file of `deploy/scheduled/`, numbered in the order they are created. */
export function scheduledOperatorManifestFiles(options: ScheduledOperatorManifestOptions): ManifestFile[] {
  const rbac = scheduledRbacDocuments(options);
  const userRoles = scheduledUserRoles().map((r, i): ManifestDocument => ({
    object: toJsonObject(r),
    ...(i === 0
      ? {
          comment:
            ' For people: read (aggregated into cluster-reader) or edit the six managedupgrade.appuio.io kinds. Bind the editor roles on purpose: an UpgradeJob upgrades the cluster.',
        }
      : {}),
  }));
  return [
    { name: '00-namespace.yaml', documents: [{ object: toJsonObject(scheduledNamespace(options)) }] },
    { name: '01-service-account.yaml', documents: [{ object: toJsonObject(scheduledServiceAccount(options)) }] },
    { name: '02-cluster-role.yaml', documents: rbac.cluster },
    { name: '03-roles.yaml', documents: rbac.namespaced },
    { name: '04-monitoring-rbac.yaml', documents: scheduledMonitoringRbacDocuments(options) },
    { name: '05-user-roles.yaml', documents: userRoles },
    { name: '06-deployment.yaml', documents: [{ object: toJsonObject(scheduledDeployment(options)) }] },
    { name: '07-service.yaml', documents: [{ object: toJsonObject(scheduledMetricsService(options)) }] },
    { name: '08-service-monitor.yaml', documents: [{ object: toJsonObject(scheduledServiceMonitor(options)) }] },
    {
      name: '09-prometheus-rule.yaml',
      documents: [
        {
          object: prometheusRule(namespaceOf(options), SCHEDULED_RBAC_NAME, scheduledUpgradeRuleGroup()),
          comment: ' The scheduled-upgrade alerts (runbooks: docs/runbooks.md).',
        },
      ],
    },
  ];
}
