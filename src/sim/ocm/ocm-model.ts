/**
 * The simulated OpenShift Cluster Manager's objects and their JSON, as `clusters_mgmt/v1` and
 * `service_logs/v1` serialise them (ocm-api-model): snake_case fields, `kind`/`id`/`href` on
 * every object, empty fields left out, list envelopes `{kind, page, size, total, items}`, and
 * errors `{kind: 'Error', id, href, code, reason, operation_id}`.
 */
import type { JsonObject, JsonValue } from '../../lib/json.js';

/** The values of an upgrade policy state (`UpgradePolicyStateValue`). */
export const POLICY_STATE_VALUES = ['pending', 'scheduled', 'started', 'delayed', 'failed', 'cancelled', 'completed'] as const;
export type PolicyStateValue = (typeof POLICY_STATE_VALUES)[number];

/** True for one of the seven state values. */
export function isPolicyStateValue(v: unknown): v is PolicyStateValue {
  return typeof v === 'string' && (POLICY_STATE_VALUES as readonly string[]).includes(v);
}

export const CLUSTERS_MGMT = '/api/clusters_mgmt/v1';
export const SERVICE_LOGS = '/api/service_logs/v1';

/** A cluster as OCM knows it. */
export interface OcmCluster {
  /** OCM's internal id. */
  id: string;
  /** The cluster's own id (`ClusterVersion.spec.clusterID`). */
  externalId: string;
  name: string;
  /** `4.14.10` */
  version: string;
  /** `stable`, `fast`, `candidate`, `eus`, `nightly`. */
  channelGroup: string;
  availableUpgrades: string[];
  nodeDrainGracePeriod: { value: number; unit: string };
  product: string;
  cloudProvider: string;
  region: string;
  state: string;
  /** ms */
  createdAt: number;
}

/** An upgrade policy and its state. */
export interface OcmUpgradePolicy {
  id: string;
  clusterId: string;
  /** `manual` (one upgrade) or `automatic` (recurring, `schedule` is a cron expression). */
  scheduleType: string;
  /** `OSD` for a cluster upgrade. */
  upgradeType: string;
  version: string;
  /** ms; OCM's `next_run`. */
  nextRun: number;
  prevRun: number | undefined;
  schedule: string | undefined;
  enableMinorVersionUpgrades: boolean | undefined;
  /** Not in the typed SDK; some OCM versions send it. */
  capacityReservation: boolean | undefined;
  architecture: string | undefined;
  state: { value: PolicyStateValue; description: string };
  /** ms */
  createdAt: number;
}

/** A service log entry (`service_logs/v1` LogEntry, kind `ClusterLog`). */
export interface OcmLogEntry {
  id: string;
  clusterId: string | undefined;
  clusterUuid: string | undefined;
  subscriptionId: string | undefined;
  severity: string;
  serviceName: string;
  logType: string | undefined;
  summary: string;
  description: string;
  docReferences: string[];
  internalOnly: boolean;
  eventStreamId: string;
  username: string | undefined;
  createdBy: string;
  /** ms */
  timestamp: number;
}

/** Go's time.Time in JSON (RFC 3339 with the fraction when there is one). */
export function ocmTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.000Z$/, 'Z');
}

/** OCM's version id: `openshift-v4.14.10`, with `-<group>` for a channel group other than stable. */
export function versionId(version: string, channelGroup: string): string {
  return channelGroup === 'stable' ? `openshift-v${version}` : `openshift-v${version}-${channelGroup}`;
}

/** The `Cluster` JSON. */
export function clusterJson(c: OcmCluster): JsonObject {
  const vid = versionId(c.version, c.channelGroup);
  const version: JsonObject = {
    kind: 'Version',
    id: vid,
    href: `${CLUSTERS_MGMT}/versions/${vid}`,
    raw_id: c.version,
    channel_group: c.channelGroup,
  };
  if (c.availableUpgrades.length > 0) version['available_upgrades'] = [...c.availableUpgrades];
  return {
    kind: 'Cluster',
    id: c.id,
    href: `${CLUSTERS_MGMT}/clusters/${c.id}`,
    name: c.name,
    external_id: c.externalId,
    display_name: c.name,
    creation_timestamp: ocmTime(c.createdAt),
    managed: true,
    product: { kind: 'ProductLink', id: c.product, href: `${CLUSTERS_MGMT}/products/${c.product}` },
    cloud_provider: { kind: 'CloudProviderLink', id: c.cloudProvider, href: `${CLUSTERS_MGMT}/cloud_providers/${c.cloudProvider}` },
    region: { kind: 'CloudRegionLink', id: c.region, href: `${CLUSTERS_MGMT}/cloud_providers/${c.cloudProvider}/regions/${c.region}` },
    openshift_version: c.version,
    version,
    node_drain_grace_period: { value: c.nodeDrainGracePeriod.value, unit: c.nodeDrainGracePeriod.unit },
    state: c.state,
  };
}

function policyHref(p: OcmUpgradePolicy): string {
  return `${CLUSTERS_MGMT}/clusters/${p.clusterId}/upgrade_policies/${p.id}`;
}

/** The `UpgradePolicy` JSON (OCM omits unset fields). */
export function policyJson(p: OcmUpgradePolicy): JsonObject {
  const out: JsonObject = {
    kind: 'UpgradePolicy',
    id: p.id,
    href: policyHref(p),
    schedule_type: p.scheduleType,
    upgrade_type: p.upgradeType,
    version: p.version,
    next_run: ocmTime(p.nextRun),
    cluster_id: p.clusterId,
  };
  if (p.schedule !== undefined) out['schedule'] = p.schedule;
  if (p.prevRun !== undefined) out['prev_run'] = ocmTime(p.prevRun);
  if (p.enableMinorVersionUpgrades !== undefined) out['enable_minor_version_upgrades'] = p.enableMinorVersionUpgrades;
  if (p.capacityReservation !== undefined) out['capacity_reservation'] = p.capacityReservation;
  if (p.architecture !== undefined) out['architecture'] = p.architecture;
  return out;
}

/** The `UpgradePolicyState` JSON. */
export function stateJson(p: OcmUpgradePolicy): JsonObject {
  return { kind: 'UpgradePolicyState', href: `${policyHref(p)}/state`, description: p.state.description, value: p.state.value };
}

/** The `ClusterLog` JSON. */
export function logEntryJson(e: OcmLogEntry): JsonObject {
  const out: JsonObject = { kind: 'ClusterLog', id: e.id, href: `${SERVICE_LOGS}/cluster_logs/${e.id}` };
  if (e.clusterId !== undefined) out['cluster_id'] = e.clusterId;
  if (e.clusterUuid !== undefined) out['cluster_uuid'] = e.clusterUuid;
  if (e.subscriptionId !== undefined) out['subscription_id'] = e.subscriptionId;
  out['created_at'] = ocmTime(e.timestamp);
  out['created_by'] = e.createdBy;
  out['description'] = e.description;
  if (e.docReferences.length > 0) out['doc_references'] = [...e.docReferences];
  out['event_stream_id'] = e.eventStreamId;
  out['internal_only'] = e.internalOnly;
  if (e.logType !== undefined) out['log_type'] = e.logType;
  out['service_name'] = e.serviceName;
  out['severity'] = e.severity;
  out['summary'] = e.summary;
  out['timestamp'] = ocmTime(e.timestamp);
  if (e.username !== undefined) out['username'] = e.username;
  return out;
}

/** A list envelope: `size` is the number of items in this page. */
export function listJson(kind: string, page: number, items: JsonValue[], total: number): JsonObject {
  return { kind, page, size: items.length, total, items };
}

/** Which API an error belongs to: `clusters_mgmt` or `service_logs` (from the request path). */
export function apiOfPath(path: string): { service: string; prefix: string } {
  const m = /^\/api\/([a-z_]+)\/(v\d+)(?:\/|$)/.exec(path);
  if (!m) return { service: 'clusters_mgmt', prefix: CLUSTERS_MGMT };
  return { service: m[1]!, prefix: `/api/${m[1]!}/${m[2]!}` };
}

/** OCM's error body: `{kind: 'Error', id, href, code, reason, operation_id}`. */
export function errorJson(path: string, status: number, reason: string, operationId: string): JsonObject {
  const { service, prefix } = apiOfPath(path);
  const id = String(status);
  return {
    kind: 'Error',
    id,
    href: `${prefix}/errors/${id}`,
    code: `${service.toUpperCase().replaceAll('_', '-')}-${id}`,
    reason,
    operation_id: operationId,
  };
}
