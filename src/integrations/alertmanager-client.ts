/**
 * {@link AlertmanagerApi} over HTTP (API v2): list, create and expire silences, as MUO's
 * maintenance windows do (docs/design/managed-flow.md#maintenance-windows,
 * docs/design/cluster-model.md#alertmanager-silences). Times are RFC 3339 on the wire and epoch
 * milliseconds in the interface.
 */
import type { AlertmanagerApi, GettableSilence, PostableSilence, SilenceMatcher } from './alertmanager-api.js';
import { HttpClient, bodyExcerpt, type HttpCall, type HttpTransportOptions } from './http/http-client.js';
import { IntegrationError } from './integration-error.js';

const API = 'alertmanager';

/** Options of an {@link AlertmanagerClient}. */
export interface AlertmanagerClientOptions extends HttpTransportOptions {
  /** Base URL, e.g. `https://alertmanager-main.openshift-monitoring.svc:9094`. Timeout default 30 s. */
  url: string;
}

/** Talks to one Alertmanager. */
export class AlertmanagerClient implements AlertmanagerApi {
  readonly #http: HttpClient;

  constructor(options: AlertmanagerClientOptions) {
    this.#http = new HttpClient({ ...options, api: API, baseUrl: options.url, timeoutMs: options.timeoutMs ?? 30_000 });
  }

  async listSilences(signal?: AbortSignal): Promise<GettableSilence[]> {
    const body = await this.#http.json(withSignal({ path: '/api/v2/silences' }, signal));
    if (!Array.isArray(body))
      throw new IntegrationError(API, 'BadResponse', 'GET /api/v2/silences: the answer is not a list');
    return body.map((s: unknown) => parseGettableSilence(s));
  }

  async createSilence(silence: PostableSilence, signal?: AbortSignal): Promise<string> {
    const body = await this.#http.json(
      withSignal({ method: 'POST', path: '/api/v2/silences', json: toWireSilence(silence) }, signal),
    );
    const id = (body as { silenceID?: unknown } | null)?.silenceID;
    if (typeof id !== 'string' || id === '') {
      throw new IntegrationError(
        API,
        'BadResponse',
        `POST /api/v2/silences: no silenceID in the answer: ${bodyExcerpt(JSON.stringify(body) ?? '')}`,
      );
    }
    return id;
  }

  async expireSilence(id: string, signal?: AbortSignal): Promise<void> {
    const res = await this.#http.request(
      withSignal(
        { method: 'DELETE', path: `/api/v2/silence/${encodeURIComponent(id)}`, acceptErrorStatus: true },
        signal,
      ),
    );
    if (res.status < 400) return;
    // Alertmanager answers 500 "silence <id> already expired" for an expired silence: that is
    // the outcome the caller wants, not a failure.
    if (res.status === 500 && /already expired/.test(res.text)) return;
    throw new IntegrationError(API, 'HttpStatus', `DELETE ${res.url}: HTTP ${res.status}: ${bodyExcerpt(res.text)}`, {
      status: res.status,
    });
  }

  /** Closes the connection pool. */
  async close(): Promise<void> {
    await this.#http.close();
  }
}

function withSignal(call: HttpCall, signal: AbortSignal | undefined): HttpCall {
  return signal ? { ...call, signal } : call;
}

/** Epoch ms as Alertmanager's RFC 3339 (UTC, millisecond precision). */
export function formatAmTime(ms: number): string {
  return new Date(ms).toISOString();
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2})$/;

/** RFC 3339 (any fraction length, any offset) to epoch ms (fraction truncated to ms); undefined if malformed. */
export function parseRfc3339(text: string): number | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac = '', zone = 'Z'] = m;
  const ms = Number(frac.padEnd(3, '0').slice(0, 3));
  let t = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms);
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    t -= sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6))) * 60_000;
  }
  return Number.isNaN(t) ? undefined : t;
}

/** The wire form of a silence to create or update. */
export function toWireSilence(postableSilence: PostableSilence): Record<string, unknown> {
  return {
    ...(postableSilence.id !== undefined ? { id: postableSilence.id } : {}),
    matchers: postableSilence.matchers.map((m) => ({
      name: m.name,
      value: m.value,
      isRegex: m.isRegex,
      ...(m.isEqual !== undefined ? { isEqual: m.isEqual } : {}),
    })),
    startsAt: formatAmTime(postableSilence.startsAt),
    endsAt: formatAmTime(postableSilence.endsAt),
    createdBy: postableSilence.createdBy,
    comment: postableSilence.comment,
  };
}

function badSilence(what: string): IntegrationError {
  return new IntegrationError(API, 'BadResponse', `GET /api/v2/silences: malformed silence: ${what}`);
}

function str(options: Record<string, unknown>, key: string): string {
  const v = options[key];
  if (typeof v !== 'string') throw badSilence(`${key} is not a string`);
  return v;
}

function time(options: Record<string, unknown>, key: string): number {
  const t = parseRfc3339(str(options, key));
  if (t === undefined) throw badSilence(`${key} is not an RFC 3339 time`);
  return t;
}

function parseMatcher(json: unknown): SilenceMatcher {
  if (typeof json !== 'object' || json === null) throw badSilence('matcher is not an object');
  const o = json as Record<string, unknown>;
  if (typeof o['isRegex'] !== 'boolean') throw badSilence('matcher isRegex is not a boolean');
  const matcher: SilenceMatcher = { name: str(o, 'name'), value: str(o, 'value'), isRegex: o['isRegex'] };
  if (typeof o['isEqual'] === 'boolean') matcher.isEqual = o['isEqual'];
  return matcher;
}

/** A silence as `GET /api/v2/silences` lists it; `BadResponse` when malformed. */
export function parseGettableSilence(value: unknown): GettableSilence {
  if (typeof value !== 'object' || value === null) throw badSilence('not an object');
  const o = value as Record<string, unknown>;
  const state = (o['status'] as { state?: unknown } | undefined)?.state;
  if (state !== 'active' && state !== 'pending' && state !== 'expired')
    throw badSilence(`unknown state ${JSON.stringify(state)}`);
  if (!Array.isArray(o['matchers'])) throw badSilence('matchers is not a list');
  return {
    id: str(o, 'id'),
    status: { state },
    updatedAt: time(o, 'updatedAt'),
    matchers: o['matchers'].map(parseMatcher),
    startsAt: time(o, 'startsAt'),
    endsAt: time(o, 'endsAt'),
    createdBy: str(o, 'createdBy'),
    comment: str(o, 'comment'),
  };
}
