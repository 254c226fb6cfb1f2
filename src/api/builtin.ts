/** Descriptors of the built-in Kubernetes kinds the operator and the simulation use. */
import type {
  ConfigMap,
  Event,
  Namespace,
  Node,
  Pod,
  Secret,
  Service,
  ServiceAccount,
} from 'kubernetes-types/core/v1.js';
import type { Event as EventV1 } from 'kubernetes-types/events/v1.js';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import type { Job } from 'kubernetes-types/batch/v1.js';
import type { Lease } from 'kubernetes-types/coordination/v1.js';
import type { DaemonSet, Deployment, StatefulSet } from 'kubernetes-types/apps/v1.js';
import type { CustomResourceDefinition } from 'kubernetes-types/apiextensions/v1.js';
import { resource } from './resource.js';

export const NamespaceResource = resource<Namespace>({
  group: '',
  version: 'v1',
  kind: 'Namespace',
  plural: 'namespaces',
  namespaced: false,
});
export const NodeResource = resource<Node>({
  group: '',
  version: 'v1',
  kind: 'Node',
  plural: 'nodes',
  namespaced: false,
});
export const PodResource = resource<Pod>({ group: '', version: 'v1', kind: 'Pod', plural: 'pods', namespaced: true });
export const ConfigMapResource = resource<ConfigMap>({
  group: '',
  version: 'v1',
  kind: 'ConfigMap',
  plural: 'configmaps',
  namespaced: true,
});
export const SecretResource = resource<Secret>({
  group: '',
  version: 'v1',
  kind: 'Secret',
  plural: 'secrets',
  namespaced: true,
});
export const ServiceAccountResource = resource<ServiceAccount>({
  group: '',
  version: 'v1',
  kind: 'ServiceAccount',
  plural: 'serviceaccounts',
  namespaced: true,
});
export const ServiceResource = resource<Service>({
  group: '',
  version: 'v1',
  kind: 'Service',
  plural: 'services',
  namespaced: true,
});
export const EventResource = resource<Event>({
  group: '',
  version: 'v1',
  kind: 'Event',
  plural: 'events',
  namespaced: true,
});
export const EventsV1Resource = resource<EventV1>({
  group: 'events.k8s.io',
  version: 'v1',
  kind: 'Event',
  plural: 'events',
  namespaced: true,
});
export const PodDisruptionBudgetResource = resource<PodDisruptionBudget>({
  group: 'policy',
  version: 'v1',
  kind: 'PodDisruptionBudget',
  plural: 'poddisruptionbudgets',
  namespaced: true,
});
export const JobResource = resource<Job>({
  group: 'batch',
  version: 'v1',
  kind: 'Job',
  plural: 'jobs',
  namespaced: true,
});
export const LeaseResource = resource<Lease>({
  group: 'coordination.k8s.io',
  version: 'v1',
  kind: 'Lease',
  plural: 'leases',
  namespaced: true,
});
export const DeploymentResource = resource<Deployment>({
  group: 'apps',
  version: 'v1',
  kind: 'Deployment',
  plural: 'deployments',
  namespaced: true,
});
export const DaemonSetResource = resource<DaemonSet>({
  group: 'apps',
  version: 'v1',
  kind: 'DaemonSet',
  plural: 'daemonsets',
  namespaced: true,
});
export const StatefulSetResource = resource<StatefulSet>({
  group: 'apps',
  version: 'v1',
  kind: 'StatefulSet',
  plural: 'statefulsets',
  namespaced: true,
});
export const CustomResourceDefinitionResource = resource<CustomResourceDefinition>({
  group: 'apiextensions.k8s.io',
  version: 'v1',
  kind: 'CustomResourceDefinition',
  plural: 'customresourcedefinitions',
  namespaced: false,
});
