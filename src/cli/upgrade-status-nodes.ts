/**
 * The pools and nodes part of `upgrade-operator status`
 * (docs/configuration.md#upgrade-operator-status): each MachineConfigPool and its nodes against the
 * release being rolled out, and the pods that block a drain
 * (docs/design/cluster-model.md#the-mco-and-its-pools). Pure.
 */
import type { Node, Pod } from 'kubernetes-types/core/v1.js';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import {
  MachineConfigDaemonState as S,
  MachineConfigNodeAnnotation as A,
  MachineConfigPoolLabel,
  type MachineConfigPool,
} from '../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import {
  RenderedMachineConfigAnnotation,
  type MachineConfig,
} from '../api/openshift/machineconfiguration-v1/machine-config.js';
import { evaluateLabelSelector } from '../lib/label-selector.js';
import { isDaemonSetPod, pdbsSelecting } from '../managed/drain/pod-selection.js';
import {
  byName,
  nodeCount,
  oneLine,
  partProblem,
  partValue,
  type DrainBlocker,
  type NodeAssessment,
  type NodePhase,
  type NodeStatus,
  type PoolAssessment,
  type PoolStatus,
  type UpgradeStatusSnapshot,
} from './upgrade-status-model.js';

/** The version a rendered config carries (`release-image-version` annotation), if the config was read. */
function configVersion(configs: ReadonlyMap<string, MachineConfig>, name: string | undefined): string | null {
  if (!name) return null;
  return configs.get(name)?.metadata?.annotations?.[RenderedMachineConfigAnnotation.ReleaseImageVersion] ?? null;
}

/**
 * The pool of a node: the pool whose `nodeSelector` matches its labels; when several match, a pool
 * other than `worker` wins (a node in a custom pool leaves `worker`,
 * docs/design/cluster-model.md#pools), and `master` over any other.
 */
export function poolOfNode(node: Node, pools: readonly MachineConfigPool[]): MachineConfigPool | undefined {
  const matching = pools.filter(
    (p) =>
      p.spec.nodeSelector !== undefined && evaluateLabelSelector(p.spec.nodeSelector, node.metadata?.labels) === true,
  );
  return (
    matching.find((p) => p.metadata?.name === 'master') ??
    matching.find((p) => p.metadata?.name !== 'worker') ??
    matching[0]
  );
}

function isControlPlanePool(pool: MachineConfigPool): boolean {
  return pool.metadata?.name === 'master' || MachineConfigPoolLabel.RequiredForUpgrade in (pool.metadata?.labels ?? {});
}

function readyOf(node: Node): boolean | null {
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
  return ready ? ready.status === 'True' : null;
}

/**
 * The MCD asked the drain controller for a drain it has not finished (`desiredDrain` =
 * `drain-<desired>` ≠ `lastAppliedDrain`, docs/design/cluster-model.md#node-annotations).
 */
function drainPending(node: Node): boolean {
  const a = node.metadata?.annotations ?? {};
  const desired = a[A.DesiredDrain];
  return desired !== undefined && desired.startsWith('drain-') && desired !== a[A.LastAppliedDrain];
}

/**
 * A node's phase and assessment against its pool's target (`spec.configuration.name`):
 * - Updated: currentConfig = desiredConfig = the target and state `Done` (the MCO's own
 *   `updatedMachineCount` rule, docs/design/cluster-model.md#pools) — and the target is the release
 *   being rolled out, when the pool's target release is known to differ from it the node is still
 *   Pending.
 * - In progress: desiredConfig ≠ currentConfig (the node controller chose it,
 *   docs/design/cluster-model.md#choosing-the-nodes-to-update) or state `Working`. Then `Rebooting`
 *   while NotReady (the MCD rebooted it, docs/design/cluster-model.md#the-per-node-update step 4),
 *   `Draining` while the drain it asked for is not done (desiredDrain `drain-…` ≠ lastAppliedDrain,
 *   docs/design/cluster-model.md#the-per-node-update steps 2–3; the node is cordoned), else
 *   `Updating` (OS update, rejoin, uncordon).
 * - Not started: `Paused` in a paused pool, else `Pending`.
 * Assessment: `Degraded` when the MCD state is Degraded/Unreconcilable (its reason is the
 * message); `Progressing` in progress; `Completed` when updated; `Excluded` when paused;
 * `Outdated` when pending; an updated or pending node that is NotReady or cordoned is
 * `Unavailable`. `Unknown` without the MCO annotations.
 */
export function assessNode(
  node: Node,
  pool: MachineConfigPool,
  configs: ReadonlyMap<string, MachineConfig>,
  releaseTarget: string | null,
): NodeStatus {
  const a = node.metadata?.annotations ?? {};
  const current = a[A.CurrentConfig];
  const desired = a[A.DesiredConfig];
  const state = a[A.State];
  const target = pool.spec.configuration?.name;
  const ready = readyOf(node);
  // Cordoned: spec.unschedulable (the taint that usually comes with it is not required).
  const cordoned = node.spec?.unschedulable === true;
  const base = {
    name: node.metadata?.name ?? '',
    pool: pool.metadata?.name ?? '',
    version: configVersion(configs, current),
    currentConfig: current ?? null,
    desiredConfig: desired ?? null,
    state: state ?? null,
    ready,
    cordoned,
    drainBlockers: [],
  };
  if (!current || !desired || !state || !target) {
    return {
      ...base,
      assessment: 'Unknown',
      phase: 'Unknown',
      message: !target ? 'the pool has no target config' : 'the node has no machine-config annotations',
    };
  }
  const targetVersion = configVersion(configs, target);
  const poolBehind = releaseTarget !== null && targetVersion !== null && targetVersion !== releaseTarget;
  const failing = state === S.Degraded || state === S.Unreconcilable;
  const reason = oneLine(a[A.Reason] ?? '');
  const updated = !poolBehind && current === target && desired === target && state === S.Done;
  const inProgress = !updated && (desired !== current || state === S.Working || (failing && desired === target));
  const unavailable = ready === false || cordoned;
  let phase: NodePhase;
  if (updated) phase = 'Updated';
  else if (inProgress) phase = ready === false ? 'Rebooting' : drainPending(node) ? 'Draining' : 'Updating';
  else phase = pool.spec.paused === true ? 'Paused' : 'Pending';
  if (failing)
    return { ...base, assessment: 'Degraded', phase, message: reason || `machine-config daemon state ${state}` };
  if (inProgress) {
    const message =
      phase === 'Rebooting'
        ? 'the node is rebooting (NotReady)'
        : phase === 'Draining'
          ? 'the node is being drained'
          : `updating to ${configVersion(configs, desired) ?? desired}`;
    return { ...base, assessment: 'Progressing', phase, message };
  }
  const why = ready === false ? 'the node is NotReady' : cordoned ? 'the node is cordoned' : '';
  if (unavailable) return { ...base, assessment: 'Unavailable', phase, message: why };
  if (updated) return { ...base, assessment: 'Completed', phase, message: '' };
  return {
    ...base,
    assessment: phase === 'Paused' ? 'Excluded' : 'Outdated',
    phase,
    message: phase === 'Paused' ? 'the pool is paused' : '',
  };
}

/** True for pods a drain does not evict: DaemonSet pods (the operator's own drain rule), mirror (static) pods, finished pods. */
function ignoredByDrain(pod: Pod): boolean {
  if (isDaemonSetPod(pod)) return true;
  if ('kubernetes.io/config.mirror' in (pod.metadata?.annotations ?? {})) return true;
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

/**
 * Who blocks a drain: every pod on the node that the drain would evict and whose namespace has a
 * PodDisruptionBudget selecting it with `status.disruptionsAllowed` 0 — the eviction API answers
 * 429 for it (docs/design/cluster-model.md#drains-and-poddisruptionbudgets). The message is the
 * API's cause text:
 * `The disruption budget <pdb> needs <desiredHealthy> healthy pods and has <currentHealthy> currently`.
 */
export function drainBlockers(
  nodeName: string,
  pods: readonly Pod[],
  pdbs: readonly PodDisruptionBudget[],
): DrainBlocker[] {
  const out: DrainBlocker[] = [];
  for (const pod of pods) {
    if (pod.spec?.nodeName !== nodeName || ignoredByDrain(pod)) continue;
    const ns = pod.metadata?.namespace ?? '';
    for (const pdb of pdbsSelecting(pod, pdbs)) {
      if ((pdb.status?.disruptionsAllowed ?? 0) > 0) continue;
      const name = pdb.metadata?.name ?? '';
      out.push({
        pod: `${ns}/${pod.metadata?.name ?? ''}`,
        pdb: `${ns}/${name}`,
        message: `The disruption budget ${name} needs ${pdb.status?.desiredHealthy ?? '?'} healthy pods and has ${pdb.status?.currentHealthy ?? '?'} currently`,
      });
    }
  }
  return out.sort((x, y) => byName(x.pod, y.pod) || byName(x.pdb, y.pdb));
}

function renderedConfigMap(snapshot: UpgradeStatusSnapshot): Map<string, MachineConfig> {
  return new Map((partValue(snapshot.renderedMachineConfigs) ?? []).map((mc) => [mc.metadata?.name ?? '', mc]));
}

/** The release the pools should reach: the head of ClusterVersion history (null when unknown). */
function releaseTarget(snapshot: UpgradeStatusSnapshot): string | null {
  return partValue(snapshot.clusterVersion)?.status?.history?.[0]?.version ?? null;
}

/** The nodes whose drain is in progress: the command lists the pods of these (and only these). */
export function drainingNodeNames(snapshot: UpgradeStatusSnapshot): string[] {
  const pools = partValue(snapshot.machineConfigPools) ?? [];
  const configs = renderedConfigMap(snapshot);
  const target = releaseTarget(snapshot);
  return (partValue(snapshot.nodes) ?? [])
    .flatMap((node) => {
      const pool = poolOfNode(node, pools);
      return pool && assessNode(node, pool, configs, target).phase === 'Draining' ? [node.metadata?.name ?? ''] : [];
    })
    .sort(byName);
}

const NODE_ORDER: readonly NodeAssessment[] = [
  'Degraded',
  'Unavailable',
  'Progressing',
  'Unknown',
  'Outdated',
  'Excluded',
  'Completed',
];

/**
 * A pool's assessment from its nodes: `Degraded` if any node is; `Completed` when every node is
 * updated (an empty pool too); `Excluded` when paused; `Progressing` when a node is in progress
 * or done; else `Pending`. `Unknown` when the nodes could not be read (the pool's own counters
 * are shown then).
 */
export function assessPools(snapshot: UpgradeStatusSnapshot): PoolStatus[] {
  const pools = partValue(snapshot.machineConfigPools) ?? [];
  const nodes = partValue(snapshot.nodes);
  const configs = renderedConfigMap(snapshot);
  const target = releaseTarget(snapshot);
  const pods = partValue(snapshot.pods);
  const pdbs = partValue(snapshot.podDisruptionBudgets);
  const blockersUnknown =
    pods === undefined
      ? partProblem(snapshot.pods)
      : pdbs === undefined
        ? partProblem(snapshot.podDisruptionBudgets)
        : '';
  const ordered = [...pools].sort(
    (a, b) =>
      Number(isControlPlanePool(b)) - Number(isControlPlanePool(a)) ||
      byName(a.metadata?.name ?? '', b.metadata?.name ?? ''),
  );
  return ordered.map((pool): PoolStatus => {
    const name = pool.metadata?.name ?? '';
    const paused = pool.spec.paused === true;
    const head = {
      name,
      controlPlane: isControlPlanePool(pool),
      paused,
      targetConfig: pool.spec.configuration?.name ?? null,
      targetVersion: configVersion(configs, pool.spec.configuration?.name),
    };
    if (!nodes) {
      const s = pool.status;
      return {
        ...head,
        assessment: 'Unknown',
        total: s?.machineCount ?? 0,
        updated: s?.updatedMachineCount ?? 0,
        progressing: 0,
        draining: 0,
        degraded: s?.degradedMachineCount ?? 0,
        unavailable: s?.unavailableMachineCount ?? 0,
        excluded: 0,
        percent: null,
        message: `nodes unknown: ${partProblem(snapshot.nodes)}`,
        nodes: [],
      };
    }
    const members = nodes
      .filter((n) => poolOfNode(n, pools) === pool)
      .map((node) => {
        const s = assessNode(node, pool, configs, target);
        if (s.phase !== 'Draining') return s;
        if (blockersUnknown)
          return { ...s, message: `the node is being drained; blockers unknown: ${blockersUnknown}` };
        const blockers = drainBlockers(s.name, pods ?? [], pdbs ?? []);
        return blockers.length === 0
          ? s
          : {
              ...s,
              drainBlockers: blockers,
              message: `drain blocked: ${blockers.map((b) => `pod ${b.pod} (PodDisruptionBudget ${b.pdb})`).join(', ')}`,
            };
      })
      .sort((a, b) => NODE_ORDER.indexOf(a.assessment) - NODE_ORDER.indexOf(b.assessment) || byName(a.name, b.name));
    const count = (f: (nodeStatus: NodeStatus) => boolean): number => members.filter(f).length;
    const total = members.length;
    const updated = count((n) => n.phase === 'Updated');
    const progressing = count((n) => n.assessment === 'Progressing');
    const degraded = count((n) => n.assessment === 'Degraded');
    const excluded = count((n) => n.assessment === 'Excluded');
    const unknown = count((n) => n.assessment === 'Unknown');
    let assessment: PoolAssessment;
    if (degraded > 0) assessment = 'Degraded';
    else if (unknown > 0) assessment = 'Unknown';
    else if (updated === total) assessment = 'Completed';
    else if (paused) assessment = 'Excluded';
    else if (progressing > 0 || updated > 0) assessment = 'Progressing';
    else assessment = 'Pending';
    const behind = target !== null && head.targetVersion !== null && head.targetVersion !== target;
    const message =
      paused && updated < total
        ? `the pool is paused; ${nodeCount(total - updated)} will not update until it is unpaused`
        : behind
          ? `the pool's target config is for ${head.targetVersion}, not ${target} yet`
          : '';
    return {
      ...head,
      assessment,
      total,
      updated,
      progressing,
      draining: count((n) => n.phase === 'Draining'),
      degraded,
      unavailable: count((n) => n.assessment === 'Unavailable'),
      excluded,
      percent: total === 0 ? 100 : Math.floor((100 * updated) / total),
      message,
      nodes: members,
    };
  });
}
