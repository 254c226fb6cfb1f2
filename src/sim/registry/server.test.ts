import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { ActivityCounter } from '../../lib/activity.js';
import { buildCatalogue, findRelease } from '../releases/catalogue.js';
import {
  BASE_IMAGE_DIGEST_LABEL,
  DOCKER_CONFIG_V1,
  DOCKER_MANIFEST_V2,
  OCI_CONFIG_V1,
  OCI_MANIFEST_V1,
  RELEASE_LABEL,
  registryManifestUrl,
  startRegistry,
  type Registry,
} from './server.js';

const catalogue = buildCatalogue();

async function withRegistry(fn: (r: Registry) => Promise<void>, activity?: ActivityCounter): Promise<void> {
  const registry = await startRegistry({ catalogue, ...(activity ? { activity } : {}) });
  try {
    await fn(registry);
  } finally {
    await registry.close();
  }
}

interface Manifest {
  schemaVersion: number;
  mediaType: string;
  config: { mediaType: string; size: number; digest: string };
  layers: Array<{ mediaType: string; digest: string }>;
}

test('GET /v2/ answers 200 with the distribution API version header', async () => {
  await withRegistry(async (registry) => {
    const res = await fetch(`${registry.url}/v2/`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('docker-distribution-api-version'), 'registry/2.0');
    assert.deepEqual(await res.json(), {});
  });
});

test('a release pull spec resolves, through a quay.io host override, to its version label (MUO image mode)', async () => {
  const activity = new ActivityCounter();
  await withRegistry(async (registry) => {
    const release = findRelease(catalogue, '4.15.3')!;
    const url = registryManifestUrl(release.pullSpec, { 'quay.io': registry.url });
    assert.equal(url, `${registry.url}/v2/openshift-release-dev/ocp-release/manifests/${release.digest}`);
    const res = await fetch(url, { headers: { accept: DOCKER_MANIFEST_V2 } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), DOCKER_MANIFEST_V2);
    assert.equal(res.headers.get('docker-content-digest'), release.digest);
    const manifest = (await res.json()) as Manifest;
    assert.equal(manifest.schemaVersion, 2);
    assert.equal(manifest.mediaType, DOCKER_MANIFEST_V2);
    assert.equal(manifest.config.mediaType, DOCKER_CONFIG_V1);
    assert.ok(manifest.layers.length > 0);

    const blob = await fetch(`${registry.url}/v2/openshift-release-dev/ocp-release/blobs/${manifest.config.digest}`);
    assert.equal(blob.status, 200);
    const bytes = Buffer.from(await blob.arrayBuffer());
    assert.equal(bytes.length, manifest.config.size);
    assert.equal(`sha256:${createHash('sha256').update(bytes).digest('hex')}`, manifest.config.digest);
    const config = JSON.parse(bytes.toString('utf8')) as { config: { Labels: Record<string, string> } };
    assert.equal(config.config.Labels[RELEASE_LABEL], '4.15.3');
    assert.match(config.config.Labels[BASE_IMAGE_DIGEST_LABEL]!, /^sha256:[0-9a-f]{64}$/);
    await activity.idle();
  }, activity);
  assert.equal(activity.busy, 0);
});

test('OCI clients get an OCI manifest; HEAD gives the headers only; tags resolve too', async () => {
  await withRegistry(async (registry) => {
    const release = findRelease(catalogue, '4.14.10')!;
    const base = `${registry.url}/v2/openshift-release-dev/ocp-release/manifests`;
    const oci = await fetch(`${base}/${release.digest}`, { headers: { accept: OCI_MANIFEST_V1 } });
    assert.equal(oci.headers.get('content-type'), OCI_MANIFEST_V1);
    const m = (await oci.json()) as Manifest;
    assert.equal(m.mediaType, OCI_MANIFEST_V1);
    assert.equal(m.config.mediaType, OCI_CONFIG_V1);

    const head = await fetch(`${base}/${release.digest}`, {
      method: 'HEAD',
      headers: { accept: `${OCI_MANIFEST_V1}, ${DOCKER_MANIFEST_V2}` },
    });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('docker-content-digest'), release.digest);
    assert.equal(head.headers.get('content-type'), DOCKER_MANIFEST_V2);
    assert.equal((await head.arrayBuffer()).byteLength, 0);

    const tagged = await fetch(`${base}/4.14.10-x86_64`);
    assert.equal(tagged.status, 200);
    assert.equal(tagged.headers.get('docker-content-digest'), release.digest);
    await tagged.arrayBuffer();
  });
});

test('unknown digests, blobs and repositories answer 404 with registry error JSON', async () => {
  await withRegistry(async (registry) => {
    const unknown = `sha256:${'0'.repeat(64)}`;
    const cases: Array<[string, number, string]> = [
      [`/v2/openshift-release-dev/ocp-release/manifests/${unknown}`, 404, 'MANIFEST_UNKNOWN'],
      [`/v2/openshift-release-dev/ocp-release/manifests/4.99.0-x86_64`, 404, 'MANIFEST_UNKNOWN'],
      [`/v2/openshift-release-dev/ocp-release/blobs/${unknown}`, 404, 'BLOB_UNKNOWN'],
      [`/v2/openshift-release-dev/ocp-release/blobs/not-a-digest`, 400, 'DIGEST_INVALID'],
      [`/v2/someone/else/manifests/${unknown}`, 404, 'NAME_UNKNOWN'],
    ];
    for (const [path, status, code] of cases) {
      const res = await fetch(`${registry.url}${path}`);
      assert.equal(res.status, status, path);
      const body = (await res.json()) as { errors: Array<{ code: string; message: string }> };
      assert.equal(body.errors[0]!.code, code, path);
      assert.ok(body.errors[0]!.message.length > 0);
    }
  });
});

test('registryManifestUrl maps only configured hosts and understands digests and tags', () => {
  const hosts = { 'quay.io': 'http://127.0.0.1:5000/' };
  assert.equal(
    registryManifestUrl('quay.io/openshift-release-dev/ocp-release:4.15.3-x86_64', hosts),
    'http://127.0.0.1:5000/v2/openshift-release-dev/ocp-release/manifests/4.15.3-x86_64',
  );
  assert.equal(registryManifestUrl('registry.example.com/a/b@sha256:' + 'a'.repeat(64), hosts), undefined);
  assert.equal(registryManifestUrl('not a pull spec', hosts), undefined);
});
