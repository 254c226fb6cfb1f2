/**
 * The OCM objects the operator reads and writes (clusters_mgmt/v1 `Cluster`, `UpgradePolicy`,
 * `UpgradePolicyState`; service_logs/v1 `LogEntry`), typed, and their tolerant parsing from
 * OCM's snake_case JSON: a missing optional field is left out, a wrong shape where a required
 * field should be is a `BadResponse`. Also OCM's error body (`{kind: 'Error', id, code,
 * reason, operation_id}`) turned into a message.
 */
import { IntegrationError } from './integration-error.js';

/** The values of an upgrade policy state. */
export const OCM_POLICY_STATES = [
  'pending',
  'scheduled',
  'started',
  'delayed',
  'completed',
  'failed',
  'cancelled',
] as const;
/** One of {@link OCM_POLICY_STATES}. */
export type OcmPolicyStateValue = (typeof OCM_POLICY_STATES)[number];

/** What the operator needs of a cluster. */
export interface OcmCluster {
  /** OCM's internal id (the path segment of every cluster API). */
  id: string;
  /** The cluster's own id (`ClusterVersion.spec.clusterID`); empty when OCM did not send it. */
  externalId: string;
  /** The installed version, e.g. `4.14.10` (empty when unknown). */
  version: string;
  /** `stable`, `fast`, `candidate`, `eus`, … (empty when unset). */
  channelGroup: string;
  /** How long a node drain respects PodDisruptionBudgets, when set. */
  nodeDrainGracePeriod?: { value: number; unit: string };
}

/** One upgrade policy. */
export interface OcmUpgradePolicy {
  id: string;
  /** The target version (may be empty for an automatic policy not resolved yet). */
  version: string;
  /** `next_run` exactly as sent (RFC 3339); empty when absent. */
  nextRun: string;
  /** `manual` or `automatic`. */
  scheduleType: string;
  /** `OSD` for a cluster upgrade. */
  upgradeType: string;
  /** Sent by some OCM versions (not part of the typed SDK). */
  capacityReservation?: boolean;
}

/** The state of an upgrade policy. */
export interface OcmPolicyState {
  /** Lower-case as OCM sends it; unknown values are passed on. */
  value: string;
  description: string;
}

/** A service log to post (service_logs/v1 `LogEntry`). */
export interface OcmServiceLog {
  /** OCM's internal cluster id. */
  clusterId: string;
  severity: string;
  serviceName: string;
  logType: string;
  internalOnly: boolean;
  summary: string;
  description: string;
  docReferences?: string[];
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(json: Json, key: string): string {
  const v = json[key];
  return typeof v === 'string' ? v : '';
}

function bad(api: string, what: string): IntegrationError {
  return new IntegrationError(api, 'BadResponse', what);
}

/**
 * A cluster from a `Cluster` object (clusters_mgmt) or the OCM agent's `GET /` answer, whose
 * `version` may carry only the version id (`openshift-v4.14.10[-<group>]`).
 */
export function parseCluster(api: string, json: unknown): OcmCluster {
  if (!isObject(json) || str(json, 'id') === '') throw bad(api, 'the cluster has no id');
  const ver = isObject(json['version']) ? json['version'] : {};
  const channelGroup = str(ver, 'channel_group');
  let version = str(ver, 'raw_id') || str(json, 'openshift_version');
  if (version === '') {
    const id = /^openshift-v(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?)$/.exec(str(ver, 'id'))?.[1] ?? '';
    version = channelGroup !== '' && id.endsWith(`-${channelGroup}`) ? id.slice(0, -channelGroup.length - 1) : id;
  }
  const out: OcmCluster = { id: str(json, 'id'), externalId: str(json, 'external_id'), version, channelGroup };
  const grace = json['node_drain_grace_period'];
  if (isObject(grace) && typeof grace['value'] === 'number' && Number.isFinite(grace['value'])) {
    out.nodeDrainGracePeriod = { value: grace['value'], unit: str(grace, 'unit') };
  }
  return out;
}

/** An upgrade policy from its JSON. */
export function parsePolicy(api: string, value: unknown): OcmUpgradePolicy {
  if (!isObject(value) || str(value, 'id') === '') throw bad(api, 'an upgrade policy has no id');
  const out: OcmUpgradePolicy = {
    id: str(value, 'id'),
    version: str(value, 'version'),
    nextRun: str(value, 'next_run'),
    scheduleType: str(value, 'schedule_type'),
    upgradeType: str(value, 'upgrade_type'),
  };
  const cr = value['capacity_reservation'];
  if (typeof cr === 'boolean') out.capacityReservation = cr;
  return out;
}

/** An upgrade policy state from its JSON. */
export function parsePolicyState(api: string, json: unknown): OcmPolicyState {
  if (!isObject(json)) throw bad(api, 'the upgrade policy state is not an object');
  return { value: str(json, 'value').toLowerCase(), description: str(json, 'description') };
}

/** One page of a list: `{page, size, total, items}`. */
export function parseListPage(api: string, value: unknown): { items: unknown[]; total: number | undefined } {
  if (Array.isArray(value)) return { items: value, total: value.length };
  if (!isObject(value) || !('items' in value || 'total' in value || 'kind' in value))
    throw bad(api, 'the answer is not a list');
  const items = Array.isArray(value['items']) ? value['items'] : [];
  return { items, total: typeof value['total'] === 'number' ? value['total'] : undefined };
}

/** The JSON body of a service log. */
export function serviceLogJson(log: OcmServiceLog): Json {
  const out: Json = {
    cluster_id: log.clusterId,
    severity: log.severity,
    service_name: log.serviceName,
    log_type: log.logType,
    internal_only: log.internalOnly,
    summary: log.summary,
    description: log.description,
  };
  if (log.docReferences && log.docReferences.length > 0) out['doc_references'] = [...log.docReferences];
  return out;
}

/**
 * The message of an OCM error answer: `<code>: <reason> (operation <id>)` from OCM's error
 * body, or the start of any other body (the OCM agent answers plain text).
 */
export function ocmErrorDetail(text: string): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (isObject(body) && str(body, 'kind') === 'Error') {
    const code = str(body, 'code');
    const reason = str(body, 'reason');
    const op = str(body, 'operation_id');
    return `${code !== '' ? `${code}: ` : ''}${reason}${op !== '' ? ` (operation ${op})` : ''}`;
  }
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}
