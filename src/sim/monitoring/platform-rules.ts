/**
 * The OpenShift platform alerting rules of
 * docs/design/cluster-model.md#platform-alerts-during-an-update whose inputs the simulation
 * produces (see `series-from-objects.ts`): names, `for`, severities and namespaces as shipped;
 * expressions as shipped where the series exist, otherwise reduced to the same condition over the
 * series we have (noted per rule).
 */
import type { RuleGroup } from './rules.js';

const RULES_DIR = '/etc/prometheus/rules/prometheus-k8s-rulefiles-0';
const CORE_NS = '(openshift-.*|kube-.*|default)';

/** The platform rule groups. */
export function platformRuleGroups(): RuleGroup[] {
  return [
    {
      name: 'general.rules',
      file: `${RULES_DIR}/openshift-monitoring-cluster-monitoring-operator-prometheus-rules.yaml`,
      rules: [
        {
          name: 'Watchdog',
          expr: 'vector(1)',
          labels: { namespace: 'openshift-monitoring', severity: 'none' },
          annotations: {
            summary: 'An alert that should always be firing to certify that Alertmanager is working properly.',
            description:
              'This is an alert meant to ensure that the entire alerting pipeline is functional.\nThis alert is always firing, therefore it should always be firing in Alertmanager\nand always fire against a receiver.',
          },
        },
      ],
    },
    {
      name: 'cluster-version',
      file: `${RULES_DIR}/openshift-cluster-version-cluster-version-operator.yaml`,
      rules: [
        {
          name: 'ClusterNotUpgradeable',
          expr: 'max by (namespace, name, condition, endpoint) (cluster_operator_conditions{name="version", condition="Upgradeable", endpoint="metrics"} == 0)',
          for: '60m',
          labels: { severity: 'info' },
          annotations: {
            summary:
              'One or more cluster operators have been blocking minor version cluster upgrades for at least an hour.',
            description: 'In most cases, you will still be able to apply patch releases.',
          },
        },
        {
          name: 'ClusterReleaseNotAccepted',
          expr: 'max by (namespace, name, reason) (cluster_operator_conditions{name="version", condition="ReleaseAccepted", endpoint="metrics"} == 0)',
          for: '60m',
          labels: { severity: 'warning' },
          annotations: {
            summary: 'The desired cluster release has not been accepted for at least an hour.',
            description:
              'The desired cluster release has not been accepted because {{ $labels.reason }}, and the cluster will continue to reconcile an earlier release instead of moving towards that desired release.',
          },
        },
        {
          name: 'UpdateAvailable',
          expr: 'sum by (channel, namespace, upstream) (cluster_version_available_updates) > 0',
          labels: { severity: 'info' },
          annotations: {
            summary: 'Your upstream update recommendation service recommends you update your cluster.',
            description: "For more information refer to 'oc adm upgrade'.",
          },
        },
      ],
    },
    {
      name: 'cluster-operators',
      file: `${RULES_DIR}/openshift-cluster-version-cluster-version-operator.yaml`,
      rules: [
        {
          name: 'ClusterOperatorDown',
          expr: 'max by (namespace, name, reason) (cluster_operator_up{job="cluster-version-operator"} == 0)',
          for: '10m',
          labels: { severity: 'critical' },
          annotations: {
            summary: 'Cluster operator has not been available for 10 minutes.',
            description:
              'The {{ $labels.name }} operator may be down or disabled because {{ $labels.reason }}, and the components it manages may be unavailable or degraded.',
          },
        },
        {
          // Shipped rule also ORs a zero-valued `group by` to keep series alive; same firing set.
          name: 'ClusterOperatorDegraded',
          expr: 'max by (namespace, name, reason) ((cluster_operator_conditions{job="cluster-version-operator", condition="Degraded"} or on (namespace, name) cluster_operator_conditions{job="cluster-version-operator", name="version", condition="Failing"}) == 1)',
          for: '30m',
          labels: { severity: 'warning' },
          annotations: {
            summary: 'Cluster operator has been degraded for 30 minutes.',
            description:
              'The {{ $labels.name }} operator is degraded because {{ $labels.reason }}, and the components it manages may have reduced quality of service.',
          },
        },
        {
          name: 'ClusterOperatorFlapping',
          expr: 'max by (namespace, name) (changes(cluster_operator_up{job="cluster-version-operator"}[2m]) > 2)',
          for: '10m',
          labels: { severity: 'warning' },
          annotations: {
            summary: 'Cluster operator up status is changing often.',
            description: 'The  {{ $labels.name }} operator behavior might cause upgrades to be unstable.',
          },
        },
      ],
    },
    {
      name: 'kubernetes-system-kubelet',
      file: `${RULES_DIR}/openshift-monitoring-kubernetes-monitoring-rules.yaml`,
      rules: [
        {
          name: 'KubeNodeNotReady',
          expr: 'kube_node_status_condition{job="kube-state-metrics",condition="Ready",status="true"} == 0 and on (node) kube_node_spec_unschedulable{job="kube-state-metrics"} == 0',
          for: '15m',
          labels: { severity: 'warning' },
          annotations: {
            summary: 'Node is not ready.',
            description: '{{ $labels.node }} has been unready for more than 15 minutes.',
          },
        },
        {
          name: 'KubeNodeUnreachable',
          expr: '(kube_node_spec_taint{job="kube-state-metrics",key="node.kubernetes.io/unreachable",effect="NoSchedule"} unless ignoring(key,value) kube_node_spec_taint{job="kube-state-metrics",key=~"ToBeDeletedByClusterAutoscaler|cloud.google.com/impending-node-termination|aws-node-termination-handler/spot-itn"}) == 1',
          for: '15m',
          labels: { severity: 'warning' },
          annotations: {
            summary: 'Node is unreachable.',
            description: '{{ $labels.node }} is unreachable and some workloads may be rescheduled.',
          },
        },
        {
          name: 'KubeNodeReadinessFlapping',
          expr: 'sum(changes(kube_node_status_condition{job="kube-state-metrics",status="true",condition="Ready"}[15m])) by (node) > 2 and on (node) kube_node_spec_unschedulable{job="kube-state-metrics"} == 0',
          for: '15m',
          labels: { severity: 'warning' },
          annotations: {
            summary: 'Node readiness status is flapping.',
            description:
              'The readiness status of node {{ $labels.node }} has changed {{ $value }} times in the last 15 minutes.',
          },
        },
        {
          name: 'KubeletDown',
          expr: 'absent(up{job="kubelet", metrics_path="/metrics"} == 1)',
          for: '15m',
          labels: { namespace: 'kube-system', severity: 'critical' },
          annotations: {
            summary: 'Target disappeared from Prometheus target discovery.',
            description: 'Kubelet has disappeared from Prometheus target discovery.',
          },
        },
      ],
    },
    {
      name: 'kubernetes-apps',
      file: `${RULES_DIR}/openshift-monitoring-kubernetes-monitoring-rules.yaml`,
      rules: [
        {
          // Shipped rule also joins the owner kind (Job pods excluded); we have no owner series.
          name: 'KubePodNotReady',
          expr: `sum by (namespace, pod, cluster) (max by (namespace, pod, cluster) (kube_pod_status_phase{namespace=~"${CORE_NS}",job="kube-state-metrics", phase=~"Pending|Unknown"})) > 0`,
          for: '15m',
          labels: { severity: 'warning' },
          annotations: {
            summary: 'Pod has been in a non-ready state for more than 15 minutes.',
            description:
              'Pod {{ $labels.namespace }}/{{ $labels.pod }} has been in a non-ready state for longer than 15 minutes.',
          },
        },
        {
          name: 'KubePdbNotEnoughHealthyPods',
          expr: `(kube_poddisruptionbudget_status_desired_healthy{job="kube-state-metrics", namespace=~"${CORE_NS}"} - on (namespace, poddisruptionbudget) kube_poddisruptionbudget_status_current_healthy{job="kube-state-metrics", namespace=~"${CORE_NS}"}) > 0`,
          for: '15m',
          labels: { severity: 'warning' },
          annotations: {
            summary: 'PDB does not have enough healthy pods.',
            description:
              'PDB {{ $labels.namespace }}/{{ $labels.poddisruptionbudget }} expects {{ $value }} more healthy pods. The desired number of healthy pods has not been met for at least 15m.',
          },
        },
      ],
    },
    {
      name: 'cluster-version.rules',
      file: `${RULES_DIR}/openshift-kube-controller-manager-operator-kube-controller-manager-operator.yaml`,
      rules: [
        {
          name: 'PodDisruptionBudgetAtLimit',
          expr: 'max by(namespace, poddisruptionbudget) (kube_poddisruptionbudget_status_current_healthy == kube_poddisruptionbudget_status_desired_healthy and on (namespace, poddisruptionbudget) kube_poddisruptionbudget_status_expected_pods > 0)',
          for: '60m',
          labels: { severity: 'warning' },
          annotations: {
            summary: 'The pod disruption budget is preventing further disruption to pods.',
            description:
              'The pod disruption budget is at the minimum disruptions allowed level. The number of current healthy pods is equal to the desired healthy pods.',
          },
        },
        {
          name: 'PodDisruptionBudgetLimit',
          expr: 'max by (namespace, poddisruptionbudget) (kube_poddisruptionbudget_status_current_healthy < kube_poddisruptionbudget_status_desired_healthy)',
          for: '15m',
          labels: { severity: 'critical' },
          annotations: {
            summary: 'The pod disruption budget registers insufficient amount of pods.',
            description:
              'The pod disruption budget is below the minimum disruptions allowed level and is not satisfied. The number of current healthy pods is less than the desired healthy pods.',
          },
        },
      ],
    },
    {
      name: 'mcc-drain-error',
      file: `${RULES_DIR}/openshift-machine-config-operator-machine-config-controller.yaml`,
      rules: [
        {
          name: 'MCCDrainError',
          expr: 'mcc_drain_err > 0',
          labels: { namespace: 'openshift-machine-config-operator', severity: 'warning' },
          annotations: {
            summary:
              'Alerts the user to a failed node drain. Always triggers when the failure happens one or more times.',
            description:
              'Drain failed on {{ $labels.node }} , updates may be blocked. For more details check MachineConfigController pod logs: oc logs -f -n {{ $labels.namespace }} machine-config-controller-xxxxx -c machine-config-controller',
          },
        },
      ],
    },
  ];
}
