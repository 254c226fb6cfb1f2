import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ManagedClusterVersionSpec } from '../../api/managedupgrade.appuio.io/v1beta1/cluster-version.js';
import type { ClusterVersionSpec } from '../../api/openshift/config-v1/cluster-version.js';
import { formatTime } from '../../lib/clock.js';
import { isJsonObject, jsonEqual, type JsonValue } from '../../lib/json.js';
import {
  activeOverlay,
  clusterVersionStatusEqual,
  mergeClusterVersionSpec,
  mergeWithOverride,
  nextOverlayStart,
  pruneEmpty,
  renderClusterVersion,
  specEqualIgnoringDesiredUpdate,
  upstreamSpecUpdate,
  type ClusterVersionRender,
} from './cluster-version-render.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** APPUiO's test instant: 2022-12-04T22:45:00Z. */
const T0 = Date.UTC(2022, 11, 4, 22, 45);
const CLUSTER_ID = '9b588658-9671-429c-a762-34106da5795f';

function baseSpec(): ClusterVersionSpec {
  return {
    clusterID: CLUSTER_ID,
    desiredUpdate: { version: 'ignored' },
    upstream: 'https://api.openshift.com/api/upgrades_info/v1/graph',
    channel: 'stable-4.6',
    capabilities: { baselineCapabilitySet: 'v4.11' },
  };
}

function render(spec: ManagedClusterVersionSpec, now: number): ClusterVersionRender {
  const r = renderClusterVersion(spec, now);
  assert.ok(r.ok, r.ok ? '' : r.errors.join('; '));
  return r.render;
}

void test('mergeWithOverride: non-empty scalars replace, empty values remove nothing', () => {
  const dst = { a: 'x', b: 'y', t: true, n: 3, keep: 'k' };
  assert.deepEqual(mergeWithOverride(dst, { a: 'z', b: '', t: false, n: 0, keep: null, extra: 'e' }), {
    a: 'z',
    b: 'y',
    t: true,
    n: 3,
    keep: 'k',
    extra: 'e',
  });
  assert.deepEqual(mergeWithOverride({ f: false }, { f: true }), { f: true });
  assert.deepEqual(dst, { a: 'x', b: 'y', t: true, n: 3, keep: 'k' }, 'input untouched');
});

void test('mergeWithOverride: a non-empty list replaces the whole list, an empty one keeps it', () => {
  assert.deepEqual(mergeWithOverride({ l: [1, 2, 3] }, { l: [9] }), { l: [9] });
  assert.deepEqual(mergeWithOverride({ l: [1, 2, 3] }, { l: [] }), { l: [1, 2, 3] });
  assert.deepEqual(mergeWithOverride({}, { l: [] }), {}, 'an empty list adds nothing');
});

void test('mergeWithOverride: objects merge field by field; an object over an absent one is taken whole', () => {
  assert.deepEqual(mergeWithOverride({ o: { a: 'x', b: 'y' } }, { o: { b: 'z' } }), { o: { a: 'x', b: 'z' } });
  assert.deepEqual(mergeWithOverride({}, { o: {} }), { o: {} });
  assert.deepEqual(mergeWithOverride({ o: { a: 'x' } }, { o: {} }), { o: { a: 'x' } });
});

void test('mergeClusterVersionSpec merges capabilities field by field and replaces lists', () => {
  const template: ClusterVersionSpec = {
    ...baseSpec(),
    capabilities: { baselineCapabilitySet: 'v4.11', additionalEnabledCapabilities: ['Console', 'Insights'] },
    overrides: [{ kind: 'Deployment', group: 'apps', namespace: 'a', name: 'x', unmanaged: true }],
  };
  const merged = mergeClusterVersionSpec(template, {
    clusterID: '',
    capabilities: { baselineCapabilitySet: 'v4.12' },
    signatureStores: [{ url: 'https://sig.example.com' }],
    overrides: [],
    channel: '',
  });
  assert.deepEqual(merged, {
    ...baseSpec(),
    capabilities: { baselineCapabilitySet: 'v4.12', additionalEnabledCapabilities: ['Console', 'Insights'] },
    overrides: [{ kind: 'Deployment', group: 'apps', namespace: 'a', name: 'x', unmanaged: true }],
    signatureStores: [{ url: 'https://sig.example.com' }],
  });
  assert.deepEqual(mergeClusterVersionSpec(template, undefined), template);
});

void test('activeOverlay takes the newest started one (no accumulation); equal from: the later in spec order wins', () => {
  const overlays = [
    { index: 0, fromMs: 300, spec: { clusterID: '', channel: 'c' } },
    { index: 1, fromMs: 100, spec: { clusterID: '', channel: 'a' } },
    { index: 2, fromMs: 200, spec: { clusterID: '', channel: 'b1' } },
    { index: 3, fromMs: 200, spec: { clusterID: '', channel: 'b2' } },
  ];
  assert.equal(activeOverlay(overlays, 99), undefined);
  assert.equal(activeOverlay(overlays, 100)?.index, 1, 'from ≤ now');
  assert.equal(activeOverlay(overlays, 250)?.index, 3);
  assert.equal(activeOverlay(overlays, 1000)?.index, 0);
  assert.equal(nextOverlayStart(overlays, 0), 100);
  assert.equal(nextOverlayStart(overlays, 100), 200, 'strictly after now');
  assert.equal(nextOverlayStart(overlays, 300), undefined);
});

void test("APPUiO's overlay test: requeues of 1h, 90m, 78m, then none; status and previews", () => {
  // Overlays deliberately out of order, as upstream's test has them.
  const spec: ManagedClusterVersionSpec = {
    template: { spec: baseSpec() },
    overlays: [
      { from: formatTime(T0 + 150 * MINUTE), overlay: { spec: { clusterID: '', channel: 'stable-4.8' } } },
      { from: formatTime(T0 + HOUR), overlay: { spec: { clusterID: '', channel: 'stable-4.7' } } },
    ],
  };
  const r0 = render(spec, T0);
  assert.equal(r0.requeueAfterMs, HOUR);
  assert.deepEqual(r0.current, baseSpec());
  assert.equal(r0.status.overlayApplied, null);

  const r1 = render(spec, T0 + HOUR);
  assert.equal(r1.requeueAfterMs, 90 * MINUTE);
  assert.equal(r1.current.channel, 'stable-4.7');
  assert.equal(r1.status.overlayApplied, spec.overlays?.[1]?.from);

  const r2 = render(spec, T0 + HOUR + 12 * MINUTE);
  assert.equal(r2.requeueAfterMs, 78 * MINUTE);
  assert.equal(r2.current.channel, 'stable-4.7', 'the first overlay stays applied');

  const r3 = render(spec, T0 + 150 * MINUTE);
  assert.equal(r3.requeueAfterMs, undefined);
  assert.equal(r3.current.channel, 'stable-4.8');
  assert.equal(r3.status.overlayApplied, spec.overlays?.[0]?.from);

  const r4 = render(spec, T0 + 150 * MINUTE + 7 * HOUR);
  assert.equal(r4.requeueAfterMs, undefined);
  assert.equal(r4.current.channel, 'stable-4.8', 'the second overlay stays applied');
  assert.deepEqual(r4.status, {
    current: { ...baseSpec(), channel: 'stable-4.8' },
    overlayApplied: '2022-12-05T01:15:00Z',
    overlays: [
      { from: '2022-12-05T01:15:00Z', preview: { spec: { ...baseSpec(), channel: 'stable-4.8' } } },
      { from: '2022-12-04T23:45:00Z', preview: { spec: { ...baseSpec(), channel: 'stable-4.7' } } },
    ],
  });
});

void test('renderClusterVersion refuses a template without clusterID and an unparsable from', () => {
  const noId = renderClusterVersion({ template: { spec: { clusterID: '', channel: 'x' } } }, T0);
  assert.deepEqual(noId, { ok: false, errors: ['spec.template.spec.clusterID is required'] });
  assert.deepEqual(renderClusterVersion(undefined, T0), { ok: false, errors: ['spec.template.spec is required'] });
  const badFrom = renderClusterVersion(
    { template: { spec: baseSpec() }, overlays: [{ from: 'next tuesday', overlay: {} }] },
    T0,
  );
  assert.deepEqual(badFrom, { ok: false, errors: ['spec.overlays[0].from: "next tuesday" is not a time'] });
});

void test('renderClusterVersion without overlays: the template, no previews, no requeue', () => {
  const r = render({ template: { spec: baseSpec() } }, T0);
  assert.deepEqual(r.status, { current: baseSpec(), overlayApplied: null });
  assert.equal(r.requeueAfterMs, undefined);
});

void test('upstreamSpecUpdate: nothing when equal ignoring desiredUpdate and empty values; otherwise the owned fields replaced', () => {
  const upstream: ClusterVersionSpec & { futureField?: string } = {
    clusterID: CLUSTER_ID,
    desiredUpdate: { version: '4.5.89', image: 'quay.io/x@sha256:1' },
    upstream: 'https://api.openshift.com/api/upgrades_info/v1/graph',
    channel: 'stable-4.6',
    capabilities: { baselineCapabilitySet: 'v4.11' },
    overrides: [],
    futureField: 'kept',
  };
  assert.equal(upstreamSpecUpdate(baseSpec(), upstream), undefined, 'desiredUpdate and empty lists do not count');
  assert.ok(specEqualIgnoringDesiredUpdate({ clusterID: 'a', channel: '' }, { clusterID: 'a' }));
  assert.ok(!specEqualIgnoringDesiredUpdate({ clusterID: 'a', channel: 'x' }, { clusterID: 'a' }));

  const rendered: ClusterVersionSpec = {
    clusterID: CLUSTER_ID,
    desiredUpdate: { version: 'ignored' },
    channel: 'stable-4.7',
  };
  assert.deepEqual(upstreamSpecUpdate(rendered, upstream), {
    clusterID: CLUSTER_ID,
    desiredUpdate: { version: '4.5.89', image: 'quay.io/x@sha256:1' },
    channel: 'stable-4.7',
    futureField: 'kept',
  });
  assert.deepEqual(upstream.channel, 'stable-4.6', 'input untouched');
  assert.deepEqual(upstreamSpecUpdate(rendered, undefined), { clusterID: CLUSTER_ID, channel: 'stable-4.7' });
});

void test('pruneEmpty and clusterVersionStatusEqual treat absent, null, empty and false alike', () => {
  assert.deepEqual(pruneEmpty({ a: '', b: [], c: {}, d: { e: null }, f: false, g: [{ h: '' }, 'x'], i: 'j' }), {
    g: [null, 'x'],
    i: 'j',
  });
  assert.equal(pruneEmpty(''), undefined);
  assert.ok(
    clusterVersionStatusEqual(
      { current: { clusterID: 'a' } },
      { current: { clusterID: 'a', channel: '' }, overlayApplied: null },
    ),
  );
  assert.ok(!clusterVersionStatusEqual(undefined, { current: { clusterID: 'a' } }));
  assert.ok(
    !clusterVersionStatusEqual(
      { current: { clusterID: 'a' }, overlayApplied: '2022-12-04T23:45:00Z' },
      { current: { clusterID: 'a' }, overlayApplied: null },
    ),
  );
});

void test('mergeWithOverride properties: an empty overlay changes nothing; merging the same overlay twice changes nothing more', () => {
  fc.assert(
    fc.property(fc.jsonValue() as fc.Arbitrary<JsonValue>, fc.jsonValue() as fc.Arbitrary<JsonValue>, (a, b) => {
      // An empty object merges into an object as nothing, and replaces a non-object (a nil pointer in Go).
      assert.ok(jsonEqual(mergeWithOverride(a, {}), isJsonObject(a) ? a : {}));
      const once = mergeWithOverride(a, b);
      assert.ok(jsonEqual(mergeWithOverride(once, b), once));
      assert.ok(jsonEqual(mergeWithOverride(a, null), a));
    }),
  );
});
