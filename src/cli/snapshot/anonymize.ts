/**
 * `snapshot --anonymize`: every name that could say whose cluster it is becomes a stable hash —
 * the same name always the same hash, so references still hold: a PodDisruptionBudget's selector
 * still selects its pods, a pool still selects its nodes, a node still names its MachineSet.
 * Replaced: node, namespace (but `openshift-*`, `kube-*`, `default` and the operators'),
 * workload, pod, PodDisruptionBudget, MachineSet and custom pool names; container names and
 * images; label keys outside the `kubernetes.io`, `k8s.io` and `openshift.io` domains and their
 * values, custom node roles, hostnames; alert label values but the alert name and severity.
 * Kept: versions, zones, instance types, well-known labels, counts, placement rules' shape and the
 * upgrade operator's own objects (its configuration, not the workloads'). Pure.
 */
import { createHash } from 'node:crypto';
import type { Affinity, Node, PodSpec, Taint, Toleration, TopologySpreadConstraint } from 'kubernetes-types/core/v1.js';
import type { LabelSelector, ObjectMeta } from 'kubernetes-types/meta/v1.js';
import { MachineAnnotation } from '../../api/openshift/machine-v1beta1/machine.js';
import type { KubeObjectLike } from '../../api/resource.js';
import type { ClusterSnapshot } from './snapshot-scenario.js';

/** `<prefix>-<10 hex of sha256(text)>`: the same text, the same name. */
export function stableName(prefix: string, text: string): string {
  return `${prefix}-${createHash('sha256').update(text).digest('hex').slice(0, 10)}`;
}

const KEPT_NAMESPACE = /^(openshift|kube)(-.*)?$|^default$|^appuio-openshift-upgrade-controller$/;
const WELL_KNOWN_KEY = /(^|\.|\/)(kubernetes\.io|k8s\.io|openshift\.io)\//;
const ROLE_PREFIX = 'node-role.kubernetes.io/';
const BUILT_IN_ROLES = new Set(['master', 'worker', 'infra', 'control-plane']);
const BUILT_IN_POOLS = new Set(['master', 'worker', 'infra']);

/** A namespace name, hashed unless it is the platform's or an operator's. */
export function anonNamespace(ns: string): string {
  return KEPT_NAMESPACE.test(ns) ? ns : stableName('ns', ns);
}

export function anonNode(name: string): string {
  return stableName('node', name);
}

/** A label key: well-known keys kept (a custom node role hashed), others hashed. */
export function anonLabelKey(key: string): string {
  if (key.startsWith(ROLE_PREFIX)) {
    const role = key.slice(ROLE_PREFIX.length);
    return BUILT_IN_ROLES.has(role) ? key : `${ROLE_PREFIX}${stableName('role', role)}`;
  }
  return WELL_KNOWN_KEY.test(key) ? key : stableName('k', key);
}

/** A label value: kept under a well-known key (the hostname hashed as its node), hashed otherwise; empty stays empty. */
export function anonLabelValue(key: string, value: string): string {
  if (value === '') return value;
  if (key === 'kubernetes.io/hostname') return anonNode(value);
  return WELL_KNOWN_KEY.test(key) && !key.startsWith(ROLE_PREFIX) ? value : stableName('v', value);
}

export function anonLabels(labels: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!labels) return labels;
  return Object.fromEntries(Object.entries(labels).map(([k, v]) => [anonLabelKey(k), anonLabelValue(k, v)]));
}

function anonSelector(selector: LabelSelector): LabelSelector {
  return {
    ...(selector.matchLabels ? { matchLabels: anonLabels(selector.matchLabels) ?? {} } : {}),
    ...(selector.matchExpressions
      ? {
          matchExpressions: selector.matchExpressions.map((e) => ({
            key: anonLabelKey(e.key),
            operator: e.operator,
            ...(e.values ? { values: e.values.map((v) => anonLabelValue(e.key, v)) } : {}),
          })),
        }
      : {}),
  };
}

function anonMeta(meta: ObjectMeta | undefined, prefix: string): ObjectMeta {
  const labels = anonLabels(meta?.labels);
  return {
    ...meta,
    ...(meta?.name !== undefined ? { name: stableName(prefix, `${meta.namespace ?? ''}/${meta.name}`) } : {}),
    ...(meta?.namespace !== undefined ? { namespace: anonNamespace(meta.namespace) } : {}),
    ...(labels ? { labels } : {}),
    ...(meta?.ownerReferences
      ? { ownerReferences: meta.ownerReferences.map((r) => ({ ...r, name: stableName('owner', r.name) })) }
      : {}),
  };
}

function anonTaint<T extends Taint | Toleration>(taint: T): T {
  const key = taint.key;
  return {
    ...taint,
    ...(key !== undefined ? { key: anonLabelKey(key) } : {}),
    ...(key !== undefined && taint.value ? { value: anonLabelValue(key, taint.value) } : {}),
  };
}

function anonAffinity(affinity: Affinity): Affinity {
  const term = <T extends { labelSelector?: LabelSelector; namespaces?: string[]; topologyKey: string }>(t: T): T => ({
    ...t,
    ...(t.labelSelector ? { labelSelector: anonSelector(t.labelSelector) } : {}),
    ...(t.namespaces ? { namespaces: t.namespaces.map(anonNamespace) } : {}),
    topologyKey: anonLabelKey(t.topologyKey),
  });
  const podTerms = (a: NonNullable<Affinity['podAffinity']>): NonNullable<Affinity['podAffinity']> => ({
    ...(a.requiredDuringSchedulingIgnoredDuringExecution
      ? { requiredDuringSchedulingIgnoredDuringExecution: a.requiredDuringSchedulingIgnoredDuringExecution.map(term) }
      : {}),
    ...(a.preferredDuringSchedulingIgnoredDuringExecution
      ? {
          preferredDuringSchedulingIgnoredDuringExecution: a.preferredDuringSchedulingIgnoredDuringExecution.map(
            (w) => ({ ...w, podAffinityTerm: term(w.podAffinityTerm) }),
          ),
        }
      : {}),
  });
  const nodeTerm = (t: {
    matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
    matchFields?: Array<{ key: string; operator: string; values?: string[] }>;
  }) => ({
    ...(t.matchExpressions
      ? {
          matchExpressions: t.matchExpressions.map((e) => ({
            ...e,
            key: anonLabelKey(e.key),
            ...(e.values ? { values: e.values.map((v) => anonLabelValue(e.key, v)) } : {}),
          })),
        }
      : {}),
    ...(t.matchFields
      ? { matchFields: t.matchFields.map((e) => ({ ...e, ...(e.values ? { values: e.values.map(anonNode) } : {}) })) }
      : {}),
  });
  const node = affinity.nodeAffinity;
  return {
    ...(node
      ? {
          nodeAffinity: {
            ...(node.requiredDuringSchedulingIgnoredDuringExecution
              ? {
                  requiredDuringSchedulingIgnoredDuringExecution: {
                    nodeSelectorTerms:
                      node.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms.map(nodeTerm),
                  },
                }
              : {}),
            ...(node.preferredDuringSchedulingIgnoredDuringExecution
              ? {
                  preferredDuringSchedulingIgnoredDuringExecution:
                    node.preferredDuringSchedulingIgnoredDuringExecution.map((w) => ({
                      ...w,
                      preference: nodeTerm(w.preference),
                    })),
                }
              : {}),
          },
        }
      : {}),
    ...(affinity.podAffinity ? { podAffinity: podTerms(affinity.podAffinity) } : {}),
    ...(affinity.podAntiAffinity ? { podAntiAffinity: podTerms(affinity.podAntiAffinity) } : {}),
  };
}

/** A pod spec's names replaced: node, containers and images, placement labels. */
export function anonPodSpec(spec: PodSpec): PodSpec {
  const containers = spec.containers.map((c) => ({
    ...c,
    name: stableName('c', c.name),
    image: `image.invalid/${stableName('image', c.image ?? '')}`,
  }));
  return {
    ...spec,
    containers,
    ...(spec.initContainers ? { initContainers: [] } : {}),
    ...(spec.nodeName ? { nodeName: anonNode(spec.nodeName) } : {}),
    ...(spec.nodeSelector ? { nodeSelector: anonLabels(spec.nodeSelector) ?? {} } : {}),
    ...(spec.affinity ? { affinity: anonAffinity(spec.affinity) } : {}),
    ...(spec.tolerations ? { tolerations: spec.tolerations.map(anonTaint) } : {}),
    ...(spec.topologySpreadConstraints
      ? {
          topologySpreadConstraints: spec.topologySpreadConstraints.map((c): TopologySpreadConstraint => ({
            ...c,
            topologyKey: anonLabelKey(c.topologyKey),
            ...(c.labelSelector ? { labelSelector: anonSelector(c.labelSelector) } : {}),
          })),
        }
      : {}),
  };
}

function anonWorkload<
  T extends KubeObjectLike & {
    spec?: { selector?: LabelSelector; template?: { metadata?: ObjectMeta; spec?: PodSpec } };
  },
>(obj: T): T {
  const spec = obj.spec;
  return {
    ...obj,
    metadata: anonMeta(obj.metadata, 'app'),
    ...(spec
      ? {
          spec: {
            ...spec,
            ...(spec.selector ? { selector: anonSelector(spec.selector) } : {}),
            ...(spec.template
              ? {
                  template: {
                    ...spec.template,
                    metadata: { labels: anonLabels(spec.template.metadata?.labels) ?? {} },
                    ...(spec.template.spec ? { spec: anonPodSpec(spec.template.spec) } : {}),
                  },
                }
              : {}),
          },
        }
      : {}),
  };
}

/** The MachineSet owning a Machine (`<machineset>-<suffix>`), hashed, with the Machine's own suffix hashed. */
function anonMachineRef(ref: string, machineSets: readonly string[]): string {
  const [ns = '', machine = ''] = ref.split('/');
  const owner = machineSets.filter((ms) => machine.startsWith(`${ms}-`)).sort((a, b) => b.length - a.length)[0];
  const suffix = stableName('m', machine).slice(-5);
  return `${ns}/${owner ? `${stableName('machineset', owner)}-${suffix}` : stableName('machine', machine)}`;
}

function anonNodeObject(node: Node, machineSets: readonly string[]): Node {
  const annotations = node.metadata?.annotations ?? {};
  const machine = annotations[MachineAnnotation.NodeMachine];
  return {
    ...node,
    metadata: {
      name: anonNode(node.metadata?.name ?? ''),
      labels: anonLabels(node.metadata?.labels) ?? {},
      annotations: machine ? { [MachineAnnotation.NodeMachine]: anonMachineRef(machine, machineSets) } : {},
    },
    ...(node.spec
      ? { spec: { ...node.spec, ...(node.spec.taints ? { taints: node.spec.taints.map(anonTaint) } : {}) } }
      : {}),
  };
}

/** The snapshot with its names replaced (see the module comment). */
export function anonymizeSnapshot(snap: ClusterSnapshot): ClusterSnapshot {
  const machineSetNames = snap.machineSets.map((ms) => ms.metadata?.name ?? '');
  return {
    ...snap,
    pools: snap.pools.map((pool) => {
      const name = pool.metadata?.name ?? '';
      const custom = !BUILT_IN_POOLS.has(name);
      return {
        ...pool,
        metadata: { ...pool.metadata, name: custom ? stableName('pool', name) : name },
        spec: {
          ...pool.spec,
          ...(pool.spec?.nodeSelector ? { nodeSelector: anonSelector(pool.spec.nodeSelector) } : {}),
        },
      };
    }),
    nodes: snap.nodes.map((n) => anonNodeObject(n, machineSetNames)),
    machineSets: snap.machineSets.map((ms) => ({
      ...ms,
      metadata: { ...ms.metadata, name: stableName('machineset', ms.metadata?.name ?? '') },
    })),
    deployments: snap.deployments.map(anonWorkload),
    statefulSets: snap.statefulSets.map(anonWorkload),
    daemonSets: snap.daemonSets.map(anonWorkload),
    pods: snap.pods.map((pod) => ({
      ...pod,
      metadata: anonMeta(pod.metadata, 'pod'),
      ...(pod.spec ? { spec: anonPodSpec(pod.spec) } : {}),
    })),
    podDisruptionBudgets: snap.podDisruptionBudgets.map((pdb) => ({
      ...pdb,
      metadata: anonMeta(pdb.metadata, 'pdb'),
      ...(pdb.spec
        ? { spec: { ...pdb.spec, ...(pdb.spec.selector ? { selector: anonSelector(pdb.spec.selector) } : {}) } }
        : {}),
    })),
    ...(snap.alerts
      ? {
          alerts: snap.alerts.map((a) => ({
            labels: Object.fromEntries(
              Object.entries(a.labels).map(([k, v]) => [
                k,
                k === 'alertname' || k === 'severity' || k === 'alertstate'
                  ? v
                  : k === 'namespace'
                    ? anonNamespace(v)
                    : stableName('v', v),
              ]),
            ),
          })),
        }
      : {}),
  };
}
