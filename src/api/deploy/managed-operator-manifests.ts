/**
 * The objects that run `upgrade-operator run` (the managed-upgrade operator) on OpenShift: its
 * Namespace, ServiceAccount, RBAC (from {@link managedOperatorPermissions}, plus the monitoring
 * roles), the operator ConfigMap, the Deployment, the metrics Services and their
 * ServiceMonitors. Pure builders: `upgrade-operator manifests` renders them to
 * `deploy/operator/*.yaml`, in the order `kubectl apply -f` must create them.
 */
import type { Deployment } from 'kubernetes-types/apps/v1.js';
import type { ConfigMap, EnvVar, Namespace, Probe, Service, ServiceAccount } from 'kubernetes-types/core/v1.js';
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, Subject } from 'kubernetes-types/rbac/v1.js';
import type { JsonObject } from '../../lib/json.js';
import {
  MANAGED_UPGRADE_CONFIG_NAME,
  MANAGED_UPGRADE_CONFIGMAP_KEY,
  MANAGED_UPGRADE_CONFIGMAP_NAME,
  MANAGED_UPGRADE_OPERATOR_NAMESPACE,
} from '../upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { managedOperatorPermissions, type GrantScope, type PermissionGrant } from './managed-operator-rbac.js';

/** Name of the Deployment, ServiceAccount, ClusterRole and Roles. */
export const OPERATOR_NAME = 'upgrade-operator';
/** The image repository; the tag is the package version. */
export const OPERATOR_IMAGE_REPOSITORY = 'quay.io/upgrade-operator/upgrade-operator';
/** The label every object carries and the Deployment selects its pods by. */
export const OPERATOR_LABELS: Readonly<Record<string, string>> = { 'app.kubernetes.io/name': OPERATOR_NAME };
/** The OpenShift monitoring namespace (Prometheus, Alertmanager, their service account). */
export const MONITORING_NAMESPACE = 'openshift-monitoring';

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
 * Container resources. Requests: MUO's 20m CPU (the operator is event-driven and idles near
 * zero); memory 160Mi, not MUO's 100Mi, because Node itself takes about 65 MiB resident before
 * caching anything and the caches of a 500-node, 10,000-pod cluster bring it to about 141 MiB
 * (docs/benchmarks.md). Limits: 512Mi memory, above the about 194 MiB peak of the initial
 * LIST with room for larger clusters; V8's old space is capped below it (NODE_OPTIONS) so the
 * heap is collected before the kernel kills the container. CPU 500m instead of MUO's 50m: a
 * Go binary parses the first LIST in a fraction of the time, while a throttled Node process
 * would take tens of seconds to become ready.
 */
export const OPERATOR_RESOURCES = {
  requests: { cpu: '20m', memory: '160Mi' },
  limits: { cpu: '500m', memory: '512Mi' },
} as const;
/** V8 old-space cap (MiB), below the memory limit (see {@link OPERATOR_RESOURCES}). */
export const MAX_OLD_SPACE_MIB = 384;

/** Options of the builders. */
export interface ManagedOperatorManifestOptions {
  /** The image tag: the package version. */
  version: string;
  /** The Lease of leader election (`--leader-election-id`). */
  leaseName: string;
  /** Default: `openshift-managed-upgrade-operator`. */
  namespace?: string;
}

/** A ServiceMonitor (monitoring.coreos.com/v1): only the fields written here. */
export interface ServiceMonitor {
  apiVersion: 'monitoring.coreos.com/v1';
  kind: 'ServiceMonitor';
  metadata: { name: string; namespace: string; labels: Record<string, string> };
  spec: {
    endpoints: Array<{ port: string; path: string; scheme: 'http' | 'https'; interval: string }>;
    namespaceSelector: { matchNames: string[] };
    selector: { matchLabels: Record<string, string> };
  };
}

/** One YAML document: an object, a comment above it, and optional comments above each of its `rules`. */
export interface ManifestDocument {
  object: JsonObject;
  comment?: string;
  ruleComments?: string[];
}

/** One file of `deploy/operator/`. */
export interface ManifestFile {
  name: string;
  documents: ManifestDocument[];
}

function json(value: object): JsonObject {
  return JSON.parse(JSON.stringify(value)) as JsonObject;
}

function namespaceOf(o: ManagedOperatorManifestOptions): string {
  return o.namespace ?? MANAGED_UPGRADE_OPERATOR_NAMESPACE;
}

function meta(name: string, namespace?: string, extraLabels: Record<string, string> = {}): { name: string; namespace?: string; labels: Record<string, string> } {
  return { name, ...(namespace !== undefined ? { namespace } : {}), labels: { ...OPERATOR_LABELS, ...extraLabels } };
}

function serviceAccountSubject(o: ManagedOperatorManifestOptions): Subject {
  return { kind: 'ServiceAccount', name: OPERATOR_NAME, namespace: namespaceOf(o) };
}

/** The operator's Namespace, labelled so that the platform Prometheus scrapes it. */
export function operatorNamespace(o: ManagedOperatorManifestOptions): Namespace {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: meta(namespaceOf(o), undefined, { 'openshift.io/cluster-monitoring': 'true' }) };
}

/** The operator's ServiceAccount (its token also authenticates to Prometheus and Alertmanager). */
export function operatorServiceAccount(o: ManagedOperatorManifestOptions): ServiceAccount {
  return { apiVersion: 'v1', kind: 'ServiceAccount', metadata: meta(OPERATOR_NAME, namespaceOf(o)) };
}

function namespaceOfScope(scope: GrantScope, o: ManagedOperatorManifestOptions): string | undefined {
  return scope.kind === 'cluster' ? undefined : scope.kind === 'operator-namespace' ? namespaceOf(o) : scope.namespace;
}

/** The permissions grouped by where they apply: undefined for the ClusterRole, else a namespace (first-seen order). */
export function permissionsByNamespace(o: ManagedOperatorManifestOptions): Map<string | undefined, PermissionGrant[]> {
  const groups = new Map<string | undefined, PermissionGrant[]>();
  for (const g of managedOperatorPermissions({ leaseName: o.leaseName })) {
    const ns = namespaceOfScope(g.scope, o);
    groups.set(ns, [...(groups.get(ns) ?? []), g]);
  }
  return groups;
}

function ruleComment(g: PermissionGrant): string {
  return ` ${g.reason} (${g.code.join(', ')})`;
}

/** RBAC: the ClusterRole with its binding, then one Role and RoleBinding per namespace. */
export function operatorRbacDocuments(o: ManagedOperatorManifestOptions): { cluster: ManifestDocument[]; namespaced: ManifestDocument[] } {
  const groups = permissionsByNamespace(o);
  const subjects = [serviceAccountSubject(o)];
  const cluster: ManifestDocument[] = [];
  const namespaced: ManifestDocument[] = [];
  for (const [ns, grants] of groups) {
    const rules: PolicyRule[] = grants.map((g) => g.rule);
    const comments = grants.map(ruleComment);
    if (ns === undefined) {
      const role: ClusterRole = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: meta(OPERATOR_NAME), rules };
      const binding: ClusterRoleBinding = {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: meta(OPERATOR_NAME),
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: OPERATOR_NAME },
        subjects,
      };
      cluster.push({ object: json(role), comment: ' What the operator reads and changes cluster-wide.', ruleComments: comments }, { object: json(binding) });
      continue;
    }
    const role: Role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: meta(OPERATOR_NAME, ns), rules };
    const binding: RoleBinding = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: meta(OPERATOR_NAME, ns),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: OPERATOR_NAME },
      subjects,
    };
    namespaced.push({ object: json(role), comment: ` What the operator needs in ${ns}.`, ruleComments: comments }, { object: json(binding) });
  }
  return { cluster, namespaced };
}

/**
 * Monitoring access: the operator queries Prometheus (critical alerts, notification
 * de-duplication, the upgrade result) and creates and expires Alertmanager silences with its
 * own token; the platform Prometheus discovers the metrics endpoints in our namespace.
 */
export function monitoringRbacDocuments(o: ManagedOperatorManifestOptions): ManifestDocument[] {
  const ns = namespaceOf(o);
  const subjects = [serviceAccountSubject(o)];
  const view: ClusterRoleBinding = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: meta(`${OPERATOR_NAME}-cluster-monitoring-view`),
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-monitoring-view' },
    subjects,
  };
  const silences: RoleBinding = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: meta(`${OPERATOR_NAME}-alertmanager-edit`, MONITORING_NAMESPACE),
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'monitoring-alertmanager-edit' },
    subjects,
  };
  const scrapeRules: PolicyRule[] = [
    { apiGroups: [''], resources: ['services', 'endpoints', 'pods'], verbs: ['get', 'list', 'watch'] },
    { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['get', 'list', 'watch'] },
  ];
  const scrape: Role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: meta('prometheus-k8s', ns), rules: scrapeRules };
  const scrapeBinding: RoleBinding = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: meta('prometheus-k8s', ns),
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'prometheus-k8s' },
    subjects: [{ kind: 'ServiceAccount', name: 'prometheus-k8s', namespace: MONITORING_NAMESPACE }],
  };
  return [
    { object: json(view), comment: ' Prometheus queries (critical alerts, notification de-duplication, upgrade result) with the operator\'s token.' },
    { object: json(silences), comment: ' Alertmanager silences (maintenance windows): create, list, expire. The Role ships with OpenShift monitoring.' },
    {
      object: json(scrape),
      comment: ' Lets the platform Prometheus discover the metrics endpoints of this namespace (ServiceMonitors).',
      ruleComments: [' Service discovery through Endpoints', ' Service discovery through EndpointSlices'],
    },
    { object: json(scrapeBinding) },
  ];
}

/** The operator ConfigMap with MUO's sample OSD values (LOCAL policy provider). */
export function operatorConfigMap(o: ManagedOperatorManifestOptions): ConfigMap {
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
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta(MANAGED_UPGRADE_CONFIGMAP_NAME, namespaceOf(o)), data: { [MANAGED_UPGRADE_CONFIGMAP_KEY]: config } };
}

function fieldEnv(name: string, fieldPath: string): EnvVar {
  return { name, valueFrom: { fieldRef: { fieldPath } } };
}

/** The operator Deployment: one replica (leader election lets more wait as standbys), on the control plane. */
export function operatorDeployment(o: ManagedOperatorManifestOptions): Deployment {
  const { metrics, collector, probes } = OPERATOR_PORTS;
  const probe = (path: string, periodSeconds: number): Probe => ({
    httpGet: { path, port: probes.name, scheme: 'HTTP' },
    periodSeconds,
    timeoutSeconds: 5,
    failureThreshold: 3,
  });
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta(OPERATOR_NAME, namespaceOf(o)),
    spec: {
      replicas: 1,
      selector: { matchLabels: { ...OPERATOR_LABELS } },
      // The new pod syncs its caches as a standby and takes the Lease the old one releases on SIGTERM.
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      template: {
        metadata: { labels: { ...OPERATOR_LABELS }, annotations: { 'openshift.io/required-scc': 'restricted-v2' } },
        spec: {
          serviceAccountName: OPERATOR_NAME,
          nodeSelector: { 'node-role.kubernetes.io/master': '' },
          tolerations: [
            { key: 'node-role.kubernetes.io/master', operator: 'Exists', effect: 'NoSchedule' },
            { key: 'node-role.kubernetes.io/master', operator: 'Exists', effect: 'NoExecute' },
          ],
          securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
          terminationGracePeriodSeconds: 30,
          containers: [
            {
              name: OPERATOR_NAME,
              image: `${OPERATOR_IMAGE_REPOSITORY}:${o.version}`,
              imagePullPolicy: 'IfNotPresent',
              args: ['run'],
              env: [
                fieldEnv('OPERATOR_NAMESPACE', 'metadata.namespace'),
                fieldEnv('WATCH_NAMESPACE', 'metadata.namespace'),
                fieldEnv('POD_NAME', 'metadata.name'),
                { name: 'UPGRADE_CONFIG_NAMES', value: MANAGED_UPGRADE_CONFIG_NAME },
                { name: 'LOG_LEVEL', value: 'info' },
                { name: 'NODE_OPTIONS', value: `--max-old-space-size=${MAX_OLD_SPACE_MIB}` },
              ],
              ports: [
                { name: metrics.name, containerPort: metrics.port, protocol: 'TCP' },
                { name: collector.name, containerPort: collector.port, protocol: 'TCP' },
                { name: probes.name, containerPort: probes.port, protocol: 'TCP' },
              ],
              livenessProbe: probe('/healthz', 20),
              readinessProbe: probe('/readyz', 10),
              resources: { requests: { ...OPERATOR_RESOURCES.requests }, limits: { ...OPERATOR_RESOURCES.limits } },
              securityContext: {
                allowPrivilegeEscalation: false,
                readOnlyRootFilesystem: true,
                runAsNonRoot: true,
                capabilities: { drop: ['ALL'] },
              },
              terminationMessagePolicy: 'FallbackToLogsOnError',
            },
          ],
        },
      },
    },
  };
}

function metricsService(o: ManagedOperatorManifestOptions, name: string, component: string, port: { port: number; name: string }): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta(name, namespaceOf(o), { 'app.kubernetes.io/component': component }),
    spec: {
      type: 'ClusterIP',
      selector: { ...OPERATOR_LABELS },
      ports: [{ name: port.name, port: port.port, targetPort: port.name, protocol: 'TCP' }],
    },
  };
}

/** The Services of the `upgradeoperator_*` gauges (8383) and of the `managed_upgrade_*` collector (8089). */
export function operatorServices(o: ManagedOperatorManifestOptions): Service[] {
  return [
    metricsService(o, METRICS_SERVICE_NAME, 'metrics', OPERATOR_PORTS.metrics),
    metricsService(o, COLLECTOR_SERVICE_NAME, 'collector', OPERATOR_PORTS.collector),
  ];
}

function serviceMonitor(o: ManagedOperatorManifestOptions, name: string, component: string, portName: string): ServiceMonitor {
  const ns = namespaceOf(o);
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'ServiceMonitor',
    metadata: { name, namespace: ns, labels: { ...OPERATOR_LABELS, 'app.kubernetes.io/component': component } },
    spec: {
      endpoints: [{ port: portName, path: '/metrics', scheme: 'http', interval: '30s' }],
      namespaceSelector: { matchNames: [ns] },
      selector: { matchLabels: { ...OPERATOR_LABELS, 'app.kubernetes.io/component': component } },
    },
  };
}

/** One ServiceMonitor per metrics Service, for the platform Prometheus. */
export function operatorServiceMonitors(o: ManagedOperatorManifestOptions): ServiceMonitor[] {
  return [
    serviceMonitor(o, METRICS_SERVICE_NAME, 'metrics', OPERATOR_PORTS.metrics.name),
    serviceMonitor(o, COLLECTOR_SERVICE_NAME, 'collector', OPERATOR_PORTS.collector.name),
  ];
}

/** Every file of `deploy/operator/`, numbered in the order `kubectl apply -f deploy/operator/` creates them. */
export function managedOperatorManifestFiles(o: ManagedOperatorManifestOptions): ManifestFile[] {
  const rbac = operatorRbacDocuments(o);
  return [
    { name: '00-namespace.yaml', documents: [{ object: json(operatorNamespace(o)) }] },
    { name: '01-service-account.yaml', documents: [{ object: json(operatorServiceAccount(o)) }] },
    { name: '02-cluster-role.yaml', documents: rbac.cluster },
    { name: '03-roles.yaml', documents: rbac.namespaced },
    { name: '04-monitoring-rbac.yaml', documents: monitoringRbacDocuments(o) },
    { name: '05-config-map.yaml', documents: [{ object: json(operatorConfigMap(o)), comment: ' MUO\'s sample OSD configuration; edit it, the operator re-reads it on change.' }] },
    { name: '06-deployment.yaml', documents: [{ object: json(operatorDeployment(o)) }] },
    { name: '07-services.yaml', documents: operatorServices(o).map((s) => ({ object: json(s) })) },
    { name: '08-service-monitors.yaml', documents: operatorServiceMonitors(o).map((s) => ({ object: json(s) })) },
  ];
}
