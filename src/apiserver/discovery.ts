/**
 * Discovery documents: /version, /api, /api/v1, /apis, /apis/<group>, /apis/<group>/<version>,
 * built from the types the store serves now (so they change as CRDs come and go).
 */
import type { JsonObject } from '../lib/json.js';
import { apiVersionOf, type ResourceType } from './types.js';

/** The Kubernetes version we claim: OpenShift 4.16 ships Kubernetes 1.29. */
export const KUBE_VERSION = { major: '1', minor: '29', gitVersion: 'v1.29.10+upgrade-operator' } as const;

/** The /version document. */
export function versionInfo(): JsonObject {
  return {
    major: KUBE_VERSION.major,
    minor: KUBE_VERSION.minor,
    gitVersion: KUBE_VERSION.gitVersion,
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    buildDate: '2026-01-01T00:00:00Z',
    goVersion: 'go1.21.13',
    compiler: 'gc',
    platform: 'linux/amd64',
  };
}

const kubeVersionRe = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

/** Kubernetes version priority (v2 > v1 > v1beta2 > v1beta1 > v1alpha1 > others): negative when a sorts first. */
export function compareKubeVersions(left: string, right: string): number {
  const ma = kubeVersionRe.exec(left);
  const mb = kubeVersionRe.exec(right);
  if (!ma && !mb) return left < right ? -1 : left > right ? 1 : 0;
  if (!ma) return 1;
  if (!mb) return -1;
  const rank = (m: RegExpExecArray): number => (m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0);
  if (rank(ma) !== rank(mb)) return rank(mb) - rank(ma);
  if (ma[1] !== mb[1]) return Number(mb[1]) - Number(ma[1]);
  return Number(mb[3] ?? 0) - Number(ma[3] ?? 0);
}

const allVerbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

function subresourceEntry(rt: ResourceType, sub: string): JsonObject {
  const base: JsonObject = { name: `${rt.resource}/${sub}`, singularName: '', namespaced: rt.namespaced };
  switch (sub) {
    case 'eviction':
      return { ...base, group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] };
    case 'scale':
      return { ...base, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] };
    case 'log':
      return { ...base, kind: rt.kind, verbs: ['get'] };
    case 'finalize':
      return { ...base, kind: rt.kind, verbs: ['update'] };
    default:
      return { ...base, kind: rt.kind, verbs: ['get', 'patch', 'update'] };
  }
}

/** The APIResourceList of one group/version. */
export function apiResourceList(group: string, version: string, types: ResourceType[]): JsonObject {
  const resources: JsonObject[] = [];
  for (const rt of types) {
    if (rt.group !== group || !rt.versions.includes(version)) continue;
    const entry: JsonObject = {
      name: rt.resource,
      singularName: rt.singular,
      namespaced: rt.namespaced,
      kind: rt.kind,
      verbs: allVerbs,
    };
    if (rt.shortNames.length > 0) entry.shortNames = rt.shortNames;
    if (rt.categories.length > 0) entry.categories = rt.categories;
    resources.push(entry);
    for (const sub of rt.subresources) resources.push(subresourceEntry(rt, sub));
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: apiVersionOf(group, version), resources };
}

/** Served versions of a group, preferred first. */
export function groupVersions(group: string, types: ResourceType[]): string[] {
  const set = new Set<string>();
  for (const rt of types) if (rt.group === group) for (const v of rt.versions) set.add(v);
  return [...set].sort(compareKubeVersions);
}

function groupDoc(group: string, types: ResourceType[]): JsonObject | undefined {
  const versions = groupVersions(group, types);
  if (versions.length === 0) return undefined;
  const entries = versions.map((v) => ({ groupVersion: apiVersionOf(group, v), version: v }));
  return { name: group, versions: entries, preferredVersion: entries[0]! };
}

/** The APIGroup document of /apis/<group>. */
export function apiGroup(group: string, types: ResourceType[]): JsonObject | undefined {
  const doc = groupDoc(group, types);
  return doc && { kind: 'APIGroup', apiVersion: 'v1', ...doc };
}

/** The APIGroupList of /apis: built-in groups in registration order, then custom groups by name. */
export function apiGroupList(types: ResourceType[]): JsonObject {
  const builtin: string[] = [];
  const custom: string[] = [];
  for (const rt of types) {
    if (rt.group === '') continue;
    const list = rt.custom ? custom : builtin;
    if (!builtin.includes(rt.group) && !custom.includes(rt.group)) list.push(rt.group);
  }
  const groups = [...builtin, ...custom.sort()]
    .map((g) => groupDoc(g, types))
    .filter((g): g is JsonObject => g !== undefined);
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

/** The APIVersions document of /api. */
export function apiVersions(serverAddress: string): JsonObject {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}
