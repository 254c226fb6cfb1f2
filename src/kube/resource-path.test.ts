import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LeaseResource, NodeResource, PodResource } from '../api/builtin.js';
import { resourcePath } from './resource-path.js';
import { isConflict, isGone, isInvalid, isNotFound, KubeApiError, kubeApiErrorFrom } from './status-error.js';

void test('resource paths for core and grouped kinds, scopes, subresources and queries', () => {
  assert.equal(
    resourcePath(PodResource, { namespace: 'ns', name: 'a', subresource: 'status' }),
    '/api/v1/namespaces/ns/pods/a/status',
  );
  assert.equal(resourcePath(PodResource), '/api/v1/pods');
  assert.equal(
    resourcePath(LeaseResource, {
      namespace: 'kube-system',
      query: { labelSelector: 'a=b,c in (d)', limit: 5, x: undefined },
    }),
    '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases?labelSelector=a%3Db%2Cc+in+%28d%29&limit=5',
  );
  assert.equal(resourcePath(NodeResource, { namespace: 'ignored', name: 'n:1' }), '/api/v1/nodes/n%3A1');
  assert.throws(() => resourcePath(PodResource, { namespace: 'ns', name: '..' }), /invalid path segment/);
  assert.throws(() => resourcePath(PodResource, { subresource: 'status' }), /needs a name/);
});

void test('KubeApiError parses Status bodies and classifies reasons', () => {
  const e = kubeApiErrorFrom(
    409,
    JSON.stringify({
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      message: 'boom',
      reason: 'Conflict',
      code: 409,
    }),
  );
  assert.ok(e instanceof KubeApiError);
  assert.ok(isConflict(e));
  assert.equal(e.message, 'boom');
  assert.ok(
    isGone(kubeApiErrorFrom(410, JSON.stringify({ kind: 'Status', reason: 'Expired', code: 410, message: 'too old' }))),
  );
  const html = kubeApiErrorFrom(404, '<html>nope</html>');
  assert.ok(isNotFound(html), 'reason derived from the code when the body is no Status');
  assert.equal(html.message, '<html>nope</html>');
  assert.ok(isInvalid(kubeApiErrorFrom(422, '')));
  assert.equal(kubeApiErrorFrom(429, '{}', '7').retryAfterSeconds, 7);
  assert.equal(
    kubeApiErrorFrom(429, JSON.stringify({ kind: 'Status', details: { retryAfterSeconds: 3 } })).retryAfterSeconds,
    3,
  );
});
