import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonObject } from '../../lib/json.js';
import { managedClusterVersionCrd } from '../../api/managedupgrade.appuio.io/v1beta1/cluster-version.js';
import { aggregateMessage } from '../field-errors.js';
import { compileRule } from './cel-rules.js';
import { validateAgainstSchema } from './schema-validate.js';

function run(expression: string, self: unknown = null): unknown {
  const rule = compileRule(expression);
  if ('compileError' in rule) throw new Error(rule.compileError);
  const out = rule.run({ self: self as never });
  if ('error' in out) return { error: out.error };
  return out.value;
}

void test('isURL and url() follow Kubernetes examples', () => {
  assert.equal(run("isURL('https://example.com:80/path?query=val#fragment')"), true);
  assert.equal(run("isURL('/absolute-path')"), true);
  assert.equal(run("isURL('../relative-path')"), false);
  assert.equal(run("isURL('https://a:b:c/')"), false);
  assert.equal(run("url('https://example.com').getScheme()"), 'https');
  assert.equal(run("url('https://example.com:80/').getHost()"), 'example.com:80');
  assert.equal(run("url('https://[::1]:80/').getHostname()"), '::1');
  assert.equal(run("url('https://example.com:80/').getPort()"), '80');
  assert.equal(run("url('https://example.com/path with spaces/').getEscapedPath()"), '/path%20with%20spaces/');
  assert.equal(
    run("url('https://example.com/path?k1=a&k2=b&k2=c').getQuery() == {'k1': ['a'], 'k2': ['b', 'c']}"),
    true,
  );
  assert.equal(run("url('/path').getScheme() == '' && url('/path').getHost() == ''"), true);
  assert.deepEqual(run("url('../x')"), {
    error: 'URL parse error during conversion from string: parse "../x": invalid URI for request',
  });
  assert.equal((run("'x'.getHost()") as { error: string }).error.startsWith('no such overload'), true);
});

const crd = managedClusterVersionCrd();
const schema = (crd['spec'] as { versions: Array<{ schema: { openAPIV3Schema: JsonObject } }> }).versions[0]!.schema
  .openAPIV3Schema;

function clusterVersion(url: string): JsonObject {
  return {
    apiVersion: 'managedupgrade.appuio.io/v1beta1',
    kind: 'ClusterVersion',
    metadata: { name: 'version', namespace: 'appuio-openshift-upgrade-controller' },
    spec: {
      template: {
        spec: { clusterID: 'c1', channel: 'stable-4.16', signatureStores: [{ url, ca: { name: 'store-ca' } }] },
      },
    },
  };
}

void test('an appuio ClusterVersion with signatureStores[].url validates through isURL', () => {
  assert.deepEqual(
    validateAgainstSchema(
      clusterVersion('https://mirror.openshift.com/pub/openshift-v4/signatures/openshift/release'),
      schema,
    ),
    [],
  );
  assert.equal(
    aggregateMessage(validateAgainstSchema(clusterVersion('mirror.openshift.com/signatures'), schema)),
    'spec.template.spec.signatureStores[0].url: Invalid value: "string": url must be a valid absolute URL',
  );
});
