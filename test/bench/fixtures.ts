/**
 * Objects the benchmarks write: small ConfigMaps, and Pods and Nodes shaped like the ones an
 * OpenShift cluster holds (labels, annotations, owner references, several containers, status
 * conditions; taints, capacity, images), so that the informer's footprint is measured on
 * realistic sizes. Pure and deterministic: the same index gives the same object.
 */
import type { JsonObject } from '../../src/lib/json.js';

/** A small ConfigMap (about 200 bytes of JSON before the server adds its metadata). */
export function smallConfigMap(namespace: string, i: number): JsonObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `cm-${i}`, namespace, labels: { app: 'bench', shard: String(i % 16) } },
    data: { index: String(i), value: `value-${i}` },
  };
}

/** Where pod i lives: namespace, node and owning ReplicaSet. */
export interface PodPlacement {
  namespaces: number;
  nodes: number;
}

/** Pods i and i + PLACEMENT_CYCLE have the same fields (only values differ). */
export const PLACEMENT_CYCLE = 40;

/** The namespace pod i is placed in. */
export function podNamespace(i: number, placement: PodPlacement): string {
  return `bench-ns-${i % placement.namespaces}`;
}

/** The name of node i. */
export function nodeName(i: number): string {
  return `worker-${String(i).padStart(4, '0')}.bench.example.com`;
}

function hex(n: number, width: number): string {
  return (n >>> 0).toString(16).padStart(width, '0').slice(-width);
}

function fakeUid(seed: number): string {
  const a = Math.imul(seed + 1, 2654435761);
  return `${hex(a, 8)}-${hex(a >>> 3, 4)}-4${hex(a >>> 7, 3)}-8${hex(a >>> 11, 3)}-${hex(Math.imul(a, 40503), 8)}${hex(seed, 4)}`;
}

const TIME = '2025-01-06T09:00:00Z';

function container(app: string, k: number, i: number): JsonObject {
  const name = k === 0 ? app : `sidecar-${k}`;
  return {
    name,
    image: `quay.io/bench/${name}@sha256:${hex(i * 7 + k, 8)}${'0'.repeat(56)}`,
    command: ['/usr/bin/run', `--component=${name}`],
    args: ['--v=2', `--listen=0.0.0.0:${8080 + k}`, '--config=/etc/config/config.yaml'],
    ports: [{ name: `http-${k}`, containerPort: 8080 + k, protocol: 'TCP' }],
    env: [
      { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
      { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } } },
      { name: 'LOG_LEVEL', value: 'info' },
      { name: 'GOMAXPROCS', value: '2' },
    ],
    resources: { requests: { cpu: '10m', memory: '50Mi' }, limits: { memory: '200Mi' } },
    volumeMounts: [
      { name: 'config', mountPath: '/etc/config', readOnly: true },
      { name: 'kube-api-access', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true },
    ],
    readinessProbe: {
      httpGet: { path: '/readyz', port: 8080 + k, scheme: 'HTTP' },
      periodSeconds: 10,
      timeoutSeconds: 1,
      successThreshold: 1,
      failureThreshold: 3,
    },
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'FallbackToLogsOnError',
    imagePullPolicy: 'IfNotPresent',
    securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: true },
  };
}

/**
 * Pod i, running on a node, owned by a ReplicaSet, with `containers` containers (default 3).
 * Its status (conditions, IPs, container statuses) is in `status`; the API server sets a
 * created pod's status to Pending, so write it afterwards through the status subresource.
 */
export function realisticPod(i: number, placement: PodPlacement, containers = 3): JsonObject {
  const app = `app-${i % PLACEMENT_CYCLE}`;
  const rs = `${app}-${hex(i % PLACEMENT_CYCLE, 8).slice(0, 10)}`;
  const node = nodeName(i % placement.nodes);
  const names = Array.from({ length: containers }, (_, k) => (k === 0 ? app : `sidecar-${k}`));
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${rs}-${hex(i, 5)}`,
      generateName: `${rs}-`,
      namespace: podNamespace(i, placement),
      labels: {
        app,
        'app.kubernetes.io/name': app,
        'app.kubernetes.io/part-of': 'bench',
        'pod-template-hash': hex(i % PLACEMENT_CYCLE, 10),
      },
      annotations: {
        'openshift.io/scc': 'restricted-v2',
        'seccomp.security.alpha.kubernetes.io/pod': 'runtime/default',
        'k8s.v1.cni.cncf.io/network-status': JSON.stringify([
          {
            name: 'ovn-kubernetes',
            interface: 'eth0',
            ips: [`10.128.${(i >> 8) & 255}.${i & 255}`],
            mac: `0a:58:0a:80:${hex(i >> 8, 2)}:${hex(i, 2)}`,
            default: true,
            dns: {},
          },
        ]),
      },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: rs,
          uid: fakeUid(i % PLACEMENT_CYCLE),
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      containers: names.map((_, k) => container(app, k, i)),
      volumes: [
        { name: 'config', configMap: { name: `${app}-config`, defaultMode: 420 } },
        {
          name: 'kube-api-access',
          projected: {
            defaultMode: 420,
            sources: [
              { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
              { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
            ],
          },
        },
      ],
      nodeName: node,
      serviceAccountName: app,
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      schedulerName: 'default-scheduler',
      priority: 0,
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ],
      securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' }, fsGroup: 1000680000 },
    },
    status: {
      phase: 'Running',
      conditions: ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map(
        (type) => ({ type, status: 'True', lastProbeTime: null, lastTransitionTime: TIME }),
      ),
      hostIP: `10.0.${(i >> 8) % placement.nodes}.${i % 250}`,
      podIP: `10.128.${(i >> 8) & 255}.${i & 255}`,
      podIPs: [{ ip: `10.128.${(i >> 8) & 255}.${i & 255}` }],
      startTime: TIME,
      qosClass: 'Burstable',
      containerStatuses: names.map((name, k) => ({
        name,
        state: { running: { startedAt: TIME } },
        lastState: {},
        ready: true,
        restartCount: 0,
        image: `quay.io/bench/${name}@sha256:${hex(i * 7 + k, 8)}${'0'.repeat(56)}`,
        imageID: `quay.io/bench/${name}@sha256:${hex(i * 7 + k, 8)}${'0'.repeat(56)}`,
        containerID: `cri-o://${hex(i * 31 + k, 8)}${'a'.repeat(56)}`,
        started: true,
      })),
    },
  };
}

/** Node i: a worker (every third one a master) with labels, a taint, capacity, conditions and images. */
export function realisticNode(i: number): JsonObject {
  const name = nodeName(i);
  const master = i % 3 === 0 && i < 9;
  const role = master ? 'master' : 'worker';
  const capacity = {
    cpu: '16',
    'ephemeral-storage': '125293548Ki',
    'hugepages-1Gi': '0',
    'hugepages-2Mi': '0',
    memory: '65851340Ki',
    pods: '250',
  };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'beta.kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        [`node-role.kubernetes.io/${role}`]: '',
        'node.kubernetes.io/instance-type': 'm5.4xlarge',
        'node.openshift.io/os_id': 'rhcos',
        'topology.kubernetes.io/region': 'eu-central-1',
        'topology.kubernetes.io/zone': `eu-central-1${'abc'[i % 3]!}`,
      },
      annotations: {
        'machine.openshift.io/machine': `openshift-machine-api/bench-${role}-${i}`,
        'machineconfiguration.openshift.io/currentConfig': `rendered-${role}-${hex(i % 2, 32)}`,
        'machineconfiguration.openshift.io/desiredConfig': `rendered-${role}-${hex(i % 2, 32)}`,
        'machineconfiguration.openshift.io/state': 'Done',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
      },
    },
    spec: {
      providerID: `aws:///eu-central-1a/i-${hex(i * 977, 16)}`,
      podCIDR: `10.128.${i % 256}.0/23`,
      ...(master ? { taints: [{ key: 'node-role.kubernetes.io/master', effect: 'NoSchedule' }] } : {}),
    },
    status: {
      capacity,
      allocatable: { ...capacity, cpu: '15500m', memory: '64700364Ki' },
      conditions: [
        ['MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'],
        ['DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
        ['PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
        ['Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'],
      ].map(([type, status, reason, message]) => ({
        type: type!,
        status: status!,
        lastHeartbeatTime: TIME,
        lastTransitionTime: TIME,
        reason: reason!,
        message: message!,
      })),
      addresses: [
        { type: 'InternalIP', address: `10.0.${i >> 8}.${i & 255}` },
        { type: 'Hostname', address: name },
        { type: 'InternalDNS', address: `ip-10-0-${i >> 8}-${i & 255}.eu-central-1.compute.internal` },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        architecture: 'amd64',
        bootID: fakeUid(i + 100_000),
        containerRuntimeVersion: 'cri-o://1.29.5-5.rhaos4.16.git7032128.el9',
        kernelVersion: '5.14.0-427.22.1.el9_4.x86_64',
        kubeProxyVersion: 'v1.29.5+87992f4',
        kubeletVersion: 'v1.29.5+87992f4',
        machineID: hex(i * 131, 32),
        operatingSystem: 'linux',
        osImage: 'Red Hat Enterprise Linux CoreOS 416.94.202406251923-0',
        systemUUID: fakeUid(i + 200_000),
      },
      images: Array.from({ length: 12 }, (_, k) => ({
        names: [`quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:${hex(k * 7919, 8)}${'1'.repeat(56)}`],
        sizeBytes: 400_000_000 + k * 1_000_003,
      })),
    },
  };
}
