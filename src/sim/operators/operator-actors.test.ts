import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DeploymentResource } from '../../api/builtin.js';
import { ClusterOperatorResource } from '../../api/openshift/config-v1/cluster-operator.js';
import { HA_CLOUD_DURATIONS, rolloutRange } from './durations.js';
import { operatorSequenceViolations } from './invariants.js';
import { operatorProfile } from './profiles.js';
import { payloadOf, startOperatorsCluster, type OperatorsCluster, type Sample } from './operators.test-support.js';

const MIN = 60_000;
const FROM = '4.14.10';
const TO = '4.15.3';

async function allAt(c: OperatorsCluster, version: string, names: readonly string[]): Promise<void> {
  const inf = c.cluster.ctx.informers.informerFor(ClusterOperatorResource);
  const result = await c.cluster.clock.run({
    until: () =>
      names.every(
        (n) => inf.get(undefined, n)?.status?.versions?.find((v) => v.name === 'operator')?.version === version,
      ),
  });
  assert.equal(result.reason, 'condition', `operators did not reach ${version}`);
}

/**
 * One update of one operator: the invariant (docs/design/cluster-model.md#invariants)
 * (`invariants.ts`: the version changes after a Progressing=True period, once), here exactly once
 * and to `to`, in a write that ends Progressing, Available and not Degraded throughout.
 */
function assertOneVersionChange(samples: readonly Sample[], name: string, to: string): Sample {
  const own = samples.filter((s) => s.name === name);
  assert.ok(own.length > 0, `${name}: no status writes`);
  const states = [
    { at: -1, version: FROM, progressing: false },
    ...own.map((s) => ({ at: s.t, version: s.operator, progressing: s.progressing === 'True' })),
  ];
  assert.deepEqual(operatorSequenceViolations(name, states), []);
  const flips = states.filter((s, i) => i > 0 && s.version !== states[i - 1]!.version).length;
  assert.equal(flips, 1, `${name}: the operator version changed ${flips} times`);
  const flip = own.find((s) => s.operator === to);
  assert.ok(flip, `${name}: never reported ${to}`);
  assert.equal(flip.progressing, 'False', `${name}: Progressing still True when the version changed`);
  assert.ok(
    own.every((s) => s.available === 'True' && s.degraded === 'False'),
    `${name}: Available/Degraded moved during a healthy rollout`,
  );
  return flip;
}

void test('a Deployment bump drives every operator through Progressing=True, the new versions, then Progressing=False, within its profile', async (t) => {
  const c = await startOperatorsCluster(t);
  const names = c.actors.operators;
  assert.equal(names.length, 32);
  assert.ok(!names.includes('machine-config'));
  const before = await c.co('kube-apiserver');
  const availableSince = before.status?.conditions?.find((x) => x.type === 'Available')?.lastTransitionTime;
  const start = c.cluster.clock.now();
  await c.bump(TO);
  await allAt(c, TO, names);
  const payload = payloadOf(TO);
  for (const name of names) {
    const flip = assertOneVersionChange(c.samples, name, TO);
    const range = rolloutRange(operatorProfile(name), HA_CLOUD_DURATIONS, 6);
    const took = flip.t - start;
    assert.ok(
      took >= range[0] * MIN - 1 && took <= range[2] * MIN + 1,
      `${name}: took ${took / MIN} min, outside [${range[0]}, ${range[2]}]`,
    );
    const manifest = payload.clusterOperators.find((m) => m.name === name);
    assert.equal(
      flip.versions,
      JSON.stringify(manifest?.operandVersions),
      `${name}: versions differ from the payload's manifest`,
    );
  }
  const after = await c.co('kube-apiserver');
  assert.equal(
    after.status?.conditions?.find((x) => x.type === 'Available')?.lastTransitionTime,
    availableSince,
    'Available did not change, so its lastTransitionTime must not move',
  );
  assert.match(
    after.status?.conditions?.find((x) => x.type === 'Progressing')?.message ?? '',
    /^NodeInstallerProgressing: 3 nodes are at revision \d+$/,
  );
  const kasMessages = new Set(
    c.samples.filter((s) => s.name === 'kube-apiserver' && s.progressing === 'True').map((s) => s.progressingMessage),
  );
  assert.ok(kasMessages.size >= 3, `kube-apiserver reported ${kasMessages.size} distinct Progressing messages`);
  const dep = await c.cluster.client.get(
    DeploymentResource,
    'openshift-kube-apiserver-operator',
    'kube-apiserver-operator',
  );
  assert.equal(dep.status?.observedGeneration, dep.metadata?.generation);
  assert.equal(dep.status?.updatedReplicas, 1);
  assert.equal(dep.status?.availableReplicas, 1);
  assert.equal(dep.status?.conditions?.find((x) => x.type === 'Progressing')?.reason, 'NewReplicaSetAvailable');
});

async function timeline(seed: number): Promise<string[]> {
  const out: string[] = [];
  await test(`seed ${seed}`, async (t) => {
    const c = await startOperatorsCluster(t, { seed });
    const names = ['etcd', 'kube-apiserver', 'network', 'dns', 'console'];
    await c.bump(TO, names);
    await allAt(c, TO, names);
    for (const s of c.samples) out.push(`${s.t} ${s.name} ${s.operator} ${s.progressing} ${s.progressingMessage}`);
  });
  return out;
}

void test('the same seed gives the same timeline; another seed another', async () => {
  const a = await timeline(7);
  const b = await timeline(7);
  const other = await timeline(8);
  assert.ok(a.length > 10);
  assert.deepEqual(a, b);
  assert.notDeepEqual(a, other);
});

async function networkDuration(workers: number): Promise<number> {
  let took = 0;
  await test(`network with ${workers + 3} nodes`, async (t) => {
    const c = await startOperatorsCluster(t, { workers });
    const start = c.cluster.clock.now();
    await c.bump(TO, ['network', 'dns']);
    await allAt(c, TO, ['network', 'dns']);
    took = c.samples.find((s) => s.name === 'network' && s.operator === TO)!.t - start;
    const awaiting = c.samples
      .filter((s) => s.name === 'network' && s.progressing === 'True')
      .map((s) => s.progressingMessage);
    assert.match(awaiting[0] ?? '', new RegExp(`awaiting ${workers + 3} nodes`));
  });
  return took;
}

void test('network and dns take longer on bigger clusters', async () => {
  const small = await networkDuration(3);
  const big = await networkDuration(27);
  assert.ok(small <= (4 + 1.2 * 6) * 1.1 * MIN, `6 nodes: ${small / MIN} min`);
  assert.ok(big >= 25 * 0.9 * MIN && big <= 25 * MIN, `30 nodes: ${big / MIN} min (cap 25)`);
});

void test('faults: degrade until a time, unavailable, not upgradeable, flapping', async (t) => {
  const c = await startOperatorsCluster(t, { seed: 3 });
  const { clock } = c.cluster;
  const t0 = clock.now();
  c.actors.degrade('ingress', {
    reason: 'IngressDegraded',
    message: 'The "default" ingress controller reports Degraded=True.',
    until: t0 + 20 * MIN,
  });
  c.actors.makeUnavailable('console', { until: t0 + 5 * MIN });
  c.actors.setUpgradeable('operator-lifecycle-manager', false, {
    reason: 'IncompatibleOperatorsInstalled',
    message:
      'ClusterServiceVersions blocking cluster upgrade: x is incompatible with OpenShift minor versions greater than 4.14',
  });
  c.actors.flap('storage', { periodMs: 3 * MIN, until: t0 + 12 * MIN });
  await clock.run({ until: t0 + MIN });
  const ingress = await c.co('ingress');
  const degraded = ingress.status?.conditions?.find((x) => x.type === 'Degraded');
  assert.deepEqual(
    [degraded?.status, degraded?.reason, degraded?.message, degraded?.lastTransitionTime],
    [
      'True',
      'IngressDegraded',
      'The "default" ingress controller reports Degraded=True.',
      new Date(t0).toISOString().replace('.000Z', 'Z'),
    ],
  );
  const console = (await c.co('console')).status?.conditions?.find((x) => x.type === 'Available');
  assert.equal(console?.status, 'False');
  assert.ok(console?.reason && console.message);
  const olm = (await c.co('operator-lifecycle-manager')).status?.conditions?.find((x) => x.type === 'Upgradeable');
  assert.deepEqual([olm?.status, olm?.reason], ['False', 'IncompatibleOperatorsInstalled']);
  await clock.run({ until: t0 + 30 * MIN });
  const storage = c.samples.filter((s) => s.name === 'storage').map((s) => [s.t - t0, s.degraded]);
  assert.deepEqual(storage, [
    [0, 'True'],
    [3 * MIN, 'False'],
    [6 * MIN, 'True'],
    [9 * MIN, 'False'],
  ]);
  const ingressTimes = c.samples.filter((s) => s.name === 'ingress').map((s) => [s.t - t0, s.degraded]);
  assert.deepEqual(ingressTimes, [
    [0, 'True'],
    [20 * MIN, 'False'],
  ]);
  assert.equal((await c.co('console')).status?.conditions?.find((x) => x.type === 'Available')?.status, 'True');
  c.actors.setUpgradeable('operator-lifecycle-manager', true);
  await clock.run({ until: clock.now() + MIN });
  assert.equal(
    (await c.co('operator-lifecycle-manager')).status?.conditions?.find((x) => x.type === 'Upgradeable')?.status,
    'True',
  );
  assert.throws(() => c.actors.degrade('nope', { reason: 'R', message: 'm' }), /no simulated ClusterOperator/);
});

void test('a stuck operator keeps Progressing=True and never reports the new version until released', async (t) => {
  const c = await startOperatorsCluster(t, { seed: 4 });
  const { clock } = c.cluster;
  c.actors.stick('authentication');
  await c.bump(TO, ['authentication', 'service-ca']);
  await allAt(c, TO, ['service-ca']);
  await clock.run({ until: clock.now() + 120 * MIN });
  const auth = await c.co('authentication');
  assert.equal(auth.status?.versions?.find((v) => v.name === 'operator')?.version, FROM);
  const progressing = auth.status?.conditions?.find((x) => x.type === 'Progressing');
  assert.equal(progressing?.status, 'True');
  assert.match(
    progressing?.message ?? '',
    /^APIServerDeploymentProgressing: deployment\/apiserver\.openshift-oauth-apiserver: \d\/3 pods have been updated to the latest generation$/,
  );
  c.actors.unstick('authentication');
  await allAt(c, TO, ['authentication']);
  assertOneVersionChange(c.samples, 'authentication', TO);
});

void test('two hops: each operator changes its version once per hop, each after its own Progressing=True period (§8.7)', async (t) => {
  const c = await startOperatorsCluster(t, { seed: 5 });
  const names = ['etcd', 'dns', 'console'];
  await c.bump(TO, names);
  await allAt(c, TO, names);
  await c.bump('4.16.3', names);
  await allAt(c, '4.16.3', names);
  for (const name of names) {
    const states = [
      { at: -1, version: FROM, progressing: false },
      ...c.samples
        .filter((s) => s.name === name)
        .map((s) => ({ at: s.t, version: s.operator, progressing: s.progressing === 'True' })),
    ];
    assert.deepEqual(operatorSequenceViolations(name, states), []);
    const changes = states.filter((s, i) => i > 0 && s.version !== states[i - 1]!.version).map((s) => s.version);
    assert.deepEqual(changes, [TO, '4.16.3'], name);
  }
  // The test cluster's monitor fed the same checks from its informers.
  assert.deepEqual(c.cluster.invariants!.violations(), []);
});
