/**
 * The pool invariants of update-mechanics.md §8.7, as checks a test or a scenario run applies
 * after every event. Each returns human-readable violations (empty when all hold).
 */
import type { Node } from 'kubernetes-types/core/v1.js';
import { MachineConfigNodeAnnotation, type MachineConfigPool } from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { nodeAnnotation, nodesForPool } from './node-state.js';
import { resolveMaxUnavailable } from './node-selection.js';
import { poolConditionTrue } from './pool-status.js';

/** Counter relations and `Updated=True ⇔ updated == ready == machineCount and unavailable == 0`. */
export function poolStatusViolations(pool: MachineConfigPool): string[] {
  const s = pool.status;
  const name = pool.metadata?.name ?? '';
  if (!s) return [];
  const out: string[] = [];
  if (s.updatedMachineCount > s.machineCount) out.push(`pool ${name}: updatedMachineCount ${s.updatedMachineCount} > machineCount ${s.machineCount}`);
  if (s.readyMachineCount > s.updatedMachineCount) out.push(`pool ${name}: readyMachineCount ${s.readyMachineCount} > updatedMachineCount ${s.updatedMachineCount}`);
  const all = s.updatedMachineCount === s.machineCount && s.readyMachineCount === s.machineCount && s.unavailableMachineCount === 0;
  if (s.conditions && poolConditionTrue(pool, 'Updated') !== all) out.push(`pool ${name}: Updated=${String(!all)} but counters say ${all ? 'all' : 'not all'} updated`);
  return out;
}

/** `status.configuration` changes only when the pool becomes fully updated, to `spec.configuration`. */
export function poolTransitionViolations(before: MachineConfigPool, after: MachineConfigPool): string[] {
  const was = before.status?.configuration.name;
  const now = after.status?.configuration.name;
  if (was === undefined || was === '' || was === now) return [];
  const name = after.metadata?.name ?? '';
  const out: string[] = [];
  if (!poolConditionTrue(after, 'Updated')) out.push(`pool ${name}: status.configuration moved ${was} → ${now ?? ''} while not Updated`);
  if (now !== after.spec.configuration?.name) out.push(`pool ${name}: status.configuration moved to ${now ?? ''}, not to spec ${after.spec.configuration?.name ?? ''}`);
  return out;
}

/**
 * At most maxUnavailable nodes of a pool are moving between configs (desiredConfig ≠ currentConfig):
 * the nodes the MCO itself made unavailable. Nodes unavailable for outside reasons only lower that.
 */
export function unavailableViolations(pools: readonly MachineConfigPool[], nodes: readonly Node[]): string[] {
  const out: string[] = [];
  for (const pool of pools) {
    const members = nodesForPool(pool, nodes, pools);
    const moving = members.filter((n) => nodeAnnotation(n, MachineConfigNodeAnnotation.DesiredConfig) !== nodeAnnotation(n, MachineConfigNodeAnnotation.CurrentConfig));
    const max = resolveMaxUnavailable(pool.spec.maxUnavailable, members.length);
    if (moving.length > max) out.push(`pool ${pool.metadata?.name ?? ''}: ${moving.length} nodes updating at once (${moving.map((n) => n.metadata?.name ?? '').join(', ')}), maxUnavailable ${max}`);
  }
  return out;
}
