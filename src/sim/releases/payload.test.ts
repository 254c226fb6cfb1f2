import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCatalogue, findRelease } from './catalogue.js';
import {
  MANIFEST_NAME_RE,
  manifestCount,
  manifestObject,
  payloadFor,
  taskGraph,
  taskString,
  type TaskStage,
} from './payload.js';

const catalogue = buildCatalogue();
const release = (v: string) => findRelease(catalogue, v)!;

/** The 33 ClusterOperators of a default 4.14 IPI cluster (docs/design/cluster-model.md#operators-and-runlevels). */
const DEFAULT_COS = [
  'authentication',
  'baremetal',
  'cloud-controller-manager',
  'cloud-credential',
  'cluster-autoscaler',
  'config-operator',
  'console',
  'control-plane-machine-set',
  'csi-snapshot-controller',
  'dns',
  'etcd',
  'image-registry',
  'ingress',
  'insights',
  'kube-apiserver',
  'kube-controller-manager',
  'kube-scheduler',
  'kube-storage-version-migrator',
  'machine-api',
  'machine-approver',
  'machine-config',
  'marketplace',
  'monitoring',
  'network',
  'node-tuning',
  'openshift-apiserver',
  'openshift-controller-manager',
  'openshift-samples',
  'operator-lifecycle-manager',
  'operator-lifecycle-manager-catalog',
  'operator-lifecycle-manager-packageserver',
  'service-ca',
  'storage',
];

test('manifest totals per minor lie in 850–920 (4.14: 860 as in a real 4.14.18 install)', () => {
  assert.equal(manifestCount(release('4.13.10')), 852);
  assert.equal(manifestCount(release('4.14.18')), 860);
  assert.equal(manifestCount(release('4.15.3')), 883);
  assert.equal(manifestCount(release('4.16.5')), 904);
});

test('manifest files follow 0000_<runlevel>_<component>_<nn>_<name>.yaml, sorted, indexed 1..N', () => {
  const p = payloadFor(release('4.15.3'));
  const files = p.manifests.map((m) => m.file);
  assert.deepEqual([...files].sort(), files);
  assert.equal(new Set(files).size, files.length);
  p.manifests.forEach((m, i) => {
    assert.equal(m.index, i + 1);
    assert.match(m.file, /^0000_\d\d_[a-z0-9-]+_\d\d_[a-z0-9-]+\.yaml$/);
    const parsed = MANIFEST_NAME_RE.exec(m.file)!;
    assert.equal(Number(parsed[1]), m.runlevel);
    assert.equal(parsed[2], m.component);
  });
});

test('ClusterOperator manifests: the 33 default operators, each with the versions the CVO gates on', () => {
  const p = payloadFor(release('4.15.3'));
  assert.deepEqual(p.clusterOperators.map((m) => m.name).sort(), DEFAULT_COS);
  for (const co of p.clusterOperators) {
    assert.equal(co.operandVersions?.[0]?.name, 'operator');
    assert.equal(co.operandVersions?.[0]?.version, '4.15.3');
  }
  const kas = p.clusterOperators.find((m) => m.name === 'kube-apiserver')!;
  const obj = manifestObject(kas);
  assert.equal(obj.kind, 'ClusterOperator');
  assert.deepEqual(obj.status, {
    versions: [
      { name: 'operator', version: '4.15.3' },
      { name: 'raw-internal', version: '4.15.3' },
      { name: 'kube-apiserver', version: '1.28.4' },
    ],
  });
  const mc = p.clusterOperators.find((m) => m.name === 'machine-config')!;
  assert.equal(mc.runlevel, 80);
  // Each operator's ClusterOperator closes its component's chain.
  const chainEnd = p.manifests.filter((m) => m.runlevel === 80 && m.component === 'machine-config-operator').at(-1);
  assert.equal(chainEnd, mc);
});

test('capability-gated components carry the capability annotation', () => {
  const m414 = payloadFor(release('4.14.10'));
  const m416 = payloadFor(release('4.16.5'));
  const console414 = m414.manifests.find((m) => m.component === 'console-operator')!;
  assert.deepEqual(
    (manifestObject(console414).metadata as { annotations: Record<string, string> }).annotations[
      'capability.openshift.io/name'
    ],
    'Console',
  );
  assert.equal(m414.manifests.find((m) => m.component === 'cluster-ingress-operator')!.capability, undefined);
  assert.equal(m416.manifests.find((m) => m.component === 'cluster-ingress-operator')!.capability, 'Ingress');
});

test('release-metadata and image-references', () => {
  const p = payloadFor(release('4.15.3'));
  assert.deepEqual(p.releaseMetadata.kind, 'cincinnati-metadata-v0');
  assert.equal(p.releaseMetadata.version, '4.15.3');
  assert.ok(p.releaseMetadata.previous.includes('4.14.10'));
  assert.equal(p.releaseMetadata.metadata.url, 'https://access.redhat.com/errata/RHSA-2024:1210');
  const tags = (p.imageReferences.spec as { tags: Array<{ name: string; from: { name: string } }> }).tags;
  assert.ok(tags.length >= 115 && tags.length <= 130, `${tags.length} tags`);
  assert.equal(new Set(tags.map((t) => t.name)).size, tags.length);
  assert.ok(tags.some((t) => t.name === 'machine-config-operator'));
  for (const t of tags)
    assert.match(t.from.name, /^quay\.io\/openshift-release-dev\/ocp-v4\.0-art-dev@sha256:[0-9a-f]{64}$/);
  assert.notEqual(
    tags[0]!.from.name,
    (payloadFor(release('4.15.2')).imageReferences.spec as { tags: typeof tags }).tags[0]!.from.name,
  );
});

function stagesDone(stages: TaskStage[]): Array<[number, number]> {
  let done = 0;
  const out: Array<[number, number]> = [];
  for (const s of stages) {
    done += s.kind === 'job' ? 1 : s.components.reduce((n, c) => n + c.tasks.length, 0);
    out.push([s.kind === 'job' ? -2 : s.runlevel, done]);
  }
  return out;
}

test('task graph: runlevels in order, components in parallel, tasks in payload order', () => {
  const p = payloadFor(release('4.14.10'));
  const stages = taskGraph(p);
  const flat = stages.flatMap((s) => (s.kind === 'job' ? [s.task] : s.components.flatMap((c) => c.tasks)));
  assert.deepEqual(
    flat.map((m) => m.index).sort((a, b) => a - b),
    p.manifests.map((m) => m.index),
  );
  const runlevels = stages.map((s) => (s.kind === 'runlevel' ? s.runlevel : -2));
  assert.deepEqual(runlevels, [0, 3, 5, 10, 20, 25, 26, 30, 31, 40, 50, 70, 80, 90]);
  const rl50 = stages.find((s) => s.kind === 'runlevel' && s.runlevel === 50);
  assert.equal(rl50?.kind === 'runlevel' ? rl50.components.length : 0, 17);
  for (const s of stages) {
    if (s.kind !== 'runlevel') continue;
    for (const c of s.components)
      for (let i = 1; i < c.tasks.length; i++) assert.ok(c.tasks[i - 1]!.index < c.tasks[i]!.index);
  }
  // Progress at the usual blocking points (docs/design/cluster-model.md#progress-counting).
  const pct = new Map(stagesDone(stages).map(([rl, done]) => [rl, (done / p.manifests.length) * 100]));
  assert.ok(pct.get(10)! >= 6 && pct.get(10)! <= 8);
  assert.ok(pct.get(20)! >= 11 && pct.get(20)! <= 13);
  assert.ok(pct.get(26)! >= 17 && pct.get(26)! <= 19);
  assert.ok(pct.get(50)! >= 70 && pct.get(50)! <= 78);
  assert.ok(pct.get(80)! >= 83 && pct.get(80)! <= 86);
  assert.equal(taskString(p.manifests[0]!, p.manifests.length), 'namespace "openshift-cluster-version" (1 of 860)');
  const kas = p.clusterOperators.find((m) => m.name === 'kube-apiserver')!;
  assert.equal(taskString(kas, 860), `clusteroperator "kube-apiserver" (${kas.index} of 860)`);
});

test('a Job is a barrier: it splits its runlevel into a stage before and a stage after', () => {
  const p = payloadFor(release('4.14.10'), {
    extraManifests: [
      {
        runlevel: 50,
        component: 'cluster-monitoring-operator',
        apiVersion: 'batch/v1',
        kind: 'Job',
        name: 'migrate',
        namespace: 'openshift-monitoring',
        order: 30,
      },
    ],
  });
  assert.equal(p.manifests.length, 861);
  const stages = taskGraph(p);
  const at = stages.findIndex((s) => s.kind === 'job');
  assert.ok(at > 0);
  const job = stages[at]!;
  assert.ok(job.kind === 'job');
  assert.equal(job.task.name, 'migrate');
  const before = stages[at - 1]!;
  const after = stages[at + 1]!;
  assert.ok(before.kind === 'runlevel' && before.runlevel === 50);
  assert.ok(after.kind === 'runlevel' && after.runlevel === 50);
  assert.ok(before.components.every((c) => c.tasks.every((t) => t.index < job.task.index)));
  assert.ok(after.components.every((c) => c.tasks.every((t) => t.index > job.task.index)));
  // The memoised default payload is untouched.
  assert.equal(manifestCount(release('4.14.10')), 860);
});

test('payloads are deterministic per version', () => {
  const a = payloadFor(release('4.16.5'));
  const b = payloadFor(buildCatalogue().byVersion.get('4.16.5')!);
  assert.deepEqual(a.manifests, b.manifests);
  assert.deepEqual(a.imageReferences, b.imageReferences);
});
