import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ActivityCounter } from '../lib/activity.js';
import { buildCatalogue, findRelease } from '../sim/releases/catalogue.js';
import { startRegistry } from '../sim/registry/server.js';
import { NO_PROXY_CONFIG } from './http/proxy-env.js';
import { IntegrationError } from './integration-error.js';
import { DOCKER_MANIFEST_V2, ImageReferenceError, RegistryClient, parsePullSpec } from './registry-client.js';

const DIGEST = `sha256:${'ab'.repeat(32)}`;

test('parsePullSpec takes a release pull spec apart', () => {
  assert.deepEqual(parsePullSpec(`quay.io/openshift-release-dev/ocp-release@${DIGEST}`), {
    registry: 'quay.io',
    namespace: 'openshift-release-dev',
    name: 'ocp-release',
    digest: DIGEST,
  });
  assert.deepEqual(parsePullSpec(`registry.local:5000/a/b/c:4.15.3-x86_64@${DIGEST}`), {
    registry: 'registry.local:5000',
    namespace: 'a',
    name: 'b/c',
    tag: '4.15.3-x86_64',
    digest: DIGEST,
  });
});

test('parsePullSpec names the missing part', () => {
  const cases: Array<[string, RegExp]> = [
    ['', /empty/],
    ['quay.io/openshift-release-dev/ocp-release:4.15.3-x86_64', /has no digest/],
    ['quay.io/openshift-release-dev/ocp-release@sha256:xyz', /invalid digest/],
    [`quay.io/ocp-release@${DIGEST}`, /has no namespace/],
    [`openshift-release-dev/ocp-release@${DIGEST}`, /has no registry/],
    [`ocp-release@${DIGEST}`, /has no registry/],
    [`quay.io//ocp-release@${DIGEST}`, /empty path component/],
  ];
  for (const [spec, re] of cases)
    assert.throws(
      () => parsePullSpec(spec),
      (e: unknown) => e instanceof ImageReferenceError && re.test(e.message),
      spec,
    );
});

test('reads the release label through the simulated registry (MUO image mode), reporting activity', async () => {
  const catalogue = buildCatalogue();
  const registry = await startRegistry({ catalogue });
  const activity = new ActivityCounter();
  const client = new RegistryClient({ hosts: { 'quay.io': registry.url }, proxy: NO_PROXY_CONFIG, activity });
  try {
    const release = findRelease(catalogue, '4.15.3');
    assert.ok(release);
    const labels = await client.imageLabels(release.pullSpec);
    assert.equal(labels.release, '4.15.3');
    assert.equal(labels.labels['io.openshift.release'], '4.15.3');
    assert.equal(labels.labels['vendor'], 'Red Hat, Inc.');
    assert.match(labels.configDigest, /^sha256:[0-9a-f]{64}$/);
    assert.equal(activity.busy, 0);

    const unknown = `quay.io/openshift-release-dev/ocp-release@sha256:${'0'.repeat(64)}`;
    await assert.rejects(
      client.imageLabels(unknown),
      (e: unknown) =>
        e instanceof IntegrationError &&
        e.reason === 'HttpStatus' &&
        e.status === 404 &&
        /MANIFEST_UNKNOWN: manifest unknown/.test(e.message),
    );
    const otherRepo = `quay.io/someone/else@${release.digest}`;
    await assert.rejects(
      client.imageLabels(otherRepo),
      (e: unknown) => e instanceof IntegrationError && e.status === 404 && /NAME_UNKNOWN/.test(e.message),
    );
  } finally {
    await client.close();
    await registry.close();
  }
});

test('sends the Docker v2 Accept header, follows a blob redirect, and refuses a manifest without config', async () => {
  const seen: Array<{ url: string; accept: string | undefined }> = [];
  const config = JSON.stringify({ config: { Labels: { 'io.openshift.release': '4.16.1', n: 5 } } });
  const server = createServer((req: IncomingMessage, res) => {
    seen.push({ url: req.url ?? '', accept: req.headers.accept });
    if (req.url === `/v2/ns/name/manifests/${DIGEST}`) {
      res.writeHead(200, { 'content-type': DOCKER_MANIFEST_V2 });
      res.end(
        JSON.stringify({
          schemaVersion: 2,
          mediaType: DOCKER_MANIFEST_V2,
          config: { digest: `sha256:${'cd'.repeat(32)}` },
        }),
      );
    } else if (req.url === `/v2/ns/name/blobs/sha256:${'cd'.repeat(32)}`) {
      res.writeHead(307, { location: '/cdn/blob' });
      res.end();
    } else if (req.url === '/cdn/blob') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(config);
    } else if (req.url?.startsWith('/v2/ns/list/')) {
      res.writeHead(200, { 'content-type': 'application/vnd.docker.distribution.manifest.list.v2+json' });
      res.end(
        JSON.stringify({
          schemaVersion: 2,
          mediaType: 'application/vnd.docker.distribution.manifest.list.v2+json',
          manifests: [],
        }),
      );
    } else {
      res.writeHead(404);
      res.end('not here');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new RegistryClient({ hosts: { 'mirror.example:5000': base }, proxy: NO_PROXY_CONFIG });
  try {
    const labels = await client.imageLabels(`mirror.example:5000/ns/name@${DIGEST}`);
    assert.deepEqual(labels.labels, { 'io.openshift.release': '4.16.1' });
    assert.equal(seen[0]?.accept, DOCKER_MANIFEST_V2);
    assert.deepEqual(
      seen.map((s) => s.url),
      [`/v2/ns/name/manifests/${DIGEST}`, `/v2/ns/name/blobs/sha256:${'cd'.repeat(32)}`, '/cdn/blob'],
    );
    await assert.rejects(
      client.imageLabels(`mirror.example:5000/ns/list@${DIGEST}`),
      (e: unknown) =>
        e instanceof IntegrationError &&
        e.reason === 'BadResponse' &&
        /manifest\.list\.v2\+json\) has no config digest/.test(e.message),
    );
    assert.equal(client.baseUrl('quay.io'), 'https://quay.io');
  } finally {
    await client.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
