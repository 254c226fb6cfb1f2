import { test } from 'node:test';
import assert from 'node:assert/strict';
import { podNamespace, realisticNode, realisticPod, smallConfigMap } from './fixtures.js';

const placement = { namespaces: 50, nodes: 500 };

test('fixtures are deterministic and distinct by index', () => {
  assert.deepEqual(realisticPod(7, placement), realisticPod(7, placement));
  const names = new Set(
    Array.from(
      { length: 10_000 },
      (_, i) =>
        `${podNamespace(i, placement)}/${String((realisticPod(i, placement).metadata as { name: string }).name)}`,
    ),
  );
  assert.equal(names.size, 10_000);
  const nodes = new Set(Array.from({ length: 500 }, (_, i) => (realisticNode(i).metadata as { name: string }).name));
  assert.equal(nodes.size, 500);
  assert.equal((smallConfigMap('ns', 3).metadata as { name: string }).name, 'cm-3');
});

test('sizes are in the intended ranges', () => {
  const pod = JSON.stringify(realisticPod(1234, placement)).length;
  const node = JSON.stringify(realisticNode(42)).length;
  const cm = JSON.stringify(smallConfigMap('bench', 9999)).length;
  assert.ok(pod > 4_000 && pod < 12_000, `pod is ${pod} bytes`);
  assert.ok(node > 3_000 && node < 10_000, `node is ${node} bytes`);
  assert.ok(cm < 300, `configmap is ${cm} bytes`);
});

test('object names are valid DNS subdomains', () => {
  const subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
  for (let i = 0; i < 200; i++) {
    assert.match(String((realisticPod(i, placement).metadata as { name: string }).name), subdomain);
    assert.match(String((realisticNode(i).metadata as { name: string }).name), subdomain);
  }
});
