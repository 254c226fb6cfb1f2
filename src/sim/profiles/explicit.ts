/**
 * A profile's shape replaced by an explicit one: the nodes (name, pool role, zone, labels, taints,
 * owning MachineSet), the MachineSets and the pools' settings (maxUnavailable, paused), as a
 * scenario file written by `upgrade-operator snapshot` lists them. The profile still gives the
 * platform, the Infrastructure, the durations and the node sizes. Pure.
 */
import type { Taint } from 'kubernetes-types/core/v1.js';
import type { ClusterProfile, MachineSetProfile, NodeProfile, NodeRole, PoolProfile } from '../profiles.js';
import { hashHex, machineName, MAX_NODES, nodeLabels, roleTaints } from './nodes.js';

/** One node of an explicit topology. */
export interface ExplicitNode {
  name: string;
  role: NodeRole;
  zone?: string | undefined;
  /** Labels besides (and over) those the profile gives every node of the role. */
  labels?: Record<string, string> | undefined;
  /** `spec.taints` (default: the role's, i.e. the master NoSchedule taint unless masters are schedulable). */
  taints?: Taint[] | undefined;
  /** The MachineSet owning the node's Machine (one of the topology's MachineSets). */
  machineSet?: string | undefined;
}

/** One MachineSet of an explicit topology (its replicas are the nodes naming it). */
export interface ExplicitMachineSet {
  name: string;
  role: 'worker' | 'infra';
  zone: string;
  instanceType?: string | undefined;
}

/** The settings of one pool. */
export interface ExplicitPool {
  name: NodeRole;
  maxUnavailable?: number | string | undefined;
  paused?: boolean | undefined;
}

/** What replaces the profile's shape; each part left out keeps the profile's. */
export interface ExplicitTopology {
  nodes?: readonly ExplicitNode[] | undefined;
  machineSets?: readonly ExplicitMachineSet[] | undefined;
  pools?: readonly ExplicitPool[] | undefined;
}

/** Problems of a topology (`<path>: <message>`), the paths relative to the scenario's `cluster`. */
export function explicitTopologyProblems(topology: ExplicitTopology, profileName: string): string[] {
  const out: string[] = [];
  const nodes = topology.nodes ?? [];
  const machineSets = new Map((topology.machineSets ?? []).map((ms) => [ms.name, ms]));
  if (topology.machineSets && !topology.nodes) out.push('/cluster/machineSets: only with /cluster/nodes');
  if (nodes.length > MAX_NODES)
    out.push(`/cluster/nodes: a simulated cluster has at most ${MAX_NODES} nodes, got ${nodes.length}`);
  if (topology.nodes && !nodes.some((n) => n.role === 'master'))
    out.push('/cluster/nodes: at least one node of role master');
  if (profileName === 'single-node' && topology.nodes && nodes.length !== 1)
    out.push('/cluster/nodes: a single-node cluster has exactly one node');
  const seen = new Set<string>();
  nodes.forEach((node, index) => {
    if (seen.has(node.name)) out.push(`/cluster/nodes/${index}/name: ${node.name} is listed twice`);
    seen.add(node.name);
    if (node.machineSet === undefined) return;
    const ms = machineSets.get(node.machineSet);
    if (!ms) out.push(`/cluster/nodes/${index}/machineSet: no MachineSet ${node.machineSet} in /cluster/machineSets`);
    else if (ms.role !== node.role)
      out.push(
        `/cluster/nodes/${index}/machineSet: MachineSet ${ms.name} makes ${ms.role} nodes, the node is ${node.role}`,
      );
  });
  const pools = new Set<string>();
  (topology.pools ?? []).forEach((pool, index) => {
    if (pools.has(pool.name)) out.push(`/cluster/pools/${index}/name: pool ${pool.name} is listed twice`);
    pools.add(pool.name);
  });
  return out;
}

/** The profile with the topology's nodes, MachineSets and pool settings (call after {@link explicitTopologyProblems}). */
export function withExplicitTopology(profile: ClusterProfile, topology: ExplicitTopology): ClusterProfile {
  const nodes = topology.nodes ? explicitNodes(profile, topology.nodes, topology.machineSets ?? []) : profile.nodes;
  const machineSets = topology.nodes
    ? (topology.machineSets ?? []).map((ms) => machineSetProfile(profile, ms))
    : profile.machineSets;
  const roles = new Set(nodes.map((n) => n.role));
  const base: PoolProfile[] = [
    { name: 'master' },
    { name: 'worker' },
    ...(roles.has('infra') ? [{ name: 'infra' }] : []),
  ];
  const pools = (topology.nodes ? base : profile.pools).map((pool) => {
    const settings = topology.pools?.find((p) => p.name === pool.name);
    const maxUnavailable = settings?.maxUnavailable ?? pool.maxUnavailable;
    const paused = settings?.paused ?? pool.paused;
    return {
      name: pool.name,
      ...(maxUnavailable !== undefined ? { maxUnavailable } : {}),
      ...(paused !== undefined ? { paused } : {}),
    };
  });
  return { ...profile, nodes, machineSets, pools };
}

/** The instance type and size the profile gives nodes of a role (its first node of the role, else of a worker, else its first node). */
function sizeOfRole(profile: ClusterProfile, role: NodeRole): { instanceType: string | undefined; node: NodeProfile } {
  const node =
    profile.nodes.find((n) => n.role === role) ?? profile.nodes.find((n) => n.role === 'worker') ?? profile.nodes[0];
  if (!node) throw new Error(`profile ${profile.name} has no nodes to size others by`);
  return { instanceType: node.labels['node.kubernetes.io/instance-type'], node };
}

function machineSetProfile(profile: ClusterProfile, ms: ExplicitMachineSet): MachineSetProfile {
  return {
    name: ms.name,
    role: ms.role,
    zone: ms.zone,
    instanceType: ms.instanceType ?? sizeOfRole(profile, ms.role).instanceType ?? 'unknown',
  };
}

function explicitNodes(
  profile: ClusterProfile,
  nodes: readonly ExplicitNode[],
  machineSets: readonly ExplicitMachineSet[],
): NodeProfile[] {
  // Masters are schedulable (and labelled worker) when no other node is: a compact cluster.
  const schedulableMasters = nodes.every((n) => n.role === 'master');
  const taken = new Set<string>();
  return nodes.map((node, index) => {
    const size = sizeOfRole(profile, node.role);
    const ms = machineSets.find((m) => m.name === node.machineSet);
    const instanceType = ms?.instanceType ?? size.instanceType;
    const labels = {
      ...nodeLabels(
        node.name,
        node.role,
        { region: profile.region, zone: node.zone, instanceType },
        schedulableMasters,
      ),
      ...(node.labels ?? {}),
    };
    return {
      name: node.name,
      role: node.role,
      zone: node.zone,
      labels,
      taints: node.taints ?? roleTaints(node.role, schedulableMasters),
      providerID:
        profile.platform === 'AWS'
          ? `aws:///${node.zone ?? profile.region ?? ''}/i-0${hashHex(node.name, 16)}`
          : undefined,
      internalIP: `10.128.${Math.floor(index / 250)}.${2 + (index % 250)}`,
      resources: size.node.resources,
      ...(ms ? { machine: { machineSet: ms.name, name: machineName(ms.name, node.name, taken) } } : {}),
    };
  });
}
