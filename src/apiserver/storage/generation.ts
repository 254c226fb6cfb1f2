/**
 * metadata.generation as kube-apiserver's registry strategies keep it. Only some kinds have one:
 * 'spec' kinds (DaemonSet, Job, PodDisruptionBudget, CustomResourceDefinition) move it when the
 * spec changes, Deployments also when annotations change (they are copied to ReplicaSets), and
 * custom resources when anything but metadata (and status, with a status subresource) changes.
 * Pods, Namespaces, ConfigMaps and the other kinds have none (kube 1.29).
 */
import { jsonEqual, type JsonObject } from '../../lib/json.js';
import type { KubeObject } from '../types.js';

/** How a kind maintains metadata.generation. */
export type GenerationRule = 'spec' | 'specAndAnnotations' | 'content';

function contentPart(kubeObject: KubeObject, hasStatus: boolean): JsonObject {
  const { metadata: _m, status, apiVersion: _a, kind: _k, ...rest } = kubeObject;
  return hasStatus || status === undefined ? rest : { ...rest, status };
}

/** True when an update from `old` to `next` moves the generation under a rule. */
export function generationChanges(
  rule: GenerationRule,
  old: KubeObject,
  next: KubeObject,
  hasStatus: boolean,
): boolean {
  switch (rule) {
    case 'spec':
      return !jsonEqual(next.spec ?? null, old.spec ?? null);
    case 'specAndAnnotations':
      return (
        !jsonEqual(next.spec ?? null, old.spec ?? null) ||
        !jsonEqual(next.metadata.annotations ?? null, old.metadata.annotations ?? null)
      );
    case 'content':
      return !jsonEqual(contentPart(next, hasStatus), contentPart(old, hasStatus));
  }
}

/** The generation of the updated object (undefined: the kind keeps none). */
export function nextGeneration(
  rule: GenerationRule | undefined,
  old: KubeObject,
  next: KubeObject,
  hasStatus: boolean,
): number | undefined {
  if (rule === undefined) return undefined;
  const current = typeof old.metadata.generation === 'number' ? old.metadata.generation : 1;
  return generationChanges(rule, old, next, hasStatus) ? current + 1 : current;
}
