/**
 * The API objects of a profile as an installed cluster shows them: the Infrastructure `cluster`
 * (platform, topology, infrastructure name, API URLs), each Node (spec, then status as its kubelet
 * reports it), and the MachineSets and Machines owning cloud nodes. Pure builders;
 * `createSimulatedCluster` writes them.
 */
import type { Node, NodeStatus } from 'kubernetes-types/core/v1.js';
import {
  INFRASTRUCTURE_NAME,
  type Infrastructure,
  type PlatformStatus,
} from '../../api/openshift/config-v1/infrastructure.js';
import { MachineAnnotation, MachineLabel, type Machine } from '../../api/openshift/machine-v1beta1/machine.js';
import type { MachineSet } from '../../api/openshift/machine-v1beta1/machine-set.js';
import { formatTime } from '../../lib/clock.js';
import type { ClusterProfile, MachineSetProfile, NodeProfile } from '../profiles.js';
import { hashHex } from './nodes.js';

/** Where the Machine API objects live. */
import { MACHINE_API_NAMESPACE } from '../../api/openshift/machine-v1beta1/machine.js';

/** `status.platformStatus`: the AWS region, or the bare-metal API and ingress VIPs; only the type elsewhere. */
function platformStatus(profile: ClusterProfile): PlatformStatus {
  if (profile.platform === 'AWS') return { type: 'AWS', aws: { region: profile.region ?? '' } };
  if (profile.platform === 'BareMetal') {
    return {
      type: 'BareMetal',
      baremetal: {
        apiServerInternalIP: '192.168.111.5',
        apiServerInternalIPs: ['192.168.111.5'],
        ingressIP: '192.168.111.4',
        ingressIPs: ['192.168.111.4'],
        loadBalancer: { type: 'OpenShiftManagedDefault' },
      },
    };
  }
  return { type: profile.platform };
}

/** The Infrastructure `cluster` the installer writes: what operators read about platform and topology. */
export function infrastructureObject(profile: ClusterProfile): Infrastructure {
  const blockKey = profile.platform === 'AWS' ? 'aws' : profile.platform === 'BareMetal' ? 'baremetal' : undefined;
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'Infrastructure',
    metadata: { name: INFRASTRUCTURE_NAME },
    spec: {
      cloudConfig: { name: '' },
      platformSpec: { type: profile.platform, ...(blockKey ? { [blockKey]: {} } : {}) },
    },
    status: {
      infrastructureName: profile.infrastructureName,
      platform: profile.platform,
      platformStatus: platformStatus(profile),
      etcdDiscoveryDomain: '',
      apiServerURL: `https://api.${profile.clusterDomain}:6443`,
      apiServerInternalURI: `https://api-int.${profile.clusterDomain}:6443`,
      controlPlaneTopology: profile.controlPlaneTopology,
      infrastructureTopology: profile.infrastructureTopology,
      cpuPartitioning: 'None',
    },
  };
}

/** The Node of a profile node as the kubelet registers it (status written separately). */
export function nodeObject(nodeProfile: NodeProfile): Node {
  const spec: Node['spec'] = {
    ...(nodeProfile.taints.length > 0 ? { taints: nodeProfile.taints.map((t) => ({ ...t })) } : {}),
    ...(nodeProfile.providerID !== undefined ? { providerID: nodeProfile.providerID } : {}),
  };
  const annotations = nodeProfile.machine
    ? { [MachineAnnotation.NodeMachine]: `${MACHINE_API_NAMESPACE}/${nodeProfile.machine.name}` }
    : undefined;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: nodeProfile.name, labels: { ...nodeProfile.labels }, ...(annotations ? { annotations } : {}) },
    spec,
  };
}

/** The status the node's kubelet reports: capacity, Ready and the pressure conditions, addresses, system info. */
export function nodeStatus(nodeProfile: NodeProfile, now: number): NodeStatus {
  const at = formatTime(now);
  const cond = (type: string, status: string, reason: string, message: string) => ({
    type,
    status,
    reason,
    message,
    lastHeartbeatTime: at,
    lastTransitionTime: at,
  });
  const { cpu, allocatableCpu, memory } = nodeProfile.resources;
  return {
    capacity: { cpu, memory, pods: '250' },
    allocatable: { cpu: allocatableCpu, memory, pods: '250' },
    conditions: [
      cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
      cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
      cond('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
      cond('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
    ],
    addresses: [
      { type: 'InternalIP', address: nodeProfile.internalIP },
      { type: 'Hostname', address: nodeProfile.name },
      // Cloud nodes also have their private DNS name.
      ...(nodeProfile.providerID !== undefined ? [{ type: 'InternalDNS', address: nodeProfile.name }] : []),
    ],
    nodeInfo: {
      architecture: 'amd64',
      bootID: hashHex(`${nodeProfile.name}/boot`, 32),
      containerRuntimeVersion: 'cri-o://1.27.4',
      kernelVersion: '5.14.0-284.73.1.el9_2.x86_64',
      kubeProxyVersion: 'v1.27.16',
      kubeletVersion: 'v1.27.16',
      machineID: hashHex(`${nodeProfile.name}/machine`, 32),
      operatingSystem: 'linux',
      osImage: 'Red Hat Enterprise Linux CoreOS',
      systemUUID: hashHex(`${nodeProfile.name}/uuid`, 32),
    },
  };
}

/** A MachineSet of the profile with as many replicas as profile nodes name it. */
export function machineSetObject(ms: MachineSetProfile, profile: ClusterProfile): MachineSet {
  const selector = { [MachineLabel.Cluster]: profile.infrastructureName, [MachineLabel.MachineSet]: ms.name };
  return {
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'MachineSet',
    // Hive labels the MachineSets of its machine pools (OSD/ROSA clusters); managed upgrades select them by it.
    metadata: {
      name: ms.name,
      namespace: MACHINE_API_NAMESPACE,
      labels: { [MachineLabel.Cluster]: profile.infrastructureName, 'hive.openshift.io/machine-pool': ms.role },
    },
    spec: {
      replicas: profile.nodes.filter((n) => n.machine?.machineSet === ms.name).length,
      selector: { matchLabels: selector },
      template: {
        metadata: { labels: { ...selector, [MachineLabel.MachineRole]: ms.role, [MachineLabel.MachineType]: ms.role } },
        spec: {
          // Infra MachineSets label their nodes for the infra pool, as the OpenShift documentation has them.
          metadata: ms.role === 'infra' ? { labels: { 'node-role.kubernetes.io/infra': '' } } : {},
          providerSpec: {
            value: {
              apiVersion: 'machine.openshift.io/v1beta1',
              kind: 'AWSMachineProviderConfig',
              instanceType: ms.instanceType,
              placement: { availabilityZone: ms.zone, region: profile.region ?? '' },
            },
          },
        },
      },
    },
  };
}

/** The Machine owning a profile node, created from its MachineSet's template (status written separately). */
export function machineObject(
  nodeProfile: NodeProfile,
  ms: MachineSet,
  msProfile: MachineSetProfile,
  region: string | undefined,
): Machine {
  const template = ms.spec?.template;
  return {
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'Machine',
    metadata: {
      name: nodeProfile.machine?.name ?? '',
      namespace: MACHINE_API_NAMESPACE,
      labels: {
        ...template?.metadata?.labels,
        'machine.openshift.io/instance-type': msProfile.instanceType,
        ...(region !== undefined ? { 'machine.openshift.io/region': region } : {}),
        ...(nodeProfile.zone !== undefined ? { 'machine.openshift.io/zone': nodeProfile.zone } : {}),
      },
      annotations: { [MachineAnnotation.InstanceState]: 'running' },
      ownerReferences: [
        {
          apiVersion: 'machine.openshift.io/v1beta1',
          kind: 'MachineSet',
          name: ms.metadata?.name ?? '',
          uid: ms.metadata?.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: { ...structuredClone(template?.spec ?? {}), providerID: nodeProfile.providerID ?? '' },
  };
}
