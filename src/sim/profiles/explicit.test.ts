import { test } from 'node:test';
import assert from 'node:assert/strict';
import { haCloudProfile } from './ha-cloud.js';
import { bareMetalProfile } from './bare-metal.js';
import { explicitTopologyProblems, withExplicitTopology, type ExplicitTopology } from './explicit.js';

const topology: ExplicitTopology = {
  nodes: [
    { name: 'm0', role: 'master', zone: 'eu-1a' },
    { name: 'w0', role: 'worker', zone: 'eu-1a', machineSet: 'ms-a', labels: { team: 'payments' } },
    {
      name: 'w1',
      role: 'worker',
      zone: 'eu-1b',
      taints: [{ key: 'dedicated', value: 'payments', effect: 'NoSchedule' }],
    },
    { name: 'i0', role: 'infra', zone: 'eu-1b', machineSet: 'ms-i' },
  ],
  machineSets: [
    { name: 'ms-a', role: 'worker', zone: 'eu-1a', instanceType: 'c6i.large' },
    { name: 'ms-i', role: 'infra', zone: 'eu-1b' },
  ],
  pools: [{ name: 'worker', maxUnavailable: 2, paused: true }],
};

void test('an explicit topology replaces the profile’s nodes, MachineSets and pool settings, and keeps its platform', () => {
  const profile = withExplicitTopology(haCloudProfile(), topology);
  assert.equal(profile.platform, 'AWS');
  assert.deepEqual(
    profile.nodes.map((n) => [n.name, n.role, n.zone, n.machine?.machineSet]),
    [
      ['m0', 'master', 'eu-1a', undefined],
      ['w0', 'worker', 'eu-1a', 'ms-a'],
      ['w1', 'worker', 'eu-1b', undefined],
      ['i0', 'infra', 'eu-1b', 'ms-i'],
    ],
  );
  const [m0, w0, w1, i0] = profile.nodes;
  assert.deepEqual(m0?.taints, [{ key: 'node-role.kubernetes.io/master', effect: 'NoSchedule' }]);
  assert.equal(w0?.labels['team'], 'payments');
  assert.equal(w0?.labels['node.kubernetes.io/instance-type'], 'c6i.large');
  assert.equal(w0?.labels['node-role.kubernetes.io/worker'], '');
  assert.deepEqual(w1?.taints, [{ key: 'dedicated', value: 'payments', effect: 'NoSchedule' }]);
  assert.equal(i0?.labels['node-role.kubernetes.io/infra'], '');
  assert.ok(w0?.machine?.name.startsWith('ms-a-'));
  assert.deepEqual(
    profile.machineSets.map((ms) => [ms.name, ms.instanceType]),
    [
      ['ms-a', 'c6i.large'],
      ['ms-i', 'm6i.2xlarge'],
    ],
  );
  assert.deepEqual(profile.pools, [
    { name: 'master' },
    { name: 'worker', maxUnavailable: 2, paused: true },
    { name: 'infra' },
  ]);
  assert.equal(new Set(profile.nodes.map((n) => n.internalIP)).size, 4);
});

void test('only masters: a compact cluster, masters schedulable; pool settings alone keep the profile’s nodes', () => {
  const compact = withExplicitTopology(bareMetalProfile(), { nodes: [{ name: 'm0', role: 'master' }] });
  assert.deepEqual(compact.nodes[0]?.taints, []);
  assert.equal(compact.nodes[0]?.labels['node-role.kubernetes.io/worker'], '');
  assert.equal(compact.nodes[0]?.providerID, undefined);
  const paused = withExplicitTopology(haCloudProfile(), { pools: [{ name: 'worker', paused: true }] });
  assert.equal(paused.nodes.length, 6);
  assert.deepEqual(paused.pools[1], { name: 'worker', paused: true });
});

void test('a topology that cannot be built is refused with each problem and its path', () => {
  assert.deepEqual(explicitTopologyProblems(topology, 'ha-cloud'), []);
  assert.deepEqual(
    explicitTopologyProblems(
      {
        nodes: [
          { name: 'w0', role: 'worker', machineSet: 'nope' },
          { name: 'w0', role: 'infra', machineSet: 'ms-a' },
        ],
        machineSets: [{ name: 'ms-a', role: 'worker', zone: 'a' }],
        pools: [{ name: 'worker' }, { name: 'worker' }],
      },
      'single-node',
    ),
    [
      '/cluster/nodes: at least one node of role master',
      '/cluster/nodes: a single-node cluster has exactly one node',
      '/cluster/nodes/0/machineSet: no MachineSet nope in /cluster/machineSets',
      '/cluster/nodes/1/name: w0 is listed twice',
      '/cluster/nodes/1/machineSet: MachineSet ms-a makes worker nodes, the node is infra',
      '/cluster/pools/1/name: pool worker is listed twice',
    ],
  );
  assert.deepEqual(explicitTopologyProblems({ machineSets: [] }, 'ha-cloud'), [
    '/cluster/machineSets: only with /cluster/nodes',
  ]);
});
