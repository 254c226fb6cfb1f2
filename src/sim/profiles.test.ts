import { test } from 'node:test';
import assert from 'node:assert/strict';
import { profileByName, type ClusterProfile, type NodeProfile } from './profiles.js';
import { haCloudProfile } from './profiles/ha-cloud.js';
import { MAX_NODES } from './profiles/nodes.js';
import { primaryPoolName } from './mco/node-state.js';
import { poolObject } from './mco/install.js';
import {
  SINGLE_NODE_DAEMON_DURATIONS,
  BARE_METAL_DAEMON_DURATIONS,
  HA_CLOUD_DAEMON_DURATIONS,
} from './mco/daemon/durations.js';

const roleCount = (p: ClusterProfile, role: NodeProfile['role']): number =>
  p.nodes.filter((n) => n.role === role).length;

/** The pool managing each node, as the MCO decides it from the node's labels. */
function poolsOfNodes(p: ClusterProfile): Map<string, string | undefined> {
  const pools = p.pools.map((s) => poolObject(s, p.version));
  return new Map(
    p.nodes.map((n) => [n.name, primaryPoolName({ metadata: { name: n.name, labels: n.labels } }, pools)]),
  );
}

function assertUnique(values: readonly string[], what: string): void {
  assert.equal(new Set(values).size, values.length, `${what} are unique`);
}

void test('ha-cloud: 3 masters and 3 workers over three zones, one worker MachineSet per zone, names as before', () => {
  const p = haCloudProfile();
  assert.equal(roleCount(p, 'master'), 3);
  assert.equal(roleCount(p, 'worker'), 3);
  assert.equal(p.platform, 'AWS');
  assert.equal(p.controlPlaneTopology, 'HighlyAvailable');
  assert.deepEqual(new Set(p.nodes.map((n) => n.zone)).size, 3);
  for (const n of p.nodes) {
    assert.equal(n.labels[`node-role.kubernetes.io/${n.role}`], '');
    assert.equal(n.labels['kubernetes.io/hostname'], n.name);
    assert.equal(n.labels['topology.kubernetes.io/zone'], n.zone);
    assert.match(n.providerID ?? '', new RegExp(`^aws:///${n.zone}/i-0[0-9a-f]{16}$`));
  }
  assert.deepEqual(
    p.nodes.map((n) => n.name),
    [
      'ip-10-0-10-100.ec2.internal',
      'ip-10-0-42-101.ec2.internal',
      'ip-10-0-74-102.ec2.internal',
      'ip-10-0-20-200.ec2.internal',
      'ip-10-0-52-201.ec2.internal',
      'ip-10-0-84-202.ec2.internal',
    ],
  );
  for (const m of p.nodes.filter((n) => n.role === 'master')) {
    assert.equal(m.labels['node-role.kubernetes.io/control-plane'], '');
    assert.equal(m.labels['node-role.kubernetes.io/worker'], undefined);
    assert.deepEqual(m.taints, [{ key: 'node-role.kubernetes.io/master', effect: 'NoSchedule' }]);
  }
  assert.deepEqual(
    p.machineSets.map((m) => m.zone).sort(),
    p.nodes
      .filter((n) => n.role === 'worker')
      .map((n) => n.zone)
      .sort(),
  );
  for (const w of p.nodes.filter((n) => n.role === 'worker')) {
    const ms = p.machineSets.find((m) => m.name === w.machine?.machineSet);
    assert.equal(ms?.zone, w.zone, `${w.name} belongs to its zone's MachineSet`);
    assert.match(w.machine?.name ?? '', new RegExp(`^${ms?.name ?? '?'}-[a-m]{5}$`));
  }
  assert.deepEqual(
    p.pools.map((x) => x.name),
    ['master', 'worker'],
  );
  assert.equal(p.durations.daemon, HA_CLOUD_DAEMON_DURATIONS);
});

void test('ha-cloud sizes: workers spread round-robin over the zones; infra nodes get their own pool and MachineSets', () => {
  const p = profileByName('ha-cloud', { workers: 10, infraNodes: 3 });
  assert.equal(roleCount(p, 'worker'), 10);
  assert.equal(roleCount(p, 'infra'), 3);
  const perZone = (role: NodeProfile['role']) =>
    [
      ...p.nodes
        .filter((n) => n.role === role)
        .reduce((m, n) => m.set(n.zone, (m.get(n.zone) ?? 0) + 1), new Map<string | undefined, number>())
        .values(),
    ].sort();
  assert.deepEqual(perZone('worker'), [3, 3, 4]);
  assert.deepEqual(perZone('infra'), [1, 1, 1]);
  assert.deepEqual(
    p.machineSets.map((m) => m.name),
    [
      'sim-x7k2p-worker-us-east-1a',
      'sim-x7k2p-worker-us-east-1b',
      'sim-x7k2p-worker-us-east-1c',
      'sim-x7k2p-infra-us-east-1a',
      'sim-x7k2p-infra-us-east-1b',
      'sim-x7k2p-infra-us-east-1c',
    ],
  );
  assert.deepEqual(
    p.pools.map((x) => x.name),
    ['master', 'worker', 'infra'],
  );
  const pools = poolsOfNodes(p);
  for (const n of p.nodes) {
    assert.equal(pools.get(n.name), n.role, `${n.name} is managed by the ${n.role} pool`);
    if (n.role === 'infra') {
      assert.equal(n.labels['node-role.kubernetes.io/infra'], '');
      assert.equal(n.labels['node-role.kubernetes.io/worker'], '');
      assert.match(n.machine?.machineSet ?? '', /-infra-/);
    }
  }
});

void test('ha-cloud with no workers is a compact cluster: schedulable masters labelled worker, empty worker MachineSets', () => {
  const p = profileByName('ha-cloud', { workers: 0 });
  assert.equal(p.nodes.length, 3);
  for (const m of p.nodes) {
    assert.equal(m.labels['node-role.kubernetes.io/worker'], '');
    assert.deepEqual(m.taints, []);
  }
  assert.equal(p.machineSets.length, 3);
  assert.ok([...poolsOfNodes(p).values()].every((x) => x === 'master'));
});

void test(`${MAX_NODES} nodes: names, addresses, provider IDs and Machine names are unique; every node in its pool`, () => {
  for (const p of [
    profileByName('ha-cloud', { workers: 400, infraNodes: 97 }),
    profileByName('ha-cloud', { workers: 497 }),
    profileByName('bare-metal', { workers: 480, infraNodes: 17 }),
  ]) {
    assert.equal(p.nodes.length, MAX_NODES);
    assertUnique(
      p.nodes.map((n) => n.name),
      `${p.name} node names`,
    );
    assertUnique(
      p.nodes.map((n) => n.internalIP),
      `${p.name} addresses`,
    );
    assertUnique(
      p.nodes.flatMap((n) => (n.providerID ? [n.providerID] : [])),
      `${p.name} provider IDs`,
    );
    assertUnique(
      p.nodes.flatMap((n) => (n.machine ? [n.machine.name] : [])),
      `${p.name} Machine names`,
    );
    for (const n of p.nodes) {
      assert.match(n.internalIP, /^(10\.0|192\.168)\.\d{1,3}\.\d{1,3}$/);
      for (const octet of n.internalIP.split('.')) assert.ok(Number(octet) <= 254, n.internalIP);
    }
    const pools = poolsOfNodes(p);
    for (const n of p.nodes) assert.equal(pools.get(n.name), n.role);
  }
  const cloud = profileByName('ha-cloud', { workers: 497 });
  for (const ms of cloud.machineSets)
    assert.ok(cloud.nodes.filter((n) => n.machine?.machineSet === ms.name).every((n) => n.zone === ms.zone));
});

void test('size options are checked', () => {
  assert.throws(() => profileByName('ha-cloud', { workers: 498 }), /at most 500 nodes, asked for 501/);
  assert.throws(() => profileByName('bare-metal', { workers: -1 }), /workers must be a whole number/);
  assert.throws(() => profileByName('ha-cloud', { infraNodes: 1.5 }), /infraNodes must be a whole number/);
  assert.throws(() => profileByName('single-node', { workers: 2 }), /exactly one node: workers must be 0/);
  assert.throws(
    () => profileByName('nope'),
    /unknown cluster profile "nope"; profiles: ha-cloud, bare-metal, single-node/,
  );
  assert.equal(profileByName('single-node', { workers: 0, infraNodes: 0 }).nodes.length, 1);
});

void test('bare-metal: platform BareMetal, 3 masters + N workers, no MachineSets, no cloud labels, the bare-metal column', () => {
  const p = profileByName('bare-metal', { workers: 5 });
  assert.equal(p.platform, 'BareMetal');
  assert.equal(p.controlPlaneTopology, 'HighlyAvailable');
  assert.equal(p.infrastructureTopology, 'HighlyAvailable');
  assert.equal(roleCount(p, 'master'), 3);
  assert.equal(roleCount(p, 'worker'), 5);
  assert.deepEqual(p.machineSets, []);
  for (const n of p.nodes) {
    assert.equal(n.machine, undefined);
    assert.equal(n.providerID, undefined);
    assert.equal(n.zone, undefined);
    assert.equal(n.labels['topology.kubernetes.io/zone'], undefined);
    assert.equal(n.labels['node.kubernetes.io/instance-type'], undefined);
  }
  assert.deepEqual(p.nodes.map((n) => n.name).slice(0, 4), ['master-0', 'master-1', 'master-2', 'worker-0']);
  assert.equal(p.durations.daemon, BARE_METAL_DAEMON_DURATIONS);
  assert.deepEqual(p.durations.machineApi.running, [15, 25, 45]);
  assert.deepEqual(p.durations.operators.etcdKubeApiserver, [10, 18, 30]);
  assert.equal(profileByName('bare-metal').nodes.length, 6);
});

void test('single-node: one schedulable node with the master, control-plane and worker roles in the master pool; SingleReplica', () => {
  const p = profileByName('single-node', { version: '4.15.20', channel: 'stable-4.15' });
  assert.equal(p.nodes.length, 1);
  const [n] = p.nodes;
  assert.ok(n);
  for (const role of ['master', 'control-plane', 'worker'])
    assert.equal(n.labels[`node-role.kubernetes.io/${role}`], '', role);
  assert.deepEqual(n.taints, []);
  assert.equal(p.controlPlaneTopology, 'SingleReplica');
  assert.equal(p.infrastructureTopology, 'SingleReplica');
  assert.equal(p.platform, 'None');
  assert.deepEqual(p.machineSets, []);
  assert.deepEqual(
    p.pools.map((x) => x.name),
    ['master', 'worker'],
  );
  assert.equal(poolsOfNodes(p).get(n.name), 'master');
  assert.equal(p.durations.daemon, SINGLE_NODE_DAEMON_DURATIONS);
  assert.deepEqual(p.durations.cvo.cvoRestartGap, [1, 2, 4]);
  assert.deepEqual(p.durations.machineConfigOperator.selfRollout, [2, 3, 5]);
  assert.deepEqual(p.durations.operators.networkDns, [3, 5, 8]);
  assert.equal(p.version, '4.15.20');
  assert.equal(p.channel, 'stable-4.15');
});
