/**
 * The built-in resource types the embedded API server serves, with the per-kind behaviour
 * kube-apiserver's registry strategies give them: defaults, status reset on create, the name
 * rule, and the field labels usable in field selectors.
 */
import type { JsonObject, JsonValue } from '../../lib/json.js';
import { isJsonObject } from '../../lib/json.js';
import type { KubeObject, ResourceType } from '../types.js';
import type { GenerationRule } from '../storage/generation.js';
import { rbacTypes } from './rbac.js';

/** Which name rule metadata.name follows. */
export type NameRule = 'subdomain' | 'label' | 'path';

/** Per-kind behaviour, as kube-apiserver's registry strategies have it. */
export interface KindStrategy {
  nameRule: NameRule;
  /** Status is reset to this on create (kinds whose create ignores status); undefined keeps it. */
  statusOnCreate?: (obj: KubeObject) => JsonObject;
  /** Status is dropped on create (custom resources with a status subresource). */
  dropStatusOnCreate?: boolean;
  /** Fills defaults on create (after uid is assigned) and update; mutates obj. */
  defaults?: (obj: KubeObject) => void;
  /** Extra field labels for field selectors, beyond metadata.name and metadata.namespace. */
  fieldLabels?: (obj: KubeObject) => Record<string, string>;
  /** How metadata.generation is kept; unset: the kind has none. */
  generation?: GenerationRule;
}

function rt(
  group: string,
  version: string,
  kind: string,
  resource: string,
  namespaced: boolean,
  extra: Partial<Pick<ResourceType, 'shortNames' | 'categories' | 'subresources'>> = {},
): ResourceType {
  return {
    group,
    version,
    versions: [version],
    resource,
    singular: kind.toLowerCase(),
    kind,
    listKind: `${kind}List`,
    namespaced,
    shortNames: extra.shortNames ?? [],
    categories: extra.categories ?? [],
    subresources: extra.subresources ?? [],
    custom: false,
  };
}

export const namespaceType = rt('', 'v1', 'Namespace', 'namespaces', false, {
  shortNames: ['ns'],
  subresources: ['status', 'finalize'],
});
export const nodeType = rt('', 'v1', 'Node', 'nodes', false, { shortNames: ['no'], subresources: ['status'] });
export const podType = rt('', 'v1', 'Pod', 'pods', true, {
  shortNames: ['po'],
  categories: ['all'],
  subresources: ['status', 'eviction', 'log'],
});
export const configMapType = rt('', 'v1', 'ConfigMap', 'configmaps', true, { shortNames: ['cm'] });
export const secretType = rt('', 'v1', 'Secret', 'secrets', true);
export const serviceAccountType = rt('', 'v1', 'ServiceAccount', 'serviceaccounts', true, { shortNames: ['sa'] });
export const serviceType = rt('', 'v1', 'Service', 'services', true, {
  shortNames: ['svc'],
  categories: ['all'],
  subresources: ['status'],
});
export const eventType = rt('', 'v1', 'Event', 'events', true, { shortNames: ['ev'] });
export const eventsV1Type = rt('events.k8s.io', 'v1', 'Event', 'events', true, { shortNames: ['ev'] });
export const pdbType = rt('policy', 'v1', 'PodDisruptionBudget', 'poddisruptionbudgets', true, {
  shortNames: ['pdb'],
  subresources: ['status'],
});
export const jobType = rt('batch', 'v1', 'Job', 'jobs', true, { categories: ['all'], subresources: ['status'] });
export const leaseType = rt('coordination.k8s.io', 'v1', 'Lease', 'leases', true);
export const deploymentType = rt('apps', 'v1', 'Deployment', 'deployments', true, {
  shortNames: ['deploy'],
  categories: ['all'],
  subresources: ['status', 'scale'],
});
export const daemonSetType = rt('apps', 'v1', 'DaemonSet', 'daemonsets', true, {
  shortNames: ['ds'],
  categories: ['all'],
  subresources: ['status'],
});
export const crdType = rt(
  'apiextensions.k8s.io',
  'v1',
  'CustomResourceDefinition',
  'customresourcedefinitions',
  false,
  {
    shortNames: ['crd', 'crds'],
    categories: ['api-extensions'],
    subresources: ['status'],
  },
);

/** Every built-in type, in discovery order. */
export const builtinTypes: readonly ResourceType[] = [
  namespaceType,
  nodeType,
  podType,
  configMapType,
  secretType,
  serviceAccountType,
  serviceType,
  eventType,
  eventsV1Type,
  pdbType,
  jobType,
  leaseType,
  deploymentType,
  daemonSetType,
  ...rbacTypes,
  crdType,
];

function obj(value: JsonValue | undefined): JsonObject | undefined {
  return isJsonObject(value) ? value : undefined;
}

function ensure(parent: JsonObject, key: string): JsonObject {
  const v = parent[key];
  if (isJsonObject(v)) return v;
  const fresh: JsonObject = {};
  parent[key] = fresh;
  return fresh;
}

function setDefault(options: JsonObject, key: string, value: JsonValue): void {
  if (options[key] === undefined || options[key] === null) options[key] = value;
}

function str(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function podTemplateDefaults(spec: JsonObject, isJob = false): void {
  const template = obj(spec.template);
  const podSpec = template ? obj(template.spec) : undefined;
  if (podSpec) podSpecDefaults(podSpec, !isJob);
}

function podSpecDefaults(spec: JsonObject, defaultRestartPolicy = true): void {
  if (defaultRestartPolicy) setDefault(spec, 'restartPolicy', 'Always');
  setDefault(spec, 'terminationGracePeriodSeconds', 30);
  setDefault(spec, 'dnsPolicy', 'ClusterFirst');
  setDefault(spec, 'schedulerName', 'default-scheduler');
  setDefault(spec, 'securityContext', {});
  for (const key of ['containers', 'initContainers']) {
    const list = spec[key];
    if (!Array.isArray(list)) continue;
    for (const c of list) {
      if (!isJsonObject(c)) continue;
      setDefault(c, 'terminationMessagePath', '/dev/termination-log');
      setDefault(c, 'terminationMessagePolicy', 'File');
      const image = typeof c.image === 'string' ? c.image : '';
      setDefault(c, 'imagePullPolicy', image.endsWith(':latest') || !/:[^/]+$/.test(image) ? 'Always' : 'IfNotPresent');
      setDefault(c, 'resources', {});
    }
  }
}

const strategies = new Map<string, KindStrategy>([
  [
    '/namespaces',
    {
      nameRule: 'label',
      statusOnCreate: () => ({ phase: 'Active' }),
      defaults: (kubeObject) => {
        const spec = ensure(kubeObject, 'spec');
        setDefault(spec, 'finalizers', ['kubernetes']);
        const labels = ensure(kubeObject.metadata, 'labels');
        labels['kubernetes.io/metadata.name'] = str(kubeObject.metadata.name);
      },
      fieldLabels: (o) => ({ 'status.phase': str(obj(o.status)?.phase) }),
    },
  ],
  [
    '/nodes',
    {
      nameRule: 'subdomain',
      fieldLabels: (o) => ({ 'spec.unschedulable': String(obj(o.spec)?.unschedulable === true) }),
    },
  ],
  [
    '/pods',
    {
      nameRule: 'subdomain',
      statusOnCreate: (o): JsonObject => ({ phase: 'Pending', qosClass: qosClass(o) }),
      defaults: (o) => podSpecDefaults(ensure(o, 'spec')),
      fieldLabels: (kubeObject) => {
        const spec = obj(kubeObject.spec);
        const status = obj(kubeObject.status);
        return {
          'spec.nodeName': str(spec?.nodeName),
          'spec.restartPolicy': str(spec?.restartPolicy),
          'spec.schedulerName': str(spec?.schedulerName),
          'spec.serviceAccountName': str(spec?.serviceAccountName),
          'spec.hostNetwork': String(spec?.hostNetwork === true),
          'status.phase': str(status?.phase),
          'status.podIP': str(status?.podIP),
          'status.nominatedNodeName': str(status?.nominatedNodeName),
        };
      },
    },
  ],
  ['/configmaps', { nameRule: 'subdomain' }],
  [
    '/secrets',
    {
      nameRule: 'subdomain',
      defaults: (o) => setDefault(o, 'type', 'Opaque'),
      fieldLabels: (o) => ({ type: str(o.type) }),
    },
  ],
  ['/serviceaccounts', { nameRule: 'subdomain' }],
  [
    '/services',
    {
      nameRule: 'label',
      statusOnCreate: () => ({ loadBalancer: {} }),
      defaults: (kubeObject) => {
        const spec = ensure(kubeObject, 'spec');
        setDefault(spec, 'type', 'ClusterIP');
        setDefault(spec, 'sessionAffinity', 'None');
        if (Array.isArray(spec.ports))
          for (const p of spec.ports) if (isJsonObject(p)) setDefault(p, 'protocol', 'TCP');
      },
    },
  ],
  [
    '/events',
    {
      nameRule: 'subdomain',
      fieldLabels: (kubeObject) => {
        const io = obj(kubeObject.involvedObject);
        return {
          'involvedObject.kind': str(io?.kind),
          'involvedObject.namespace': str(io?.namespace),
          'involvedObject.name': str(io?.name),
          'involvedObject.uid': str(io?.uid),
          'involvedObject.apiVersion': str(io?.apiVersion),
          'involvedObject.resourceVersion': str(io?.resourceVersion),
          'involvedObject.fieldPath': str(io?.fieldPath),
          reason: str(kubeObject.reason),
          reportingComponent: str(kubeObject.reportingComponent),
          source: str(obj(kubeObject.source)?.component),
          type: str(kubeObject.type),
        };
      },
    },
  ],
  [
    'policy/poddisruptionbudgets',
    {
      nameRule: 'subdomain',
      generation: 'spec',
      statusOnCreate: () => ({ disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 }),
    },
  ],
  [
    'batch/jobs',
    {
      nameRule: 'subdomain',
      generation: 'spec',
      statusOnCreate: () => ({}),
      defaults: jobDefaults,
      fieldLabels: (o) => ({ 'status.successful': str(obj(o.status)?.succeeded ?? 0) }),
    },
  ],
  ['coordination.k8s.io/leases', { nameRule: 'subdomain' }],
  [
    'apps/deployments',
    {
      nameRule: 'subdomain',
      generation: 'specAndAnnotations',
      statusOnCreate: () => ({}),
      defaults: (kubeObject) => {
        const spec = ensure(kubeObject, 'spec');
        setDefault(spec, 'replicas', 1);
        setDefault(spec, 'strategy', {
          type: 'RollingUpdate',
          rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' },
        });
        setDefault(spec, 'revisionHistoryLimit', 10);
        setDefault(spec, 'progressDeadlineSeconds', 600);
        podTemplateDefaults(spec);
      },
    },
  ],
  [
    'apps/daemonsets',
    {
      nameRule: 'subdomain',
      generation: 'spec',
      statusOnCreate: () => ({
        currentNumberScheduled: 0,
        numberMisscheduled: 0,
        desiredNumberScheduled: 0,
        numberReady: 0,
      }),
      defaults: (kubeObject) => {
        const spec = ensure(kubeObject, 'spec');
        setDefault(spec, 'updateStrategy', {
          type: 'RollingUpdate',
          rollingUpdate: { maxUnavailable: 1, maxSurge: 0 },
        });
        setDefault(spec, 'revisionHistoryLimit', 10);
        podTemplateDefaults(spec);
      },
    },
  ],
  [
    'apiextensions.k8s.io/customresourcedefinitions',
    { nameRule: 'subdomain', generation: 'spec', statusOnCreate: () => ({}), defaults: crdDefaults },
  ],
]);

/** apiextensions' SetDefaults: names.singular and names.listKind from the kind, conversion None. */
function crdDefaults(kubeObject: KubeObject): void {
  const spec = ensure(kubeObject, 'spec');
  const names = ensure(spec, 'names');
  const kind = str(names.kind);
  if (kind !== '') {
    if (str(names.singular) === '') names.singular = kind.toLowerCase();
    if (str(names.listKind) === '') names.listKind = `${kind}List`;
  }
  setDefault(spec, 'conversion', { strategy: 'None' });
}

function qosClass(kubeObject: KubeObject): string {
  const containers = obj(kubeObject.spec)?.containers;
  if (!Array.isArray(containers)) return 'BestEffort';
  let any = false;
  for (const c of containers) {
    const res = isJsonObject(c) ? obj(c.resources) : undefined;
    if (res && (Object.keys(obj(res.requests) ?? {}).length > 0 || Object.keys(obj(res.limits) ?? {}).length > 0))
      any = true;
  }
  return any ? 'Burstable' : 'BestEffort';
}

function jobDefaults(kubeObject: KubeObject): void {
  const spec = ensure(kubeObject, 'spec');
  if (spec.completions === undefined && spec.parallelism === undefined) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  setDefault(spec, 'parallelism', 1);
  setDefault(spec, 'backoffLimit', 6);
  setDefault(spec, 'completionMode', 'NonIndexed');
  setDefault(spec, 'suspend', false);
  setDefault(spec, 'podReplacementPolicy', 'TerminatingOrFailed');
  const uid = str(kubeObject.metadata.uid);
  const name = str(kubeObject.metadata.name);
  if (uid !== '' && spec.manualSelector !== true && spec.selector === undefined) {
    spec.selector = { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } };
    const template = ensure(spec, 'template');
    const meta = ensure(template, 'metadata');
    const labels = ensure(meta, 'labels');
    labels['batch.kubernetes.io/controller-uid'] = uid;
    labels['batch.kubernetes.io/job-name'] = name;
    labels['controller-uid'] = uid;
    labels['job-name'] = name;
  }
  podTemplateDefaults(spec, true);
}

const customStrategy: KindStrategy = { nameRule: 'subdomain', generation: 'content' };
const customStatusStrategy: KindStrategy = { nameRule: 'subdomain', generation: 'content', dropStatusOnCreate: true };
const plainStrategy: KindStrategy = { nameRule: 'subdomain' };

/** The strategy of a resource type; custom resources get the generic one. */
export function strategyFor(type: ResourceType): KindStrategy {
  if (type.custom) return type.subresources.includes('status') ? customStatusStrategy : customStrategy;
  const key = `${type.group === 'events.k8s.io' ? '' : type.group}/${type.resource}`;
  return strategies.get(key) ?? plainStrategy;
}

/** Field labels of an object for field selectors: metadata.name, metadata.namespace and the kind's own. */
export function fieldLabelsOf(type: ResourceType, kubeObject: KubeObject): Record<string, string> {
  const base: Record<string, string> = { 'metadata.name': str(kubeObject.metadata.name) };
  if (type.namespaced) base['metadata.namespace'] = str(kubeObject.metadata.namespace);
  const extra = strategyFor(type).fieldLabels?.(kubeObject) ?? {};
  return { ...base, ...extra };
}
