/**
 * Contract of APPUiO's ClusterVersion CRD and the embedded configv1.ClusterVersionSpec
 * (docs/design/scheduled-flow.md#clusterversion).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonObject } from '../../../lib/json.js';
import { checkAgainstSchema } from '../../schema-check.js';
import { validateAgainstSchema } from '../../../apiserver/crd/schema-validate.js';
import { managedClusterVersionCrd } from './cluster-version.js';

const crd = managedClusterVersionCrd();
const schema = (crd['spec'] as { versions: { schema: { openAPIV3Schema: JsonObject } }[] }).versions[0]!.schema
  .openAPIV3Schema;
function at(path: string): JsonObject {
  let node = schema;
  for (const p of path.split('.'))
    node = p === '[]' ? (node['items'] as JsonObject) : ((node['properties'] as JsonObject)[p] as JsonObject);
  return node;
}
const cv = (spec: JsonObject): JsonObject => ({
  apiVersion: 'managedupgrade.appuio.io/v1beta1',
  kind: 'ClusterVersion',
  metadata: { name: 'version', namespace: 'n' },
  spec,
});

void test('clusterID is required in the template, optional in overlays and status', () => {
  assert.deepEqual(at('spec.template.spec')['required'], ['clusterID']);
  assert.equal(at('spec.overlays.[].overlay.spec')['required'], undefined);
  assert.equal(at('status.current')['required'], undefined);
  assert.deepEqual(at('spec.overlays.[]')['required'], ['from', 'overlay']);
  assert.ok(checkAgainstSchema(schema, cv({ template: { spec: { channel: 'stable-4.15' } } })).problems.length > 0);
  assert.deepEqual(
    checkAgainstSchema(
      schema,
      cv({
        template: { spec: { clusterID: 'x' } },
        overlays: [{ from: '2027-01-01T00:00:00Z', overlay: { spec: { channel: 'stable-4.16' } } }],
      }),
    ).problems,
    [],
  );
});

void test('ClusterVersionSpec keeps openshift/api’s enums, list types and limits', () => {
  const spec = 'spec.template.spec';
  assert.deepEqual(Object.keys(at(spec)['properties'] as JsonObject), [
    'capabilities',
    'channel',
    'clusterID',
    'desiredUpdate',
    'overrides',
    'signatureStores',
    'upstream',
  ]);
  assert.ok((at(`${spec}.capabilities.baselineCapabilitySet`)['enum'] as string[]).includes('vCurrent'));
  assert.ok(
    (at(`${spec}.capabilities.additionalEnabledCapabilities.[]`)['enum'] as string[]).includes(
      'OperatorLifecycleManagerV1',
    ),
  );
  assert.deepEqual(at(`${spec}.overrides`)['x-kubernetes-list-map-keys'], ['kind', 'group', 'namespace', 'name']);
  assert.deepEqual(at(`${spec}.overrides.[]`)['required'], ['group', 'kind', 'name', 'namespace', 'unmanaged']);
  assert.equal(at(`${spec}.signatureStores`)['maxItems'], 32);
  assert.deepEqual(at(`${spec}.signatureStores`)['x-kubernetes-list-map-keys'], ['url']);
  assert.equal((at(`${spec}.desiredUpdate`)['x-kubernetes-validations'] as JsonObject[]).length, 2);
});

void test('the desiredUpdate CEL rules run in the embedded API server', () => {
  const withUpdate = (desiredUpdate: JsonObject): JsonObject =>
    cv({ template: { spec: { clusterID: 'x', desiredUpdate } } });
  assert.deepEqual(
    validateAgainstSchema(
      withUpdate({ version: '4.15.3', image: 'quay.io/x@sha256:1', force: false, architecture: '' }),
      schema,
    ),
    [],
  );
  const both = validateAgainstSchema(withUpdate({ architecture: 'Multi', image: 'i', version: '4.15.3' }), schema);
  assert.ok(
    both.some((e) => e.detail === 'cannot set both Architecture and Image'),
    JSON.stringify(both),
  );
  const noVersion = validateAgainstSchema(withUpdate({ architecture: 'Multi', version: '' }), schema);
  assert.ok(
    noVersion.some((e) => e.detail === 'Version must be set if Architecture is set'),
    JSON.stringify(noVersion),
  );
});

void test('signatureStores urls carry openshift/api’s isURL rule', () => {
  assert.deepEqual(at('spec.template.spec.signatureStores.[].url')['x-kubernetes-validations'], [
    { message: 'url must be a valid absolute URL', rule: 'isURL(self)' },
  ]);
});

void test('overlayApplied may be null, as Go writes a zero time', () => {
  assert.equal(at('status.overlayApplied')['nullable'], true);
  assert.deepEqual(checkAgainstSchema(schema, { ...cv({}), status: { overlayApplied: null } }).problems, []);
});
