import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { parse } from 'yaml';
import { startApiServer } from './server.js';
import { kubeconfigFor } from './kubeconfig.js';

void test('kubeconfig names the server, context and namespace', () => {
  const doc = parse(kubeconfigFor('http://127.0.0.1:1234', { contextName: 'sim', namespace: 'ns1' })) as Record<
    string,
    unknown
  >;
  assert.equal(doc['current-context'], 'sim');
  assert.deepEqual(doc.clusters, [
    { name: 'sim', cluster: { server: 'http://127.0.0.1:1234', 'insecure-skip-tls-verify': true } },
  ]);
  assert.deepEqual(doc.contexts, [{ name: 'sim', context: { cluster: 'sim', user: 'sim', namespace: 'ns1' } }]);
});

void test('@kubernetes/client-node accepts the kubeconfig of the plain-HTTP server', async () => {
  const server = await startApiServer({ port: 0 });
  try {
    const kc = new KubeConfig();
    kc.loadFromString(server.kubeconfig());
    const list = await kc.makeApiClient(CoreV1Api).listNamespace();
    assert.ok(list.items.some((ns) => ns.metadata?.name === 'default'));
  } finally {
    await server.close();
  }
});
