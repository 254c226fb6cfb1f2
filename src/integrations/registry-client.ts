/**
 * Reads the labels of a release image from its registry, for MUO's image mode
 * (docs/design/managed-flow.md#validation step 2):
 * `GET https://<registry>/v2/<ns>/<name>/manifests/<digest>` with
 * `Accept: application/vnd.docker.distribution.manifest.v2+json` (20 s, no auth), then the config
 * blob `/v2/<ns>/<name>/blobs/<config.digest>`, whose `config.Labels` carry `io.openshift.release`.
 * A host override maps a registry to another base URL (the simulated registry at
 * `http://127.0.0.1:<port>`, a mirror).
 */
import {
  HttpClient,
  bodyExcerpt,
  parseJsonBody,
  type HttpResult,
  type HttpTransportOptions,
} from './http/http-client.js';
import { IntegrationError } from './integration-error.js';

const API = 'registry';

export const DOCKER_MANIFEST_V2 = 'application/vnd.docker.distribution.manifest.v2+json';
/** The label carrying a release image's version. */
export const RELEASE_VERSION_LABEL = 'io.openshift.release';

/** A pull spec taken apart (library-go's DockerImageReference, the parts MUO checks). */
export interface ImageReference {
  /** Registry host (and port), e.g. `quay.io`. */
  registry: string;
  namespace: string;
  /** The repository name (may contain `/` for deeper paths). */
  name: string;
  tag?: string;
  /** `sha256:<hex>`. */
  digest: string;
}

/** Why a pull spec is not usable for image mode. */
export class ImageReferenceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImageReferenceError';
  }
}

const DIGEST = /^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-fA-F0-9]{32,}$/;

/**
 * Parses `registry/namespace/name[:tag]@sha256:…` (pure). Throws {@link ImageReferenceError}
 * naming the missing part: registry, namespace, name or digest.
 */
export function parsePullSpec(spec: string): ImageReference {
  const s = spec.trim();
  if (s === '') throw new ImageReferenceError('image pull spec is empty');
  const at = s.indexOf('@');
  const digest = at >= 0 ? s.slice(at + 1) : '';
  let path = at >= 0 ? s.slice(0, at) : s;
  if (digest === '')
    throw new ImageReferenceError(
      `image ${spec} has no digest (expected <registry>/<namespace>/<name>@sha256:<digest>)`,
    );
  if (!DIGEST.test(digest)) throw new ImageReferenceError(`image ${spec} has an invalid digest ${digest}`);
  let tag: string | undefined;
  const lastSlash = path.lastIndexOf('/');
  const colon = path.lastIndexOf(':');
  if (colon > lastSlash) {
    tag = path.slice(colon + 1);
    path = path.slice(0, colon);
  }
  const parts = path.split('/');
  if (parts.some((p) => p === '')) throw new ImageReferenceError(`image ${spec} has an empty path component`);
  const looksLikeRegistry = (p: string): boolean => p.includes('.') || p.includes(':') || p === 'localhost';
  if (parts.length < 3) {
    if (parts.length === 2 && looksLikeRegistry(parts[0]!))
      throw new ImageReferenceError(`image ${spec} has no namespace`);
    throw new ImageReferenceError(`image ${spec} has no registry`);
  }
  const [registry, namespace, ...rest] = parts as [string, string, ...string[]];
  return { registry, namespace, name: rest.join('/'), ...(tag !== undefined ? { tag } : {}), digest };
}

/** What the registry says about a release image. */
export interface ImageLabels {
  /** The `io.openshift.release` label, if present. */
  release: string | undefined;
  /** Every label of the image config. */
  labels: Record<string, string>;
  /** The config blob's digest. */
  configDigest: string;
}

/** Options of a {@link RegistryClient}. */
export interface RegistryClientOptions extends HttpTransportOptions {
  /** Registry host → base URL, e.g. `{ 'quay.io': 'http://127.0.0.1:5000' }`; default `https://<host>`. Timeout default 20 s (MUO). */
  hosts?: Readonly<Record<string, string>>;
}

const MAX_REDIRECTS = 5;

/** Reads image manifests and configs (anonymous). */
export class RegistryClient {
  readonly #http: HttpClient;
  readonly #hosts: Readonly<Record<string, string>>;

  constructor(options: RegistryClientOptions = {}) {
    const { hosts, ...transport } = options;
    this.#hosts = hosts ?? {};
    this.#http = new HttpClient({ ...transport, api: API, timeoutMs: options.timeoutMs ?? 20_000 });
  }

  /** The base URL of a registry host. */
  baseUrl(registry: string): string {
    return (this.#hosts[registry] ?? `https://${registry}`).replace(/\/+$/, '');
  }

  /** The labels of the image a pull spec (or a parsed reference) names. */
  async imageLabels(image: string | ImageReference, signal?: AbortSignal): Promise<ImageLabels> {
    const ref = typeof image === 'string' ? parsePullSpec(image) : image;
    const repo = `${this.baseUrl(ref.registry)}/v2/${ref.namespace}/${ref.name}`;
    const manifestRes = await this.#get(`${repo}/manifests/${ref.digest}`, DOCKER_MANIFEST_V2, signal);
    const manifest = parseJsonBody(API, manifestRes) as { mediaType?: unknown; config?: { digest?: unknown } } | null;
    const configDigest = manifest?.config?.digest;
    if (typeof configDigest !== 'string' || !DIGEST.test(configDigest)) {
      const type = typeof manifest?.mediaType === 'string' ? ` (${manifest.mediaType})` : '';
      throw new IntegrationError(API, 'BadResponse', `${manifestRes.url}: the manifest${type} has no config digest`, {
        status: manifestRes.status,
      });
    }
    const configRes = await this.#get(`${repo}/blobs/${configDigest}`, 'application/json, */*', signal);
    const config = parseJsonBody(API, configRes) as {
      config?: { Labels?: unknown };
      container_config?: { Labels?: unknown };
    } | null;
    const raw = config?.config?.Labels ?? config?.container_config?.Labels ?? {};
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      throw new IntegrationError(API, 'BadResponse', `${configRes.url}: the image config's labels are not an object`, {
        status: configRes.status,
      });
    }
    const labels: Record<string, string> = {};
    for (const [k, v] of Object.entries(raw as Record<string, unknown>)) if (typeof v === 'string') labels[k] = v;
    return { release: labels[RELEASE_VERSION_LABEL], labels, configDigest };
  }

  /** Closes the connection pools. */
  async close(): Promise<void> {
    await this.#http.close();
  }

  /** GET following redirects (blob storage often answers 307 to a CDN), as Go's client does. */
  async #get(url: string, accept: string, signal: AbortSignal | undefined): Promise<HttpResult> {
    let target = url;
    for (let hop = 0; ; hop++) {
      const res = await this.#http.request({
        path: target,
        headers: { accept },
        acceptErrorStatus: true,
        ...(signal ? { signal } : {}),
      });
      const location = res.headers['location'];
      if ([301, 302, 303, 307, 308].includes(res.status) && typeof location === 'string' && hop < MAX_REDIRECTS) {
        target = new URL(location, target).toString();
        continue;
      }
      if (res.status >= 300) {
        throw new IntegrationError(
          API,
          'HttpStatus',
          `GET ${res.url}: HTTP ${res.status}: ${registryErrorText(res.text)}`,
          { status: res.status },
        );
      }
      return res;
    }
  }
}

/** The registry's error JSON (`{errors: [{code, message}]}`) as `CODE: message`, else an excerpt. */
function registryErrorText(text: string): string {
  try {
    const body = JSON.parse(text) as { errors?: Array<{ code?: unknown; message?: unknown }> };
    const first = body.errors?.[0];
    if (first && typeof first.code === 'string')
      return `${first.code}: ${typeof first.message === 'string' ? first.message : ''}`;
  } catch {
    // not JSON: fall through
  }
  return bodyExcerpt(text);
}
