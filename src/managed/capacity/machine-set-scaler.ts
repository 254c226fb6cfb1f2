/**
 * Capacity reservation as MUO does it (docs/design/managed-flow.md#capacity-reservation,
 * docs/design/managed-flow.md#the-failure-window): one extra worker per worker MachineSet during
 * the upgrade, through a clone `<original>-upgrade` with one replica labelled
 * `upgrade.managed.openshift.io=true`, found again by that label. Decisions are pure;
 * `ensureScaleUp`, `ensureScaleDown` and `deleteCloneMachineSets` act through a KubeClient.
 *
 * Differences from MUO, deliberate:
 * - every missing clone is created in one pass (MUO stops at the first original that already
 *   has a clone, so a partially created set is never completed);
 * - the clone keeps the original's labels except `hive.openshift.io/*` (MUO drops them all);
 * - a Machine's phase is read nil-safely, and a Running/Deleting clone Machine without a Node
 *   is skipped by the drain instead of failing the step (there is no Node to drain);
 * - every clone's readiness is evaluated and reported, not only the first unready one;
 * - a clone still being deleted (left by an earlier upgrade) is waited for, then re-created.
 */
import type { Node } from 'kubernetes-types/core/v1.js';
import { NodeResource } from '../../api/builtin.js';
import {
  MACHINE_API_NAMESPACE,
  MachineLabel,
  MachineResource,
  type Machine,
} from '../../api/openshift/machine-v1beta1/machine.js';
import { MachineSetResource, type MachineSet } from '../../api/openshift/machine-v1beta1/machine-set.js';
import {
  LABEL_HIVE_MACHINE_POOL,
  LABEL_UPGRADE,
  UPGRADE_MACHINESET_SUFFIX,
  WORKER_MACHINE_POOL,
} from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import type { KubeClient } from '../../kube/client.js';
import { isAlreadyExists, isNotFound } from '../../kube/status-error.js';

/** Label selector of everything capacity reservation creates. */
export const UPGRADE_SELECTOR = `${LABEL_UPGRADE}=true`;
/** Prefix of the Hive labels a clone does not keep. */
const HIVE_LABEL_PREFIX = 'hive.openshift.io/';

/** True for a capacity-reservation clone (labelled `upgrade.managed.openshift.io=true`). */
export function isCloneMachineSet(ms: MachineSet): boolean {
  return ms.metadata?.labels?.[LABEL_UPGRADE] === 'true';
}

/** The Hive machine pool of a MachineSet, if labelled. */
export function machinePoolOf(ms: MachineSet): string | undefined {
  return ms.metadata?.labels?.[LABEL_HIVE_MACHINE_POOL];
}

/** True when a MachineSet of the `worker` pool exists (MUO's `CanScale`); clones do not count. */
export function hasWorkerPool(all: readonly MachineSet[]): boolean {
  return all.some((ms) => !isCloneMachineSet(ms) && machinePoolOf(ms) === WORKER_MACHINE_POOL);
}

/**
 * The MachineSets to clone: the `worker` pool's, plus those whose pool (other than `worker`)
 * matches `extraPoolPatterns` (`scale.extraMachinePools`, glob-matched by the config layer).
 * Clones are never originals.
 */
export function originalMachineSets(
  all: readonly MachineSet[],
  extraPoolPatterns: (pool: string) => boolean,
): MachineSet[] {
  return all.filter((ms) => {
    if (isCloneMachineSet(ms)) return false;
    const pool = machinePoolOf(ms);
    if (pool === undefined) return false;
    return pool === WORKER_MACHINE_POOL || extraPoolPatterns(pool);
  });
}

/** `<original>-upgrade`. */
export function cloneName(original: MachineSet): string {
  return `${original.metadata?.name ?? ''}${UPGRADE_MACHINESET_SUFFIX}`;
}

/**
 * The clone of `original`: name `<original>-upgrade`, same namespace, one replica, labelled
 * `upgrade.managed.openshift.io=true`, with that label and `cluster-api-machineset=<clone>` in
 * its template labels and selector, so that it owns only its own Machine.
 *
 * Labels: the original's are kept (cluster, role and type labels let tools and people that
 * select worker MachineSets see the clone), except `hive.openshift.io/*`: with the machine-pool
 * label Hive would count the clone as part of its MachinePool (and scale or delete it), and it
 * would be taken for an original by a later pass. Annotations are dropped, as MUO does: the
 * cluster autoscaler's min/max-size annotations would let it resize the clone. Owner
 * references, status and server-set metadata are dropped.
 */
export function cloneMachineSet(original: MachineSet): MachineSet {
  const name = cloneName(original);
  const labels: Record<string, string> = {};
  for (const [k, v] of Object.entries(original.metadata?.labels ?? {})) {
    if (!k.startsWith(HIVE_LABEL_PREFIX)) labels[k] = v;
  }
  labels[LABEL_UPGRADE] = 'true';
  const spec = structuredClone(original.spec ?? { selector: {} });
  const own = { [LABEL_UPGRADE]: 'true', [MachineLabel.MachineSet]: name };
  const template = spec.template ?? {};
  const clone: MachineSet = {
    apiVersion: original.apiVersion ?? 'machine.openshift.io/v1beta1',
    kind: original.kind ?? 'MachineSet',
    metadata: { name, namespace: original.metadata?.namespace ?? MACHINE_API_NAMESPACE, labels },
    spec: {
      ...spec,
      replicas: 1,
      selector: { ...spec.selector, matchLabels: { ...spec.selector.matchLabels, ...own } },
      template: { ...template, metadata: { ...template.metadata, labels: { ...template.metadata?.labels, ...own } } },
    },
  };
  return clone;
}

/** How one clone stands. */
export interface CloneStatus {
  /** The clone's name. */
  name: string;
  /** The MachineSet it reserves capacity for. */
  original: string;
  state: 'created' | 'ready' | 'waiting' | 'timedOut' | 'deleting';
  message: string;
}

/**
 * Readiness of one clone (pure), as MUO judges it: `status.replicas == readyReplicas`, exactly
 * one Machine with the clone's machineset label, and that Machine's Node `Ready=True`. Not
 * ready past `creationTimestamp + timeoutMs` is `timedOut`.
 */
export function cloneReadiness(
  clone: MachineSet,
  machines: readonly Machine[],
  nodes: ReadonlyMap<string, Node>,
  options: { now: number; timeoutMs: number; original: string },
): CloneStatus {
  const name = clone.metadata?.name ?? '';
  const base = { name, original: options.original };
  if (clone.metadata?.deletionTimestamp !== undefined)
    return {
      ...base,
      state: 'deleting',
      message: `MachineSet ${name} is being deleted; it is created again once gone`,
    };
  const notReady = (detail: string): CloneStatus => {
    const created = Date.parse(clone.metadata?.creationTimestamp ?? '');
    if (Number.isFinite(created) && options.now > created + options.timeoutMs) {
      return {
        ...base,
        state: 'timedOut',
        message: `MachineSet ${name} provisioning timed out after ${formatMinutes(options.timeoutMs)}: ${detail}`,
      };
    }
    return { ...base, state: 'waiting', message: detail };
  };
  const replicas = clone.status?.replicas ?? 0;
  const ready = clone.status?.readyReplicas ?? 0;
  if (replicas !== ready)
    return notReady(`not all machines are ready for MachineSet ${name} (${ready} of ${replicas} ready)`);
  const own = machines.filter((m) => m.metadata?.labels?.[MachineLabel.MachineSet] === name);
  if (own.length !== 1) return notReady(`MachineSet ${name} has ${own.length} machines, expected 1`);
  const machine = own[0];
  const machineName = machine?.metadata?.name ?? '';
  const nodeName = machine?.status?.nodeRef?.name;
  if (nodeName === undefined || nodeName === '')
    return notReady(`machine ${machineName} (phase ${machine?.status?.phase ?? 'unknown'}) has no node yet`);
  const node = nodes.get(nodeName);
  if (node === undefined) return notReady(`node ${nodeName} of machine ${machineName} does not exist yet`);
  const readyCondition = node.status?.conditions?.find((c) => c.type === 'Ready');
  if (readyCondition?.status !== 'True') return notReady(`node ${nodeName} of machine ${machineName} is not Ready`);
  return { ...base, state: 'ready', message: `node ${nodeName} of MachineSet ${name} is Ready` };
}

function formatMinutes(ms: number): string {
  return `${Math.round(ms / 60_000)}m`;
}

/** Outcome of one scale-up pass. */
export interface ScaleUpResult {
  /**
   * `created`: clones were created this pass (not ready yet); `waiting`: some clone is not ready;
   * `ready`: every clone has a Ready node; `timedOut`: some clone is not ready past the timeout
   * (MUO then continues without extra capacity); `noMachineSets`: nothing matched ("failed to
   * get any machinesets to scale", an error); `noWorkerPool`: no `worker` MachineSet and no
   * extra pools configured (MUO sends `StateScaleSkipped` and continues).
   */
  state: 'created' | 'waiting' | 'ready' | 'timedOut' | 'noMachineSets' | 'noWorkerPool';
  message: string;
  clones: CloneStatus[];
}

/**
 * One pass of the scale-up (step 6): creates every missing clone, else reports readiness.
 * `extraPoolMatcher` is undefined when `scale.extraMachinePools` is empty.
 */
export async function ensureScaleUp(
  client: KubeClient,
  options: {
    now: number;
    timeoutMs: number;
    extraPoolMatcher?: ((pool: string) => boolean) | undefined;
    signal?: AbortSignal;
  },
): Promise<ScaleUpResult> {
  const { signal } = options;
  const all = (await client.list(MachineSetResource, { namespace: MACHINE_API_NAMESPACE, signal })).items;
  const originals = originalMachineSets(all, options.extraPoolMatcher ?? (() => false));
  if (originals.length === 0) {
    return options.extraPoolMatcher === undefined
      ? {
          state: 'noWorkerPool',
          message: `no MachineSet labelled ${LABEL_HIVE_MACHINE_POOL}=${WORKER_MACHINE_POOL} and no extra machine pools`,
          clones: [],
        }
      : { state: 'noMachineSets', message: 'failed to get any machinesets to scale', clones: [] };
  }
  const byName = new Map(all.map((ms) => [ms.metadata?.name ?? '', ms]));
  const created: CloneStatus[] = [];
  for (const original of originals) {
    const name = cloneName(original);
    if (byName.has(name)) continue;
    try {
      await client.create(MachineSetResource, cloneMachineSet(original), signal === undefined ? {} : { signal });
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
    }
    created.push({
      name,
      original: original.metadata?.name ?? '',
      state: 'created',
      message: `created MachineSet ${name}`,
    });
  }
  if (created.length > 0) {
    const names = created.map((c) => c.name);
    return { state: 'created', message: `created MachineSet(s) ${names.join(', ')} for the upgrade`, clones: created };
  }

  const machines = (
    await client.list(MachineResource, { namespace: MACHINE_API_NAMESPACE, labelSelector: UPGRADE_SELECTOR, signal })
  ).items;
  const nodes = await nodesByName(client, machines, signal);
  const clones = originals.map((machineSet) => {
    const clone = byName.get(cloneName(machineSet)) as MachineSet;
    return cloneReadiness(clone, machines, nodes, {
      now: options.now,
      timeoutMs: options.timeoutMs,
      original: machineSet.metadata?.name ?? '',
    });
  });
  const timedOut = clones.filter((c) => c.state === 'timedOut');
  if (timedOut.length > 0) return { state: 'timedOut', message: timedOut.map((c) => c.message).join('; '), clones };
  const pending = clones.filter((c) => c.state !== 'ready');
  if (pending.length > 0) return { state: 'waiting', message: pending.map((c) => c.message).join('; '), clones };
  return {
    state: 'ready',
    message: `${clones.length} extra node(s) ready: ${clones.map((c) => c.name).join(', ')}`,
    clones,
  };
}

/** The Nodes the Machines refer to, by name (missing Nodes are absent). */
async function nodesByName(
  client: KubeClient,
  machines: readonly Machine[],
  signal: AbortSignal | undefined,
): Promise<Map<string, Node>> {
  const nodes = new Map<string, Node>();
  for (const m of machines) {
    const name = m.status?.nodeRef?.name;
    if (name === undefined || name === '' || nodes.has(name)) continue;
    try {
      nodes.set(name, await client.get(NodeResource, undefined, name, signal === undefined ? {} : { signal }));
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
  return nodes;
}

/** Outcome of one scale-down pass. */
export interface ScaleDownResult {
  /** `deleting`: clone Machines remain; `done`: none is left. */
  state: 'deleting' | 'done';
  /** Nodes whose drain the drainer reports as failed (MUO: `upgradeoperator_node_drain_timeout{node_name}=1`). */
  failedNodes: string[];
  /** Clone MachineSets deleted by this pass. */
  deleted: string[];
  /** Clone Machines still present. */
  machines: string[];
}

/**
 * One pass of the scale-down (step 13): deletes every clone MachineSet not already deleting,
 * drains the Nodes of clone Machines in phase Running or Deleting through `drainNode`, and is
 * done when no Machine labelled `upgrade.managed.openshift.io=true` remains.
 */
export async function ensureScaleDown(
  client: KubeClient,
  options: { drainNode: (nodeName: string) => Promise<{ failed: boolean }>; signal?: AbortSignal },
): Promise<ScaleDownResult> {
  const { signal } = options;
  const deleted = await deleteCloneMachineSets(client, signal === undefined ? {} : { signal });
  const machines = (
    await client.list(MachineResource, { namespace: MACHINE_API_NAMESPACE, labelSelector: UPGRADE_SELECTOR, signal })
  ).items;
  const nodes = await nodesByName(client, machines, signal);
  const failedNodes: string[] = [];
  for (const nodeName of nodesToDrain(machines)) {
    if (!nodes.has(nodeName)) continue;
    if ((await options.drainNode(nodeName)).failed) failedNodes.push(nodeName);
  }
  const left = machines.map((m) => m.metadata?.name ?? '');
  return { state: left.length === 0 ? 'done' : 'deleting', failedNodes, deleted, machines: left };
}

/** Nodes of clone Machines in phase Running or Deleting (phase read nil-safely; Machines without a Node skipped). */
export function nodesToDrain(machines: readonly Machine[]): string[] {
  const names = new Set<string>();
  for (const m of machines) {
    const phase = m.status?.phase;
    const node = m.status?.nodeRef?.name;
    if ((phase === 'Running' || phase === 'Deleting') && node !== undefined && node !== '') names.add(node);
  }
  return [...names];
}

/** Deletes every clone MachineSet not already being deleted (the failure policy: no drain). Returns their names. */
export async function deleteCloneMachineSets(
  client: KubeClient,
  options: { signal?: AbortSignal } = {},
): Promise<string[]> {
  const { signal } = options;
  const clones = (
    await client.list(MachineSetResource, { namespace: MACHINE_API_NAMESPACE, labelSelector: UPGRADE_SELECTOR, signal })
  ).items;
  const deleted: string[] = [];
  for (const ms of clones) {
    if (ms.metadata?.deletionTimestamp !== undefined) continue;
    const name = ms.metadata?.name ?? '';
    try {
      await client.delete(
        MachineSetResource,
        ms.metadata?.namespace ?? MACHINE_API_NAMESPACE,
        name,
        signal === undefined ? {} : { signal },
      );
      deleted.push(name);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
  return deleted;
}
