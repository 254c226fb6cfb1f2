/**
 * The single-node profile (SNO): one schedulable node labelled master, control-plane and worker,
 * managed by the master pool (the worker pool has no machines), on platform None as assisted and
 * agent-based SNO installs are, with `controlPlaneTopology` and `infrastructureTopology`
 * SingleReplica. The machine-config daemon skips drain and cordon on it. Durations are the
 * single-node column of docs/design/cluster-model.md#durations. No Machine API objects.
 */
import type { ClusterProfile, ProfileOptions } from '../profiles.js';
import { SINGLE_NODE_COLUMN } from './durations.js';
import { nodeLabels, roleTaints } from './nodes.js';

const NODE_NAME = 'sno-0';

/** The single-node profile; `workers` and `infraNodes` may only be 0. */
export function singleNodeProfile(options: ProfileOptions = {}): ClusterProfile {
  for (const [what, value] of [
    ['workers', options.workers],
    ['infraNodes', options.infraNodes],
  ] as const) {
    if (value !== undefined && value !== 0)
      throw new RangeError(`the single-node profile has exactly one node: ${what} must be 0, got ${value}`);
  }
  return {
    name: 'single-node',
    infrastructureName: 'sno-h2v6w',
    clusterDomain: 'sno.lab.example.com',
    platform: 'None',
    region: undefined,
    controlPlaneTopology: 'SingleReplica',
    infrastructureTopology: 'SingleReplica',
    nodes: [
      {
        name: NODE_NAME,
        role: 'master',
        zone: undefined,
        labels: nodeLabels(NODE_NAME, 'master', {}, true),
        taints: roleTaints('master', true),
        providerID: undefined,
        internalIP: '192.168.111.80',
        resources: { cpu: '16', allocatableCpu: '15500m', memory: '65584704Ki' },
      },
    ],
    machineSets: [],
    pools: [{ name: 'master' }, { name: 'worker' }],
    durations: SINGLE_NODE_COLUMN,
    version: options.version ?? '4.14.30',
    channel: options.channel ?? 'stable-4.14',
  };
}
