/**
 * The pool invariants of docs/design/cluster-model.md#invariants, as checks a test or a scenario
 * run applies after every event. Each returns human-readable violations (empty when all hold).
 */
import type { Node } from 'kubernetes-types/core/v1.js';
import {
  MachineConfigNodeAnnotation,
  type MachineConfigPool,
} from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { nodeAnnotation, nodesForPool, primaryPoolName } from './node-state.js';
import { resolveMaxUnavailable } from './node-selection.js';
import { poolConditionTrue } from './pool-status.js';

/** Counter relations and `Updated=True ⇔ updated == ready == machineCount and unavailable == 0`. */
export function poolStatusViolations(pool: MachineConfigPool): string[] {
  const s = pool.status;
  const name = pool.metadata?.name ?? '';
  if (!s) return [];
  const out: string[] = [];
  if (s.updatedMachineCount > s.machineCount)
    out.push(`pool ${name}: updatedMachineCount ${s.updatedMachineCount} > machineCount ${s.machineCount}`);
  if (s.readyMachineCount > s.updatedMachineCount)
    out.push(`pool ${name}: readyMachineCount ${s.readyMachineCount} > updatedMachineCount ${s.updatedMachineCount}`);
  const all =
    s.updatedMachineCount === s.machineCount &&
    s.readyMachineCount === s.machineCount &&
    s.unavailableMachineCount === 0;
  if (s.conditions && poolConditionTrue(pool, 'Updated') !== all)
    out.push(`pool ${name}: Updated=${String(!all)} but counters say ${all ? 'all' : 'not all'} updated`);
  return out;
}

/** `status.configuration` changes only when the pool becomes fully updated, to `spec.configuration`. */
export function poolTransitionViolations(before: MachineConfigPool, after: MachineConfigPool): string[] {
  const was = before.status?.configuration.name;
  const now = after.status?.configuration.name;
  if (was === undefined || was === '' || was === now) return [];
  const name = after.metadata?.name ?? '';
  const out: string[] = [];
  if (!poolConditionTrue(after, 'Updated'))
    out.push(`pool ${name}: status.configuration moved ${was} → ${now ?? ''} while not Updated`);
  if (now !== after.spec.configuration?.name)
    out.push(
      `pool ${name}: status.configuration moved to ${now ?? ''}, not to spec ${after.spec.configuration?.name ?? ''}`,
    );
  return out;
}

function movingNode(node: Node): boolean {
  return (
    nodeAnnotation(node, MachineConfigNodeAnnotation.DesiredConfig) !==
    nodeAnnotation(node, MachineConfigNodeAnnotation.CurrentConfig)
  );
}

function maxUnavailableOf(pool: MachineConfigPool, members: number): number | undefined {
  try {
    return resolveMaxUnavailable(pool.spec.maxUnavailable, members);
  } catch {
    return undefined; // an invalid maxUnavailable: the MCO reports it; nothing to hold here
  }
}

function tooManyMoving(pool: MachineConfigPool, moving: readonly string[], members: number): string[] {
  const max = maxUnavailableOf(pool, members);
  if (max === undefined || moving.length <= max) return [];
  return [
    `pool ${pool.metadata?.name ?? ''}: ${moving.length} nodes updating at once (${[...moving].sort().join(', ')}), maxUnavailable ${max}`,
  ];
}

/**
 * At most maxUnavailable nodes of a pool are moving between configs (desiredConfig ≠ currentConfig):
 * the nodes the MCO itself made unavailable. Nodes unavailable for outside reasons only lower that.
 */
export function unavailableViolations(pools: readonly MachineConfigPool[], nodes: readonly Node[]): string[] {
  const out: string[] = [];
  for (const pool of pools) {
    const members = nodesForPool(pool, nodes, pools);
    out.push(
      ...tooManyMoving(
        pool,
        members.filter(movingNode).map((n) => n.metadata?.name ?? ''),
        members.length,
      ),
    );
  }
  return out;
}

/**
 * {@link unavailableViolations} kept incrementally, for runs with hundreds of nodes: each node
 * event updates its pool's member count and set of moving nodes, and only that pool is checked.
 * Pool membership is recomputed for every node only when the set of pools or a selector changes.
 */
export class UpdatingNodesTracker {
  readonly #nodes = new Map<string, { pool: string | undefined; moving: boolean }>();
  readonly #pools = new Map<string, { members: number; moving: Set<string> }>();

  #count(pool: string): { members: number; moving: Set<string> } {
    let c = this.#pools.get(pool);
    if (!c) {
      c = { members: 0, moving: new Set() };
      this.#pools.set(pool, c);
    }
    return c;
  }

  #remove(name: string): string | undefined {
    const old = this.#nodes.get(name);
    if (!old) return undefined;
    this.#nodes.delete(name);
    if (old.pool === undefined) return undefined;
    const c = this.#count(old.pool);
    c.members--;
    c.moving.delete(name);
    return old.pool;
  }

  /** Records a node's current state; returns the pools whose counts changed. */
  setNode(node: Node, pools: readonly MachineConfigPool[]): string[] {
    const name = node.metadata?.name ?? '';
    const old = this.#remove(name);
    const pool = primaryPoolName(node, pools);
    const moving = movingNode(node);
    this.#nodes.set(name, { pool, moving });
    if (pool !== undefined) {
      const c = this.#count(pool);
      c.members++;
      if (moving) c.moving.add(name);
    }
    return [...new Set([old, pool].filter((p): p is string => p !== undefined))];
  }

  /** Forgets a deleted node; returns the pool it was in. */
  deleteNode(name: string): string[] {
    const old = this.#remove(name);
    return old === undefined ? [] : [old];
  }

  /** Recomputes every membership (after a pool was added, deleted or its nodeSelector changed). */
  reset(nodes: readonly Node[], pools: readonly MachineConfigPool[]): void {
    this.#nodes.clear();
    this.#pools.clear();
    for (const n of nodes) this.setNode(n, pools);
  }

  /** The maxUnavailable invariant (docs/design/cluster-model.md#invariants) for one pool, from the recorded nodes. */
  violations(pool: MachineConfigPool): string[] {
    const c = this.#pools.get(pool.metadata?.name ?? '');
    if (!c) return [];
    return tooManyMoving(pool, [...c.moving], c.members);
  }
}
