/**
 * The two node health checks of MUO's pre-upgrade check
 * (docs/design/managed-flow.md#health-checks): manually cordoned workers, and nodes tainted for
 * resource pressure. Pure over the node list.
 */
import type { Node, Taint } from 'kubernetes-types/core/v1.js';
import { errorMessage, failed, HealthcheckReason, passed } from '../../engine/health-check.js';
import type { CheckResult, CheckName } from '../../engine/health-check.js';

/** Label of worker nodes. */
export const LABEL_WORKER_ROLE = 'node-role.kubernetes.io/worker';
/** Label of infra nodes (excluded from the cordon check). */
export const LABEL_INFRA_ROLE = 'node-role.kubernetes.io/infra';
/** The taint a cordon adds. */
export const TAINT_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';
/** The Machine Config Daemon's state annotation; `Working` while it updates the node. */
export const ANNOTATION_MCD_STATE = 'machineconfiguration.openshift.io/state';
/** The resource-pressure taints (effect NoSchedule) that fail the check, in MUO's order. */
export const PRESSURE_TAINTS = [
  'node.kubernetes.io/memory-pressure',
  'node.kubernetes.io/disk-pressure',
  'node.kubernetes.io/pid-pressure',
] as const;

function hasTaint(node: Node, key: string, effect: Taint['effect']): boolean {
  return (node.spec?.taints ?? []).some((t) => t.key === key && t.effect === effect);
}

function byName(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Pure: MUO's node selector `node-role.kubernetes.io/worker, !node-role.kubernetes.io/infra`. */
export function isNonInfraWorker(node: Node): boolean {
  const labels = node.metadata?.labels ?? {};
  return LABEL_WORKER_ROLE in labels && !(LABEL_INFRA_ROLE in labels);
}

/** Pure: cordoned = `spec.unschedulable` and the taint `node.kubernetes.io/unschedulable:NoSchedule`. */
export function isCordoned(node: Node): boolean {
  return node.spec?.unschedulable === true && hasTaint(node, TAINT_UNSCHEDULABLE, 'NoSchedule');
}

/** Pure: the Machine Config Daemon is updating the node (so its cordon is not manual). */
export function isUpdating(node: Node): boolean {
  return node.metadata?.annotations?.[ANNOTATION_MCD_STATE] === 'Working';
}

/**
 * Pure: non-infra workers cordoned while the MCD is not updating them. Failure text
 * `NodeUnschedulableHealthcheckFailed:(n1,n2)`, names sorted.
 */
export function checkCordonedNodes(nodes: readonly Node[]): CheckResult {
  const names = nodes
    .filter((n) => isNonInfraWorker(n) && isCordoned(n) && !isUpdating(n))
    .map((n) => n.metadata?.name ?? '')
    .sort(byName);
  if (names.length === 0) return passed('cordoned-nodes');
  return failed(
    'cordoned-nodes',
    HealthcheckReason.ClusterNodeManuallyCordoned,
    `NodeUnschedulableHealthcheckFailed:(${names.join(',')})`,
    `manually cordoned worker nodes: ${names.join(', ')}`,
  );
}

/**
 * Pure: nodes with a NoSchedule memory-, disk- or pid-pressure taint (any role). Failure text
 * `NodeUnschedulableTaintHealthcheckFailed:(n1)`, names unique and sorted; the message says
 * which pressure each node is under.
 */
export function checkNodePressure(nodes: readonly Node[]): CheckResult {
  const found = nodes
    .map((n) => ({
      name: n.metadata?.name ?? '',
      pressures: PRESSURE_TAINTS.filter((key) => hasTaint(n, key, 'NoSchedule')).map((key) =>
        key.slice('node.kubernetes.io/'.length),
      ),
    }))
    .filter((n) => n.pressures.length > 0)
    .sort((a, b) => byName(a.name, b.name));
  if (found.length === 0) return passed('node-pressure');
  return failed(
    'node-pressure',
    HealthcheckReason.ClusterNodeTaintUnschedulable,
    `NodeUnschedulableTaintHealthcheckFailed:(${found.map((n) => n.name).join(',')})`,
    `unschedulable taints on nodes: ${found.map((n) => `${n.name} (${n.pressures.join(', ')})`).join(', ')}`,
  );
}

/** The verdict of a node check when the nodes could not be listed (fail closed; MUO's text). */
export function nodesUnknown(check: Extract<CheckName, 'cordoned-nodes' | 'node-pressure'>, err: unknown): CheckResult {
  const muoText =
    check === 'cordoned-nodes' ? 'NodeUnschedulableHealthcheckFailed:()' : 'NodeUnschedulableTaintHealthcheckFailed:()';
  return failed(check, HealthcheckReason.ClusterNodeQueryFailed, muoText, `unable to list nodes: ${errorMessage(err)}`);
}
