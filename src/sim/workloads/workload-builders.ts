/**
 * Builders of scenario workloads: a Deployment with a PodDisruptionBudget over its pods, the
 * shape scenarios use for "PDB healthy", "PDB at limit" (`maxUnavailable: 0` or
 * `minAvailable == replicas`) and "PDB blocks the drain".
 */
import type { Deployment } from 'kubernetes-types/apps/v1.js';
import type { Namespace } from 'kubernetes-types/core/v1.js';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';

export interface WorkloadSpec {
  name: string;
  namespace: string;
  replicas: number;
  /** Exactly one of minAvailable and maxUnavailable (a number or a percentage). */
  minAvailable?: number | string;
  maxUnavailable?: number | string;
  /** Node selector of the pods (default: workers, `node-role.kubernetes.io/worker: ""`). */
  nodeSelector?: Record<string, string>;
  image?: string;
}

/** The objects of a scenario workload. */
export interface Workload {
  namespace: Namespace;
  deployment: Deployment;
  pdb: PodDisruptionBudget;
}

/** A Deployment of `replicas` pods labelled `app: <name>` and a PDB selecting them. */
export function workloadWithPdb(spec: WorkloadSpec): Workload {
  if ((spec.minAvailable === undefined) === (spec.maxUnavailable === undefined)) {
    throw new Error(`workload ${spec.namespace}/${spec.name}: set exactly one of minAvailable and maxUnavailable`);
  }
  const labels = { app: spec.name };
  const budget =
    spec.minAvailable !== undefined
      ? { minAvailable: spec.minAvailable }
      : { maxUnavailable: spec.maxUnavailable ?? 0 };
  return {
    namespace: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: spec.namespace } },
    deployment: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: spec.name, namespace: spec.namespace, labels },
      spec: {
        replicas: spec.replicas,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            nodeSelector: spec.nodeSelector ?? { 'node-role.kubernetes.io/worker': '' },
            containers: [{ name: spec.name, image: spec.image ?? 'registry.example.com/workloads/app:1.0' }],
          },
        },
      },
    },
    pdb: {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: spec.name, namespace: spec.namespace },
      spec: { ...budget, selector: { matchLabels: labels } },
    },
  };
}
