/**
 * The OLM bundle of the managed flow, for OperatorHub: a ClusterServiceVersion
 * (operators.coreos.com/v1alpha1) built from the same builders as `deploy/managed` (the
 * Deployment, the permissions of managed-operator-rbac.ts), the owned CRD (MUO's UpgradeConfig),
 * the objects OLM installs from a bundle next to the CSV (the operator ConfigMap, the metrics
 * Services, their ServiceMonitors, the PrometheusRule, the cluster-monitoring-view binding), and
 * `metadata/annotations.yaml`. `upgrade-operator manifests` writes it to `bundle/`.
 *
 * What OLM cannot express as the kustomize install does: a CSV's `permissions` apply in the
 * operator's namespace only, so the grants the install gives in other namespaces
 * (openshift-machine-api, openshift-config, default) become cluster-wide rules in
 * `clusterPermissions` (same verbs and resource names, in every namespace); and OLM creates a
 * bundle's Roles and RoleBindings in the operator's namespace, so the RoleBinding to
 * `monitoring-alertmanager-edit` in openshift-monitoring (maintenance silences) is not in the
 * bundle: docs/install.md says to create it. Install mode: OwnNamespace only, in the suggested
 * namespace `openshift-managed-upgrade-operator`.
 */
import type { JsonObject } from '../../lib/json.js';
import { managedUpgradeConfigCrd } from '../upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import { MANAGED_UPGRADE_OPERATOR_NAMESPACE } from '../upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { RUNBOOK_BASE_URL, managedUpgradeRuleGroup, prometheusRule } from './alert-rules.js';
import {
  operatorConfigMap,
  operatorDeployment,
  operatorServiceMonitors,
  operatorServices,
  permissionsByNamespace,
  type ManagedOperatorManifestOptions,
} from './managed-operator-manifests.js';
import {
  OPERATOR_IMAGE_REPOSITORY,
  OPERATOR_NAME,
  monitoringViewBinding,
  toJsonObject,
  type ManifestFile,
} from './operator-objects.js';

/** The package (and CSV name prefix) in a catalog. */
export const OLM_PACKAGE = 'upgrade-operator';
/** The bundle's only channel, also its default. */
export const OLM_CHANNEL = 'stable';

/** The CSV's `metadata.name`: `<package>.v<version>`. */
export function csvName(version: string): string {
  return `${OLM_PACKAGE}.v${version}`;
}

/** `metadata/annotations.yaml`'s annotations (registry+v1 bundle format). */
export function bundleAnnotations(): Record<string, string> {
  return {
    'operators.operatorframework.io.bundle.mediatype.v1': 'registry+v1',
    'operators.operatorframework.io.bundle.manifests.v1': 'manifests/',
    'operators.operatorframework.io.bundle.metadata.v1': 'metadata/',
    'operators.operatorframework.io.bundle.package.v1': OLM_PACKAGE,
    'operators.operatorframework.io.bundle.channels.v1': OLM_CHANNEL,
    'operators.operatorframework.io.bundle.channel.default.v1': OLM_CHANNEL,
  };
}

/** The example UpgradeConfig OperatorHub offers (`alm-examples`). */
function almExamples(): JsonObject[] {
  return [
    {
      apiVersion: 'upgrade.managed.openshift.io/v1alpha1',
      kind: 'UpgradeConfig',
      metadata: { name: 'managed-upgrade-config', namespace: MANAGED_UPGRADE_OPERATOR_NAMESPACE },
      spec: {
        type: 'OSD',
        upgradeAt: '2026-03-02T08:00:00Z',
        PDBForceDrainTimeout: 60,
        capacityReservation: true,
        desired: { version: '4.15.38', channel: 'stable-4.15' },
      },
    },
  ];
}

/** The CSV of the managed flow. */
export function clusterServiceVersion(options: ManagedOperatorManifestOptions): JsonObject {
  const crd = managedUpgradeConfigCrd() as {
    metadata: { name: string };
    spec: { names: { kind: string }; versions: Array<{ name: string; storage: boolean }> };
  };
  const storage = crd.spec.versions.find((v) => v.storage)?.name ?? '';
  const permissions: JsonObject[] = [];
  const clusterRules: JsonObject[] = [];
  for (const [namespace, grants] of permissionsByNamespace(options)) {
    const rules = grants.map((g) => toJsonObject(g.rule));
    if (namespace === (options.namespace ?? MANAGED_UPGRADE_OPERATOR_NAMESPACE)) permissions.push(...rules);
    else clusterRules.push(...rules);
  }
  const deployment = operatorDeployment(options);
  const image = `${OPERATOR_IMAGE_REPOSITORY}:${options.version}`;
  return {
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'ClusterServiceVersion',
    metadata: {
      name: csvName(options.version),
      annotations: {
        'alm-examples': JSON.stringify(almExamples()),
        capabilities: 'Seamless Upgrades',
        categories: 'OpenShift Optional',
        containerImage: image,
        description: 'Upgrades OpenShift 4 clusters inside maintenance windows, gated on health, restart-safe.',
        'operatorframework.io/suggested-namespace': MANAGED_UPGRADE_OPERATOR_NAMESPACE,
        'operators.openshift.io/infrastructure-features': '["disconnected"]',
        support: 'upgrade-operator',
      },
    },
    spec: {
      displayName: 'Upgrade Operator',
      description:
        "Upgrades an OpenShift 4 cluster to the version an UpgradeConfig (MUO's upgrade.managed.openshift.io/v1alpha1) asks for, at its time: health checks, extra capacity, maintenance silences, the control plane then the workers, node drains with their strategies. A drop-in for the managed-upgrade-operator. See docs/configuration.md and docs/runbooks.md of the project.",
      version: options.version,
      maturity: 'alpha',
      minKubeVersion: '1.27.0',
      keywords: ['upgrade', 'openshift', 'cluster version', 'maintenance'],
      provider: { name: 'upgrade-operator' },
      maintainers: [{ name: 'upgrade-operator maintainers', email: 'maintainers@upgrade-operator.invalid' }],
      links: [{ name: 'Runbooks', url: RUNBOOK_BASE_URL }],
      installModes: [
        { type: 'OwnNamespace', supported: true },
        { type: 'SingleNamespace', supported: false },
        { type: 'MultiNamespace', supported: false },
        { type: 'AllNamespaces', supported: false },
      ],
      customresourcedefinitions: {
        owned: [
          {
            name: crd.metadata.name,
            version: storage,
            kind: crd.spec.names.kind,
            displayName: 'Upgrade Config',
            description: 'When and to which version the cluster is upgraded, and how.',
          },
        ],
      },
      install: {
        strategy: 'deployment',
        spec: {
          permissions: [{ serviceAccountName: OPERATOR_NAME, rules: permissions }],
          clusterPermissions: [{ serviceAccountName: OPERATOR_NAME, rules: clusterRules }],
          deployments: [
            {
              name: deployment.metadata?.name ?? OPERATOR_NAME,
              label: { ...(deployment.metadata?.labels ?? {}) },
              spec: toJsonObject(deployment.spec ?? {}),
            },
          ],
        },
      },
      relatedImages: [{ name: OPERATOR_NAME, image }],
    },
  };
}

/** The bundle's files: `manifests/*` (the CSV, the CRD, the other objects) and `metadata/annotations.yaml` (as objects). */
export function olmBundleManifests(options: ManagedOperatorManifestOptions): ManifestFile[] {
  const namespace = options.namespace ?? MANAGED_UPGRADE_OPERATOR_NAMESPACE;
  // OLM puts a bundle's namespaced objects in the operator's namespace: they carry none.
  const local = (object: object): JsonObject => {
    const json = toJsonObject(object);
    delete (json['metadata'] as { namespace?: string }).namespace;
    return json;
  };
  const crd = managedUpgradeConfigCrd() as { metadata: { name: string } };
  return [
    { name: `${OLM_PACKAGE}.clusterserviceversion.yaml`, documents: [{ object: clusterServiceVersion(options) }] },
    { name: `${crd.metadata.name}.crd.yaml`, documents: [{ object: managedUpgradeConfigCrd() }] },
    {
      name: 'managed-upgrade-operator-config.configmap.yaml',
      documents: [{ object: local(operatorConfigMap(options)) }],
    },
    ...operatorServices(options).map((s) => ({
      name: `${s.metadata?.name ?? ''}.service.yaml`,
      documents: [{ object: local(s) }],
    })),
    ...operatorServiceMonitors(options).map((m) => ({
      name: `${m.metadata.name}.servicemonitor.yaml`,
      documents: [{ object: local(m) }],
    })),
    {
      name: `${OPERATOR_NAME}.prometheusrule.yaml`,
      documents: [{ object: local(prometheusRule(namespace, OPERATOR_NAME, managedUpgradeRuleGroup())) }],
    },
    {
      name: `${OPERATOR_NAME}-cluster-monitoring-view.clusterrolebinding.yaml`,
      documents: [{ object: toJsonObject(monitoringViewBinding(namespace)) }],
    },
  ];
}
