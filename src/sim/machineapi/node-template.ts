/**
 * What a new Machine's instance looks like and the Node it registers
 * (docs/design/cluster-model.md#machines, docs/design/cluster-model.md#new-nodes-during-an-update):
 * instance identity (provider ID, instance ID, IP, host name) drawn from the Machine's own seeded
 * stream, and the Node with the labels the kubelet and the Machine give it, the
 * `machine.openshift.io/machine` annotation, the MCO annotations of the config it booted
 * (currentConfig = desiredConfig, state Done), Ready, capacity and addresses. Pure functions.
 */
import type { Node, NodeSystemInfo, Taint } from 'kubernetes-types/core/v1.js';
import type { Machine } from '../../api/openshift/machine-v1beta1/machine.js';
import { MachineAnnotation, MachineLabel } from '../../api/openshift/machine-v1beta1/machine.js';
import {
  MachineConfigDaemonState,
  MachineConfigNodeAnnotation,
} from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { formatTime } from '../../lib/clock.js';
import { isJsonObject, type JsonObject } from '../../lib/json.js';
import type { SeededRandom } from '../../lib/random.js';

/** Where and what the instance is, read from the provider spec (AWS, GCP, Azure, or nothing). */
export interface Placement {
  region: string | undefined;
  zone: string | undefined;
  instanceType: string | undefined;
  provider: 'aws' | 'gce' | 'azure' | 'none';
}

/** The instance the provider created for a Machine. */
export interface Instance {
  instanceId: string;
  providerID: string;
  internalIP: string;
  /** The Node name (AWS: `ip-10-0-x-y.<region>.compute.internal`; elsewhere the Machine name). */
  nodeName: string;
}

function str(value: JsonObject | undefined, key: string): string | undefined {
  const v = value?.[key];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** Placement from `spec.providerSpec.value`. */
export function placementOf(machine: Machine): Placement {
  const value = machine.spec?.providerSpec?.value;
  const v = isJsonObject(value) ? value : undefined;
  const kind = str(v, 'kind') ?? '';
  const placement = isJsonObject(v?.placement) ? v.placement : undefined;
  if (kind.startsWith('AWS') || placement !== undefined) {
    return {
      region: str(placement, 'region'),
      zone: str(placement, 'availabilityZone'),
      instanceType: str(v, 'instanceType'),
      provider: 'aws',
    };
  }
  if (kind.startsWith('GCP'))
    return { region: str(v, 'region'), zone: str(v, 'zone'), instanceType: str(v, 'machineType'), provider: 'gce' };
  if (kind.startsWith('Azure')) {
    const location = str(v, 'location');
    const zone = str(v, 'zone');
    return {
      region: location,
      zone: location && zone ? `${location}-${zone}` : zone,
      instanceType: str(v, 'vmSize'),
      provider: 'azure',
    };
  }
  return { region: undefined, zone: undefined, instanceType: undefined, provider: 'none' };
}

function hex(random: SeededRandom, count: number): string {
  let s = '';
  for (let i = 0; i < count; i++) s += '0123456789abcdef'[random.int(0, 15)] ?? '0';
  return s;
}

/** The instance of a Machine; `random` must be the Machine's own stream so that it is stable across reconciles. */
export function instanceFor(machine: Machine, random: SeededRandom): Instance {
  const name = machine.metadata?.name ?? '';
  const p = placementOf(machine);
  const internalIP = `10.0.${random.int(16, 223)}.${random.int(2, 254)}`;
  const instanceId = p.provider === 'aws' ? `i-0${hex(random, 16)}` : name;
  switch (p.provider) {
    case 'aws':
      return {
        instanceId,
        providerID: `aws:///${p.zone ?? 'unknown'}/${instanceId}`,
        internalIP,
        // us-east-1 hosts are named `*.ec2.internal`, other regions `*.<region>.compute.internal`.
        nodeName: `ip-${internalIP.replaceAll('.', '-')}.${p.region === undefined || p.region === 'us-east-1' ? 'ec2.internal' : `${p.region}.compute.internal`}`,
      };
    case 'gce':
      return { instanceId, providerID: `gce://project/${p.zone ?? 'unknown'}/${name}`, internalIP, nodeName: name };
    case 'azure':
      return {
        instanceId,
        providerID: `azure:///subscriptions/sim/resourceGroups/sim/providers/Microsoft.Compute/virtualMachines/${name}`,
        internalIP,
        nodeName: name,
      };
    case 'none':
      return { instanceId, providerID: `sim:///${name}`, internalIP, nodeName: name };
  }
}

/** Node system info of a fresh node; `base` (a peer's info) gives the versions. */
export function nodeSystemInfo(base: Partial<NodeSystemInfo> | undefined, random: SeededRandom): NodeSystemInfo {
  return {
    architecture: base?.architecture ?? 'amd64',
    operatingSystem: base?.operatingSystem ?? 'linux',
    osImage: base?.osImage ?? 'Red Hat Enterprise Linux CoreOS 414.92.202402130420-0 (Plow)',
    kernelVersion: base?.kernelVersion ?? '5.14.0-284.52.1.el9_2.x86_64',
    kubeletVersion: base?.kubeletVersion ?? 'v1.27.10+c79e5e2',
    kubeProxyVersion: base?.kubeProxyVersion ?? 'v1.27.10+c79e5e2',
    containerRuntimeVersion: base?.containerRuntimeVersion ?? 'cri-o://1.27.3-6.rhaos4.14.git7eb2281.el9',
    machineID: hex(random, 32),
    systemUUID: `${hex(random, 8)}-${hex(random, 4)}-${hex(random, 4)}-${hex(random, 4)}-${hex(random, 12)}`,
    bootID: `${hex(random, 8)}-${hex(random, 4)}-${hex(random, 4)}-${hex(random, 4)}-${hex(random, 12)}`,
  };
}

export interface NodeForMachineOptions {
  instance: Instance;
  now: number;
  /**
   * The rendered config the node booted (docs/design/cluster-model.md#new-nodes-during-an-update);
   * undefined leaves the MCO annotations off.
   */
  config: string | undefined;
  nodeInfo: NodeSystemInfo;
}

/** The Node the kubelet of a Machine registers, already Ready. */
export function nodeForMachine(machine: Machine, options: NodeForMachineOptions): Node {
  const p = placementOf(machine);
  const at = formatTime(options.now);
  const role = machine.metadata?.labels?.[MachineLabel.MachineRole] ?? 'worker';
  const hostname = options.instance.nodeName.split('.')[0] ?? options.instance.nodeName;
  const labels: Record<string, string> = {
    'beta.kubernetes.io/arch': options.nodeInfo.architecture,
    'beta.kubernetes.io/os': options.nodeInfo.operatingSystem,
    'kubernetes.io/arch': options.nodeInfo.architecture,
    'kubernetes.io/hostname': hostname,
    'kubernetes.io/os': options.nodeInfo.operatingSystem,
    'node.openshift.io/os_id': 'rhcos',
    [`node-role.kubernetes.io/${role}`]: '',
    ...(role === 'master' ? { 'node-role.kubernetes.io/control-plane': '' } : {}),
    ...(p.instanceType
      ? { 'node.kubernetes.io/instance-type': p.instanceType, 'beta.kubernetes.io/instance-type': p.instanceType }
      : {}),
    ...(p.region
      ? { 'topology.kubernetes.io/region': p.region, 'failure-domain.beta.kubernetes.io/region': p.region }
      : {}),
    ...(p.zone ? { 'topology.kubernetes.io/zone': p.zone, 'failure-domain.beta.kubernetes.io/zone': p.zone } : {}),
    ...machine.spec?.metadata?.labels,
  };
  const annotations: Record<string, string> = {
    [MachineAnnotation.NodeMachine]: `${machine.metadata?.namespace ?? ''}/${machine.metadata?.name ?? ''}`,
    'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
    ...(options.config !== undefined
      ? {
          [MachineConfigNodeAnnotation.CurrentConfig]: options.config,
          [MachineConfigNodeAnnotation.DesiredConfig]: options.config,
          [MachineConfigNodeAnnotation.State]: MachineConfigDaemonState.Done,
          [MachineConfigNodeAnnotation.Reason]: '',
        }
      : {}),
    ...machine.spec?.metadata?.annotations,
  };
  const taints: Taint[] = [
    ...(role === 'master' ? [{ key: 'node-role.kubernetes.io/master', effect: 'NoSchedule' }] : []),
    ...(machine.spec?.taints ?? []),
  ];
  const cond = (type: string, status: string, reason: string, message: string) => ({
    type,
    status,
    lastHeartbeatTime: at,
    lastTransitionTime: at,
    reason,
    message,
  });
  const capacity = {
    cpu: '4',
    'ephemeral-storage': '125293548Ki',
    'hugepages-1Gi': '0',
    'hugepages-2Mi': '0',
    memory: '16092956Ki',
    pods: '250',
  };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: options.instance.nodeName, labels, annotations },
    spec: { providerID: options.instance.providerID, ...(taints.length > 0 ? { taints } : {}) },
    status: {
      addresses: [
        { type: 'InternalIP', address: options.instance.internalIP },
        { type: 'Hostname', address: options.instance.nodeName },
        { type: 'InternalDNS', address: options.instance.nodeName },
      ],
      allocatable: { ...capacity, cpu: '3500m', 'ephemeral-storage': '114396791822', memory: '14942236Ki' },
      capacity,
      conditions: [
        cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
        cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
        cond('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
        cond('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: options.nodeInfo,
    },
  };
}
