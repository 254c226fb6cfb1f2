/** A small cluster as `snapshot` reads it: three masters, two workers of one MachineSet, an infra node, a shop with a blocking PDB. */
import type { Node, Pod } from 'kubernetes-types/core/v1.js';
import type { ClusterSnapshot } from './snapshot-scenario.js';

function node(name: string, roles: string[], zone: string, extra: Partial<Node> = {}, machine?: string): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'kubernetes.io/hostname': name,
        'topology.kubernetes.io/zone': zone,
        'team.example.com/owner': 'payments',
        ...Object.fromEntries(roles.map((r) => [`node-role.kubernetes.io/${r}`, ''])),
      },
      ...(machine ? { annotations: { 'machine.openshift.io/machine': `openshift-machine-api/${machine}` } } : {}),
    },
    ...extra,
  };
}

const checkoutPod = (name: string, nodeName: string): Pod => ({
  metadata: {
    name,
    namespace: 'shop',
    labels: { app: 'checkout' },
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'checkout-7f9', uid: 'u1', controller: true }],
  },
  spec: { nodeName, containers: [{ name: 'checkout', image: 'quay.io/example/checkout:1.4' }] },
  status: { phase: 'Running' },
});

/** The snapshot (a fresh copy each call). */
export function sampleSnapshot(): ClusterSnapshot {
  return {
    takenAt: '2026-05-04T08:00:00Z',
    clusterVersion: {
      apiVersion: 'config.openshift.io/v1',
      kind: 'ClusterVersion',
      metadata: { name: 'version' },
      spec: { clusterID: 'c', channel: 'stable-4.14' },
      status: {
        desired: { version: '4.14.30', image: 'x' },
        history: [
          { state: 'Completed', version: '4.14.30', image: 'x', startedTime: '', completionTime: null, verified: true },
        ],
        availableUpdates: [{ version: '4.14.31', image: 'y' }],
        conditionalUpdates: [
          {
            release: { version: '4.15.2', image: 'z' },
            risks: [{ name: 'PreRelease', url: 'u', message: 'm', matchingRules: [] }],
            conditions: [{ type: 'Recommended', status: 'False', reason: 'r', message: 'm', lastTransitionTime: '' }],
          },
        ],
      },
    } as unknown as ClusterSnapshot['clusterVersion'],
    infrastructure: {
      apiVersion: 'config.openshift.io/v1',
      kind: 'Infrastructure',
      metadata: { name: 'cluster' },
      spec: {},
      status: { platformStatus: { type: 'AWS' }, controlPlaneTopology: 'HighlyAvailable' },
    } as unknown as ClusterSnapshot['infrastructure'],
    pools: [
      { metadata: { name: 'master' }, spec: { maxUnavailable: 1 } },
      { metadata: { name: 'worker' }, spec: { maxUnavailable: '25%', paused: true } },
      { metadata: { name: 'infra' }, spec: {} },
      { metadata: { name: 'gpu' }, spec: { nodeSelector: { matchLabels: { 'node-role.kubernetes.io/gpu': '' } } } },
    ],
    nodes: [
      node('m0', ['master', 'control-plane'], 'eu-1a', {
        spec: { taints: [{ key: 'node-role.kubernetes.io/master', effect: 'NoSchedule' }] },
      }),
      node('m1', ['master', 'control-plane'], 'eu-1b'),
      node('m2', ['master', 'control-plane'], 'eu-1c'),
      node(
        'w0',
        ['worker'],
        'eu-1a',
        {
          spec: {
            unschedulable: true,
            taints: [
              { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' },
              { key: 'dedicated', value: 'payments', effect: 'NoExecute' },
            ],
          },
        },
        'prod-worker-eu-1a-abcde',
      ),
      node('w1', ['worker'], 'eu-1a', {}, 'prod-worker-eu-1a-fghij'),
      node('i0', ['infra', 'worker'], 'eu-1b'),
      node('g0', ['gpu', 'worker'], 'eu-1c'),
    ],
    machineSets: [
      {
        metadata: { name: 'prod-worker-eu-1a', namespace: 'openshift-machine-api' },
        spec: {
          template: {
            metadata: { labels: { 'machine.openshift.io/cluster-api-machine-role': 'worker' } },
            spec: {
              providerSpec: { value: { instanceType: 'm6i.2xlarge', placement: { availabilityZone: 'eu-1a' } } },
            },
          },
        },
      },
    ] as unknown as ClusterSnapshot['machineSets'],
    deployments: [
      {
        metadata: { name: 'checkout', namespace: 'shop', labels: { app: 'checkout' } },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'checkout' } },
          template: {
            metadata: { labels: { app: 'checkout' } },
            spec: {
              containers: [
                {
                  name: 'checkout',
                  image: 'quay.io/example/checkout:1.4',
                  env: [{ name: 'DB_PASSWORD', value: 'hunter2' }],
                  args: ['--token=abc'],
                },
              ],
              nodeSelector: { 'team.example.com/owner': 'payments' },
              tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'payments', effect: 'NoExecute' }],
            },
          },
        },
      },
      {
        metadata: {
          name: 'console',
          namespace: 'openshift-console',
          annotations: { 'release.openshift.io/version': '4.14.30' },
        },
        spec: { selector: {}, template: { spec: { containers: [] } } },
      },
    ],
    statefulSets: [
      {
        metadata: { name: 'db', namespace: 'shop' },
        spec: {
          replicas: 3,
          serviceName: 'db',
          selector: { matchLabels: { app: 'db' } },
          template: {
            metadata: { labels: { app: 'db' } },
            spec: { containers: [{ name: 'db', image: 'postgres:16' }] },
          },
        },
      },
    ],
    daemonSets: [{ metadata: { name: 'agent', namespace: 'shop' } }],
    pods: [
      checkoutPod('checkout-7f9-a', 'w0'),
      checkoutPod('checkout-7f9-b', 'w1'),
      {
        metadata: { name: 'debug', namespace: 'shop', labels: { app: 'debug' } },
        spec: { nodeName: 'w1', containers: [{ name: 'sh', image: 'busybox', command: ['sleep', '1d'] }] },
        status: { phase: 'Running' },
      },
      {
        metadata: { name: 'done', namespace: 'shop' },
        spec: { containers: [{ name: 'x', image: 'x' }] },
        status: { phase: 'Succeeded' },
      },
    ],
    podDisruptionBudgets: [
      {
        metadata: { name: 'checkout', namespace: 'shop' },
        spec: { minAvailable: 2, selector: { matchLabels: { app: 'checkout' } } },
        status: { disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 2, expectedPods: 2 },
      },
    ],
    alerts: [
      {
        labels: {
          __name__: 'ALERTS',
          alertname: 'KubePodCrashLooping',
          alertstate: 'firing',
          namespace: 'shop',
          pod: 'checkout-7f9-a',
          severity: 'warning',
        },
      },
      { labels: { __name__: 'ALERTS', alertname: 'Watchdog', alertstate: 'firing', severity: 'none' } },
    ],
    operator: {
      managedUpgradeConfigs: [
        {
          apiVersion: 'upgrade.managed.openshift.io/v1alpha1',
          kind: 'UpgradeConfig',
          metadata: {
            name: 'osd-upgrade',
            namespace: 'openshift-managed-upgrade-operator',
            uid: 'x',
            resourceVersion: '5',
          },
          spec: {
            type: 'OSD',
            upgradeAt: '2026-05-04T10:00:00Z',
            PDBForceDrainTimeout: 15,
            desired: { version: '4.15.2', channel: 'stable-4.15' },
          },
          status: { history: [] },
        } as ClusterSnapshot['operator']['managedUpgradeConfigs'][number],
      ],
      managedConfigMap: {
        data: {
          'config.yaml':
            'configManager:\n  source: OCM\n  ocmBaseUrl: https://api.openshift.com\n  watchInterval: 60\nnodeDrain:\n  timeOut: 45\n',
        },
      },
      upgradeConfigs: [],
      upgradeJobs: [],
      upgradeJobHooks: [],
      upgradeSuspensionWindows: [],
      nodeForceDrains: [],
    },
  };
}
