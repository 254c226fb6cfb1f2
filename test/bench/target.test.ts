import { test } from 'node:test';
import assert from 'node:assert/strict';
import { noAuth, staticBearer, type RestConfig } from '../../src/kube/rest-config.js';
import { embeddedTarget, targetFromRestConfig, targetPath } from './target.js';

const base: RestConfig = {
  server: 'https://api.example:6443',
  insecureSkipTLSVerify: false,
  auth: noAuth,
  namespace: 'default',
};

test('a RestConfig gives the TLS material and the Authorization header of the target', async () => {
  const t = await targetFromRestConfig({
    ...base,
    ca: 'CA PEM',
    cert: 'CERT PEM',
    key: 'KEY PEM',
    servername: 'api.internal',
    auth: staticBearer('s3cret'),
  });
  assert.deepEqual(t, {
    url: 'https://api.example:6443',
    tls: { rejectUnauthorized: true, ca: 'CA PEM', cert: 'CERT PEM', key: 'KEY PEM', servername: 'api.internal' },
    headers: { authorization: 'Bearer s3cret' },
  });
  const insecure = await targetFromRestConfig({ ...base, insecureSkipTLSVerify: true });
  assert.deepEqual(insecure.tls, { rejectUnauthorized: false });
  assert.deepEqual(insecure.headers, {});
  const plain = await targetFromRestConfig({ ...base, server: 'http://127.0.0.1:8080' });
  assert.equal(plain.tls, undefined);
});

test('a proxy-url is refused: the benchmarks measure a direct connection', async () => {
  await assert.rejects(targetFromRestConfig({ ...base, proxyUrl: 'http://proxy:3128' }), /proxy-url is not supported/);
});

test('a server URL with a path prefix keeps it in every request path', () => {
  assert.equal(
    targetPath({ url: 'https://h:443/k8s/clusters/c-1', headers: {} }, '/api/v1/pods'),
    '/k8s/clusters/c-1/api/v1/pods',
  );
  assert.equal(targetPath(embeddedTarget('http://127.0.0.1:1234'), '/version'), '/version');
});
