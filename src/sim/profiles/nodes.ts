/**
 * What the profiles share: node labels as the kubelet and the installer set them, role labels and
 * taints, size options checked, and stable hashes for provider and Machine names. Pure functions.
 */
import type { Taint } from 'kubernetes-types/core/v1.js';
import type { NodeRole, ProfileOptions } from '../profiles.js';

/** The largest cluster a profile builds. */
export const MAX_NODES = 500;

/** Where a node is and what it runs on; undefined parts get no label. */
export interface NodePlacement {
  region?: string | undefined;
  zone?: string | undefined;
  instanceType?: string | undefined;
}

/**
 * The role labels of a node: control-plane nodes carry both `master` and `control-plane` (and
 * `worker` when masters are schedulable: compact and single-node clusters); infra nodes carry
 * `infra` and the `worker` label their kubelet registers with (they boot the worker config).
 */
export function roleLabels(role: NodeRole, schedulableMasters: boolean): Record<string, string> {
  switch (role) {
    case 'master':
      return {
        'node-role.kubernetes.io/master': '',
        'node-role.kubernetes.io/control-plane': '',
        ...(schedulableMasters ? { 'node-role.kubernetes.io/worker': '' } : {}),
      };
    case 'worker':
      return { 'node-role.kubernetes.io/worker': '' };
    case 'infra':
      return { 'node-role.kubernetes.io/infra': '', 'node-role.kubernetes.io/worker': '' };
  }
}

/** The taints an installed node starts with: the master NoSchedule taint unless masters are schedulable. */
export function roleTaints(role: NodeRole, schedulableMasters: boolean): Taint[] {
  return role === 'master' && !schedulableMasters
    ? [{ key: 'node-role.kubernetes.io/master', effect: 'NoSchedule' }]
    : [];
}

/** Every label of a node (OS, architecture, hostname, topology where known, roles). */
export function nodeLabels(
  name: string,
  role: NodeRole,
  placement: NodePlacement,
  schedulableMasters: boolean,
): Record<string, string> {
  const labels: Record<string, string> = {
    'beta.kubernetes.io/arch': 'amd64',
    'beta.kubernetes.io/os': 'linux',
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/os': 'linux',
    'kubernetes.io/hostname': name,
    'node.openshift.io/os_id': 'rhcos',
  };
  if (placement.instanceType !== undefined) {
    labels['beta.kubernetes.io/instance-type'] = placement.instanceType;
    labels['node.kubernetes.io/instance-type'] = placement.instanceType;
  }
  if (placement.region !== undefined) {
    labels['topology.kubernetes.io/region'] = placement.region;
    labels['failure-domain.beta.kubernetes.io/region'] = placement.region;
  }
  if (placement.zone !== undefined) {
    labels['topology.kubernetes.io/zone'] = placement.zone;
    labels['failure-domain.beta.kubernetes.io/zone'] = placement.zone;
  }
  return { ...labels, ...roleLabels(role, schedulableMasters) };
}

/** The node counts asked for, checked: whole numbers ≥ 0, at most {@link MAX_NODES} nodes with the masters. */
export function sizeOf(
  options: ProfileOptions,
  masters: number,
  defaults: { workers: number },
): { workers: number; infraNodes: number } {
  const workers = count('workers', options.workers, defaults.workers);
  const infraNodes = count('infraNodes', options.infraNodes, 0);
  const total = masters + workers + infraNodes;
  if (total > MAX_NODES)
    throw new RangeError(
      `a simulated cluster has at most ${MAX_NODES} nodes, asked for ${total} (${masters} masters, ${workers} workers, ${infraNodes} infra)`,
    );
  return { workers, infraNodes };
}

function count(what: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`${what} must be a whole number ≥ 0, got ${value}`);
  return value;
}

/** A stable hex string of `length` characters derived from `s` (FNV-1a rounds). */
export function hashHex(text: string, length: number): string {
  let h = 2166136261;
  let out = '';
  for (let round = 0; out.length < length; round++) {
    for (const ch of `${text}#${round}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
    out += h.toString(16).padStart(8, '0');
  }
  return out.slice(0, length);
}

/**
 * A Machine name as the MachineSet controller makes them (`<machineset>-<5 letters>`), stable for
 * the node and unique among `taken` (which it joins).
 */
export function machineName(machineSet: string, nodeName: string, taken: Set<string>): string {
  for (let salt = 0; ; salt++) {
    const suffix = hashHex(salt === 0 ? nodeName : `${nodeName}/${salt}`, 5).replace(
      /[0-9]/g,
      (d) => 'bcdfghjklm'[Number(d)] ?? 'x',
    );
    const name = `${machineSet}-${suffix}`;
    if (!taken.has(name)) {
      taken.add(name);
      return name;
    }
  }
}
