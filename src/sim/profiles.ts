/**
 * Cluster profiles of the simulation as data: the nodes an installed cluster starts with (names,
 * labels, roles, zones), the worker MachineSets owning the worker nodes, and the starting
 * version and channel. `createSimulatedCluster` turns a profile into API objects.
 */

/** One node of a profile. */
export interface NodeProfile {
  name: string;
  role: 'master' | 'worker';
  zone: string;
  /** Every label the node carries (role, topology, hostname, OS). */
  labels: Record<string, string>;
  /** Worker nodes: the MachineSet whose Machine owns this node. */
  machineSet?: string;
}

/** A worker MachineSet of a profile (one Machine per node naming it). */
export interface MachineSetProfile {
  name: string;
  zone: string;
}

/** A cluster shape. */
export interface ClusterProfile {
  name: string;
  /** The infrastructure name (`<cluster>-<random>`), prefix of MachineSet and Machine names. */
  infrastructureName: string;
  region: string;
  instanceType: { master: string; worker: string };
  nodes: NodeProfile[];
  machineSets: MachineSetProfile[];
  /** The version installed and the channel set at install time. */
  version: string;
  channel: string;
}

const REGION = 'us-east-1';
const ZONES = ['a', 'b', 'c'] as const;

function nodeLabels(name: string, role: 'master' | 'worker', zone: string, region: string, instanceType: string): Record<string, string> {
  const labels: Record<string, string> = {
    'beta.kubernetes.io/arch': 'amd64',
    'beta.kubernetes.io/os': 'linux',
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/os': 'linux',
    'kubernetes.io/hostname': name,
    'node.kubernetes.io/instance-type': instanceType,
    'node.openshift.io/os_id': 'rhcos',
    'topology.kubernetes.io/region': region,
    'topology.kubernetes.io/zone': zone,
    'failure-domain.beta.kubernetes.io/region': region,
    'failure-domain.beta.kubernetes.io/zone': zone,
    [`node-role.kubernetes.io/${role}`]: '',
  };
  // Control-plane nodes carry both role labels, as on OpenShift 4.
  if (role === 'master') labels['node-role.kubernetes.io/control-plane'] = '';
  return labels;
}

/** The HA cloud profile: 3 masters and 3 workers over zones a/b/c, one worker MachineSet per zone. */
export function haCloudProfile(options: { version?: string; channel?: string } = {}): ClusterProfile {
  const infrastructureName = 'sim-x7k2p';
  const instanceType = { master: 'm6i.xlarge', worker: 'm6i.2xlarge' };
  const nodes: NodeProfile[] = [];
  const machineSets: MachineSetProfile[] = [];
  ZONES.forEach((z, i) => {
    const zone = `${REGION}${z}`;
    const name = `ip-10-0-${i * 32 + 10}-${100 + i}.ec2.internal`;
    nodes.push({ name, role: 'master', zone, labels: nodeLabels(name, 'master', zone, REGION, instanceType.master) });
  });
  ZONES.forEach((z, i) => {
    const zone = `${REGION}${z}`;
    const machineSet = `${infrastructureName}-worker-${zone}`;
    machineSets.push({ name: machineSet, zone });
    const name = `ip-10-0-${i * 32 + 20}-${200 + i}.ec2.internal`;
    nodes.push({ name, role: 'worker', zone, machineSet, labels: nodeLabels(name, 'worker', zone, REGION, instanceType.worker) });
  });
  return {
    name: 'ha-cloud',
    infrastructureName,
    region: REGION,
    instanceType,
    nodes,
    machineSets,
    version: options.version ?? '4.14.30',
    channel: options.channel ?? 'stable-4.14',
  };
}

/** Profiles by name. */
export function profileByName(name: string, options: { version?: string; channel?: string } = {}): ClusterProfile {
  if (name === 'ha-cloud') return haCloudProfile(options);
  throw new Error(`unknown cluster profile ${JSON.stringify(name)}`);
}
