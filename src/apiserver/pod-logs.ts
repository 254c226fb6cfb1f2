/**
 * The `pods/log` subresource (`GET /api/v1/namespaces/{ns}/pods/{name}/log`), as kube-apiserver
 * serves it from the kubelet, with the logs coming from sources registered per pod: there is no
 * kubelet here, so a pod has logs only when something (the simulated cluster, for the operator
 * it runs) registered a {@link PodLogSource} for it. A pod without one has empty logs.
 *
 * Parameters: `container` (required when the pod has more than one), `previous` (the container's
 * previous instance; 400 when there is none, as the kubelet answers), `tailLines`,
 * `sinceSeconds`, `sinceTime`, `limitBytes`, `timestamps`. `follow` is accepted and answers with
 * what there is now (the stream is not held open). The body is `text/plain`.
 */
import type { Pod } from 'kubernetes-types/core/v1.js';
import type { ResourceCall } from './api-context.js';
import { ApiError, apiErrors } from './status.js';

/** One line of a container's log, and when it was written (ms since the epoch). */
export interface PodLogLine {
  at: number;
  text: string;
}

/** Where a pod's container logs come from. */
export interface PodLogSource {
  /** The container's log lines (without newline), oldest first; `previous`: its previous instance's, undefined when none. */
  lines(container: string, previous: boolean): readonly PodLogLine[] | undefined;
}

/** The log sources of the server's pods, by namespace and name. */
export class PodLogs {
  readonly #sources = new Map<string, PodLogSource>();

  /** Serves the pod's logs from the source until the returned function is called. */
  register(namespace: string, pod: string, source: PodLogSource): () => void {
    const key = `${namespace}/${pod}`;
    this.#sources.set(key, source);
    return () => {
      if (this.#sources.get(key) === source) this.#sources.delete(key);
    };
  }

  source(namespace: string, pod: string): PodLogSource | undefined {
    return this.#sources.get(`${namespace}/${pod}`);
  }
}

function badRequest(message: string): ApiError {
  return new ApiError(400, 'BadRequest', message);
}

function nonNegativeInt(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  const n = Number(raw);
  if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(n)) throw badRequest(`invalid ${name}: ${JSON.stringify(raw)}`);
  if (n < 0 && name !== 'tailLines') throw badRequest(`${name}: Invalid value: ${n}: must be greater than 0`);
  return n;
}

function bool(query: URLSearchParams, name: string): boolean {
  const raw = query.get(name);
  return raw === 'true' || raw === '1';
}

/** GET pods/{name}/log. */
export function handlePodLog(call: ResourceCall, logs: PodLogs, pod: Pod): void {
  const { query } = call;
  const name = pod.metadata?.name ?? '';
  const namespace = pod.metadata?.namespace ?? '';
  const containers = (pod.spec?.containers ?? []).map((c) => c.name);
  let container = query.get('container') ?? '';
  if (container === '') {
    if (containers.length !== 1)
      throw badRequest(`a container name must be specified for pod ${name}, choose one of: [${containers.join(' ')}]`);
    container = containers[0]!;
  } else if (!containers.includes(container) && !(pod.spec?.initContainers ?? []).some((c) => c.name === container))
    throw badRequest(`container ${container} is not valid for pod ${name}`);
  const previous = bool(query, 'previous');
  const tailLines = nonNegativeInt(query, 'tailLines');
  const sinceSeconds = nonNegativeInt(query, 'sinceSeconds');
  const limitBytes = nonNegativeInt(query, 'limitBytes');
  const sinceTimeRaw = query.get('sinceTime');
  if (sinceSeconds !== undefined && sinceTimeRaw !== null)
    throw badRequest('at most one of sinceTime or sinceSeconds may be specified');
  if (sinceSeconds === 0) throw badRequest('sinceSeconds: Invalid value: 0: must be greater than 0');
  const sinceTime = sinceTimeRaw === null ? undefined : Date.parse(sinceTimeRaw);
  if (sinceTime !== undefined && Number.isNaN(sinceTime)) throw badRequest(`invalid sinceTime: ${sinceTimeRaw}`);
  const source = logs.source(namespace, name);
  const lines = source ? source.lines(container, previous) : previous ? undefined : [];
  if (lines === undefined) {
    if (previous) throw badRequest(`previous terminated container "${container}" in pod "${name}" not found`);
    throw apiErrors.notFound({ group: '', resource: 'pods' }, name);
  }
  const since = sinceSeconds !== undefined ? call.ctx.clock.now() - sinceSeconds * 1000 : sinceTime;
  let selected = since === undefined ? lines : lines.filter((l) => l.at >= since);
  if (tailLines !== undefined && tailLines >= 0) selected = tailLines === 0 ? [] : selected.slice(-tailLines);
  const timestamps = bool(query, 'timestamps');
  let body = selected.map((l) => `${timestamps ? `${new Date(l.at).toISOString()} ` : ''}${l.text}\n`).join('');
  if (limitBytes !== undefined) body = Buffer.from(body, 'utf8').subarray(0, limitBytes).toString('utf8');
  call.res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': Buffer.byteLength(body) });
  call.res.end(body);
}
