/**
 * The simulated OpenShift Cluster Manager's objects and their JSON, as `clusters_mgmt/v1` and
 * `service_logs/v1` serialise them (ocm-api-model): snake_case fields, `kind`/`id`/`href` on
 * every object, empty fields left out, list envelopes `{kind, page, size, total, items}`, and
 * errors `{kind: 'Error', id, href, code, reason, operation_id}`.
 */
import type { JsonObject, JsonValue } from '../../lib/json.js';

/** The values of an upgrade policy state (`UpgradePolicyStateValue`). */
export const POLICY_STATE_VALUES = [
  'pending',
  'scheduled',
  'started',
  'delayed',
  'failed',
  'cancelled',
  'completed',
] as const;
export type PolicyStateValue = (typeof POLICY_STATE_VALUES)[number];

/** True for one of the seven state values. */
export function isPolicyStateValue(value: unknown): value is PolicyStateValue {
  return typeof value === 'string' && (POLICY_STATE_VALUES as readonly string[]).includes(value);
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
export function clusterJson(ocmCluster: OcmCluster): JsonObject {
  const vid = versionId(ocmCluster.version, ocmCluster.channelGroup);
  const version: JsonObject = {
    kind: 'Version',
    id: vid,
    href: `${CLUSTERS_MGMT}/versions/${vid}`,
    raw_id: ocmCluster.version,
    channel_group: ocmCluster.channelGroup,
  };
  if (ocmCluster.availableUpgrades.length > 0) version['available_upgrades'] = [...ocmCluster.availableUpgrades];
  return {
    kind: 'Cluster',
    id: ocmCluster.id,
    href: `${CLUSTERS_MGMT}/clusters/${ocmCluster.id}`,
    name: ocmCluster.name,
    external_id: ocmCluster.externalId,
    display_name: ocmCluster.name,
    creation_timestamp: ocmTime(ocmCluster.createdAt),
    managed: true,
    product: { kind: 'ProductLink', id: ocmCluster.product, href: `${CLUSTERS_MGMT}/products/${ocmCluster.product}` },
    cloud_provider: {
      kind: 'CloudProviderLink',
      id: ocmCluster.cloudProvider,
      href: `${CLUSTERS_MGMT}/cloud_providers/${ocmCluster.cloudProvider}`,
    },
    region: {
      kind: 'CloudRegionLink',
      id: ocmCluster.region,
      href: `${CLUSTERS_MGMT}/cloud_providers/${ocmCluster.cloudProvider}/regions/${ocmCluster.region}`,
    },
    openshift_version: ocmCluster.version,
    version,
    node_drain_grace_period: {
      value: ocmCluster.nodeDrainGracePeriod.value,
      unit: ocmCluster.nodeDrainGracePeriod.unit,
    },
    state: ocmCluster.state,
  };
}

function policyHref(ocmUpgradePolicy: OcmUpgradePolicy): string {
  return `${CLUSTERS_MGMT}/clusters/${ocmUpgradePolicy.clusterId}/upgrade_policies/${ocmUpgradePolicy.id}`;
}

/** The `UpgradePolicy` JSON (OCM omits unset fields). */
export function policyJson(ocmUpgradePolicy: OcmUpgradePolicy): JsonObject {
  const out: JsonObject = {
    kind: 'UpgradePolicy',
    id: ocmUpgradePolicy.id,
    href: policyHref(ocmUpgradePolicy),
    schedule_type: ocmUpgradePolicy.scheduleType,
    upgrade_type: ocmUpgradePolicy.upgradeType,
    version: ocmUpgradePolicy.version,
    next_run: ocmTime(ocmUpgradePolicy.nextRun),
    cluster_id: ocmUpgradePolicy.clusterId,
  };
  if (ocmUpgradePolicy.schedule !== undefined) out['schedule'] = ocmUpgradePolicy.schedule;
  if (ocmUpgradePolicy.prevRun !== undefined) out['prev_run'] = ocmTime(ocmUpgradePolicy.prevRun);
  if (ocmUpgradePolicy.enableMinorVersionUpgrades !== undefined)
    out['enable_minor_version_upgrades'] = ocmUpgradePolicy.enableMinorVersionUpgrades;
  if (ocmUpgradePolicy.capacityReservation !== undefined)
    out['capacity_reservation'] = ocmUpgradePolicy.capacityReservation;
  if (ocmUpgradePolicy.architecture !== undefined) out['architecture'] = ocmUpgradePolicy.architecture;
  return out;
}

/** The `UpgradePolicyState` JSON. */
export function stateJson(ocmUpgradePolicy: OcmUpgradePolicy): JsonObject {
  return {
    kind: 'UpgradePolicyState',
    href: `${policyHref(ocmUpgradePolicy)}/state`,
    description: ocmUpgradePolicy.state.description,
    value: ocmUpgradePolicy.state.value,
  };
}

/** The `ClusterLog` JSON. */
export function logEntryJson(ocmLogEntry: OcmLogEntry): JsonObject {
  const out: JsonObject = {
    kind: 'ClusterLog',
    id: ocmLogEntry.id,
    href: `${SERVICE_LOGS}/cluster_logs/${ocmLogEntry.id}`,
  };
  if (ocmLogEntry.clusterId !== undefined) out['cluster_id'] = ocmLogEntry.clusterId;
  if (ocmLogEntry.clusterUuid !== undefined) out['cluster_uuid'] = ocmLogEntry.clusterUuid;
  if (ocmLogEntry.subscriptionId !== undefined) out['subscription_id'] = ocmLogEntry.subscriptionId;
  out['created_at'] = ocmTime(ocmLogEntry.timestamp);
  out['created_by'] = ocmLogEntry.createdBy;
  out['description'] = ocmLogEntry.description;
  if (ocmLogEntry.docReferences.length > 0) out['doc_references'] = [...ocmLogEntry.docReferences];
  out['event_stream_id'] = ocmLogEntry.eventStreamId;
  out['internal_only'] = ocmLogEntry.internalOnly;
  if (ocmLogEntry.logType !== undefined) out['log_type'] = ocmLogEntry.logType;
  out['service_name'] = ocmLogEntry.serviceName;
  out['severity'] = ocmLogEntry.severity;
  out['summary'] = ocmLogEntry.summary;
  out['timestamp'] = ocmTime(ocmLogEntry.timestamp);
  if (ocmLogEntry.username !== undefined) out['username'] = ocmLogEntry.username;
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
