import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonObject } from '../../lib/json.js';
import { PatchError } from './errors.js';
import { applyStrategicMergePatch, patchMetaFor } from './strategic-merge.js';

const podMeta = patchMetaFor('', 'Pod');
const deploymentMeta = patchMetaFor('apps', 'Deployment');
assert.ok(podMeta && deploymentMeta);

function pod(spec: JsonObject, metadata: JsonObject = { name: 'p' }): JsonObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec };
}

interface Case {
  name: string;
  doc: JsonObject;
  patch: JsonObject;
  want?: JsonObject;
  error?: { reason: PatchError['reason']; text: string };
  deployment?: boolean;
}

const a = { name: 'a', image: 'a:1' };
const b = { name: 'b', image: 'b:1' };

const cases: Case[] = [
  {
    name: 'merges containers by name',
    doc: pod({ containers: [a, b] }),
    patch: { spec: { containers: [{ name: 'b', image: 'b:2' }] } },
    want: pod({ containers: [a, { name: 'b', image: 'b:2' }] }),
  },
  {
    name: 'a new list item goes before the server-only items (kube order)',
    doc: pod({ containers: [a, b] }),
    patch: { spec: { containers: [{ name: 'c', image: 'c:1' }] } },
    want: pod({ containers: [{ name: 'c', image: 'c:1' }, a, b] }),
  },
  {
    name: 'merges env inside a container by name and ports by containerPort',
    doc: pod({ containers: [{ name: 'a', env: [{ name: 'X', value: '1' }], ports: [{ containerPort: 80 }] }] }),
    patch: {
      spec: {
        containers: [{ name: 'a', env: [{ name: 'X', value: '2' }], ports: [{ containerPort: 80, name: 'http' }] }],
      },
    },
    want: pod({
      containers: [{ name: 'a', env: [{ name: 'X', value: '2' }], ports: [{ containerPort: 80, name: 'http' }] }],
    }),
  },
  {
    name: '$patch: delete removes a list item',
    doc: pod({ containers: [a, b] }),
    patch: { spec: { containers: [{ name: 'a', $patch: 'delete' }] } },
    want: pod({ containers: [b] }),
  },
  {
    name: '$patch: replace replaces a merging list',
    doc: pod({ containers: [a, b] }),
    patch: { spec: { containers: [{ $patch: 'replace' }, { name: 'c', image: 'c:1' }] } },
    want: pod({ containers: [{ name: 'c', image: 'c:1' }] }),
  },
  {
    name: '$patch: replace replaces a map',
    doc: pod({ containers: [a] }, { name: 'p', labels: { x: '1', y: '2' } }),
    patch: { metadata: { labels: { $patch: 'replace', z: '3' } } },
    want: pod({ containers: [a] }, { name: 'p', labels: { z: '3' } }),
  },
  {
    name: '$patch: delete empties a map',
    doc: pod({ containers: [a] }, { name: 'p', labels: { x: '1' } }),
    patch: { metadata: { labels: { $patch: 'delete' } } },
    want: pod({ containers: [a] }, { name: 'p', labels: {} }),
  },
  {
    name: 'null deletes a key',
    doc: pod({ containers: [a] }, { name: 'p', labels: { x: '1', y: '2' } }),
    patch: { metadata: { labels: { x: null } } },
    want: pod({ containers: [a] }, { name: 'p', labels: { y: '2' } }),
  },
  {
    name: 'finalizers merge as a set, keeping the live order',
    doc: pod({}, { name: 'p', finalizers: ['a', 'b'] }),
    patch: { metadata: { finalizers: ['b', 'c'] } },
    want: pod({}, { name: 'p', finalizers: ['a', 'b', 'c'] }),
  },
  {
    name: '$deleteFromPrimitiveList removes from a primitive list',
    doc: pod({}, { name: 'p', finalizers: ['a', 'b', 'c'] }),
    patch: { metadata: { '$deleteFromPrimitiveList/finalizers': ['b'] } },
    want: pod({}, { name: 'p', finalizers: ['a', 'c'] }),
  },
  {
    name: '$setElementOrder orders a merged list',
    doc: pod({ containers: [a, b] }),
    patch: {
      spec: {
        '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }],
        containers: [{ name: 'a', image: 'a:2' }],
      },
    },
    want: pod({ containers: [b, { name: 'a', image: 'a:2' }] }),
  },
  {
    name: '$setElementOrder keeps server-only items in their live place',
    doc: pod({}, { name: 'p', finalizers: ['1', '2', '4'] }),
    patch: { metadata: { '$setElementOrder/finalizers': ['1', '2', '3'], finalizers: ['3'] } },
    want: pod({}, { name: 'p', finalizers: ['1', '2', '3', '4'] }),
  },
  {
    name: 'lists without merge strategy are replaced (tolerations)',
    doc: pod({ tolerations: [{ key: 'a', operator: 'Exists' }] }),
    patch: { spec: { tolerations: [{ key: 'b', operator: 'Exists' }] } },
    want: pod({ tolerations: [{ key: 'b', operator: 'Exists' }] }),
  },
  {
    name: 'volumes merge by name and honour $retainKeys in an item',
    doc: pod({
      volumes: [
        { name: 'v', emptyDir: {} },
        { name: 'w', emptyDir: {} },
      ],
    }),
    patch: { spec: { volumes: [{ name: 'v', $retainKeys: ['configMap', 'name'], configMap: { name: 'cm' } }] } },
    want: pod({
      volumes: [
        { name: 'v', configMap: { name: 'cm' } },
        { name: 'w', emptyDir: {} },
      ],
    }),
  },
  {
    name: 'Deployment strategy switch with $retainKeys drops rollingUpdate',
    deployment: true,
    doc: { spec: { replicas: 1, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } } },
    patch: { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } },
    want: { spec: { replicas: 1, strategy: { type: 'Recreate' } } },
  },
  {
    name: 'Deployment template containers merge by name',
    deployment: true,
    doc: { spec: { template: { metadata: { labels: { app: 'x' } }, spec: { containers: [a, b] } } } },
    patch: {
      spec: {
        template: { metadata: { annotations: { r: '1' } }, spec: { containers: [{ name: 'a', image: 'a:9' }] } },
      },
    },
    want: {
      spec: {
        template: {
          metadata: { labels: { app: 'x' }, annotations: { r: '1' } },
          spec: { containers: [{ name: 'a', image: 'a:9' }, b] },
        },
      },
    },
  },
  {
    name: 'new subtrees lose their nulls and directives',
    doc: pod({}),
    patch: { metadata: { labels: { x: '1', y: null } }, spec: { containers: [{ name: 'a', $patch: 'delete' }, b] } },
    want: pod({ containers: [b] }, { name: 'p', labels: { x: '1' } }),
  },
  {
    name: 'a list item without its merge key',
    doc: pod({ containers: [a] }),
    patch: { spec: { containers: [{ image: 'x' }] } },
    error: { reason: 'BadRequest', text: 'map: map[image:x] does not contain declared merge key: name' },
  },
  {
    name: '$patch: merge in a list',
    doc: pod({ containers: [a] }),
    patch: { spec: { containers: [{ name: 'a', $patch: 'merge' }] } },
    error: { reason: 'BadRequest', text: 'merging lists cannot yet be specified in the patch' },
  },
  {
    name: 'an unknown $patch in a map',
    doc: pod({}),
    patch: { metadata: { labels: { $patch: 'frob' } } },
    error: { reason: 'BadRequest', text: 'unknown patch type: frob in map: map[$patch:frob]' },
  },
  {
    name: 'lists of lists',
    doc: pod({}, { name: 'p', finalizers: ['a'] }),
    patch: { metadata: { finalizers: [['b']] } },
    error: { reason: 'Invalid', text: 'the server rejected our request due to an error in our request' },
  },
  {
    name: 'a $retainKeys that is not a list',
    doc: pod({}),
    patch: { spec: { $retainKeys: 'x' } },
    error: { reason: 'BadRequest', text: 'invalid patch format of retainKeys' },
  },
  {
    name: 'a $deleteFromPrimitiveList that is not a list',
    doc: pod({}, { name: 'p', finalizers: ['a'] }),
    patch: { metadata: { '$deleteFromPrimitiveList/finalizers': 'a' } },
    error: { reason: 'BadRequest', text: 'invalid patch format of primitive list' },
  },
];

void describe('applyStrategicMergePatch', () => {
  for (const c of cases) {
    void it(c.name, () => {
      const meta = c.deployment ? deploymentMeta : podMeta;
      if (c.error) {
        const { reason, text } = c.error;
        assert.throws(
          () => applyStrategicMergePatch(c.doc, c.patch, meta),
          (e: unknown) => e instanceof PatchError && e.reason === reason && e.message === text,
        );
      } else {
        assert.deepEqual(applyStrategicMergePatch(c.doc, c.patch, meta), c.want);
      }
    });
  }

  void it('does not mutate its inputs', () => {
    const doc = pod({ containers: [a, b] }, { name: 'p', labels: { x: '1' } });
    const patch = { metadata: { labels: { x: null } }, spec: { containers: [{ name: 'a', image: 'z' }] } };
    const docText = JSON.stringify(doc);
    const patchText = JSON.stringify(patch);
    const out = applyStrategicMergePatch(doc, patch, podMeta);
    (out.spec as { containers: JsonObject[] }).containers.push({ name: 'q' });
    assert.equal(JSON.stringify(doc), docText);
    assert.equal(JSON.stringify(patch), patchText);
  });

  void it('has metadata for every built-in kind the server serves, and none for others', () => {
    for (const [group, kind] of [
      ['', 'Namespace'],
      ['', 'Node'],
      ['', 'ConfigMap'],
      ['', 'Secret'],
      ['', 'ServiceAccount'],
      ['', 'Service'],
      ['', 'Event'],
      ['events.k8s.io', 'Event'],
      ['policy', 'PodDisruptionBudget'],
      ['batch', 'Job'],
      ['coordination.k8s.io', 'Lease'],
      ['apps', 'DaemonSet'],
      ['apiextensions.k8s.io', 'CustomResourceDefinition'],
    ] as const) {
      assert.ok(patchMetaFor(group, kind), `${group}/${kind}`);
    }
    assert.equal(patchMetaFor('upgrade.managed.openshift.io', 'UpgradeConfig'), undefined);
    assert.equal(patchMetaFor('apps', 'Pod'), undefined);
  });

  void it('merges Service ports by port and Node addresses by type', () => {
    const svc = patchMetaFor('', 'Service');
    assert.ok(svc);
    assert.deepEqual(
      applyStrategicMergePatch(
        { spec: { ports: [{ port: 80, name: 'a' }, { port: 443 }] } },
        { spec: { ports: [{ port: 80, name: 'http' }] } },
        svc,
      ),
      { spec: { ports: [{ port: 80, name: 'http' }, { port: 443 }] } },
    );
    const node = patchMetaFor('', 'Node');
    assert.ok(node);
    assert.deepEqual(
      applyStrategicMergePatch(
        {
          status: {
            addresses: [
              { type: 'InternalIP', address: '10.0.0.1' },
              { type: 'Hostname', address: 'n1' },
            ],
          },
        },
        { status: { addresses: [{ type: 'InternalIP', address: '10.0.0.2' }] } },
        node,
      ),
      {
        status: {
          addresses: [
            { type: 'InternalIP', address: '10.0.0.2' },
            { type: 'Hostname', address: 'n1' },
          ],
        },
      },
    );
  });
});
