/**
 * The HA cloud profile (AWS, as an OSD/ROSA or IPI cluster looks): 3 masters over zones a/b/c,
 * workers spread round-robin over the zones with one worker MachineSet per zone (the installer
 * creates one per zone even when it gets no replicas), and optionally infra nodes in an `infra`
 * pool with their own MachineSet per zone. With 0 workers it is a compact cluster: masters
 * schedulable and labelled worker, as the installer makes them.
 *
 * Node names are the EC2 private DNS names of their addresses; each zone owns the 10.0.Z*32.0/19
 * block (masters at .10, workers from .20, infra from .1 in the third octet; distinct ranges of
 * the fourth octet), so every name is unique up to the 500-node limit.
 */
import type { ClusterProfile, MachineSetProfile, NodeProfile, NodeRole, ProfileOptions } from '../profiles.js';
import { HA_CLOUD_COLUMN } from './durations.js';
import { hashHex, machineName, nodeLabels, roleTaints, sizeOf } from './nodes.js';

const REGION = 'us-east-1';
const ZONES = ['a', 'b', 'c'] as const;
const INFRASTRUCTURE_NAME = 'sim-x7k2p';
const MASTERS = 3;
/** Fourth-octet values per block of third-octet values. */
const HOSTS_PER_OCTET = 54;

const INSTANCES: Record<NodeRole, { type: string; cpu: string; allocatableCpu: string; memory: string }> = {
  master: { type: 'm6i.xlarge', cpu: '4', allocatableCpu: '3500m', memory: '16163416Ki' },
  worker: { type: 'm6i.2xlarge', cpu: '8', allocatableCpu: '7500m', memory: '32512836Ki' },
  infra: { type: 'r6i.xlarge', cpu: '4', allocatableCpu: '3500m', memory: '32386128Ki' },
};

function awsNode(
  role: NodeRole,
  zoneIndex: number,
  third: number,
  fourth: number,
  schedulableMasters: boolean,
  machine?: NodeProfile['machine'],
): NodeProfile {
  const zone = `${REGION}${ZONES[zoneIndex] ?? 'a'}`;
  const internalIP = `10.0.${third}.${fourth}`;
  const name = `ip-10-0-${third}-${fourth}.ec2.internal`;
  const instance = INSTANCES[role];
  return {
    name,
    role,
    zone,
    labels: nodeLabels(name, role, { region: REGION, zone, instanceType: instance.type }, schedulableMasters),
    taints: roleTaints(role, schedulableMasters),
    providerID: `aws:///${zone}/i-0${hashHex(name, 16)}`,
    internalIP,
    resources: { cpu: instance.cpu, allocatableCpu: instance.allocatableCpu, memory: instance.memory },
    ...(machine ? { machine } : {}),
  };
}

/** `count` nodes of a MachineSet-backed role, spread round-robin over the zones, each owned by its zone's MachineSet. */
function machineNodes(
  role: 'worker' | 'infra',
  count: number,
  machineSets: MachineSetProfile[],
  taken: Set<string>,
): NodeProfile[] {
  const nodes: NodeProfile[] = [];
  for (let k = 0; k < count; k++) {
    const z = k % ZONES.length;
    const block = Math.floor(k / HOSTS_PER_OCTET);
    const third = role === 'worker' ? z * 32 + 20 + block : z * 32 + 1 + block;
    const fourth = (role === 'worker' ? 200 : 30) + (k % HOSTS_PER_OCTET);
    const ms = machineSets[z];
    if (!ms) throw new Error(`no ${role} MachineSet for zone index ${z}`);
    const name = `ip-10-0-${third}-${fourth}.ec2.internal`;
    nodes.push(
      awsNode(role, z, third, fourth, false, { machineSet: ms.name, name: machineName(ms.name, name, taken) }),
    );
  }
  return nodes;
}

function zoneMachineSets(role: 'worker' | 'infra'): MachineSetProfile[] {
  return ZONES.map((z) => ({
    name: `${INFRASTRUCTURE_NAME}-${role}-${REGION}${z}`,
    role,
    zone: `${REGION}${z}`,
    instanceType: INSTANCES[role].type,
  }));
}

/** The HA cloud profile (default 3 masters + 3 workers; see the module comment). */
export function haCloudProfile(options: ProfileOptions = {}): ClusterProfile {
  const { workers, infraNodes } = sizeOf(options, MASTERS, { workers: 3 });
  const schedulableMasters = workers === 0;
  const taken = new Set<string>();
  const workerSets = zoneMachineSets('worker');
  const infraSets = infraNodes > 0 ? zoneMachineSets('infra') : [];
  const masters = ZONES.map((_, i) => awsNode('master', i, i * 32 + 10, 100 + i, schedulableMasters));
  return {
    name: 'ha-cloud',
    infrastructureName: INFRASTRUCTURE_NAME,
    clusterDomain: 'sim.x7k2.p1.openshiftapps.com',
    platform: 'AWS',
    region: REGION,
    controlPlaneTopology: 'HighlyAvailable',
    infrastructureTopology: 'HighlyAvailable',
    nodes: [
      ...masters,
      ...machineNodes('worker', workers, workerSets, taken),
      ...machineNodes('infra', infraNodes, infraSets, taken),
    ],
    machineSets: [...workerSets, ...infraSets],
    pools: [{ name: 'master' }, { name: 'worker' }, ...(infraNodes > 0 ? [{ name: 'infra' }] : [])],
    durations: HA_CLOUD_COLUMN,
    version: options.version ?? '4.14.30',
    channel: options.channel ?? 'stable-4.14',
  };
}
