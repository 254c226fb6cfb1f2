/**
 * The bare-metal profile: 3 masters and N workers (default 3) on platform BareMetal, optionally
 * infra nodes in an `infra` pool. The hosts are not backed by Machines: there are no MachineSets
 * and nothing scales them, as on a cluster whose hosts were provisioned outside the Machine API
 * (user-provisioned, assisted or agent-based installs). A bare-metal IPI cluster would also show
 * metal3 Machines and a worker MachineSet backed by BareMetalHosts, which this simulation does not
 * model. No cloud provider: no zone, region or instance-type labels and no provider ID. Durations
 * are the bare-metal column of docs/design/cluster-model.md#durations (long reboots, slow
 * static-pod rollouts).
 */
import type { ClusterProfile, NodeProfile, NodeRole, ProfileOptions } from '../profiles.js';
import { BARE_METAL_COLUMN } from './durations.js';
import { nodeLabels, roleTaints, sizeOf } from './nodes.js';

const MASTERS = 3;
/** Host addresses per /24 of the machine network 192.168.111.0/22, from .20. */
const HOSTS_PER_SUBNET = 200;

const HOSTS: Record<NodeRole, { cpu: string; allocatableCpu: string; memory: string }> = {
  master: { cpu: '32', allocatableCpu: '31500m', memory: '131481280Ki' },
  worker: { cpu: '64', allocatableCpu: '63500m', memory: '263835520Ki' },
  infra: { cpu: '32', allocatableCpu: '31500m', memory: '131481280Ki' },
};

/** The bare-metal profile (see the module comment). */
export function bareMetalProfile(options: ProfileOptions = {}): ClusterProfile {
  const { workers, infraNodes } = sizeOf(options, MASTERS, { workers: 3 });
  const schedulableMasters = workers === 0;
  const nodes: NodeProfile[] = [];
  const add = (role: NodeRole, index: number): void => {
    const n = nodes.length;
    const name = `${role}-${index}`;
    nodes.push({
      name,
      role,
      zone: undefined,
      labels: nodeLabels(name, role, {}, schedulableMasters),
      taints: roleTaints(role, schedulableMasters),
      providerID: undefined,
      internalIP: `192.168.${111 + Math.floor(n / HOSTS_PER_SUBNET)}.${20 + (n % HOSTS_PER_SUBNET)}`,
      resources: HOSTS[role],
    });
  };
  for (let i = 0; i < MASTERS; i++) add('master', i);
  for (let i = 0; i < workers; i++) add('worker', i);
  for (let i = 0; i < infraNodes; i++) add('infra', i);
  return {
    name: 'bare-metal',
    infrastructureName: 'metal-q4r8t',
    clusterDomain: 'metal.lab.example.com',
    platform: 'BareMetal',
    region: undefined,
    controlPlaneTopology: 'HighlyAvailable',
    infrastructureTopology: 'HighlyAvailable',
    nodes,
    machineSets: [],
    pools: [{ name: 'master' }, { name: 'worker' }, ...(infraNodes > 0 ? [{ name: 'infra' }] : [])],
    durations: BARE_METAL_COLUMN,
    version: options.version ?? '4.14.30',
    channel: options.channel ?? 'stable-4.14',
  };
}
