/**
 * A read-only container registry (OCI distribution API, the part a client needs to resolve a
 * release image): `GET /v2/`, `GET|HEAD /v2/<repo>/manifests/<digest|tag>`,
 * `GET|HEAD /v2/<repo>/blobs/<digest>` for the image config, registry error JSON otherwise.
 *
 * Pointing a client at it: release pull specs keep their real host
 * (`quay.io/openshift-release-dev/ocp-release@sha256:…`, the catalogue's `registryHost`). A client
 * in the simulation is configured with a host override that maps `quay.io` to this server's URL
 * (plain HTTP), and requests `<url>/v2/openshift-release-dev/ocp-release/manifests/sha256:…` —
 * {@link registryManifestUrl} does that mapping. This is what MUO does in image mode
 * (docs/design/managed-flow.md#validation): fetch the manifest by digest, then the config blob,
 * then read the label `io.openshift.release`.
 *
 * Known difference: a release's manifest digest is the catalogue digest (sha256 of the version
 * string), not the sha256 of the manifest bytes, so a client that verifies manifest digests will
 * reject it. Config blob digests are real.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ActivityTracker } from '../../lib/activity.js';
import type { Logger } from '../../lib/log.js';
import { RELEASE_REPOSITORY, sha256Digest, type Catalogue, type Release } from '../releases/catalogue.js';
import { startHttpServer } from '../http-server.js';

export const DOCKER_MANIFEST_V2 = 'application/vnd.docker.distribution.manifest.v2+json';
export const DOCKER_CONFIG_V1 = 'application/vnd.docker.container.image.v1+json';
export const DOCKER_LAYER = 'application/vnd.docker.image.rootfs.diff.tar.gzip';
export const OCI_MANIFEST_V1 = 'application/vnd.oci.image.manifest.v1+json';
export const OCI_CONFIG_V1 = 'application/vnd.oci.image.config.v1+json';
export const OCI_LAYER = 'application/vnd.oci.image.layer.v1.tar+gzip';

/** The label carrying the release version, read by MUO and `oc adm release info`. */
export const RELEASE_LABEL = 'io.openshift.release';
export const BASE_IMAGE_DIGEST_LABEL = 'io.openshift.release.base-image-digest';

export interface RegistryOptions {
  catalogue: Catalogue;
  port?: number;
  activity?: ActivityTracker;
  logger?: Logger;
}

export interface Registry {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  setCatalogue(catalogue: Catalogue): void;
  close(): Promise<void>;
}

/** The image config of a release image, as served under its digest. */
export function releaseImageConfig(release: Release): { body: string; digest: string } {
  const created = new Date(release.candidateAt).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const config = {
    architecture: 'amd64',
    os: 'linux',
    created,
    config: {
      Labels: {
        [RELEASE_LABEL]: release.version,
        [BASE_IMAGE_DIGEST_LABEL]: sha256Digest(`base-image/${release.version}`),
        'io.openshift.build.versions': `machine-os=${release.version}`,
        'io.openshift.release.operator': 'true',
        vendor: 'Red Hat, Inc.',
      },
      Entrypoint: ['/usr/bin/cluster-version-operator'],
      Env: ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'],
    },
    rootfs: { type: 'layers', diff_ids: [0, 1, 2].map((i) => sha256Digest(`diff/${release.version}/${i}`)) },
  };
  const body = JSON.stringify(config);
  return { body, digest: sha256Digest(body) };
}

/** The image manifest of a release in Docker v2 schema 2 or OCI form. */
export function releaseImageManifest(
  release: Release,
  mediaType: typeof DOCKER_MANIFEST_V2 | typeof OCI_MANIFEST_V1,
): string {
  const oci = mediaType === OCI_MANIFEST_V1;
  const config = releaseImageConfig(release);
  const sizes = [79_441_102, 21_504_313, 38_167_220];
  return JSON.stringify({
    schemaVersion: 2,
    mediaType,
    config: {
      mediaType: oci ? OCI_CONFIG_V1 : DOCKER_CONFIG_V1,
      size: Buffer.byteLength(config.body),
      digest: config.digest,
    },
    layers: sizes.map((size, i) => ({
      mediaType: oci ? OCI_LAYER : DOCKER_LAYER,
      size,
      digest: sha256Digest(`layer/${release.version}/${i}`),
    })),
  });
}

/**
 * Maps a pull spec to this registry's manifest URL. `hosts` maps registry host names to base URLs
 * (e.g. `{ 'quay.io': registry.url }`); undefined when the spec's host is not mapped.
 */
export function registryManifestUrl(pullSpec: string, hosts: Readonly<Record<string, string>>): string | undefined {
  const m = /^([^/]+)\/(.+?)(?:@(sha256:[0-9a-f]{64})|:([\w][\w.-]{0,127}))$/.exec(pullSpec);
  if (!m) return undefined;
  const base = hosts[m[1]!];
  if (!base) return undefined;
  return `${base.replace(/\/$/, '')}/v2/${m[2]!}/manifests/${m[3] ?? m[4]!}`;
}

function registryError(res: ServerResponse, status: number, code: string, message: string, detail?: unknown): void {
  const body = JSON.stringify({ errors: [{ code, message, ...(detail === undefined ? {} : { detail }) }] });
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'docker-distribution-api-version': 'registry/2.0',
  });
  res.end(body);
}

function send(req: IncomingMessage, res: ServerResponse, body: string, contentType: string, digest: string): void {
  res.writeHead(200, {
    'content-type': contentType,
    'content-length': Buffer.byteLength(body),
    'docker-content-digest': digest,
    etag: `"${digest}"`,
    'docker-distribution-api-version': 'registry/2.0',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** The manifest type for an Accept header: Docker v2 unless the client asks only for OCI. */
function manifestTypeFor(accept: string | undefined): typeof DOCKER_MANIFEST_V2 | typeof OCI_MANIFEST_V1 {
  const types = (accept ?? '').split(',').map((t) => t.split(';')[0]!.trim());
  if (types.includes(DOCKER_MANIFEST_V2)) return DOCKER_MANIFEST_V2;
  if (types.includes(OCI_MANIFEST_V1)) return OCI_MANIFEST_V1;
  return DOCKER_MANIFEST_V2;
}

/** Finds a release by manifest reference: its digest, or a tag `<version>-x86_64` / `<version>`. */
function releaseByReference(catalogue: Catalogue, reference: string): Release | undefined {
  if (reference.startsWith('sha256:')) return catalogue.releases.find((r) => r.digest === reference);
  const version = reference.endsWith('-x86_64') ? reference.slice(0, -'-x86_64'.length) : reference;
  return catalogue.byVersion.get(version);
}

const blobIndex = new WeakMap<Catalogue, Map<string, string>>();

/** Config blobs of every release by digest (built once per catalogue). */
function configBlobs(catalogue: Catalogue): Map<string, string> {
  let index = blobIndex.get(catalogue);
  if (!index) {
    index = new Map();
    for (const release of catalogue.releases) {
      const config = releaseImageConfig(release);
      index.set(config.digest, config.body);
    }
    blobIndex.set(catalogue, index);
  }
  return index;
}

/** Handles one registry request against a catalogue. */
export function handleRegistryRequest(catalogue: Catalogue, req: IncomingMessage, res: ServerResponse): void {
  const path = new URL(req.url ?? '/', 'http://registry').pathname;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    registryError(res, 405, 'UNSUPPORTED', 'The operation is unsupported.');
    return;
  }
  if (path === '/v2/' || path === '/v2') {
    send(req, res, '{}', 'application/json; charset=utf-8', sha256Digest('{}'));
    return;
  }
  const m = /^\/v2\/(.+)\/(manifests|blobs)\/([^/]+)$/.exec(path);
  if (!m) {
    registryError(res, 404, 'NOT_FOUND', 'not found');
    return;
  }
  const [, repo, what, reference] = m as unknown as [string, string, string, string];
  if (repo !== RELEASE_REPOSITORY) {
    registryError(res, 404, 'NAME_UNKNOWN', 'repository name not known to registry', { name: repo });
    return;
  }
  if (what === 'manifests') {
    const release = releaseByReference(catalogue, reference);
    if (!release) {
      registryError(res, 404, 'MANIFEST_UNKNOWN', 'manifest unknown', { Tag: reference });
      return;
    }
    const type = manifestTypeFor(req.headers.accept);
    send(req, res, releaseImageManifest(release, type), type, release.digest);
    return;
  }
  if (!/^sha256:[0-9a-f]{64}$/.test(reference)) {
    registryError(res, 400, 'DIGEST_INVALID', 'provided digest did not match uploaded content');
    return;
  }
  const config = configBlobs(catalogue).get(reference);
  if (config !== undefined) {
    send(req, res, config, 'application/octet-stream', reference);
    return;
  }
  registryError(res, 404, 'BLOB_UNKNOWN', 'blob unknown to registry', reference);
}

/** Starts the registry on 127.0.0.1. */
export async function startRegistry(options: RegistryOptions): Promise<Registry> {
  let catalogue = options.catalogue;
  const server = await startHttpServer({
    name: 'registry',
    handler: (req, res) => handleRegistryRequest(catalogue, req, res),
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.activity ? { activity: options.activity } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  return {
    url: server.url,
    setCatalogue(ctx) {
      catalogue = ctx;
    },
    close: () => server.close(),
  };
}
