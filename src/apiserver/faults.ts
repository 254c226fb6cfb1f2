/**
 * Fault injection in the embedded API server (docs/simulation.md#faults: API errors at a rate
 * (409, 500, timeouts), watch disconnects, and outages such as a single-node cluster's). Clients
 * are chosen by their User-Agent; by default every client except the simulated cluster's own
 * controllers (program `simulated-cluster`), which stand for the cluster's components and are not
 * under test.
 *
 * The decision is pure ({@link decideApiFault}: request + state + seeded draws → what to do);
 * {@link ApiFaultInjector} holds the state, applies decisions before routing and ends watches.
 * What a client sees, per fault:
 * - `conflict` (PUT/PATCH only): 409 Conflict, apimachinery's stale-object message.
 * - `internal`: 500 InternalError `Internal error occurred: etcdserver: request timed out`.
 * - `unavailable`: 503 ServiceUnavailable `apiserver is shutting down` (the body the real
 *   server's wait-group filter writes while it shuts down).
 * - `throttled`: 429 with the plain-text body priority-and-fairness (and the older max-in-flight
 *   filter) write: kube-apiserver sends no Status here, so neither do we.
 * - Both carry `Retry-After: 1`, as kube-apiserver's do. A client that retries a read inside a
 *   reconcile sleeps that second on the clock with the reconcile's signal, which suspends the
 *   reconcile's work-queue unit (src/lib/activity.ts), so event-driven virtual time moves on.
 * - `timeout` (not on watches, which are long-running and exempt from the deadline): 504
 *   Timeout `Timeout: request did not complete within requested timeout - context deadline
 *   exceeded`. kube-apiserver answers after its 60 s deadline; here the answer comes at once,
 *   because a held request is work in flight for the client and would freeze event-driven
 *   virtual time (src/sim/virtual-clock.ts). The client sees the same answer, minus the wait.
 * - outage: the connection is closed without an answer (the client gets a network error, as
 *   when nothing listens) and open watches of the chosen clients are cut. The real refusal
 *   happens before any byte is read; choosing by User-Agent needs the request's head, so the
 *   socket is dropped just after it.
 * - watch disconnects: each chosen watch is cut (socket closed) after a drawn time around the
 *   interval, as when a load balancer drops it or the API server restarts; a resumed watch
 *   (resourceVersion set) is, at `watchGoneRate`, answered with the cacher's 410 Expired ERROR
 *   event so the informer re-lists.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock, Timer } from '../lib/clock.js';
import type { Logger } from '../lib/log.js';
import type { Random } from '../lib/random.js';
import { ApiError, apiErrors } from './status.js';
import { groupVersionPath } from './request-info.js';
import { compileGoRegexp, type GoRegexp } from '../lib/go-regexp.js';

/** The errors a fault can answer with. */
export const API_ERROR_KINDS = ['conflict', 'internal', 'unavailable', 'throttled', 'timeout'] as const;
export type ApiErrorKind = (typeof API_ERROR_KINDS)[number];

/** What is injected, and for whom. */
export interface ApiFaultSettings {
  /** Share of the chosen clients' resource requests that fail, 0–1 (default 0). */
  errorRate?: number;
  /** Which errors, drawn evenly among those that fit the request (default all). */
  errors?: readonly ApiErrorKind[];
  /** Mean virtual ms an open watch of a chosen client lasts before it is cut (unset: never). */
  watchDisconnectIntervalMs?: number;
  /** Share of resumed watches answered 410 Expired, 0–1 (default 0). */
  watchGoneRate?: number;
  /** Regular expression on the User-Agent choosing the clients hit (default: all but `simulated-cluster/…`). */
  clients?: string;
}

/** Everything a decision depends on besides the request. */
export interface ApiFaultState {
  settings: ApiFaultSettings;
  /** The API server is down for the chosen clients. */
  outage: boolean;
  /** The store's current resourceVersion (for the 410 message). */
  currentResourceVersion: string;
}

/** The parts of a request a decision reads. */
export interface FaultRequest {
  method: string;
  /** Path and query, as in the request line. */
  url: string;
  userAgent: string | undefined;
}

/** An answer written instead of routing the request. */
export interface FaultResponse {
  code: number;
  headers: Record<string, string>;
  body: string;
}

export type FaultDecision =
  | { kind: 'none'; /** Cut this watch after so many virtual ms. */ disconnectAfterMs?: number }
  | { kind: 'error'; error: ApiErrorKind; response: FaultResponse }
  | { kind: 'gone'; response: FaultResponse }
  | { kind: 'refused' };

/** The default choice of clients: everyone but the simulated cluster's own controllers. */
export function defaultClientSelected(userAgent: string | undefined): boolean {
  return !(userAgent ?? '').startsWith('simulated-cluster/');
}

/** Compiled `clients` expressions (a scenario has one or two; bounded all the same). */
const compiled = new Map<string, GoRegexp>();
const COMPILED_MAX = 64;

/** The `clients` expression (Go syntax, unanchored); throws Go's error for a bad one. */
function clientsRegexp(source: string): GoRegexp {
  const regexp = compileGoRegexp(source);
  if (!regexp.ok) throw new Error(`clients: ${regexp.error}`);
  return regexp.regexp;
}

/** True when the settings' `clients` expression (or the default) chooses this User-Agent. */
export function clientSelected(settings: ApiFaultSettings, userAgent: string | undefined): boolean {
  if (settings.clients === undefined) return defaultClientSelected(userAgent);
  let re = compiled.get(settings.clients);
  if (!re) {
    re = clientsRegexp(settings.clients);
    if (compiled.size >= COMPILED_MAX) compiled.clear();
    compiled.set(settings.clients, re);
  }
  return re.test(userAgent ?? '');
}

/** What a resource URL addresses, as far as the fault decision needs it (pure, no store). */
export interface ResourceRequest {
  group: string;
  resource: string;
  name: string | undefined;
  watch: boolean;
  resourceVersion: string | undefined;
}

/** Parses `/api/v1/…` and `/apis/<group>/<version>/…`; undefined for discovery, health and other paths. */
export function resourceRequest(url: string): ResourceRequest | undefined {
  const [path = '', query = ''] = url.split('?', 2);
  const gv = groupVersionPath(path);
  if (!gv || gv.rest.length === 0) return undefined;
  const { group, rest } = gv;
  const q = new URLSearchParams(query);
  const watch = q.get('watch') === 'true' || q.get('watch') === '1';
  const resourceVersion = q.get('resourceVersion') ?? undefined;
  // namespaces/<ns>/<plural>[/<name>[/<sub>]], except the Namespace's own subresources.
  const namespaced =
    rest[0] === 'namespaces' &&
    rest.length >= 3 &&
    !(rest.length === 3 && (rest[2] === 'status' || rest[2] === 'finalize'));
  const [resource, name] = namespaced ? [rest[2]!, rest[3]] : [rest[0]!, rest[1]];
  return { group, resource, name, watch, resourceVersion };
}

/** Retry-After of 429 and 503, kube-apiserver's. */
const RETRY_AFTER = '1';

function statusResponse(err: ApiError, headers: Record<string, string> = {}): FaultResponse {
  return {
    code: err.code,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', ...headers },
    body: JSON.stringify(err.toStatus()),
  };
}

/** The answer kube-apiserver gives for each error (see the module comment). */
export function faultResponse(kind: ApiErrorKind, resourceRequest: ResourceRequest): FaultResponse {
  switch (kind) {
    case 'conflict':
      return statusResponse(
        apiErrors.staleConflict(
          { group: resourceRequest.group, resource: resourceRequest.resource },
          resourceRequest.name ?? '',
        ),
      );
    case 'internal':
      return statusResponse(apiErrors.internal('etcdserver: request timed out'));
    case 'unavailable':
      return statusResponse(new ApiError(503, 'ServiceUnavailable', 'apiserver is shutting down'), {
        'Retry-After': RETRY_AFTER,
      });
    case 'throttled':
      return {
        code: 429,
        headers: {
          'Content-Type': 'text/plain; charset=utf-8',
          'X-Content-Type-Options': 'nosniff',
          'Retry-After': RETRY_AFTER,
        },
        body: 'Too many requests, please try again later.\n',
      };
    case 'timeout':
      return statusResponse(
        new ApiError(
          504,
          'Timeout',
          'Timeout: request did not complete within requested timeout - context deadline exceeded',
          {},
        ),
      );
  }
}

/** The errors that fit a request: a conflict needs a named update, a timeout a short request. */
export function applicableErrors(
  kinds: readonly ApiErrorKind[],
  method: string,
  resourceRequest: ResourceRequest,
): ApiErrorKind[] {
  return kinds.filter((key) => {
    if (key === 'conflict') return (method === 'PUT' || method === 'PATCH') && resourceRequest.name !== undefined;
    if (key === 'timeout') return !resourceRequest.watch;
    return true;
  });
}

/**
 * What to do with one request (pure). `draw` gives seeded numbers in [0, 1); it is called in a
 * fixed order (gone, error, which error, disconnect time), and only for chosen resource requests.
 */
export function decideApiFault(req: FaultRequest, state: ApiFaultState, draw: () => number): FaultDecision {
  const s = state.settings;
  if (!clientSelected(s, req.userAgent)) return { kind: 'none' };
  if (state.outage) return { kind: 'refused' };
  const r = resourceRequest(req.url);
  if (!r) return { kind: 'none' };
  const resumes = r.watch && r.resourceVersion !== undefined && r.resourceVersion !== '' && r.resourceVersion !== '0';
  if (resumes && (s.watchGoneRate ?? 0) > 0 && draw() < (s.watchGoneRate ?? 0)) {
    const err = apiErrors.expired(`too old resource version: ${r.resourceVersion} (${state.currentResourceVersion})`);
    // As the cacher answers a watch it cannot start: HTTP 200, one ERROR event, the end.
    return {
      kind: 'gone',
      response: {
        code: 200,
        headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private' },
        body: `${JSON.stringify({ type: 'ERROR', object: err.toStatus() })}\n`,
      },
    };
  }
  const rate = s.errorRate ?? 0;
  if (rate > 0 && draw() < rate) {
    const kinds = applicableErrors(s.errors ?? API_ERROR_KINDS, req.method, r);
    if (kinds.length > 0) {
      const kind = kinds[Math.min(kinds.length - 1, Math.floor(draw() * kinds.length))]!;
      return { kind: 'error', error: kind, response: faultResponse(kind, r) };
    }
  }
  const interval = s.watchDisconnectIntervalMs ?? 0;
  if (r.watch && interval > 0) return { kind: 'none', disconnectAfterMs: Math.round(interval * (0.5 + draw())) };
  return { kind: 'none' };
}

/** How many faults were injected, by kind (reports and tests). */
export interface ApiFaultCounts {
  errors: Partial<Record<ApiErrorKind, number>>;
  refused: number;
  gone: number;
  disconnects: number;
}

interface OpenWatch {
  userAgent: string | undefined;
  res: ServerResponse;
  timer: Timer | undefined;
}

export interface ApiFaultInjectorOptions {
  clock: Clock;
  logger: Logger;
  currentResourceVersion: () => string;
}

/** Applies fault decisions to requests as they arrive; the API server's switch for faults and outages. */
export class ApiFaultInjector {
  readonly #o: ApiFaultInjectorOptions;
  #settings: ApiFaultSettings = {};
  #random: Random | undefined;
  #outage = false;
  readonly #watches = new Set<OpenWatch>();
  readonly #counts: ApiFaultCounts = { errors: {}, refused: 0, gone: 0, disconnects: 0 };

  constructor(options: ApiFaultInjectorOptions) {
    this.#o = options;
  }

  /** Replaces the settings (undefined: no errors, no disconnects). Throws on a bad `clients` expression. */
  configure(settings: ApiFaultSettings | undefined, random: Random): void {
    if (settings?.clients !== undefined) clientsRegexp(settings.clients);
    this.#settings = { ...(settings ?? {}) };
    this.#random = random;
    this.#o.logger.info({ settings: this.#settings }, 'API fault settings changed');
  }

  get settings(): Readonly<ApiFaultSettings> {
    return this.#settings;
  }

  get outage(): boolean {
    return this.#outage;
  }

  /** Starts or ends an outage for the chosen clients; starting one cuts their open watches. */
  setOutage(on: boolean): void {
    if (this.#outage === on) return;
    this.#outage = on;
    this.#o.logger.info({ outage: on }, on ? 'API outage begins' : 'API outage ends');
    if (!on) return;
    for (const w of [...this.#watches]) {
      if (clientSelected(this.#settings, w.userAgent)) this.#cut(w);
    }
  }

  counts(): ApiFaultCounts {
    return { ...this.#counts, errors: { ...this.#counts.errors } };
  }

  /** The hook before routing: true when the fault answered the request (do not route it). */
  intercept(req: IncomingMessage, res: ServerResponse): boolean {
    const url = req.url ?? '/';
    // Nothing to inject: only watches are noted (an outage may cut them later).
    if (!this.#active() && !url.includes('watch=')) return false;
    const request: FaultRequest = { method: req.method ?? 'GET', url, userAgent: req.headers['user-agent'] };
    const random = this.#random;
    const draw = (): number => random?.next() ?? 1;
    const d = decideApiFault(
      request,
      { settings: this.#settings, outage: this.#outage, currentResourceVersion: this.#o.currentResourceVersion() },
      draw,
    );
    switch (d.kind) {
      case 'none':
        if (resourceRequest(request.url)?.watch && clientSelected(this.#settings, request.userAgent))
          this.#track(request.userAgent, res, d.disconnectAfterMs);
        return false;
      case 'refused':
        this.#counts.refused++;
        req.socket.destroy();
        return true;
      case 'gone':
        this.#counts.gone++;
        this.#o.logger.debug({ url: request.url, userAgent: request.userAgent }, 'fault: watch resume answered 410');
        write(res, d.response);
        return true;
      case 'error':
        this.#counts.errors[d.error] = (this.#counts.errors[d.error] ?? 0) + 1;
        this.#o.logger.debug(
          { method: request.method, url: request.url, userAgent: request.userAgent, code: d.response.code },
          'fault: request answered with an error',
        );
        write(res, d.response);
        return true;
    }
  }

  #active(): boolean {
    const s = this.#settings;
    return (
      this.#outage || (s.errorRate ?? 0) > 0 || (s.watchGoneRate ?? 0) > 0 || (s.watchDisconnectIntervalMs ?? 0) > 0
    );
  }

  /** Cancels the disconnect timers (the server is closing). */
  close(): void {
    for (const w of this.#watches) w.timer?.cancel();
    this.#watches.clear();
  }

  #track(userAgent: string | undefined, res: ServerResponse, disconnectAfterMs: number | undefined): void {
    const w: OpenWatch = { userAgent, res, timer: undefined };
    if (disconnectAfterMs !== undefined) {
      w.timer = this.#o.clock.setTimer(disconnectAfterMs, () => {
        this.#counts.disconnects++;
        this.#cut(w);
      });
    }
    this.#watches.add(w);
    res.once('close', () => {
      w.timer?.cancel();
      this.#watches.delete(w);
    });
  }

  #cut(openWatch: OpenWatch): void {
    openWatch.timer?.cancel();
    this.#watches.delete(openWatch);
    // The socket goes: the client sees its stream break, as when a load balancer drops it.
    openWatch.res.destroy();
  }
}

function write(res: ServerResponse, faultResponse: FaultResponse): void {
  res.writeHead(faultResponse.code, {
    ...faultResponse.headers,
    'Content-Length': Buffer.byteLength(faultResponse.body),
  });
  res.end(faultResponse.body);
}
