/**
 * The assessment behind `upgrade-operator status` (docs/configuration.md#upgrade-operator-status):
 * an `oc adm upgrade status`-like view computed from one plain snapshot of the cluster's objects.
 * Pure: no I/O, time given as an argument. Every rule is documented where it is applied; the facts
 * come from docs/design/cluster-model.md#clusterversion, docs/design/cluster-model.md#the-cvos-gate
 * (ClusterOperators) and docs/design/cluster-model.md#the-mco-and-its-pools. Fail closed: a part
 * that could not be read makes the answers built on it "unknown" with the reason, never healthy or
 * complete.
 *
 * The parts: upgrade-status-model.ts (the snapshot, the report's types, shared helpers),
 * upgrade-status-control-plane.ts (ClusterVersion and ClusterOperators),
 * upgrade-status-nodes.ts (pools, nodes, drain blockers) and upgrade-status-operator.ts (the
 * upgrade operator's own objects). This module adds the health insights and puts the whole
 * report together.
 */
import { formatTime } from '../lib/clock.js';
import { parseProgressMessage, specObserved } from '../engine/cvo-progress.js';
import { assessControlPlane } from './upgrade-status-control-plane.js';
import {
  byName,
  cond,
  nodeCount,
  oneLine,
  partProblem,
  partValue,
  type ControlPlaneStatus,
  type HealthInsight,
  type PoolStatus,
  type SnapshotPartName,
  type UnknownPart,
  type UpgradeStatusReport,
  type UpgradeStatusSnapshot,
} from './upgrade-status-model.js';
import { assessPools } from './upgrade-status-nodes.js';
import { assessUpgradeOperator } from './upgrade-status-operator.js';

// ---- Insights and the whole report -----------------------------------------------------------

const LEVEL_ORDER: readonly HealthInsight['level'][] = ['Error', 'Warning', 'Info'];
/** Insights of one level: the ClusterVersion's first, then operators, pools, nodes, the rest. */
const SCOPE_ORDER: readonly string[] = ['ClusterVersion ', 'ClusterOperator ', 'MachineConfigPool ', 'Node ', ''];

/**
 * "Update Health": Failing and refused releases (Error, Update Stalled); the CVO's slow and
 * 40-minute grace messages (Warning, Update Speed); each unavailable or degraded ClusterOperator
 * (Error, API Availability); each degraded node (Error, Update Stalled); each PDB-blocked drain
 * (Warning, Update Stalled); NotReady or cordoned nodes outside an update (Warning, Cluster
 * Capacity); a paused pool left behind (Warning, Update Stalled for the control-plane pool while
 * the control plane updates, else Info, Update Speed); each part that could not be read
 * (Warning, Unknown). With none while updating: Info, None, `Update is proceeding well`.
 * Ordered by level (Error, Warning, Info), then ClusterVersion, ClusterOperators, pools, nodes.
 */
export function healthInsights(
  snapshot: UpgradeStatusSnapshot,
  cp: ControlPlaneStatus,
  pools: readonly PoolStatus[],
  unknown: readonly UnknownPart[],
  updating: boolean,
): HealthInsight[] {
  const out: HealthInsight[] = [];
  const cv = partValue(snapshot.clusterVersion);
  const c = cv?.status?.conditions;
  const failing = cond(c, 'Failing');
  if (failing?.status === 'True')
    out.push({
      level: 'Error',
      impact: 'Update Stalled',
      scope: 'ClusterVersion version',
      message: `Cluster Version version is failing to proceed with the update (${failing.reason ?? ''}): ${oneLine(failing.message ?? '')}`,
      since: failing.lastTransitionTime,
    });
  else if (cp.assessment === 'Slow')
    out.push({
      level: 'Warning',
      impact: 'Update Speed',
      scope: 'ClusterVersion version',
      message: `The update is slower than expected: ${cp.message}`,
      since: failing?.lastTransitionTime ?? null,
    });
  if (cp.assessment === 'Stalled' && failing?.status !== 'True')
    out.push({
      level: 'Error',
      impact: 'Update Stalled',
      scope: 'ClusterVersion version',
      message: cp.message,
      since: cond(c, 'ReleaseAccepted')?.lastTransitionTime ?? null,
    });
  const progress = parseProgressMessage(cond(c, 'Progressing')?.message ?? '');
  if (progress.degradedGrace)
    out.push({
      level: 'Warning',
      impact: 'Update Speed',
      scope: 'ClusterVersion version',
      message: `The cluster version operator waits up to 40 minutes on degraded ${progress.operators.join(', ')}`,
      since: null,
    });
  if (cv && !specObserved(cv))
    out.push({
      level: 'Info',
      impact: 'None',
      scope: 'ClusterVersion version',
      message: `The cluster version operator has not observed the latest spec yet (generation ${cv.metadata?.generation ?? 0}, observed ${cv.status?.observedGeneration ?? 0})`,
      since: null,
    });
  for (const co of [...(partValue(snapshot.clusterOperators) ?? [])].sort((a, b) =>
    byName(a.metadata?.name ?? '', b.metadata?.name ?? ''),
  )) {
    const name = co.metadata?.name ?? '';
    const available = cond(co.status?.conditions, 'Available');
    const degraded = cond(co.status?.conditions, 'Degraded');
    if (available && available.status !== 'True')
      out.push({
        level: 'Error',
        impact: 'API Availability',
        scope: `ClusterOperator ${name}`,
        message: `Cluster Operator ${name} is unavailable (${available.reason ?? ''}): ${oneLine(available.message ?? '')}`,
        since: available.lastTransitionTime,
      });
    else if (degraded?.status === 'True')
      out.push({
        level: 'Error',
        impact: 'API Availability',
        scope: `ClusterOperator ${name}`,
        message: `Cluster Operator ${name} is degraded (${degraded.reason ?? ''}): ${oneLine(degraded.message ?? '')}`,
        since: degraded.lastTransitionTime,
      });
  }
  for (const pool of pools) {
    for (const n of pool.nodes) {
      if (n.assessment === 'Degraded')
        out.push({
          level: 'Error',
          impact: 'Update Stalled',
          scope: `Node ${n.name}`,
          message: `Node ${n.name} is degraded: ${n.message}`,
          since: null,
        });
      else if (n.assessment === 'Unavailable')
        out.push({
          level: 'Warning',
          impact: 'Cluster Capacity',
          scope: `Node ${n.name}`,
          message: `Node ${n.name} is unavailable: ${n.message}`,
          since: null,
        });
      for (const b of n.drainBlockers)
        out.push({
          level: 'Warning',
          impact: 'Update Stalled',
          scope: `Node ${n.name}`,
          message: `Node ${n.name} cannot be drained: pod ${b.pod} is protected by PodDisruptionBudget ${b.pdb} (${b.message})`,
          since: null,
        });
    }
    if (pool.paused && pool.updated < pool.total) {
      const blocking = pool.controlPlane && cp.assessment !== 'Completed';
      out.push({
        level: blocking ? 'Warning' : 'Info',
        impact: blocking ? 'Update Stalled' : 'Update Speed',
        scope: `MachineConfigPool ${pool.name}`,
        message: `Pool ${pool.name} is paused: ${pool.total - pool.updated} of ${nodeCount(pool.total)} will not update until it is unpaused`,
        since: null,
      });
    }
  }
  for (const u of unknown)
    out.push({
      level: 'Warning',
      impact: 'Unknown',
      scope: u.part,
      message: `Cannot read ${u.part}: ${u.reason}`,
      since: null,
    });
  const kind = (i: HealthInsight): number => SCOPE_ORDER.findIndex((k) => i.scope.startsWith(k));
  out.sort(
    (a, b) =>
      LEVEL_ORDER.indexOf(a.level) - LEVEL_ORDER.indexOf(b.level) ||
      kind(a) - kind(b) ||
      byName(a.scope, b.scope) ||
      byName(a.message, b.message),
  );
  if (out.length === 0 && updating)
    out.push({
      level: 'Info',
      impact: 'None',
      scope: 'ClusterVersion version',
      message: 'Update is proceeding well',
      since: null,
    });
  return out;
}

/** Parts whose absence is not a problem: the upgrade operator's kinds may simply not be installed, and no pod list is needed without a drain. */
const OPTIONAL_WHEN_ABSENT: ReadonlySet<SnapshotPartName> = new Set([
  'managedUpgradeConfigs',
  'scheduledUpgradeConfigs',
  'upgradeJobs',
  'hookJobs',
  'pods',
]);

/** The parts that could not be read (errors; absences that matter), in snapshot order. */
export function unknownParts(snapshot: UpgradeStatusSnapshot): UnknownPart[] {
  return (Object.keys(snapshot) as SnapshotPartName[]).flatMap((part) => {
    const p = snapshot[part];
    if (p.state === 'ok' || (p.state === 'absent' && OPTIONAL_WHEN_ABSENT.has(part))) return [];
    return [{ part, reason: partProblem(p) }];
  });
}

/** Parts read only because of others (the rendered configs nodes name, the pods of draining nodes). */
const DERIVED_PARTS: ReadonlySet<SnapshotPartName> = new Set(['renderedMachineConfigs', 'pods']);

/** True when no list or get of its own answered (the command then exits 1); derived parts do not count. */
export function nothingRead(snapshot: UpgradeStatusSnapshot): boolean {
  return (Object.keys(snapshot) as SnapshotPartName[]).every(
    (k) => DERIVED_PARTS.has(k) || snapshot[k].state === 'error',
  );
}

/**
 * When nothing could be read because the server cannot be reached, the one line `kubectl` prints
 * for it (`server` is the kubeconfig's URL); undefined otherwise, when the report itself says what
 * was and was not read.
 */
export function unreachableServer(
  snapshot: UpgradeStatusSnapshot,
  server: string,
  requestTimeoutMs: number,
): string | undefined {
  if (!nothingRead(snapshot)) return undefined;
  const errors = (Object.keys(snapshot) as SnapshotPartName[]).flatMap((name) => {
    const part = snapshot[name];
    return DERIVED_PARTS.has(name) || part.state !== 'error' ? [] : [part.error];
  });
  if (errors.length === 0) return undefined;
  let host = server;
  try {
    host = new URL(server).host;
  } catch {
    // not a URL: shown as written
  }
  if (errors.every((e) => /ECONNREFUSED/.test(e)))
    return `The connection to the server ${host} was refused - did you specify the right host or port?`;
  if (errors.every((e) => /timeout/i.test(e)))
    return `Unable to connect to the server ${host}: no answer within ${requestTimeoutMs / 1000}s (--request-timeout)`;
  if (errors.every((e) => /ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ECONNRESET/.test(e)))
    return `Unable to connect to the server ${host}: ${errors[0] ?? ''}`;
  return undefined;
}

/**
 * The whole report. `updating` is true while the control plane is not Completed, or while a pool
 * that is not paused has nodes left to update; an Unknown control plane counts as updating
 * (never report done on missing facts).
 */
export function assessUpgradeStatus(snapshot: UpgradeStatusSnapshot, nowMs: number): UpgradeStatusReport {
  const unknown = unknownParts(snapshot);
  const controlPlane = assessControlPlane(snapshot, nowMs);
  const pools = assessPools(snapshot);
  const updating =
    controlPlane.assessment !== 'Completed' || pools.some((p) => !p.paused && p.assessment !== 'Completed');
  return {
    generatedAt: formatTime(nowMs),
    updating,
    unknown,
    controlPlane,
    pools,
    health: healthInsights(snapshot, controlPlane, pools, unknown, updating),
    upgradeOperator: assessUpgradeOperator(snapshot, nowMs),
  };
}
