/**
 * The simulated OCM's REST API without a socket: routing, bearer/AccessToken authentication,
 * `search` filters, paging, validation, and OCM's JSON bodies and error bodies. Served by
 * `ocm-server.ts` (which adds faults); the OCM agent's routes map onto it too.
 */
import type { JsonObject, JsonValue } from '../../lib/json.js';
import { isJsonObject } from '../../lib/json.js';
import {
  CLUSTERS_MGMT,
  clusterJson,
  errorJson,
  isPolicyStateValue,
  listJson,
  logEntryJson,
  policyJson,
  SERVICE_LOGS,
  stateJson,
  type OcmCluster,
  type OcmLogEntry,
  type OcmUpgradePolicy,
} from './ocm-model.js';
import type { LogInput, OcmState, PolicyPatch } from './ocm-state.js';
import { compileGoRegexp } from '../../lib/go-regexp.js';

/** Which credentials the API accepts. */
export interface OcmAuthOptions {
  /** Tokens with full access (as `Bearer <t>` or `AccessToken <external id>:<t>`). */
  tokens: readonly string[];
  /** Tokens that may read but get 403 on POST, PATCH and DELETE. */
  readOnlyTokens?: readonly string[];
}

/** One request. `target` is the path with its query string. */
export interface OcmRequest {
  method: string;
  target: string;
  authorization?: string;
  body?: string;
}

/** One answer: status, JSON body (none for 204), headers. */
export interface OcmResponse {
  status: number;
  body?: JsonValue;
  headers: Record<string, string>;
}

/** An error answer before it gets its body. */
class HttpError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

const DEFAULT_PAGE_SIZE = 100;

/** The request handling of the simulated OCM. */
export class OcmApi {
  readonly #state: OcmState;
  readonly #auth: OcmAuthOptions | undefined;

  /** Without `auth` every request is accepted. */
  constructor(state: OcmState, auth?: OcmAuthOptions) {
    this.#state = state;
    this.#auth = auth;
  }

  /** Answers one request as OCM would. `skipAuth` is for the in-cluster OCM agent, which checks nothing. */
  handle(req: OcmRequest, options: { skipAuth?: boolean } = {}): OcmResponse {
    const url = new URL(req.target, 'http://ocm');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const operationId = this.#state.randomString(27);
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-operation-id': operationId };
    try {
      const method = req.method.toUpperCase();
      if (!options.skipAuth) this.#authenticate(req.authorization, path, method, headers);
      const out = this.#route(method, path, url.searchParams, req.body ?? '');
      return out.body === undefined
        ? { status: out.status, headers: { 'x-operation-id': operationId } }
        : { status: out.status, body: out.body, headers };
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      return { status: err.status, body: errorJson(path, err.status, err.message, operationId), headers };
    }
  }

  #authenticate(header: string | undefined, path: string, method: string, headers: Record<string, string>): void {
    if (!this.#auth) return;
    const deny = (reason: string): never => {
      const api = /^\/api\/([a-z_]+)\/(v\d+)/.exec(path);
      headers['www-authenticate'] = `Bearer realm="${api ? `${api[1]!}/${api[2]!}` : ''}"`;
      throw new HttpError(401, reason);
    };
    if (header === undefined || header === '')
      deny("Request doesn't contain the 'Authorization' header or the 'cs_jwt' cookie");
    const m = /^([A-Za-z]+)\s+(.+)$/.exec(header!.trim());
    if (!m) return deny(`Authorization header '${header!}' is malformed`);
    const scheme = m[1]!;
    let token = m[2]!;
    if (scheme.toLowerCase() === 'accesstoken') {
      const colon = token.indexOf(':');
      const clusterId = colon < 0 ? '' : token.slice(0, colon);
      token = token.slice(colon + 1);
      if (!this.#state.clusterByExternalId(clusterId)) deny(`Access token for cluster '${clusterId}' isn't valid`);
    } else if (scheme.toLowerCase() !== 'bearer') {
      deny(`Authentication type '${scheme}' isn't supported`);
    }
    const full = this.#auth.tokens.includes(token);
    const readOnly = this.#auth.readOnlyTokens?.includes(token) ?? false;
    if (!full && !readOnly) {
      deny(
        scheme.toLowerCase() === 'bearer' && token.split('.').length !== 3
          ? 'Bearer token is malformed'
          : scheme.toLowerCase() === 'bearer'
            ? "Signature of bearer token isn't valid"
            : 'Access token is invalid',
      );
    }
    if (!full && method !== 'GET' && method !== 'HEAD')
      throw new HttpError(403, `Access to '${method} ${path}' is forbidden`);
  }

  #route(method: string, path: string, query: URLSearchParams, body: string): { status: number; body?: JsonValue } {
    const allow = (...methods: string[]): void => {
      if (!methods.includes(method)) throw new HttpError(405, `Method '${method}' isn't supported for path '${path}'`);
    };
    if (path === `${CLUSTERS_MGMT}/clusters`) {
      allow('GET');
      const all = this.#state.clusters();
      const matched = filterBySearch(all, query.get('search'), clusterField);
      return { status: 200, body: page('ClusterList', query, matched.map(clusterJson)) };
    }
    const cm = new RegExp(`^${CLUSTERS_MGMT}/clusters/([^/]+)(?:/upgrade_policies(?:/([^/]+)(/state)?)?)?$`).exec(path);
    if (cm) {
      const cluster = this.#cluster(decodeURIComponent(cm[1]!));
      const isPolicies = path.includes('/upgrade_policies');
      if (!isPolicies) {
        allow('GET');
        return { status: 200, body: clusterJson(cluster) };
      }
      if (cm[2] === undefined) {
        allow('GET', 'POST');
        if (method === 'POST') return { status: 201, body: policyJson(this.#createPolicy(cluster, parseBody(body))) };
        const matched = filterBySearch(this.#state.policies(cluster.id), query.get('search'), policyField);
        return { status: 200, body: page('UpgradePolicyList', query, matched.map(policyJson)) };
      }
      const policy = this.#policy(cluster, decodeURIComponent(cm[2]));
      if (cm[3] === undefined) {
        allow('GET', 'PATCH', 'DELETE');
        if (method === 'DELETE') {
          this.#state.deletePolicy(cluster.id, policy.id);
          return { status: 204 };
        }
        if (method === 'PATCH')
          return {
            status: 200,
            body: policyJson(this.#state.updatePolicy(cluster.id, policy.id, policyPatch(parseBody(body)))),
          };
        return { status: 200, body: policyJson(policy) };
      }
      allow('GET', 'PATCH');
      if (method === 'GET') return { status: 200, body: stateJson(policy) };
      const patch = parseBody(body);
      const value = patch['value'] ?? policy.state.value;
      if (!isPolicyStateValue(value))
        throw new HttpError(
          400,
          `Upgrade policy state value '${typeof value === 'string' ? value : JSON.stringify(value)}' is not valid`,
        );
      const description = patch['description'] ?? policy.state.description;
      if (typeof description !== 'string') throw new HttpError(400, "Attribute 'description' must be a string");
      return {
        status: 200,
        body: stateJson(this.#state.setPolicyState(cluster.id, policy.id, value, description, 'api')),
      };
    }
    if (path === `${SERVICE_LOGS}/cluster_logs`) {
      allow('GET', 'POST');
      if (method === 'POST') return { status: 201, body: logEntryJson(this.#state.addLog(logInput(parseBody(body)))) };
      return { status: 200, body: this.#logList(query, this.#state.serviceLogs()) };
    }
    const one = new RegExp(`^${SERVICE_LOGS}/cluster_logs/([^/]+)$`).exec(path);
    if (one) {
      allow('GET');
      const e = this.#state.serviceLogs().find((x) => x.id === decodeURIComponent(one[1]!));
      if (!e) throw new HttpError(404, `Cluster log '${decodeURIComponent(one[1]!)}' not found`);
      return { status: 200, body: logEntryJson(e) };
    }
    const byCluster = new RegExp(`^${SERVICE_LOGS}/clusters/([^/]+)/cluster_logs$`).exec(path);
    if (byCluster) {
      allow('GET');
      return { status: 200, body: this.#logList(query, this.#state.serviceLogs(decodeURIComponent(byCluster[1]!))) };
    }
    throw new HttpError(404, `Can't find resource for path '${path}'`);
  }

  #cluster(id: string): OcmCluster {
    const c = this.#state.cluster(id);
    if (!c) throw new HttpError(404, `Cluster '${id}' not found`);
    return c;
  }

  #policy(cluster: OcmCluster, id: string): OcmUpgradePolicy {
    const p = this.#state.policy(cluster.id, id);
    if (!p) throw new HttpError(404, `Upgrade policy with id '${id}' for cluster '${cluster.id}' not found`);
    return p;
  }

  #createPolicy(cluster: OcmCluster, value: JsonObject): OcmUpgradePolicy {
    const version = value['version'];
    if (typeof version !== 'string' || version === '') throw new HttpError(400, "Attribute 'version' is mandatory");
    const scheduleType = optString(value, 'schedule_type') ?? 'manual';
    // The simulator does not derive next_run from an automatic policy's cron schedule: it must be given.
    if (value['next_run'] === undefined) throw new HttpError(400, "Attribute 'next_run' is mandatory");
    const nextRun = parseTime(value['next_run'], 'next_run');
    const schedule = optString(value, 'schedule');
    if (scheduleType === 'automatic' && schedule === undefined)
      throw new HttpError(400, "Attribute 'schedule' is mandatory for automatic upgrades");
    const input: Parameters<OcmState['addPolicy']>[1] = {
      version,
      nextRun,
      scheduleType,
      upgradeType: optString(value, 'upgrade_type') ?? 'OSD',
    };
    if (schedule !== undefined) input.schedule = schedule;
    const minor = value['enable_minor_version_upgrades'];
    if (typeof minor === 'boolean') input.enableMinorVersionUpgrades = minor;
    return this.#state.addPolicy(cluster.id, input, 'api');
  }

  #logList(query: URLSearchParams, logs: OcmLogEntry[]): JsonObject {
    const matched = filterBySearch(logs, query.get('search'), logField);
    // The service lists newest first.
    return page('ClusterLogList', query, matched.reverse().map(logEntryJson));
  }
}

function parseBody(text: string): JsonObject {
  let v: unknown;
  try {
    v = JSON.parse(text === '' ? '{}' : text);
  } catch (err) {
    throw new HttpError(400, `Can't parse request body: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!isJsonObject(v)) throw new HttpError(400, "Can't parse request body: expected a JSON object");
  return v;
}

function optString(value: JsonObject, key: string): string | undefined {
  const v = value[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new HttpError(400, `Attribute '${key}' must be a string`);
  return v;
}

function parseTime(value: JsonValue | undefined, key: string): number {
  const ms = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) throw new HttpError(400, `Attribute '${key}' must be a date and time in RFC 3339 format`);
  return ms;
}

function policyPatch(value: JsonObject): PolicyPatch {
  const patch: PolicyPatch = {};
  if (value['next_run'] !== undefined) patch.nextRun = parseTime(value['next_run'], 'next_run');
  const version = optString(value, 'version');
  if (version !== undefined) patch.version = version;
  const schedule = optString(value, 'schedule');
  if (schedule !== undefined) patch.schedule = schedule;
  const minor = value['enable_minor_version_upgrades'];
  if (typeof minor === 'boolean') patch.enableMinorVersionUpgrades = minor;
  return patch;
}

function logInput(value: JsonObject): LogInput {
  const summary = optString(value, 'summary');
  if (summary === undefined || summary === '') throw new HttpError(400, "Attribute 'summary' is mandatory");
  const serviceName = optString(value, 'service_name');
  if (serviceName === undefined || serviceName === '')
    throw new HttpError(400, "Attribute 'service_name' is mandatory");
  const input: LogInput = { summary, serviceName };
  const set = <K extends keyof LogInput>(key: K, field: string): void => {
    const v = optString(value, field);
    if (v !== undefined) (input as Record<K, unknown>)[key] = v;
  };
  set('clusterId', 'cluster_id');
  set('clusterUuid', 'cluster_uuid');
  set('subscriptionId', 'subscription_id');
  set('severity', 'severity');
  set('logType', 'log_type');
  set('description', 'description');
  set('username', 'username');
  if (input.clusterId === undefined && input.clusterUuid === undefined && input.subscriptionId === undefined) {
    throw new HttpError(400, "One of 'cluster_uuid', 'cluster_id' or 'subscription_id' is mandatory");
  }
  const internal = value['internal_only'];
  if (internal !== undefined && internal !== null) {
    if (typeof internal !== 'boolean') throw new HttpError(400, "Attribute 'internal_only' must be a boolean");
    input.internalOnly = internal;
  }
  const refs = value['doc_references'];
  if (refs !== undefined && refs !== null) {
    if (!Array.isArray(refs) || !refs.every((r) => typeof r === 'string'))
      throw new HttpError(400, "Attribute 'doc_references' must be a list of strings");
    input.docReferences = refs;
  }
  return input;
}

/** `page` (1-based, default 1) and `size` (default 100) over the matched items. */
function page(kind: string, query: URLSearchParams, items: JsonValue[]): JsonObject {
  const int = (name: string, fallback: number): number => {
    const raw = query.get(name);
    if (raw === null || raw === '') return fallback;
    if (!/^-?\d+$/.test(raw.trim()))
      throw new HttpError(400, `Value '${raw}' of parameter '${name}' isn't a valid integer`);
    return Number(raw);
  };
  const p = Math.max(1, int('page', 1));
  const size = int('size', DEFAULT_PAGE_SIZE);
  const slice = size < 0 ? items : items.slice((p - 1) * size, p * size);
  return listJson(kind, p, slice, items.length);
}

type FieldGetter<T> = (item: T, field: string) => string | undefined | null;

function clusterField(ocmCluster: OcmCluster, field: string): string | undefined | null {
  const fields: Record<string, string> = {
    id: ocmCluster.id,
    external_id: ocmCluster.externalId,
    name: ocmCluster.name,
    state: ocmCluster.state,
    'version.raw_id': ocmCluster.version,
    'version.channel_group': ocmCluster.channelGroup,
    'product.id': ocmCluster.product,
  };
  return field in fields ? fields[field] : null;
}

function policyField(ocmUpgradePolicy: OcmUpgradePolicy, field: string): string | undefined | null {
  const fields: Record<string, string> = {
    id: ocmUpgradePolicy.id,
    version: ocmUpgradePolicy.version,
    schedule_type: ocmUpgradePolicy.scheduleType,
    upgrade_type: ocmUpgradePolicy.upgradeType,
    cluster_id: ocmUpgradePolicy.clusterId,
  };
  return field in fields ? fields[field] : null;
}

function logField(ocmLogEntry: OcmLogEntry, field: string): string | undefined | null {
  const fields: Record<string, string | undefined> = {
    id: ocmLogEntry.id,
    cluster_id: ocmLogEntry.clusterId,
    cluster_uuid: ocmLogEntry.clusterUuid,
    severity: ocmLogEntry.severity,
    service_name: ocmLogEntry.serviceName,
    log_type: ocmLogEntry.logType,
    summary: ocmLogEntry.summary,
  };
  return field in fields ? fields[field] : null;
}

/**
 * OCM's `search` parameter, the subset clients use: `field = 'value'` clauses (also `!=` and
 * `like` with `%` wildcards) joined by `and`. Hand-written: OCM's search language (a SQL
 * `WHERE` subset) has no JavaScript implementation.
 */
export function filterBySearch<T>(items: readonly T[], search: string | null, get: FieldGetter<T>): T[] {
  if (search === null || search.trim() === '') return [...items];
  const clauses = search.split(/\s+and\s+/i).map((clause) => {
    const m = /^\s*([a-z_.]+)\s*(=|!=|<>|\blike\b|\bilike\b)\s*'((?:[^']|'')*)'\s*$/i.exec(clause);
    if (!m) throw new HttpError(400, `Can't parse search query '${search}'`);
    return { field: m[1]!, op: m[2]!.toLowerCase(), value: m[3]!.replaceAll("''", "'") };
  });
  const probe = items[0];
  for (const c of clauses)
    if (probe !== undefined && get(probe, c.field) === null)
      throw new HttpError(400, `Field '${c.field}' isn't supported in search`);
  return items.filter((item) =>
    clauses.every(({ field, op, value }) => {
      const v = get(item, field) ?? '';
      if (op === '=') return v === value;
      if (op === '!=' || op === '<>') return v !== value;
      // SQL's `like` as a linear-time pattern: `%` is any text, the rest literal.
      const pattern = `(?s${op === 'ilike' ? 'i' : ''})^${value.split('%').map(escapeRegExp).join('.*')}$`;
      const re = compileGoRegexp(pattern);
      return re.ok && re.regexp.test(v);
    }),
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
