/**
 * The API server a workload runs against, as plain data a child process can receive too: its
 * base URL, the TLS material of the connection and the headers every request carries (the
 * Authorization header). The embedded server is plain HTTP without credentials; an external
 * server comes from a kubeconfig (src/kube/kubeconfig.ts), read once when the run starts.
 */
import { Pool } from 'undici';
import type { RestConfig } from '../../src/kube/rest-config.js';

/** TLS options of the connections (undici hands them to tls.connect). */
export interface TargetTls {
  ca?: string;
  cert?: string;
  key?: string;
  servername?: string;
  rejectUnauthorized: boolean;
}

export interface HttpTarget {
  /** Base URL: http://127.0.0.1:port, https://host:6443 (a path prefix is kept). */
  url: string;
  tls?: TargetTls;
  /** Sent with every request. */
  headers: Record<string, string>;
}

/** The embedded server of the run: plain HTTP on loopback, no credentials. */
export function embeddedTarget(url: string): HttpTarget {
  return { url, headers: {} };
}

/**
 * The target a RestConfig describes: its server, CA or insecure-skip-tls-verify, client
 * certificate and key, and the Authorization header its credentials give now (a token, basic
 * auth, or the output of an exec plugin, asked once). A proxy-url is not supported: the
 * benchmarks measure a direct connection.
 */
export async function targetFromRestConfig(config: RestConfig): Promise<HttpTarget> {
  if (config.proxyUrl !== undefined) throw new Error('a cluster with a proxy-url is not supported by the benchmarks');
  const target: HttpTarget = { url: config.server, headers: {} };
  if (config.server.startsWith('https:')) {
    const tls: TargetTls = { rejectUnauthorized: !config.insecureSkipTLSVerify };
    if (config.ca !== undefined) tls.ca = config.ca;
    if (config.cert !== undefined) tls.cert = config.cert;
    if (config.key !== undefined) tls.key = config.key;
    if (config.servername !== undefined) tls.servername = config.servername;
    target.tls = tls;
  }
  const auth = await config.auth();
  if (auth !== undefined) target.headers.authorization = auth;
  return target;
}

/** The request path for `path` on the target (a server URL with a path prefix keeps it). */
export function targetPath(target: HttpTarget, path: string): string {
  const prefix = new URL(target.url).pathname.replace(/\/+$/, '');
  return `${prefix}${path}`;
}

/** A keep-alive connection pool to the target's origin. */
export function openPool(target: HttpTarget, options: Pool.Options = {}): Pool {
  return new Pool(new URL(target.url).origin, {
    keepAliveTimeout: 60_000,
    ...options,
    ...(target.tls ? { connect: { ...target.tls } } : {}),
  });
}

export interface TargetResponse {
  statusCode: number;
  text: string;
}

/** One request with a JSON body (or none), answered with JSON; the whole body is read. */
export async function sendJson(
  pool: Pool,
  target: HttpTarget,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<TargetResponse> {
  const res = await pool.request({
    path: targetPath(target, path),
    method,
    headers: {
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...target.headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { statusCode: res.statusCode, text: await res.body.text() };
}
