/**
 * The release payload model: what a release image carries for the CVO. Per release:
 * `release-metadata` (cincinnati-metadata-v0), `image-references` (an ImageStream of the component
 * images) and the ordered `release-manifests`, named
 * `0000_<runlevel>_<component>_<nn>_<name>.yaml`, one document each, ClusterOperator manifests
 * closing each operator's component with the versions the CVO gates on
 * (docs/design/cluster-model.md#the-cvos-gate,
 * docs/design/cluster-model.md#operators-and-runlevels,
 * docs/design/cluster-model.md#manifests-and-runlevels,
 * docs/design/cluster-model.md#progress-counting). Deterministic per version. {@link taskGraph}
 * groups the manifests the way the CVO's update mode does
 * (docs/design/cluster-model.md#the-task-graph).
 */
import { createHash } from 'node:crypto';
import type { JsonObject } from '../../lib/json.js';
import type { Release } from './catalogue.js';
import {
  CAPABILITIES_SINCE_416,
  COMPONENT_IMAGES,
  COMPONENTS,
  MINOR_DELTAS,
  type ComponentSpec,
} from './payload-components.js';

/** `versions[]` entry of a ClusterOperator. */
export interface OperandVersion {
  name: string;
  version: string;
}

/** One manifest file (one document = one CVO task). */
export interface PayloadManifest {
  /** File name under /release-manifests. */
  file: string;
  /** 1-based position in the sorted payload (the task's `Index` of `Total`). */
  index: number;
  runlevel: number;
  component: string;
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
  /** `capability.openshift.io/name`, when the manifest belongs to an optional capability. */
  capability?: string;
  /** For ClusterOperator manifests: the versions the CVO waits for. */
  operandVersions?: OperandVersion[];
}

/** release-metadata as in the image (`/release-manifests/release-metadata`). */
export interface ReleaseMetadata {
  kind: 'cincinnati-metadata-v0';
  version: string;
  previous: string[];
  metadata: { url: string };
}

/** A manifest a scenario adds (for example a Job barrier). */
export interface ExtraManifest {
  runlevel: number;
  component: string;
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
  /** The `<nn>` of the file name (default 99: after the component's own files). */
  order?: number;
}

export interface PayloadOptions {
  extraManifests?: readonly ExtraManifest[];
}

export interface ReleasePayload {
  version: string;
  /** The release image pull spec. */
  image: string;
  releaseMetadata: ReleaseMetadata;
  imageReferences: JsonObject;
  /** Sorted by file name; `index` is the position. */
  manifests: readonly PayloadManifest[];
  /** The ClusterOperator manifests, in payload order. */
  clusterOperators: readonly PayloadManifest[];
}

/** One component's tasks inside a runlevel: applied in order, in parallel with the others. */
export interface ComponentChain {
  component: string;
  tasks: PayloadManifest[];
}

/** A step of the update-mode graph; each stage starts only after the previous one finished. */
export type TaskStage =
  { kind: 'runlevel'; runlevel: number; components: ComponentChain[] } | { kind: 'job'; task: PayloadManifest };

const HA = 'include.release.openshift.io/self-managed-high-availability';
const SNO = 'include.release.openshift.io/single-node-developer';
/** The CVO's file-name grammar (`pkg/payload/task_graph.go`). */
export const MANIFEST_NAME_RE = /^0000_(\d+)_([a-zA-Z0-9]+(-[a-zA-Z0-9]+)*?)_/;

const CONFIG_CRDS = [
  'apiservers',
  'authentications',
  'builds',
  'clusteroperators',
  'clusterversions',
  'consoles',
  'dnses',
  'featuregates',
  'imagecontentpolicies',
  'imagedigestmirrorsets',
  'images',
  'imagetagmirrorsets',
  'infrastructures',
  'ingresses',
  'networks',
  'nodes',
  'oauths',
  'operatorhubs',
  'projects',
  'proxies',
  'schedulers',
  'clusterresourcequotas',
  'securitycontextconstraints',
  'rolebindingrestrictions',
  'imagecontentsourcepolicies',
  'apirequestcounts',
  'podnetworkconnectivitychecks',
  'insightsdatagathers',
];
const CONFIG_KINDS = [
  'APIServer',
  'Authentication',
  'Console',
  'DNS',
  'FeatureGate',
  'Image',
  'Infrastructure',
  'Ingress',
  'Network',
  'OAuth',
  'Project',
  'Proxy',
  'Scheduler',
];
const OPERATOR_KINDS: ReadonlyArray<[string, string, boolean]> = [
  // [apiVersion, kind, namespaced]
  ['v1', 'Namespace', false],
  ['apiextensions.k8s.io/v1', 'CustomResourceDefinition', false],
  ['v1', 'ServiceAccount', true],
  ['rbac.authorization.k8s.io/v1', 'ClusterRole', false],
  ['rbac.authorization.k8s.io/v1', 'ClusterRoleBinding', false],
  ['rbac.authorization.k8s.io/v1', 'Role', true],
  ['rbac.authorization.k8s.io/v1', 'RoleBinding', true],
  ['v1', 'ConfigMap', true],
  ['v1', 'Service', true],
  ['apps/v1', 'Deployment', true],
];
const MONITORING_KINDS: ReadonlyArray<[string, string, boolean]> = [
  ['monitoring.coreos.com/v1', 'ServiceMonitor', true],
  ['monitoring.coreos.com/v1', 'PrometheusRule', true],
  ['v1', 'ConfigMap', true],
  ['rbac.authorization.k8s.io/v1', 'Role', true],
  ['rbac.authorization.k8s.io/v1', 'RoleBinding', true],
];

/** The Kubernetes minor a 4.y ships (4.14 → 1.27) and a patch derived from z. */
export function kubeVersion(minor: number, patch: number): string {
  return `1.${minor + 13}.${3 + Math.floor(patch / 2)}`;
}

/** The versions a ClusterOperator reports when it is at `version`. */
export function operandVersions(
  clusterOperator: string,
  version: string,
  minor: number,
  patch: number,
): OperandVersion[] {
  const out: OperandVersion[] = [{ name: 'operator', version }];
  const kube = kubeVersion(minor, patch);
  switch (clusterOperator) {
    case 'kube-apiserver':
    case 'kube-controller-manager':
    case 'kube-scheduler':
      out.push({ name: 'raw-internal', version }, { name: clusterOperator, version: kube });
      break;
    case 'etcd':
      out.push({ name: 'raw-internal', version }, { name: 'etcd', version });
      break;
    case 'openshift-apiserver':
      out.push({ name: 'openshift-apiserver', version });
      break;
    case 'authentication':
      out.push({ name: 'oauth-apiserver', version }, { name: 'oauth-openshift', version: `${version}_openshift` });
      break;
    default:
      break;
  }
  return out;
}

function pad2(count: number): string {
  return String(count).padStart(2, '0');
}

function countFor(spec: ComponentSpec, minor: number): number {
  return spec.count + (MINOR_DELTAS[minor]?.[`${spec.runlevel}/${spec.component}`] ?? 0);
}

function capabilityFor(spec: ComponentSpec, minor: number): string | undefined {
  if (spec.capability) return spec.capability;
  return minor >= 16 ? CAPABILITIES_SINCE_416[spec.component] : undefined;
}

type Draft = Omit<PayloadManifest, 'index'>;

/** The manifests of one component at one runlevel, ClusterOperators last. */
function componentManifests(spec: ComponentSpec, release: Release): Draft[] {
  const count = countFor(spec, release.minor);
  const capability = capabilityFor(spec, release.minor);
  const cos = spec.clusterOperators ?? [];
  const out: Draft[] = [];
  const seen = new Map<string, number>();
  const base = (count: number, apiVersion: string, kind: string, name: string, namespaced: boolean): Draft => {
    const slug = kind.toLowerCase() === 'customresourcedefinition' ? 'crd' : kind.toLowerCase();
    const k = (seen.get(slug) ?? 0) + 1;
    seen.set(slug, k);
    const d: Draft = {
      file: `0000_${pad2(spec.runlevel)}_${spec.component}_${pad2(count)}_${k === 1 ? slug : `${slug}-${k}`}.yaml`,
      runlevel: spec.runlevel,
      component: spec.component,
      apiVersion,
      kind,
      name,
    };
    if (namespaced) d.namespace = spec.namespace;
    if (capability) d.capability = capability;
    return d;
  };
  const plain = count - cos.length;
  for (let i = 0; i < plain; i++) {
    if (spec.kinds === 'crds') {
      const plural =
        spec.component === 'config-operator'
          ? (CONFIG_CRDS[i] ?? `resources${i}`)
          : `credentialsrequests${i === 0 ? '' : i}`;
      const group = spec.component === 'config-operator' ? 'config.openshift.io' : 'cloudcredential.openshift.io';
      out.push(base(i, 'apiextensions.k8s.io/v1', 'CustomResourceDefinition', `${plural}.${group}`, false));
    } else if (spec.kinds === 'config') {
      out.push(base(i, 'config.openshift.io/v1', CONFIG_KINDS[i % CONFIG_KINDS.length]!, 'cluster', false));
    } else {
      const kinds = spec.kinds === 'monitoring' ? MONITORING_KINDS : OPERATOR_KINDS;
      const [apiVersion, kind, namespaced] = kinds[i % kinds.length]!;
      const round = Math.floor(i / kinds.length);
      const name =
        kind === 'Namespace'
          ? round === 0
            ? spec.namespace
            : `${spec.namespace}-${round}`
          : round === 0
            ? spec.component
            : `${spec.component}-${round}`;
      out.push(base(i, apiVersion, kind, name, namespaced));
    }
  }
  cos.forEach((co, index) => {
    const d = base(plain + index, 'config.openshift.io/v1', 'ClusterOperator', co, false);
    d.operandVersions = operandVersions(co, release.version, release.minor, release.patch);
    out.push(d);
  });
  return out;
}

/** A deterministic digest for a component image of a release. */
function componentDigest(version: string, image: string): string {
  return `sha256:${createHash('sha256').update(`${version}/${image}`).digest('hex')}`;
}

function imageReferences(release: Release): JsonObject {
  return {
    kind: 'ImageStream',
    apiVersion: 'image.openshift.io/v1',
    metadata: {
      name: release.version,
      creationTimestamp: new Date(release.candidateAt).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    },
    spec: {
      lookupPolicy: { local: false },
      tags: COMPONENT_IMAGES.map((image) => ({
        name: image,
        annotations: {
          'io.openshift.build.commit.id': createHash('sha1').update(`${release.version}/${image}`).digest('hex'),
          'io.openshift.build.source-location': `https://github.com/openshift/${image}`,
        },
        from: {
          kind: 'DockerImage',
          name: `quay.io/openshift-release-dev/ocp-v4.0-art-dev@${componentDigest(release.version, image)}`,
        },
        generation: null,
        importPolicy: {},
        referencePolicy: { type: 'Source' },
      })),
    },
  };
}

const cache = new Map<string, ReleasePayload>();

/** The payload of a release (memoised when there are no extra manifests). */
export function payloadFor(release: Release, options: PayloadOptions = {}): ReleasePayload {
  const extras = options.extraManifests ?? [];
  const key = `${release.version}@${release.digest}`;
  if (extras.length === 0) {
    const hit = cache.get(key);
    if (hit) return hit;
  }
  const drafts: Draft[] = COMPONENTS.flatMap((spec) => componentManifests(spec, release));
  for (const e of extras) {
    const slug = e.kind.toLowerCase();
    const d: Draft = {
      file: `0000_${pad2(e.runlevel)}_${e.component}_${pad2(e.order ?? 99)}_${slug}-${e.name}.yaml`,
      runlevel: e.runlevel,
      component: e.component,
      apiVersion: e.apiVersion,
      kind: e.kind,
      name: e.name,
    };
    if (e.namespace !== undefined) d.namespace = e.namespace;
    drafts.push(d);
  }
  drafts.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const manifests: PayloadManifest[] = drafts.map((d, i) => ({ ...d, index: i + 1 }));
  const payload: ReleasePayload = {
    version: release.version,
    image: release.pullSpec,
    releaseMetadata: {
      kind: 'cincinnati-metadata-v0',
      version: release.version,
      previous: [...release.previous],
      metadata: { url: release.url },
    },
    imageReferences: imageReferences(release),
    manifests,
    clusterOperators: manifests.filter((m) => m.kind === 'ClusterOperator'),
  };
  if (extras.length === 0) cache.set(key, payload);
  return payload;
}

/** The number of manifests (tasks) of a release's payload: the `Total` of the progress message. */
export function manifestCount(release: Release): number {
  return payloadFor(release).manifests.length;
}

/** The object a manifest holds, as the CVO would apply it. */
export function manifestObject(manifest: PayloadManifest): JsonObject {
  const annotations: Record<string, string> = { [HA]: 'true', [SNO]: 'true' };
  if (manifest.capability) annotations['capability.openshift.io/name'] = manifest.capability;
  const metadata: JsonObject = { name: manifest.name, annotations };
  if (manifest.namespace !== undefined) metadata.namespace = manifest.namespace;
  const obj: JsonObject = { apiVersion: manifest.apiVersion, kind: manifest.kind, metadata };
  if (manifest.operandVersions)
    obj.status = { versions: manifest.operandVersions.map((v) => ({ name: v.name, version: v.version })) };
  return obj;
}

/** The task string of CVO messages: `<kind lowercased> "<ns>/<name>" (<i> of <N>)`. */
export function taskString(manifest: PayloadManifest, total: number): string {
  const id = manifest.namespace ? `${manifest.namespace}/${manifest.name}` : manifest.name;
  return `${manifest.kind.toLowerCase()} ${JSON.stringify(id)} (${manifest.index} of ${total})`;
}

/**
 * The update-mode task graph (docs/design/cluster-model.md#the-task-graph): Jobs split the payload
 * into barriers; between them, runs of one runlevel form a stage whose components run in parallel,
 * each component's tasks in order; stages run one after another. Files outside the
 * `0000_<nn>_<component>_` grammar form one serial chain (runlevel -1, component '').
 */
export function taskGraph(payload: ReleasePayload): TaskStage[] {
  const stages: TaskStage[] = [];
  let current: { kind: 'runlevel'; runlevel: number; components: ComponentChain[] } | undefined;
  for (const m of payload.manifests) {
    if (m.kind === 'Job' && m.apiVersion === 'batch/v1') {
      current = undefined;
      stages.push({ kind: 'job', task: m });
      continue;
    }
    const parsed = MANIFEST_NAME_RE.exec(m.file);
    const runlevel = parsed ? Number(parsed[1]) : -1;
    const component = parsed ? parsed[2]! : '';
    if (!current || current.runlevel !== runlevel) {
      current = { kind: 'runlevel', runlevel, components: [] };
      stages.push(current);
    }
    let chain = current.components.find((c) => c.component === component);
    if (!chain) {
      chain = { component, tasks: [] };
      current.components.push(chain);
    }
    chain.tasks.push(m);
  }
  return stages;
}
