/**
 * The objects that run `upgrade-operator run` (the managed-upgrade operator) on OpenShift: its
 * Namespace, ServiceAccount, RBAC (from {@link managedOperatorPermissions}, plus the monitoring
 * roles), the operator ConfigMap, the Deployment, the metrics Services and their
 * ServiceMonitors. Pure builders (the shapes both flows share are in operator-objects.ts):
 * `upgrade-operator manifests` renders them to `deploy/managed/*.yaml` (a kustomize base), in
 * the order they are created.
 */
import type { Deployment } from 'kubernetes-types/apps/v1.js';
import type { ConfigMap, Namespace, Service, ServiceAccount } from 'kubernetes-types/core/v1.js';
import type { RoleBinding } from 'kubernetes-types/rbac/v1.js';
import {
  MANAGED_UPGRADE_CONFIG_NAME,
  MANAGED_UPGRADE_CONFIGMAP_KEY,
  MANAGED_UPGRADE_CONFIGMAP_NAME,
  MANAGED_UPGRADE_OPERATOR_NAMESPACE,
} from '../upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { managedOperatorPermissions } from './managed-operator-rbac.js';
import { managedUpgradeRuleGroup, prometheusRule } from './alert-rules.js';
import {
  MONITORING_NAMESPACE,
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
  type ServiceMonitor,
  operatorNodeOptions,
} from './operator-objects.js';

/** The ports of `upgrade-operator run` (its flag defaults) and their names in the pod and the Services. */
export const OPERATOR_PORTS = {
  metrics: { port: 8383, name: 'http-metrics' },
  collector: { port: 8089, name: 'http-collector' },
  probes: { port: 8081, name: 'health' },
} as const;

/**
 * The metrics Services keep MUO's names (`<OPERATOR_NAME>-metrics` and
 * `managed-upgrade-operator-custom-metrics`), so Prometheus' `job` and `service` labels, and
 * the dashboards and alerts that use them, stay the same after switching from MUO.
 */
export const METRICS_SERVICE_NAME = 'managed-upgrade-operator-metrics';
/** See {@link METRICS_SERVICE_NAME}. */
export const COLLECTOR_SERVICE_NAME = 'managed-upgrade-operator-custom-metrics';

/**
 * Container resources, set from the measurements of the `run` process itself with this
 * Deployment's NODE_OPTIONS (docs/benchmarks.md, benchmarks `run-idle` and `run-cached`): about
 * 58 MiB resident idle on an empty cluster, 112 MiB once both flows have cached a 500-node,
 * 10,000-pod cluster, with a peak of 117 MiB while the first LISTs are parsed. Requests: MUO's
 * 20m CPU (the operator is event-driven; idle it uses about 0.5 % of a core, `run-steady`);
 * memory 128Mi, the cached figure rounded up (MUO asks for 100Mi). Limits: 256Mi memory, the
 * peak with room for larger clusters (MUO's is 200Mi); V8's old space is capped well below it
 * (NODE_OPTIONS) so the heap is collected before the kernel kills the container. CPU 500m
 * instead of MUO's 50m: a Go binary parses the first LIST in a fraction of the time, while a
 * throttled Node process would take tens of seconds to become ready.
 */
export const OPERATOR_RESOURCES = {
  requests: { cpu: '20m', memory: '128Mi' },
  limits: { cpu: '500m', memory: '256Mi' },
} as const;
/** V8 old-space cap (MiB), below the memory limit (see {@link OPERATOR_RESOURCES}). */
export const MAX_OLD_SPACE_MIB = 160;

/** Options of the builders. */
export interface ManagedOperatorManifestOptions {
  /** The image tag: the package version. */
  version: string;
  /** The Lease of leader election (`--leader-election-id`). */
  leaseName: string;
  /** Default: `openshift-managed-upgrade-operator`. */
  namespace?: string;
}

function namespaceOf(options: ManagedOperatorManifestOptions): string {
  return options.namespace ?? MANAGED_UPGRADE_OPERATOR_NAMESPACE;
}

/** The operator's Namespace, labelled so that the platform Prometheus scrapes it. */
export function operatorNamespace(options: ManagedOperatorManifestOptions): Namespace {
  return namespaceObject(namespaceOf(options));
}

/** The operator's ServiceAccount (its token also authenticates to Prometheus and Alertmanager). */
export function operatorServiceAccount(options: ManagedOperatorManifestOptions): ServiceAccount {
  return serviceAccountObject(namespaceOf(options));
}

/** The permissions grouped by where they apply: undefined for the ClusterRole, else a namespace (first-seen order). */
export function permissionsByNamespace(
  options: ManagedOperatorManifestOptions,
): Map<string | undefined, PermissionGrant[]> {
  const groups = new Map<string | undefined, PermissionGrant[]>();
  for (const g of managedOperatorPermissions({ leaseName: options.leaseName })) {
    const ns = namespaceOfScope(g.scope, namespaceOf(options));
    groups.set(ns, [...(groups.get(ns) ?? []), g]);
  }
  return groups;
}

/** RBAC: the ClusterRole with its binding, then one Role and RoleBinding per namespace. */
export function operatorRbacDocuments(options: ManagedOperatorManifestOptions): {
  cluster: ManifestDocument[];
  namespaced: ManifestDocument[];
} {
  const subjects = [serviceAccountSubject(namespaceOf(options))];
  const cluster: ManifestDocument[] = [];
  const namespaced: ManifestDocument[] = [];
  for (const [namespace, grants] of permissionsByNamespace(options)) {
    if (namespace === undefined)
      cluster.push(
        ...roleDocuments(
          { name: OPERATOR_NAME, namespace, comment: ' What the operator reads and changes cluster-wide.', grants },
          subjects,
        ),
      );
    else
      namespaced.push(
        ...roleDocuments(
          {
            name: OPERATOR_NAME,
            namespace,
            comment: ` What the operator needs in ${namespace === namespaceOf(options) ? 'its own namespace' : namespace}.`,
            grants,
          },
          subjects,
        ),
      );
  }
  return { cluster, namespaced };
}

/**
 * Monitoring access: the operator queries Prometheus (critical alerts, notification
 * de-duplication, the upgrade result) and creates and expires Alertmanager silences with its
 * own token; the platform Prometheus discovers the metrics endpoints in our namespace.
 */
export function monitoringRbacDocuments(options: ManagedOperatorManifestOptions): ManifestDocument[] {
  const silences: RoleBinding = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: objectMeta(`${OPERATOR_NAME}-alertmanager-edit`, MONITORING_NAMESPACE),
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'monitoring-alertmanager-edit' },
    subjects: [serviceAccountSubject(namespaceOf(options))],
  };
  return [
    {
      object: toJsonObject(monitoringViewBinding(namespaceOf(options))),
      comment:
        " Prometheus queries (critical alerts, notification de-duplication, upgrade result) with the operator's token.",
    },
    {
      object: toJsonObject(silences),
      comment:
        ' Alertmanager silences (maintenance windows): create, list, expire. The Role ships with OpenShift monitoring.',
    },
    ...prometheusScrapeDocuments(namespaceOf(options)),
  ];
}

/** The operator ConfigMap with MUO's sample OSD values (LOCAL policy provider). */
export function operatorConfigMap(options: ManagedOperatorManifestOptions): ConfigMap {
  const config = [
    '# The managed-upgrade operator configuration (docs/configuration.md); read as YAML 1.1.',
    'upgradeType: OSD',
    'configManager:',
    '  source: LOCAL',
    `  localConfigName: ${MANAGED_UPGRADE_CONFIG_NAME}`,
    '  watchInterval: 60',
    'maintenance:',
    '  controlPlaneTime: 90',
    '  ignoredAlerts:',
    '    controlPlaneCriticals: [etcdMembersDown, ClusterOperatorDown]',
    'scale:',
    '  timeOut: 30',
    'upgradeWindow:',
    '  delayTrigger: 30',
    '  timeOut: 120',
    'nodeDrain:',
    '  timeOut: 45',
    '  expectedNodeDrainTime: 8',
    'healthCheck:',
    '  ignoredCriticals: [DNSErrors05MinSRE]',
    '  ignoredNamespaces: [openshift-logging]',
    'environment:',
    '  fedramp: false',
    '',
  ].join('\n');
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: objectMeta(MANAGED_UPGRADE_CONFIGMAP_NAME, namespaceOf(options)),
    data: { [MANAGED_UPGRADE_CONFIGMAP_KEY]: config },
  };
}

/** The operator Deployment: one replica (leader election lets more wait as standbys), on the control plane. */
export function operatorDeployment(options: ManagedOperatorManifestOptions): Deployment {
  const { metrics, collector, probes } = OPERATOR_PORTS;
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
          nodeSelector: { 'node-role.kubernetes.io/master': '' },
          tolerations: [
            { key: 'node-role.kubernetes.io/master', operator: 'Exists', effect: 'NoSchedule' },
            { key: 'node-role.kubernetes.io/master', operator: 'Exists', effect: 'NoExecute' },
          ],
          securityContext: restrictedPodSecurityContext(),
          terminationGracePeriodSeconds: 30,
          containers: [
            {
              name: OPERATOR_NAME,
              image: `${OPERATOR_IMAGE_REPOSITORY}:${options.version}`,
              imagePullPolicy: 'IfNotPresent',
              args: ['run'],
              env: [
                fieldEnv('OPERATOR_NAMESPACE', 'metadata.namespace'),
                fieldEnv('WATCH_NAMESPACE', 'metadata.namespace'),
                fieldEnv('POD_NAME', 'metadata.name'),
                { name: 'UPGRADE_CONFIG_NAMES', value: MANAGED_UPGRADE_CONFIG_NAME },
                { name: 'LOG_LEVEL', value: 'info' },
                { name: 'NODE_OPTIONS', value: operatorNodeOptions(MAX_OLD_SPACE_MIB) },
              ],
              ports: [
                { name: metrics.name, containerPort: metrics.port, protocol: 'TCP' },
                { name: collector.name, containerPort: collector.port, protocol: 'TCP' },
                { name: probes.name, containerPort: probes.port, protocol: 'TCP' },
              ],
              livenessProbe: httpProbe('/healthz', probes.name, 20),
              readinessProbe: httpProbe('/readyz', probes.name, 10),
              resources: { requests: { ...OPERATOR_RESOURCES.requests }, limits: { ...OPERATOR_RESOURCES.limits } },
              securityContext: restrictedContainerSecurityContext(),
              terminationMessagePolicy: 'FallbackToLogsOnError',
            },
          ],
        },
      },
    },
  };
}

/** The Services of the `upgradeoperator_*` gauges (8383) and of the `managed_upgrade_*` collector (8089). */
export function operatorServices(options: ManagedOperatorManifestOptions): Service[] {
  return [
    metricsService(namespaceOf(options), METRICS_SERVICE_NAME, 'metrics', OPERATOR_PORTS.metrics),
    metricsService(namespaceOf(options), COLLECTOR_SERVICE_NAME, 'collector', OPERATOR_PORTS.collector),
  ];
}

/** One ServiceMonitor per metrics Service, for the platform Prometheus. */
export function operatorServiceMonitors(options: ManagedOperatorManifestOptions): ServiceMonitor[] {
  return [
    serviceMonitor(namespaceOf(options), METRICS_SERVICE_NAME, 'metrics', OPERATOR_PORTS.metrics.name),
    serviceMonitor(namespaceOf(options), COLLECTOR_SERVICE_NAME, 'collector', OPERATOR_PORTS.collector.name),
  ];
}

/** Every object file of `deploy/managed/`, numbered in the order they are created. */
export function managedOperatorManifestFiles(options: ManagedOperatorManifestOptions): ManifestFile[] {
  const rbac = operatorRbacDocuments(options);
  return [
    { name: '00-namespace.yaml', documents: [{ object: toJsonObject(operatorNamespace(options)) }] },
    { name: '01-service-account.yaml', documents: [{ object: toJsonObject(operatorServiceAccount(options)) }] },
    { name: '02-cluster-role.yaml', documents: rbac.cluster },
    { name: '03-roles.yaml', documents: rbac.namespaced },
    { name: '04-monitoring-rbac.yaml', documents: monitoringRbacDocuments(options) },
    {
      name: '05-config-map.yaml',
      documents: [
        {
          object: toJsonObject(operatorConfigMap(options)),
          comment: " MUO's sample OSD configuration; edit it, the operator re-reads it on change.",
        },
      ],
    },
    { name: '06-deployment.yaml', documents: [{ object: toJsonObject(operatorDeployment(options)) }] },
    { name: '07-services.yaml', documents: operatorServices(options).map((s) => ({ object: toJsonObject(s) })) },
    {
      name: '08-service-monitors.yaml',
      documents: operatorServiceMonitors(options).map((s) => ({ object: toJsonObject(s) })),
    },
    {
      name: '09-prometheus-rule.yaml',
      documents: [
        {
          object: prometheusRule(namespaceOf(options), OPERATOR_NAME, managedUpgradeRuleGroup()),
          comment: ' The managed-upgrade alerts (runbooks: docs/runbooks.md) and duration records.',
        },
      ],
    },
  ];
}
