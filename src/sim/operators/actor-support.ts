/**
 * Small pure helpers of the operator actors: the cluster's size as the operators see it, the
 * versions an operator reports at a release, the static-pod revision read back from status, and
 * how many visible steps a rollout's messages go through.
 */
import type { Node } from 'kubernetes-types/core/v1.js';
import semver from 'semver';
import type { ClusterOperator, OperandVersion } from '../../api/openshift/config-v1/cluster-operator.js';
import { hashString } from '../../lib/random.js';
import { operandVersions } from '../releases/payload.js';
import type { MessageStyle } from './profiles.js';

/** Node counts: all nodes, and control-plane nodes (3 when the cluster lists none, as an installed HA cluster has). */
export interface ClusterSize {
  nodes: number;
  masters: number;
}

/** Counts nodes and control-plane nodes (`node-role.kubernetes.io/master` or `…/control-plane`). */
export function clusterSize(nodes: readonly Node[]): ClusterSize {
  const masters = nodes.filter((node) => {
    const labels = node.metadata?.labels ?? {};
    return 'node-role.kubernetes.io/master' in labels || 'node-role.kubernetes.io/control-plane' in labels;
  }).length;
  return { nodes: nodes.length, masters: masters > 0 ? masters : 3 };
}

/** The `status.versions` a ClusterOperator reports at a release: exactly what the payload's manifest lists. */
export function operandVersionsAt(name: string, version: string): OperandVersion[] {
  const v = semver.parse(version);
  if (!v) return [{ name: 'operator', version }];
  return operandVersions(name, version, v.minor, v.patch);
}

/** The static-pod revision a ClusterOperator reports (the highest `at revision N`), or a stable per-name start. */
export function revisionOf(co: ClusterOperator | undefined, name: string): number {
  let best: number | undefined;
  for (const c of co?.status?.conditions ?? []) {
    for (const m of (c.message ?? '').matchAll(/at revision (\d+)/g)) best = Math.max(best ?? 0, Number(m[1]));
  }
  return best ?? 5 + (hashString(name) % 10);
}

/** How many steps a rollout's Progressing message advances through (nodes, replicas, or one). */
export function unitCount(style: MessageStyle, size: ClusterSize): number {
  switch (style) {
    case 'static-pod':
    case 'workload':
      return Math.max(1, size.masters);
    case 'network':
      return Math.max(1, size.nodes);
    case 'ingress':
    case 'console':
      return 2;
    case 'dns':
    case 'monitoring':
    case 'machine-api':
    case 'generic':
      return 1;
  }
}
