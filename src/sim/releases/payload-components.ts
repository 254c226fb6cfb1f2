/**
 * The components of a 4.14 release payload by runlevel (update-mechanics.md §2.4, §3.6), with
 * manifest counts chosen so that the totals and the progress at the usual blocking points match
 * real traces: 860 manifests for 4.14 (the 4.14.18 installer log), about 7% done when waiting on
 * config-operator, 12% on etcd/kube-apiserver, 18% on cloud-controller-manager, 27% on
 * machine-api, 75% after runlevel 50, 80% on network/dns, 84% on machine-config, the last 15% at
 * runlevel 90. Counts are tunable (§8.8); other minors add or drop a few (see MINOR_DELTAS).
 */

/** One component's manifests at one runlevel. */
export interface ComponentSpec {
  runlevel: number;
  /** The component part of the file name (`0000_<rl>_<component>_<nn>_<name>.yaml`). */
  component: string;
  /** Namespace of its namespaced objects. */
  namespace: string;
  /** Manifests (documents) in 4.14. */
  count: number;
  /** ClusterOperators whose manifests close the component (the CVO gates on them). */
  clusterOperators?: string[];
  /** `capability.openshift.io/name` of every manifest of the component. */
  capability?: string;
  /** Kinds to cycle through for the other manifests (default: a Deployment-based operator). */
  kinds?: 'crds' | 'config' | 'monitoring' | 'operator';
}

/** Added to a component's count per minor, keyed `<runlevel>/<component>`; totals 852/860/883/904. */
export const MINOR_DELTAS: Readonly<Record<number, Readonly<Record<string, number>>>> = {
  13: { '50/cluster-monitoring-operator': -4, '90/cluster-monitoring-operator': -4 },
  14: {},
  15: { '50/cluster-monitoring-operator': 8, '90/cluster-monitoring-operator': 9, '50/olm': 6 },
  16: { '50/cluster-monitoring-operator': 14, '90/cluster-monitoring-operator': 16, '50/olm': 8, '30/machine-api-operator': 6 },
};

/** Capabilities that gate these components from 4.16 on. */
export const CAPABILITIES_SINCE_416: Readonly<Record<string, string>> = {
  'cluster-ingress-operator': 'Ingress',
  'cloud-controller-manager-operator': 'CloudControllerManager',
};

export const COMPONENTS: readonly ComponentSpec[] = [
  { runlevel: 0, component: 'cluster-version-operator', namespace: 'openshift-cluster-version', count: 12 },
  { runlevel: 3, component: 'cloud-credential-operator', namespace: 'openshift-cloud-credential-operator', count: 2, kinds: 'crds', capability: 'CloudCredential' },
  { runlevel: 3, component: 'config-operator', namespace: 'openshift-config-operator', count: 28, kinds: 'crds' },
  { runlevel: 5, component: 'config-operator', namespace: 'openshift-config-operator', count: 10, kinds: 'config' },
  { runlevel: 10, component: 'config-operator', namespace: 'openshift-config-operator', count: 8, clusterOperators: ['config-operator'] },
  { runlevel: 20, component: 'etcd-operator', namespace: 'openshift-etcd-operator', count: 20, clusterOperators: ['etcd'] },
  { runlevel: 20, component: 'kube-apiserver-operator', namespace: 'openshift-kube-apiserver-operator', count: 25, clusterOperators: ['kube-apiserver'] },
  { runlevel: 25, component: 'kube-controller-manager-operator', namespace: 'openshift-kube-controller-manager-operator', count: 20, clusterOperators: ['kube-controller-manager'] },
  { runlevel: 25, component: 'kube-scheduler-operator', namespace: 'openshift-kube-scheduler-operator', count: 14, clusterOperators: ['kube-scheduler'] },
  { runlevel: 26, component: 'cloud-controller-manager-operator', namespace: 'openshift-cloud-controller-manager-operator', count: 18, clusterOperators: ['cloud-controller-manager'] },
  { runlevel: 30, component: 'control-plane-machine-set-operator', namespace: 'openshift-machine-api', count: 14, clusterOperators: ['control-plane-machine-set'], capability: 'MachineAPI' },
  { runlevel: 30, component: 'machine-api-operator', namespace: 'openshift-machine-api', count: 40, clusterOperators: ['machine-api'], capability: 'MachineAPI' },
  { runlevel: 30, component: 'openshift-apiserver-operator', namespace: 'openshift-apiserver-operator', count: 24, clusterOperators: ['openshift-apiserver'] },
  { runlevel: 31, component: 'cluster-baremetal-operator', namespace: 'openshift-machine-api', count: 12, clusterOperators: ['baremetal'], capability: 'baremetal' },
  { runlevel: 40, component: 'kube-storage-version-migrator-operator', namespace: 'openshift-kube-storage-version-migrator-operator', count: 10, clusterOperators: ['kube-storage-version-migrator'] },
  { runlevel: 50, component: 'cloud-credential-operator', namespace: 'openshift-cloud-credential-operator', count: 20, clusterOperators: ['cloud-credential'], capability: 'CloudCredential' },
  { runlevel: 50, component: 'cluster-authentication-operator', namespace: 'openshift-authentication-operator', count: 24, clusterOperators: ['authentication'] },
  { runlevel: 50, component: 'cluster-autoscaler-operator', namespace: 'openshift-machine-api', count: 14, clusterOperators: ['cluster-autoscaler'] },
  { runlevel: 50, component: 'cluster-csi-snapshot-controller-operator', namespace: 'openshift-cluster-storage-operator', count: 12, clusterOperators: ['csi-snapshot-controller'], capability: 'CSISnapshot' },
  { runlevel: 50, component: 'cluster-image-registry-operator', namespace: 'openshift-image-registry', count: 22, clusterOperators: ['image-registry'], capability: 'ImageRegistry' },
  { runlevel: 50, component: 'cluster-ingress-operator', namespace: 'openshift-ingress-operator', count: 20, clusterOperators: ['ingress'] },
  { runlevel: 50, component: 'cluster-machine-approver', namespace: 'openshift-cluster-machine-approver', count: 10, clusterOperators: ['machine-approver'] },
  { runlevel: 50, component: 'cluster-monitoring-operator', namespace: 'openshift-monitoring', count: 60, clusterOperators: ['monitoring'] },
  { runlevel: 50, component: 'cluster-node-tuning-operator', namespace: 'openshift-cluster-node-tuning-operator', count: 14, clusterOperators: ['node-tuning'], capability: 'NodeTuning' },
  { runlevel: 50, component: 'cluster-openshift-controller-manager-operator', namespace: 'openshift-controller-manager-operator', count: 18, clusterOperators: ['openshift-controller-manager'] },
  { runlevel: 50, component: 'cluster-samples-operator', namespace: 'openshift-cluster-samples-operator', count: 16, clusterOperators: ['openshift-samples'], capability: 'openshift-samples' },
  { runlevel: 50, component: 'cluster-storage-operator', namespace: 'openshift-cluster-storage-operator', count: 30, clusterOperators: ['storage'], capability: 'Storage' },
  { runlevel: 50, component: 'console-operator', namespace: 'openshift-console-operator', count: 26, clusterOperators: ['console'], capability: 'Console' },
  { runlevel: 50, component: 'insights-operator', namespace: 'openshift-insights', count: 16, clusterOperators: ['insights'], capability: 'Insights' },
  { runlevel: 50, component: 'marketplace-operator', namespace: 'openshift-marketplace', count: 14, clusterOperators: ['marketplace'], capability: 'marketplace' },
  {
    runlevel: 50,
    component: 'olm',
    namespace: 'openshift-operator-lifecycle-manager',
    count: 60,
    clusterOperators: ['operator-lifecycle-manager', 'operator-lifecycle-manager-catalog', 'operator-lifecycle-manager-packageserver'],
    capability: 'OperatorLifecycleManager',
  },
  { runlevel: 50, component: 'service-ca-operator', namespace: 'openshift-service-ca-operator', count: 12, clusterOperators: ['service-ca'] },
  { runlevel: 70, component: 'cluster-dns-operator', namespace: 'openshift-dns-operator', count: 12, clusterOperators: ['dns'] },
  { runlevel: 70, component: 'cluster-network-operator', namespace: 'openshift-network-operator', count: 34, clusterOperators: ['network'] },
  { runlevel: 80, component: 'machine-config-operator', namespace: 'openshift-machine-config-operator', count: 36, clusterOperators: ['machine-config'] },
  // Runlevel 90: ServiceMonitors, PrometheusRules, dashboards; no ClusterOperator (133 in 4.14).
  { runlevel: 90, component: 'cluster-monitoring-operator', namespace: 'openshift-monitoring', count: 40, kinds: 'monitoring' },
  { runlevel: 90, component: 'cluster-version-operator', namespace: 'openshift-cluster-version', count: 6, kinds: 'monitoring' },
  { runlevel: 90, component: 'console-operator', namespace: 'openshift-config-managed', count: 12, kinds: 'monitoring', capability: 'Console' },
  { runlevel: 90, component: 'etcd-operator', namespace: 'openshift-etcd-operator', count: 8, kinds: 'monitoring' },
  { runlevel: 90, component: 'kube-apiserver-operator', namespace: 'openshift-kube-apiserver-operator', count: 10, kinds: 'monitoring' },
  { runlevel: 90, component: 'kube-controller-manager-operator', namespace: 'openshift-kube-controller-manager-operator', count: 6, kinds: 'monitoring' },
  { runlevel: 90, component: 'machine-api-operator', namespace: 'openshift-machine-api', count: 8, kinds: 'monitoring', capability: 'MachineAPI' },
  { runlevel: 90, component: 'machine-config-operator', namespace: 'openshift-machine-config-operator', count: 8, kinds: 'monitoring' },
  { runlevel: 90, component: 'cluster-ingress-operator', namespace: 'openshift-ingress-operator', count: 6, kinds: 'monitoring' },
  { runlevel: 90, component: 'cluster-network-operator', namespace: 'openshift-network-operator', count: 8, kinds: 'monitoring' },
  { runlevel: 90, component: 'olm', namespace: 'openshift-operator-lifecycle-manager', count: 8, kinds: 'monitoring', capability: 'OperatorLifecycleManager' },
  { runlevel: 90, component: 'openshift-apiserver-operator', namespace: 'openshift-apiserver-operator', count: 5, kinds: 'monitoring' },
  { runlevel: 90, component: 'cluster-image-registry-operator', namespace: 'openshift-image-registry', count: 4, kinds: 'monitoring', capability: 'ImageRegistry' },
  { runlevel: 90, component: 'cluster-authentication-operator', namespace: 'openshift-authentication-operator', count: 4, kinds: 'monitoring' },
];

/**
 * Component images of the `image-references` ImageStream (real tag names, 120 of them).
 */
export const COMPONENT_IMAGES: readonly string[] = [
  'agent-installer-api-server', 'agent-installer-csr-approver', 'agent-installer-node-agent', 'agent-installer-orchestrator',
  'alibaba-cloud-controller-manager', 'alibaba-cloud-csi-driver', 'alibaba-disk-csi-driver-operator', 'alibaba-machine-controllers',
  'apiserver-network-proxy', 'aws-cloud-controller-manager', 'aws-cluster-api-controllers', 'aws-ebs-csi-driver',
  'aws-ebs-csi-driver-operator', 'aws-machine-controllers', 'aws-pod-identity-webhook', 'azure-cloud-controller-manager',
  'azure-cloud-node-manager', 'azure-disk-csi-driver', 'azure-disk-csi-driver-operator', 'azure-file-csi-driver',
  'azure-file-csi-driver-operator', 'azure-machine-controllers', 'baremetal-installer', 'baremetal-machine-controllers',
  'baremetal-operator', 'baremetal-runtimecfg', 'cli', 'cli-artifacts', 'cloud-credential-operator',
  'cloud-network-config-controller', 'cluster-authentication-operator', 'cluster-autoscaler', 'cluster-autoscaler-operator',
  'cluster-baremetal-operator', 'cluster-bootstrap', 'cluster-capi-operator', 'cluster-cloud-controller-manager-operator',
  'cluster-config-api', 'cluster-config-operator', 'cluster-control-plane-machine-set-operator', 'cluster-dns-operator',
  'cluster-etcd-operator', 'cluster-image-registry-operator', 'cluster-ingress-operator', 'cluster-kube-apiserver-operator',
  'cluster-kube-controller-manager-operator', 'cluster-kube-scheduler-operator', 'cluster-kube-storage-version-migrator-operator',
  'cluster-machine-approver', 'cluster-monitoring-operator', 'cluster-network-operator', 'cluster-node-tuning-operator',
  'cluster-openshift-apiserver-operator', 'cluster-openshift-controller-manager-operator', 'cluster-policy-controller',
  'cluster-samples-operator', 'cluster-storage-operator', 'cluster-update-keys', 'cluster-version-operator',
  'configmap-reloader', 'console', 'console-operator', 'container-networking-plugins', 'coredns',
  'csi-driver-manila', 'csi-driver-manila-operator', 'csi-driver-shared-resource', 'csi-external-attacher',
  'csi-external-provisioner', 'csi-external-resizer', 'csi-external-snapshotter', 'csi-livenessprobe',
  'csi-node-driver-registrar', 'csi-snapshot-controller', 'csi-snapshot-validation-webhook', 'deployer', 'docker-builder',
  'docker-registry', 'driver-toolkit', 'egress-router-cni', 'etcd', 'gcp-cloud-controller-manager', 'gcp-machine-controllers',
  'gcp-pd-csi-driver', 'gcp-pd-csi-driver-operator', 'haproxy-router', 'hyperkube', 'insights-operator', 'installer',
  'installer-artifacts', 'ironic', 'ironic-agent', 'ironic-machine-os-downloader', 'k8s-prometheus-adapter',
  'keepalived-ipfailover', 'kube-rbac-proxy', 'kube-state-metrics', 'kube-storage-version-migrator', 'kuryr-cni',
  'machine-api-operator', 'machine-config-operator', 'machine-os-images', 'multus-admission-controller', 'multus-cni',
  'must-gather', 'network-metrics-daemon', 'network-tools', 'oauth-apiserver', 'oauth-proxy', 'oauth-server',
  'openshift-apiserver', 'openshift-controller-manager', 'openshift-state-metrics', 'operator-lifecycle-manager',
  'operator-marketplace', 'operator-registry', 'ovn-kubernetes', 'pod', 'prometheus', 'prometheus-alertmanager',
  'prometheus-node-exporter', 'prometheus-operator', 'rhel-coreos', 'service-ca-operator', 'telemeter', 'thanos', 'tools',
];
