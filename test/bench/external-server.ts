/**
 * The external API server of the side-by-side (BENCH_KUBECONFIG): read its kubeconfig with the
 * operator's own loader (src/kube/kubeconfig.ts, current context), check that it answers and
 * that the credentials may write, create the run's own namespace, and delete it at the end.
 * Every failure becomes one line that says what went wrong.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../src/lib/clock.js';
import { loadRestConfig } from '../../src/kube/kubeconfig.js';
import { openPool, sendJson, targetFromRestConfig, type HttpTarget, type TargetResponse } from './target.js';

export interface ExternalServer {
  /** The kubeconfig's path as given. */
  kubeconfig: string;
  target: HttpTarget;
  /** The namespace the run created for its objects. */
  namespace: string;
  /** gitVersion from /version (or "unknown"). */
  version: string;
}

/** `~/…` against the home folder (npm scripts run by a shell that did not expand it, say). */
export function expandHome(path: string, home = homedir()): string {
  return path === '~' ? home : path.startsWith('~/') ? join(home, path.slice(2)) : path;
}

/** One line for a failed request: the status, what it means for the benchmark, and the server's message. */
export function describeRefusal(what: string, res: TargetResponse): string {
  let message = res.text.trim().slice(0, 200);
  try {
    const status = JSON.parse(res.text) as { message?: unknown };
    if (typeof status.message === 'string') message = status.message;
  } catch {
    // Not a Status: the body itself says it.
  }
  const meaning =
    res.statusCode === 401
      ? "the server rejected the kubeconfig's credentials (401 Unauthorized)"
      : res.statusCode === 403
        ? 'the credentials may not do it (403 Forbidden); the benchmarks need to create and delete a namespace and the ConfigMaps in it'
        : `HTTP ${res.statusCode}`;
  return `${what}: ${meaning}${message === '' ? '' : `: ${message.replace(/\s+/g, ' ')}`}`;
}

/** One line for an error thrown by a request (no connection, TLS, timeout). */
export function describeRequestError(server: string, err: unknown): string {
  const e = err as { message?: unknown; code?: unknown; cause?: { message?: unknown; code?: unknown } };
  const message = typeof e.cause?.message === 'string' ? e.cause.message : String(e.message ?? err);
  const code = typeof e.code === 'string' ? e.code : typeof e.cause?.code === 'string' ? e.cause.code : undefined;
  return `cannot reach ${server}: ${message}${code !== undefined && !message.includes(code) ? ` (${code})` : ''}`;
}

async function request(
  target: HttpTarget,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<TargetResponse> {
  const pool = openPool(target, { connections: 1, connectTimeout: 10_000, headersTimeout: 30_000 });
  try {
    return await sendJson(pool, target, method, path, body);
  } catch (err) {
    throw new Error(describeRequestError(target.url, err), { cause: err });
  } finally {
    await pool.close();
  }
}

/**
 * Reads the kubeconfig, asks the server its version, and creates the run's namespace
 * (`upgrade-operator-bench-<time>`). Throws an Error with a one-line message on any problem.
 */
export async function connectExternal(kubeconfig: string, clock: Clock): Promise<ExternalServer> {
  let target: HttpTarget;
  try {
    target = await targetFromRestConfig(loadRestConfig({ kubeconfig: expandHome(kubeconfig), clock }));
  } catch (err) {
    throw new Error(`kubeconfig ${kubeconfig}: ${(err as Error).message.split('\n')[0] ?? ''}`, { cause: err });
  }
  const version = await request(target, 'GET', '/version');
  if (version.statusCode !== 200) throw new Error(describeRefusal(`GET ${target.url}/version`, version));
  let gitVersion = 'unknown';
  try {
    const v = JSON.parse(version.text) as { gitVersion?: unknown };
    if (typeof v.gitVersion === 'string') gitVersion = v.gitVersion;
  } catch {
    throw new Error(`GET ${target.url}/version: not a Kubernetes API server (the answer is not JSON)`);
  }
  const namespace = `upgrade-operator-bench-${Math.floor(clock.now() / 1000).toString(36)}`;
  const created = await request(target, 'POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: namespace, labels: { 'app.kubernetes.io/created-by': 'upgrade-operator-bench' } },
  });
  if (created.statusCode !== 201) throw new Error(describeRefusal(`creating the namespace ${namespace}`, created));
  return { kubeconfig, target, namespace, version: gitVersion };
}

/** Deletes the run's namespace (the server removes its objects afterwards); resolves to a one-line problem, if any. */
export async function deleteExternalNamespace(ext: ExternalServer): Promise<string | undefined> {
  try {
    const res = await request(ext.target, 'DELETE', `/api/v1/namespaces/${ext.namespace}`);
    if (res.statusCode === 200 || res.statusCode === 202 || res.statusCode === 404) return undefined;
    return describeRefusal(`deleting the namespace ${ext.namespace}`, res);
  } catch (err) {
    return (err as Error).message;
  }
}
