/**
 * Which Machines a MachineSet removes on scale-down, with the machine-api-operator's delete
 * priorities (`pkg/controller/machineset/delete_policy.go`): a Machine already deleting, then one
 * annotated `machine.openshift.io/delete-machine` (or the older
 * `machine.openshift.io/cluster-api-delete-machine`), then failed ones, then by policy — Oldest
 * maps age onto 0–100 (older first), Newest the reverse, Random prefers Machines without a Node.
 * Ties keep the given order (the caller shuffles for Random).
 */
import type { Machine } from '../../api/openshift/machine-v1beta1/machine.js';
import { MachineAnnotation } from '../../api/openshift/machine-v1beta1/machine.js';

export type DeletePolicy = 'Random' | 'Newest' | 'Oldest';

const MUST_DELETE = 100;
const BETTER_DELETE = 50;
const PREFER_DELETE = 40;
const COULD_DELETE = 20;
const MUST_NOT_DELETE = 0;
const SECONDS_PER_TEN_DAYS = 864_000;
const OLD_DELETE_ANNOTATION = 'machine.openshift.io/cluster-api-delete-machine';

function marked(machine: Machine): boolean {
  const a = machine.metadata?.annotations ?? {};
  return (a[MachineAnnotation.DeleteMachine] ?? '') !== '' || (a[OLD_DELETE_ANNOTATION] ?? '') !== '';
}

function failed(machine: Machine): boolean {
  return machine.status?.errorReason !== undefined || machine.status?.errorMessage !== undefined;
}

function oldestPriority(machine: Machine, now: number): number {
  if (machine.metadata?.deletionTimestamp !== undefined || marked(machine) || failed(machine)) return MUST_DELETE;
  const created = Date.parse(machine.metadata?.creationTimestamp ?? '');
  if (!Number.isFinite(created)) return MUST_NOT_DELETE;
  const ageSeconds = (now - created) / 1000;
  if (ageSeconds < 0) return MUST_NOT_DELETE;
  return MUST_DELETE * (1 - Math.exp(-ageSeconds / SECONDS_PER_TEN_DAYS));
}

/** The delete priority of a Machine under a policy (higher goes first). */
export function deletePriority(policy: DeletePolicy, machine: Machine, now: number): number {
  switch (policy) {
    case 'Oldest':
      return oldestPriority(machine, now);
    case 'Newest':
      if (machine.metadata?.deletionTimestamp !== undefined || marked(machine) || failed(machine)) return MUST_DELETE;
      return MUST_DELETE - oldestPriority(machine, now);
    case 'Random':
      if (machine.metadata?.deletionTimestamp !== undefined) return MUST_DELETE;
      if (marked(machine) || failed(machine)) return BETTER_DELETE;
      if (machine.status?.nodeRef === undefined) return PREFER_DELETE;
      return COULD_DELETE;
  }
}

/** The `count` Machines to delete, highest priority first (a stable sort: ties keep the input order). */
export function machinesToDelete(
  machines: readonly Machine[],
  count: number,
  policy: DeletePolicy,
  now: number,
): Machine[] {
  if (count <= 0) return [];
  if (count >= machines.length) return [...machines];
  return machines
    .map((m, i) => ({ m, i, p: deletePriority(policy, m, now) }))
    .sort((a, b) => b.p - a.p || a.i - b.i)
    .slice(0, count)
    .map((x) => x.m);
}
