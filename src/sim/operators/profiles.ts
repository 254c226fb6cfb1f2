/**
 * Per-ClusterOperator profiles of the simulated cluster: which duration stage an operator belongs
 * to (docs/design/cluster-model.md#durations), the style of its status messages
 * (docs/design/cluster-model.md#how-an-operator-rolls-out; the wording of individual operators is
 * illustrative, docs/design/cluster-model.md#where-the-model-is-approximate) and its
 * `relatedObjects`.
 */
import type { ObjectReference } from '../../api/openshift/config-v1/cluster-operator.js';
import type { Triangle } from '../durations.js';
import { FOLLOWER, LEAD, type OperatorDurationProfile } from './durations.js';

/** How an operator words its Progressing/Available/Degraded conditions. */
export type MessageStyle =
  'static-pod' | 'network' | 'dns' | 'monitoring' | 'ingress' | 'console' | 'machine-api' | 'workload' | 'generic';

/** What the simulation knows about one ClusterOperator. */
export interface OperatorProfile extends OperatorDurationProfile {
  style: MessageStyle;
  /** For the `workload` style: the operand Deployment (`<namespace>/<name>`) and the condition prefix. */
  workload?: { deployment: string; prefix: string };
  relatedObjects: ObjectReference[];
}

/** A light operator of runlevel 50 (a few manifests and one Deployment). */
const LIGHT: Triangle = [0.15, 0.3, 0.5];

function ns(name: string): ObjectReference {
  return { group: '', resource: 'namespaces', name };
}

function op(resource: string, name = 'cluster', group = 'operator.openshift.io'): ObjectReference {
  return { group, resource, name };
}

function p(
  stage: OperatorDurationProfile['stage'],
  share: Triangle,
  style: MessageStyle,
  relatedObjects: ObjectReference[],
  extra: Partial<OperatorProfile> = {},
): OperatorProfile {
  return { stage, share, style, relatedObjects, ...extra };
}

const PROFILES: Readonly<Record<string, OperatorProfile>> = {
  'config-operator': p('configOperator', LEAD, 'generic', [
    op('configs'),
    ns('openshift-config'),
    ns('openshift-config-operator'),
  ]),
  etcd: p('etcdKubeApiserver', FOLLOWER, 'static-pod', [
    op('etcds'),
    ns('openshift-config'),
    ns('openshift-etcd-operator'),
    ns('openshift-etcd'),
  ]),
  'kube-apiserver': p('etcdKubeApiserver', LEAD, 'static-pod', [
    op('kubeapiservers'),
    ns('openshift-config'),
    ns('openshift-kube-apiserver-operator'),
    ns('openshift-kube-apiserver'),
  ]),
  'kube-controller-manager': p('kcmSchedulerCcm', [0.7, 0.7, 0.7], 'static-pod', [
    op('kubecontrollermanagers'),
    ns('openshift-config'),
    ns('openshift-kube-controller-manager-operator'),
    ns('openshift-kube-controller-manager'),
  ]),
  'kube-scheduler': p('kcmSchedulerCcm', [0.35, 0.45, 0.6], 'static-pod', [
    op('kubeschedulers'),
    ns('openshift-config'),
    ns('openshift-kube-scheduler-operator'),
    ns('openshift-kube-scheduler'),
  ]),
  'cloud-controller-manager': p('kcmSchedulerCcm', [0.3, 0.3, 0.3], 'generic', [
    ns('openshift-cloud-controller-manager-operator'),
    ns('openshift-cloud-controller-manager'),
  ]),
  'machine-api': p('runlevel30to40', [0.6, 0.6, 0.6], 'machine-api', [
    ns('openshift-machine-api'),
    { group: 'machine.openshift.io', resource: 'machinesets', namespace: 'openshift-machine-api', name: '' },
  ]),
  'openshift-apiserver': p(
    'runlevel30to40',
    [0.45, 0.55, 0.6],
    'workload',
    [op('openshiftapiservers'), ns('openshift-config'), ns('openshift-apiserver-operator'), ns('openshift-apiserver')],
    {
      workload: { deployment: 'openshift-apiserver/apiserver', prefix: 'APIServerDeployment' },
    },
  ),
  'control-plane-machine-set': p('runlevel30to40', [0.3, 0.4, 0.5], 'generic', [ns('openshift-machine-api')]),
  baremetal: p('runlevel30to40', [0.15, 0.15, 0.15], 'generic', [ns('openshift-machine-api')]),
  'kube-storage-version-migrator': p('runlevel30to40', [0.25, 0.25, 0.25], 'generic', [
    op('kubestorageversionmigrators'),
    ns('openshift-kube-storage-version-migrator'),
    ns('openshift-kube-storage-version-migrator-operator'),
  ]),
  'cloud-credential': p('runlevel50', LIGHT, 'generic', [
    op('cloudcredentials'),
    ns('openshift-cloud-credential-operator'),
  ]),
  authentication: p(
    'runlevel50',
    [0.5, 0.7, 0.9],
    'workload',
    [
      op('authentications'),
      ns('openshift-config'),
      ns('openshift-authentication'),
      ns('openshift-authentication-operator'),
      ns('openshift-oauth-apiserver'),
    ],
    {
      workload: { deployment: 'openshift-oauth-apiserver/apiserver', prefix: 'APIServerDeployment' },
    },
  ),
  'cluster-autoscaler': p('runlevel50', LIGHT, 'generic', [ns('openshift-machine-api')]),
  'csi-snapshot-controller': p('runlevel50', LIGHT, 'generic', [
    op('csisnapshotcontrollers'),
    ns('openshift-cluster-storage-operator'),
  ]),
  'image-registry': p('runlevel50', [0.4, 0.6, 0.85], 'generic', [
    op('configs', 'cluster', 'imageregistry.operator.openshift.io'),
    ns('openshift-image-registry'),
  ]),
  ingress: p('runlevel50', [0.5, 0.75, 0.95], 'ingress', [
    ns('openshift-ingress-operator'),
    {
      group: 'operator.openshift.io',
      resource: 'ingresscontrollers',
      namespace: 'openshift-ingress-operator',
      name: 'default',
    },
    ns('openshift-ingress'),
  ]),
  'machine-approver': p('runlevel50', LIGHT, 'generic', [ns('openshift-cluster-machine-approver')]),
  marketplace: p('runlevel50', LIGHT, 'generic', [ns('openshift-marketplace')]),
  monitoring: p('runlevel50', LEAD, 'monitoring', [
    ns('openshift-monitoring'),
    ns('openshift-user-workload-monitoring'),
  ]),
  'node-tuning': p('runlevel50', LIGHT, 'generic', [ns('openshift-cluster-node-tuning-operator')]),
  'openshift-controller-manager': p(
    'runlevel50',
    FOLLOWER,
    'workload',
    [
      op('openshiftcontrollermanagers'),
      ns('openshift-config'),
      ns('openshift-controller-manager-operator'),
      ns('openshift-controller-manager'),
    ],
    {
      workload: { deployment: 'openshift-controller-manager/controller-manager', prefix: '' },
    },
  ),
  'openshift-samples': p('runlevel50', LIGHT, 'generic', [ns('openshift-cluster-samples-operator'), ns('openshift')]),
  'operator-lifecycle-manager': p('runlevel50', FOLLOWER, 'generic', [ns('openshift-operator-lifecycle-manager')]),
  'operator-lifecycle-manager-catalog': p('runlevel50', FOLLOWER, 'generic', [
    ns('openshift-operator-lifecycle-manager'),
  ]),
  'operator-lifecycle-manager-packageserver': p('runlevel50', FOLLOWER, 'generic', [
    ns('openshift-operator-lifecycle-manager'),
  ]),
  'service-ca': p('runlevel50', LIGHT, 'generic', [
    op('servicecas'),
    ns('openshift-config'),
    ns('openshift-service-ca-operator'),
    ns('openshift-service-ca'),
  ]),
  storage: p('runlevel50', FOLLOWER, 'generic', [
    op('storages'),
    ns('openshift-cluster-storage-operator'),
    ns('openshift-cluster-csi-drivers'),
  ]),
  console: p('runlevel50', FOLLOWER, 'console', [
    op('consoles'),
    ns('openshift-console'),
    ns('openshift-console-operator'),
  ]),
  insights: p('runlevel50', LIGHT, 'generic', [ns('openshift-insights')]),
  network: p('networkDns', LEAD, 'network', [
    op('networks'),
    ns('openshift-network-operator'),
    ns('openshift-ovn-kubernetes'),
  ]),
  dns: p('networkDns', [0.5, 0.6, 0.8], 'dns', [
    op('dnses', 'default'),
    ns('openshift-dns-operator'),
    ns('openshift-dns'),
  ]),
};

/** The profile of a ClusterOperator; unknown operators get a light runlevel-50 profile. */
export function operatorProfile(name: string): OperatorProfile {
  const known = PROFILES[name];
  if (known) return known;
  return p('runlevel50', LIGHT, 'generic', []);
}

/** Names of the operators with a hand-written profile. */
export function profiledOperators(): string[] {
  return Object.keys(PROFILES);
}
