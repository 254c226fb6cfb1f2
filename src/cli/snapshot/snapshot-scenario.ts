/**
 * What `upgrade-operator snapshot` read of a cluster ({@link ClusterSnapshot}) turned into a
 * scenario file that reproduces it (docs/rehearsing-your-cluster.md): the version and channel,
 * the nodes, MachineSets and pools, the workloads as the drain sees them with the
 * PodDisruptionBudgets that select them, firing alerts, and the upgrade operator's own objects of
 * both APIs. Workload contents never enter: a pod template keeps its labels, its placement and
 * each container's name and image only. What the file cannot reproduce is said in
 * `snapshot.notes`. Pure.
 */
import type { DaemonSet, Deployment, StatefulSet } from 'kubernetes-types/apps/v1.js';
import type { Container, Node, Pod, PodSpec, PodTemplateSpec, Taint } from 'kubernetes-types/core/v1.js';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import { parse, stringify } from '../../lib/yaml-package.js';
import type { ClusterVersion } from '../../api/openshift/config-v1/cluster-version.js';
import type { Infrastructure } from '../../api/openshift/config-v1/infrastructure.js';
import { MachineAnnotation } from '../../api/openshift/machine-v1beta1/machine.js';
import type { MachineSet } from '../../api/openshift/machine-v1beta1/machine-set.js';
import type { MachineConfigPool } from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import type { KubeObjectLike } from '../../api/resource.js';
import { OPERATOR_LABELS } from '../../api/deploy/operator-objects.js';
import { isJsonObject, type JsonObject } from '../../lib/json.js';
import type { ScenarioFile } from '../scenarios/scenario-file.js';

/** An alert firing when the snapshot was taken. */
export interface SnapshotAlert {
  labels: Record<string, string>;
}

/** The upgrade operator's own objects, as read (status included). */
export interface OperatorObjects {
  /** `upgrade.managed.openshift.io/v1alpha1` UpgradeConfigs. */
  managedUpgradeConfigs: KubeObjectLike[];
  /** The managed flow's ConfigMap `managed-upgrade-operator-config` (its `data`), when there is one. */
  managedConfigMap?: { data?: Record<string, string> } | undefined;
  /** `managedupgrade.appuio.io/v1beta1` kinds. */
  upgradeConfigs: KubeObjectLike[];
  upgradeJobs: KubeObjectLike[];
  upgradeJobHooks: KubeObjectLike[];
  upgradeSuspensionWindows: KubeObjectLike[];
  nodeForceDrains: KubeObjectLike[];
}

/** What the snapshot read. */
export interface ClusterSnapshot {
  /** RFC 3339: when it was read. */
  takenAt: string;
  clusterVersion: ClusterVersion;
  infrastructure?: Infrastructure | undefined;
  pools: MachineConfigPool[];
  nodes: Node[];
  machineSets: MachineSet[];
  deployments: Deployment[];
  statefulSets: StatefulSet[];
  daemonSets: DaemonSet[];
  pods: Pod[];
  podDisruptionBudgets: PodDisruptionBudget[];
  /** Undefined when no Prometheus was asked. */
  alerts?: SnapshotAlert[] | undefined;
  operator: OperatorObjects;
}

/** Options of {@link snapshotScenario}. */
export interface SnapshotScenarioOptions {
  /** Alert names the simulated cluster raises on its own from its state (not copied). */
  derivedAlerts: ReadonlySet<string>;
  /** Whether the simulation's release catalogue has a version (default: every version). */
  knownVersion?: (version: string) => boolean;
}

/** The annotation that records a PDB's `status.disruptionsAllowed` when the snapshot was taken. */
export const DISRUPTIONS_ALLOWED_ANNOTATION = 'upgrade-operator.io/snapshot-disruptions-allowed';
/** The annotation on a Deployment that stands for a StatefulSet (the simulation has no StatefulSet controller). */
export const SNAPSHOT_KIND_ANNOTATION = 'upgrade-operator.io/snapshot-kind';

const ROLE_LABEL = 'node-role.kubernetes.io/';
const POOL_ROLES = ['master', 'worker', 'infra'] as const;
type PoolRole = (typeof POOL_ROLES)[number];
/** Taints the node lifecycle and the drain set and lift: the state of the moment, not the node's. */
const TRANSIENT_TAINTS = new Set([
  'node.kubernetes.io/unschedulable',
  'node.kubernetes.io/not-ready',
  'node.kubernetes.io/unreachable',
]);
const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
const RELEASE_VERSION_ANNOTATION = 'release.openshift.io/version';
const MACHINE_ROLE_LABEL = 'machine.openshift.io/cluster-api-machine-role';
const DEFAULT_MANAGED_CONFIG = (name: string): string =>
  stringify({ configManager: { source: 'LOCAL', localConfigName: name } });

/** The scenario that reproduces the snapshot. */
export function snapshotScenario(snap: ClusterSnapshot, options: SnapshotScenarioOptions): ScenarioFile {
  const notes: string[] = [];
  const cv = snap.clusterVersion;
  const history = cv.status?.history ?? [];
  const version = history.find((h) => h.state === 'Completed')?.version ?? cv.status?.desired?.version ?? '';
  if (history[0] && history[0].state !== 'Completed')
    notes.push(
      `an update to ${history[0].version} was in progress; the rehearsal starts from ${version}, the last completed version`,
    );
  const minor = /^(\d+\.\d+)\./.exec(version)?.[1] ?? '';
  if (options.knownVersion && !options.knownVersion(version))
    notes.push(
      `version ${version} is not in the simulation's release catalogue: the rehearsal cannot start from it (set cluster.version to the nearest one it has)`,
    );
  const channel = cv.spec?.channel || `stable-${minor}`;
  if (!cv.spec?.channel) notes.push(`ClusterVersion has no channel; the rehearsal uses ${channel}`);

  const poolNames = new Set(snap.pools.map((p) => p.metadata?.name ?? ''));
  for (const name of [...poolNames].filter((n) => !(POOL_ROLES as readonly string[]).includes(n)).sort())
    notes.push(
      `MachineConfigPool ${name} is not reproduced (the simulation has the pools master, worker and infra): its nodes are in the worker pool`,
    );
  const machineSets = snap.machineSets.flatMap((ms) => machineSetOf(ms, snap.nodes, notes));
  const nodes = snap.nodes.map((n) => nodeOf(n, poolNames, machineSets));
  const cordoned = snap.nodes.filter((n) => n.spec?.unschedulable === true).map((n) => n.metadata?.name ?? '');
  if (cordoned.length > 0)
    notes.push(`cordoned when the snapshot was taken, schedulable in the rehearsal: ${cordoned.join(', ')}`);
  const pools = snap.pools
    .filter((p): p is MachineConfigPool & { metadata: { name: PoolRole } } =>
      (POOL_ROLES as readonly string[]).includes(p.metadata?.name ?? ''),
    )
    .filter((p) => p.metadata.name !== 'infra' || nodes.some((n) => n.role === 'infra'))
    .map((p) => ({
      name: p.metadata.name,
      ...(p.spec?.maxUnavailable !== undefined ? { maxUnavailable: p.spec.maxUnavailable } : {}),
      ...(p.spec?.paused ? { paused: true } : {}),
    }));

  const alerts = (snap.alerts ?? [])
    .filter((a) => !options.derivedAlerts.has(a.labels['alertname'] ?? ''))
    .map((a) => ({ labels: withoutKeys(a.labels, ['__name__', 'alertstate']) }));
  if (snap.alerts === undefined)
    notes.push('no Prometheus was asked (--prometheus-url): firing alerts are not reproduced');

  const workloads = workloadManifests(snap, notes);
  const op = operatorPart(snap, notes);
  const namespaces = [
    ...new Set(
      [...workloads, ...op.manifests]
        .map((m) => (isJsonObject(m['metadata']) ? m['metadata']['namespace'] : undefined))
        .filter((ns): ns is string => typeof ns === 'string'),
    ),
  ].sort();
  const manifests = [
    ...namespaces.map((name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } })),
    ...workloads,
    ...op.manifests,
  ];
  const available = (cv.status?.availableUpdates ?? []).map((u) => u.version);
  const conditional = (cv.status?.conditionalUpdates ?? []).map((update) => {
    const recommended = update.conditions?.find((c) => c.type === 'Recommended')?.status;
    return {
      version: update.release.version,
      risks: update.risks.map((r) => r.name),
      ...(recommended ? { recommended } : {}),
    };
  });
  return {
    description: `a snapshot of a cluster at ${version} on ${channel}, taken ${snap.takenAt}: its next upgrade rehearsed`,
    start: snap.takenAt,
    cluster: {
      profile: profileOf(snap.infrastructure),
      version,
      channel,
      nodes,
      ...(machineSets.length > 0 ? { machineSets } : {}),
      ...(pools.length > 0 ? { pools } : {}),
      ...(alerts.length > 0 ? { alerts } : {}),
    },
    ...(op.operator ? { operator: op.operator } : {}),
    ...(manifests.length > 0 ? { manifests } : {}),
    ...(op.end ? { end: op.end } : {}),
    ...(op.expect ? { expect: op.expect } : {}),
    snapshot: {
      takenAt: snap.takenAt,
      ...(available.length > 0 ? { availableUpdates: available } : {}),
      ...(conditional.length > 0 ? { conditionalUpdates: conditional } : {}),
      ...(notes.length > 0 ? { notes } : {}),
    },
  };
}

/** The simulation profile of the cluster's platform and topology. */
export function profileOf(infrastructure: Infrastructure | undefined): string {
  const status = infrastructure?.status;
  if (status?.controlPlaneTopology === 'SingleReplica') return 'single-node';
  const platform = status?.platformStatus?.type ?? status?.platform;
  return platform === 'BareMetal' || platform === 'None' ? 'bare-metal' : 'ha-cloud';
}

function withoutKeys(record: Record<string, string>, keys: readonly string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(record).filter(([k]) => !keys.includes(k)));
}

/** The pool role of a node: master for control-plane nodes, infra when an infra pool selects it, else worker. */
export function nodeRole(node: Node, poolNames: ReadonlySet<string>): PoolRole {
  const labels = node.metadata?.labels ?? {};
  if (`${ROLE_LABEL}master` in labels || `${ROLE_LABEL}control-plane` in labels) return 'master';
  if (`${ROLE_LABEL}infra` in labels && poolNames.has('infra')) return 'infra';
  return 'worker';
}

type ScenarioNode = NonNullable<ScenarioFile['cluster']['nodes']>[number];
type ScenarioMachineSet = NonNullable<ScenarioFile['cluster']['machineSets']>[number];

function nodeOf(node: Node, poolNames: ReadonlySet<string>, machineSets: readonly ScenarioMachineSet[]): ScenarioNode {
  const name = node.metadata?.name ?? '';
  const labels = node.metadata?.labels ?? {};
  const zone = labels['topology.kubernetes.io/zone'];
  const taints = (node.spec?.taints ?? []).filter((t) => !TRANSIENT_TAINTS.has(t.key)).map(taintOf);
  const machine = node.metadata?.annotations?.[MachineAnnotation.NodeMachine]?.split('/')[1];
  // A Machine is named `<machineset>-<suffix>`: the longest MachineSet name it starts with owns it.
  const machineSet = machine
    ? machineSets.filter((ms) => machine.startsWith(`${ms.name}-`)).sort((a, b) => b.name.length - a.name.length)[0]
        ?.name
    : undefined;
  const role = nodeRole(node, poolNames);
  return {
    name,
    role,
    ...(zone ? { zone } : {}),
    labels,
    taints,
    ...(machineSet && machineSets.find((ms) => ms.name === machineSet)?.role === role ? { machineSet } : {}),
  };
}

function taintOf(taint: Taint): NonNullable<ScenarioNode['taints']>[number] {
  const effect = taint.effect === 'PreferNoSchedule' || taint.effect === 'NoExecute' ? taint.effect : 'NoSchedule';
  return { key: taint.key, ...(taint.value ? { value: taint.value } : {}), effect };
}

function machineSetOf(ms: MachineSet, nodes: readonly Node[], notes: string[]): ScenarioMachineSet[] {
  const name = ms.metadata?.name ?? '';
  const role = ms.spec?.template?.metadata?.labels?.[MACHINE_ROLE_LABEL];
  if (role !== 'worker' && role !== 'infra') {
    notes.push(`MachineSet ${name} (role ${role ?? 'none'}) is not reproduced: only worker and infra MachineSets are`);
    return [];
  }
  const provider = ms.spec?.template?.spec?.providerSpec?.value;
  const str = (key: string): string | undefined => {
    const v = isJsonObject(provider) ? provider[key] : undefined;
    return typeof v === 'string' && v !== '' ? v : undefined;
  };
  const placement = isJsonObject(provider) && isJsonObject(provider['placement']) ? provider['placement'] : {};
  const ownZone = typeof placement['availabilityZone'] === 'string' ? placement['availabilityZone'] : str('zone');
  const nodeZone = nodes
    .filter((n) => n.metadata?.annotations?.[MachineAnnotation.NodeMachine]?.split('/')[1]?.startsWith(`${name}-`))
    .map((n) => n.metadata?.labels?.['topology.kubernetes.io/zone'])
    .find((z) => z !== undefined);
  const instanceType = str('instanceType') ?? str('vmSize') ?? str('machineType');
  return [
    {
      name,
      role,
      zone: ownZone || nodeZone || 'none',
      ...(instanceType ? { instanceType } : {}),
    },
  ];
}

/** A pod template reduced to what the drain and the scheduler see: labels, placement, container names and images. */
function podTemplateOf(template: PodTemplateSpec | undefined): JsonObject {
  return {
    metadata: { labels: { ...(template?.metadata?.labels ?? {}) } },
    spec: placementOf(template?.spec),
  };
}

/** Placement, grace period and each container's name and image; never env, args, command, volumes. */
export function placementOf(spec: PodSpec | undefined): JsonObject {
  const containers = (list: Container[] | undefined): JsonObject[] =>
    (list ?? []).map((c) => ({ name: c.name, image: c.image ?? 'image.invalid/unknown' }));
  const out: JsonObject = { containers: containers(spec?.containers) };
  const keep = [
    'nodeSelector',
    'affinity',
    'tolerations',
    'topologySpreadConstraints',
    'terminationGracePeriodSeconds',
  ] as const;
  for (const key of keep) {
    const v = spec?.[key];
    if (v !== undefined) out[key] = structuredClone(v) as JsonObject[keyof JsonObject];
  }
  return out;
}

function metaOf(obj: KubeObjectLike, extraAnnotations: Record<string, string> = {}): JsonObject {
  const labels = obj.metadata?.labels;
  return {
    name: obj.metadata?.name ?? '',
    ...(obj.metadata?.namespace ? { namespace: obj.metadata.namespace } : {}),
    ...(labels && Object.keys(labels).length > 0 ? { labels: { ...labels } } : {}),
    ...(Object.keys(extraAnnotations).length > 0 ? { annotations: extraAnnotations } : {}),
  };
}

function controllerKind(pod: Pod): string | undefined {
  return pod.metadata?.ownerReferences?.find((r) => r.controller === true)?.kind;
}

/** Deployments, StatefulSets (as Deployments), bare Pods and the PodDisruptionBudgets, as manifests. */
function workloadManifests(snap: ClusterSnapshot, notes: string[]): JsonObject[] {
  const ownOperator = (obj: KubeObjectLike): boolean =>
    Object.entries(OPERATOR_LABELS).every(([k, v]) => obj.metadata?.labels?.[k] === v);
  // The release's own operators: the simulated cluster installs its own.
  const platform = (obj: KubeObjectLike): boolean =>
    obj.metadata?.annotations?.[RELEASE_VERSION_ANNOTATION] !== undefined;
  const out: JsonObject[] = [];
  const taken = new Set<string>();
  const deployment = (obj: Deployment | StatefulSet, annotations: Record<string, string>): void => {
    const ns = obj.metadata?.namespace ?? 'default';
    let name = obj.metadata?.name ?? '';
    if (taken.has(`${ns}/${name}`)) name = `${name}-statefulset`;
    taken.add(`${ns}/${name}`);
    out.push({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { ...metaOf(obj, annotations), name },
      spec: {
        replicas: obj.spec?.replicas ?? 1,
        selector: structuredClone(obj.spec?.selector ?? {}) as JsonObject,
        template: podTemplateOf(obj.spec?.template),
      },
    });
  };
  for (const d of snap.deployments) if (!platform(d) && !ownOperator(d)) deployment(d, {});
  for (const s of snap.statefulSets) deployment(s, { [SNAPSHOT_KIND_ANNOTATION]: 'StatefulSet' });
  if (snap.statefulSets.length > 0)
    notes.push(
      `${snap.statefulSets.length} StatefulSet(s) are Deployments in the rehearsal (annotation ${SNAPSHOT_KIND_ANNOTATION}): the drain evicts their pods alike, under the same PodDisruptionBudgets`,
    );
  if (snap.daemonSets.length > 0)
    notes.push(`${snap.daemonSets.length} DaemonSet(s) are not reproduced: the drain leaves their pods alone`);
  let others = 0;
  for (const pod of snap.pods) {
    const phase = pod.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') continue;
    if (pod.metadata?.annotations?.[MIRROR_POD_ANNOTATION] !== undefined) continue;
    const kind = controllerKind(pod);
    if (kind === undefined) {
      out.push({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: metaOf(pod),
        spec: { ...(pod.spec?.nodeName ? { nodeName: pod.spec.nodeName } : {}), ...placementOf(pod.spec) },
      });
    } else if (!['ReplicaSet', 'StatefulSet', 'DaemonSet', 'Deployment', 'Job', 'Node'].includes(kind)) others++;
  }
  if (others > 0) notes.push(`${others} pod(s) of other controllers (custom resources) are not reproduced`);
  for (const pdb of snap.podDisruptionBudgets) {
    const spec = pdb.spec ?? {};
    out.push({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: metaOf(pdb, { [DISRUPTIONS_ALLOWED_ANNOTATION]: String(pdb.status?.disruptionsAllowed ?? 0) }),
      spec: {
        ...(spec.minAvailable !== undefined ? { minAvailable: spec.minAvailable } : {}),
        ...(spec.maxUnavailable !== undefined ? { maxUnavailable: spec.maxUnavailable } : {}),
        ...(spec.selector ? { selector: structuredClone(spec.selector) as JsonObject } : {}),
        ...(spec.unhealthyPodEvictionPolicy ? { unhealthyPodEvictionPolicy: spec.unhealthyPodEvictionPolicy } : {}),
      },
    });
  }
  return out;
}

/** An operator object as a manifest: apiVersion, kind, name, namespace, labels, spec (hook Jobs without container contents). */
function operatorManifest(obj: KubeObjectLike): JsonObject {
  const spec = (obj as { spec?: unknown }).spec;
  return {
    apiVersion: obj.apiVersion ?? '',
    kind: obj.kind ?? '',
    metadata: metaOf(obj, annotationsOf(obj)),
    ...(spec !== undefined ? { spec: scrubContainers(structuredClone(spec) as JsonObject) } : {}),
  };
}

/** The operator's own annotations (e.g. an accepted risk), not other tools'. */
function annotationsOf(obj: KubeObjectLike): Record<string, string> {
  return Object.fromEntries(
    Object.entries(obj.metadata?.annotations ?? {}).filter(
      ([k]) => k.includes('upgrade.managed.openshift.io') || k.includes('managedupgrade.appuio.io'),
    ),
  );
}

/** Every `containers`/`initContainers` list inside a value reduced to names and images (hook Job templates). */
function scrubContainers(value: JsonObject): JsonObject {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!isJsonObject(value)) return value;
    return Object.fromEntries(
      Object.entries(value).map(([k, x]) =>
        (k === 'containers' || k === 'initContainers') && Array.isArray(x)
          ? [k, x.filter(isJsonObject).map((c) => ({ name: c['name'] ?? '', image: c['image'] ?? '' }))]
          : [k, walk(x)],
      ),
    );
  };
  return walk(value) as JsonObject;
}

function conditionTrue(obj: KubeObjectLike, type: string): boolean {
  const conditions = (obj as { status?: { conditions?: Array<{ type?: string; status?: string }> } }).status
    ?.conditions;
  return (conditions ?? []).some((c) => c.type === type && c.status === 'True');
}

interface OperatorPart {
  operator?: NonNullable<ScenarioFile['operator']>;
  manifests: JsonObject[];
  end?: NonNullable<ScenarioFile['end']>;
  expect?: NonNullable<ScenarioFile['expect']>;
}

/** The operator section, the manifests of both flows' objects, and the end and verdict of the rehearsal. */
function operatorPart(snap: ClusterSnapshot, notes: string[]): OperatorPart {
  const o = snap.operator;
  const managed = o.managedUpgradeConfigs[0];
  const scheduled = o.upgradeConfigs.length > 0 || o.upgradeJobs.length > 0;
  if (o.managedUpgradeConfigs.length > 1)
    notes.push(
      `${o.managedUpgradeConfigs.length} managed UpgradeConfigs: the operator acts on the one it is configured for`,
    );
  const finished = o.upgradeJobs.filter((j) => conditionTrue(j, 'Succeeded') || conditionTrue(j, 'Failed'));
  if (finished.length > 0)
    notes.push(
      `${finished.length} finished UpgradeJob(s) are left out (a created object has no status, so the operator would run them again)`,
    );
  const jobs = o.upgradeJobs.filter((j) => !finished.includes(j));
  const manifests = [
    ...o.managedUpgradeConfigs,
    ...o.upgradeJobHooks,
    ...o.upgradeSuspensionWindows,
    ...o.nodeForceDrains,
    ...o.upgradeConfigs,
    ...jobs,
  ].map(operatorManifest);
  if (!managed && !scheduled) {
    notes.push('no UpgradeConfig of either API: the rehearsal runs no operator and ends after its timeout');
    return { manifests, end: { timeout: '10h' } };
  }
  const flows: Array<'managed' | 'scheduled'> = [
    ...(managed ? ['managed' as const] : []),
    ...(scheduled ? ['scheduled' as const] : []),
  ];
  const scheduledNs = (o.upgradeConfigs[0] ?? o.upgradeJobs[0])?.metadata?.namespace;
  const config = managed ? managedConfig(managed, o.managedConfigMap, notes) : undefined;
  const operator = {
    flows,
    ...(config !== undefined ? { config } : {}),
    ...(scheduledNs ? { namespace: scheduledNs } : {}),
  };
  if (managed) {
    const at = (managed as { spec?: { upgradeAt?: unknown } }).spec?.upgradeAt;
    const upgradeAt = typeof at === 'string' ? Date.parse(at) : Number.NaN;
    const ahead = Number.isNaN(upgradeAt) ? 0 : Math.max(0, upgradeAt - Date.parse(snap.takenAt));
    return {
      operator,
      manifests,
      end: { timeout: `${Math.ceil(ahead / 3_600_000) + 12}h` },
      expect: { phase: 'Upgraded' },
    };
  }
  const ns = scheduledNs ?? '';
  const succeeded = {
    apiVersion: 'managedupgrade.appuio.io/v1beta1',
    kind: 'UpgradeJob',
    namespace: ns,
    type: 'Succeeded',
    status: 'True' as const,
  };
  // A weekly schedule's next window is at most a week and a day away.
  return {
    operator,
    manifests,
    end: { objectCondition: succeeded, timeout: '200h' },
    expect: { objectConditions: [succeeded] },
  };
}

/** The managed flow's `config.yaml`: the cluster's, made to read the UpgradeConfig from the cluster (LOCAL). */
function managedConfig(
  upgradeConfig: KubeObjectLike,
  configMap: OperatorObjects['managedConfigMap'],
  notes: string[],
): string {
  const name = upgradeConfig.metadata?.name ?? '';
  const text = configMap?.data?.['config.yaml'];
  if (text === undefined) {
    notes.push('no operator ConfigMap managed-upgrade-operator-config: the rehearsal uses the default settings');
    return DEFAULT_MANAGED_CONFIG(name);
  }
  const config: unknown = parse(text);
  if (!isJsonObject(config)) return DEFAULT_MANAGED_CONFIG(name);
  const manager = isJsonObject(config['configManager']) ? config['configManager'] : {};
  if (manager['source'] !== 'LOCAL' || manager['localConfigName'] !== name) {
    notes.push(
      `the operator's configManager.source ${typeof manager['source'] === 'string' ? manager['source'] : '(none)'} becomes LOCAL with localConfigName ${name}: the rehearsal reads the UpgradeConfig the snapshot copied (no OCM)`,
    );
    config['configManager'] = { ...manager, source: 'LOCAL', localConfigName: name };
    delete config['configManager']['ocmBaseUrl'];
  }
  return stringify(config);
}
