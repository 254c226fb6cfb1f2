import { test } from 'node:test';
import assert from 'node:assert/strict';
import semver from 'semver';
import { buildCatalogue, findRelease } from '../releases/catalogue.js';
import { buildGraph, CHANNELS_KEY, MANIFESTREF_KEY, updatesFrom } from './graph.js';

const catalogue = buildCatalogue();

test('stable-4.15 offers the §4.5 sample: 4.14.10 gets 4.15.3 (two risks) and 4.15.2 (PreRelease) conditionally', () => {
  const g = buildGraph(catalogue, { channel: 'stable-4.15' });
  const from10 = updatesFrom(g, '4.14.10')!;
  assert.ok(from10.available.includes('4.14.12'));
  assert.ok(from10.available.includes('4.14.11'));
  assert.ok(!from10.available.includes('4.15.3'));
  assert.ok(!from10.available.includes('4.15.2'));
  assert.deepEqual(from10.conditional, [
    { to: '4.15.3', risks: ['AWSCustomDomainNodesNotReady', 'OLMOperatorsInFailedState'] },
    { to: '4.15.2', risks: ['PreRelease'] },
  ]);
  const from12 = updatesFrom(g, '4.14.12')!;
  assert.ok(from12.available.includes('4.15.3'));
  assert.deepEqual(from12.conditional, []);
  // Available updates are newest first.
  assert.deepEqual(from12.available, [...from12.available].sort(semver.rcompare));
});

test('conditional edges are removed from edges, appear once, grouped by identical risk sets', () => {
  const g = buildGraph(catalogue, { channel: 'stable-4.15' });
  const plain = new Set(g.edges.map(([f, t]) => `${g.nodes[f]!.version}>${g.nodes[t]!.version}`));
  const seen = new Set<string>();
  const riskSets = new Set<string>();
  for (const group of g.conditionalEdges ?? []) {
    const key = group.risks.map((r) => r.name).join(',');
    assert.ok(!riskSets.has(key), `one group per risk set (${key})`);
    riskSets.add(key);
    for (const e of group.edges) {
      const id = `${e.from}>${e.to}`;
      assert.ok(!plain.has(id), `${id} not also unconditional`);
      assert.ok(!seen.has(id), `${id} once`);
      seen.add(id);
    }
    for (const r of group.risks) {
      assert.ok(r.name && r.url && r.message);
      assert.ok(r.matchingRules.length > 0);
    }
  }
  const olm = g.conditionalEdges!.find((c) => c.risks.length === 2)!;
  assert.deepEqual(olm.edges, [
    { from: '4.14.10', to: '4.15.3' },
    { from: '4.14.11', to: '4.15.3' },
  ]);
  assert.deepEqual(olm.risks[1]!.matchingRules[0], {
    type: 'PromQL',
    promql: { promql: '(\n  group(csv_succeeded{_id=""})\n  or\n  0 * group(csv_count{_id=""})\n)\n' },
  });
});

test('edges join nodes of the channel, go forward, and have the shape of the wire format', () => {
  const g = buildGraph(catalogue, { channel: 'fast-4.16' });
  assert.ok(g.nodes.length > 0);
  for (const [f, t] of g.edges) {
    assert.ok(f >= 0 && f < g.nodes.length && t >= 0 && t < g.nodes.length);
    assert.ok(semver.lt(g.nodes[f]!.version, g.nodes[t]!.version));
  }
  for (const n of g.nodes) {
    const r = findRelease(catalogue, n.version)!;
    assert.equal(n.payload, r.pullSpec);
    assert.equal(n.metadata[MANIFESTREF_KEY], r.digest);
    assert.equal(n.metadata.url, r.url);
    assert.ok(n.metadata[CHANNELS_KEY]!.split(',').includes('fast-4.16'));
  }
});

test('a blocked edge without rules is removed entirely', () => {
  const g = buildGraph(catalogue, { channel: 'stable-4.13' });
  const from2 = updatesFrom(g, '4.13.2')!;
  assert.ok(!from2.available.includes('4.13.3'));
  assert.ok(!from2.conditional.some((c) => c.to === '4.13.3'));
  assert.ok(from2.available.includes('4.13.4'));
});

test('unknown channels and architectures give an empty graph; conditionalEdges only when present', () => {
  assert.deepEqual(buildGraph(catalogue, { channel: 'stable-4.99' }), { nodes: [], edges: [] });
  assert.deepEqual(buildGraph(catalogue, { channel: 'stable-4.15', arch: 'arm64' }), { nodes: [], edges: [] });
  const g = buildGraph(catalogue, { channel: 'candidate-4.13' });
  assert.equal('conditionalEdges' in g, false);
});

test('channel contents follow time and omitted versions disappear with their edges', () => {
  const r = findRelease(catalogue, '4.15.3')!;
  const before = buildGraph(catalogue, { channel: 'fast-4.15', at: r.fastAt - 1 });
  const after = buildGraph(catalogue, { channel: 'fast-4.15', at: r.fastAt });
  assert.ok(!before.nodes.some((n) => n.version === '4.15.3'));
  assert.ok(after.nodes.some((n) => n.version === '4.15.3'));
  assert.ok(after.nodes.every((n) => findRelease(catalogue, n.version)!.fastAt <= r.fastAt));
  const omitted = buildGraph(catalogue, { channel: 'stable-4.15', omitVersions: ['4.14.10'] });
  assert.equal(updatesFrom(omitted, '4.14.10'), undefined);
  assert.ok(!(omitted.conditionalEdges ?? []).some((c) => c.edges.some((e) => e.from === '4.14.10')));
});
