/**
 * What the platform Prometheus would scrape from a cluster, derived from plain objects: the
 * kube-state-metrics series (nodes, pods, PodDisruptionBudgets), the cluster-version-operator
 * series (`cluster_version`, `cluster_version_available_updates`, `cluster_operator_up`,
 * `cluster_operator_conditions`; logic of CVO `pkg/cvo/metrics.go`), the machine-config
 * controller's `mcc_drain_err`, and `up` for the kubelet, kube-state-metrics and CVO targets.
 * Metric and label names are the real ones; target labels (`job`, `namespace`, `service`, …)
 * are those OpenShift's ServiceMonitors produce. Pure: objects in, samples out.
 *
 * A scrape runs every 30 virtual seconds over every Node and Pod, and most of them have not
 * changed since the last one: the samples of a Node or Pod are memoised by object identity
 * (informer caches replace an object on every change and never modify one), each with its
 * series key computed once.
 */
import { labelsKey } from './promql/values.js';
import type { ScrapedSample } from './tsdb.js';

/** The fields read from any object. */
export interface ObjectMeta {
  name?: string;
  namespace?: string;
  uid?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  creationTimestamp?: string;
}

/** A status condition (Kubernetes or OpenShift shape). */
export interface ConditionLike {
  type?: string;
  status?: string;
  reason?: string;
  lastTransitionTime?: string;
}

export interface NodeLike {
  metadata?: ObjectMeta;
  spec?: { unschedulable?: boolean; taints?: Array<{ key?: string; value?: string; effect?: string }> };
  status?: { conditions?: ConditionLike[]; addresses?: Array<{ type?: string; address?: string }> };
}
export interface PodLike {
  metadata?: ObjectMeta;
  spec?: { nodeName?: string };
  status?: { phase?: string; conditions?: ConditionLike[] };
}
export interface PodDisruptionBudgetLike {
  metadata?: ObjectMeta;
  status?: { currentHealthy?: number; desiredHealthy?: number; expectedPods?: number; disruptionsAllowed?: number };
}
export interface ClusterOperatorLike {
  metadata?: ObjectMeta;
  status?: { conditions?: ConditionLike[]; versions?: Array<{ name?: string; version?: string }> };
}
interface HistoryLike {
  state?: string;
  version?: string;
  image?: string;
  startedTime?: string;
  completionTime?: string | null;
}
export interface ClusterVersionLike {
  metadata?: ObjectMeta;
  spec?: { channel?: string; upstream?: string; desiredUpdate?: { version?: string; image?: string } | null };
  status?: {
    desired?: { version?: string; image?: string };
    history?: HistoryLike[];
    conditions?: ConditionLike[];
    availableUpdates?: unknown[] | null;
  };
}

/** The cluster state the series are derived from. */
export interface ClusterObjects {
  nodes?: readonly NodeLike[];
  pods?: readonly PodLike[];
  podDisruptionBudgets?: readonly PodDisruptionBudgetLike[];
  clusterOperators?: readonly ClusterOperatorLike[];
  clusterVersion?: ClusterVersionLike;
  /** Nodes whose drain has failed for over an hour (the drain controller's `mcc_drain_err`). */
  drainErrorNodes?: readonly string[];
  /** Creation time (s) of the release image the CVO runs (`cluster_version{type="current"}`); 0 when unknown. */
  currentReleaseCreated?: number;
}

const KSM_TARGET = {
  container: 'kube-rbac-proxy-main',
  endpoint: 'https-main',
  instance: '10.128.2.9:8443',
  job: 'kube-state-metrics',
  namespace: 'openshift-monitoring',
  pod: 'kube-state-metrics-6c6f6b7d9f-x2q5k',
  service: 'kube-state-metrics',
};
const CVO_TARGET = {
  endpoint: 'metrics',
  instance: '10.0.0.10:9099',
  job: 'cluster-version-operator',
  namespace: 'openshift-cluster-version',
  pod: 'cluster-version-operator-5d4c8d9b7-vq9xl',
  service: 'cluster-version-operator',
};
const MCC_TARGET = {
  endpoint: 'metrics',
  instance: '10.130.0.20:9001',
  job: 'machine-config-controller',
  namespace: 'openshift-machine-config-operator',
  pod: 'machine-config-controller-7f8d6c5b4-abcde',
  service: 'machine-config-controller',
  container: 'oauth-proxy',
};

function sample(
  name: string,
  target: Record<string, string>,
  labels: Record<string, string | undefined>,
  value: number,
): ScrapedSample {
  const out: Record<string, string> = { ...target };
  for (const [k, v] of Object.entries(labels)) if (v !== undefined && v !== '') out[k] = v;
  out['__name__'] = name;
  return { labels: out, value, key: labelsKey(out) };
}

/** The samples of one object, computed once per object (see the module comment). */
function memoised<T extends object>(
  cache: WeakMap<T, readonly ScrapedSample[]>,
  options: T,
  compute: (options: T) => ScrapedSample[],
): readonly ScrapedSample[] {
  let out = cache.get(options);
  if (!out) {
    out = compute(options);
    cache.set(options, out);
  }
  return out;
}

const nodeSamples = new WeakMap<NodeLike, readonly ScrapedSample[]>();
const podSamples = new WeakMap<PodLike, readonly ScrapedSample[]>();

function seconds(rfc3339: string | null | undefined): number {
  if (!rfc3339) return 0;
  const ms = Date.parse(rfc3339);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

function condition(conds: readonly ConditionLike[] | undefined, type: string): ConditionLike | undefined {
  return conds?.find((c) => c.type === type);
}

/** Every sample of one scrape of the cluster. */
export function seriesFromObjects(objects: ClusterObjects): ScrapedSample[] {
  return [
    ...nodeSeries(objects.nodes ?? []),
    ...podSeries(objects.pods ?? []),
    ...pdbSeries(objects.podDisruptionBudgets ?? []),
    ...cvoSeries(objects),
    ...mccSeries(objects),
  ];
}

function nodeSeries(nodes: readonly NodeLike[]): ScrapedSample[] {
  const out: ScrapedSample[] = [];
  out.push(sample('up', KSM_TARGET, {}, 1));
  for (const n of nodes) out.push(...memoised(nodeSamples, n, oneNodeSeries));
  return out;
}

function oneNodeSeries(nodeLike: NodeLike): ScrapedSample[] {
  const out: ScrapedSample[] = [];
  const node = nodeLike.metadata?.name ?? '';
  for (const c of nodeLike.status?.conditions ?? []) {
    const status = (c.status ?? 'Unknown').toLowerCase();
    for (const s of ['true', 'false', 'unknown']) {
      out.push(
        sample('kube_node_status_condition', KSM_TARGET, { node, condition: c.type, status: s }, s === status ? 1 : 0),
      );
    }
  }
  out.push(sample('kube_node_spec_unschedulable', KSM_TARGET, { node }, nodeLike.spec?.unschedulable === true ? 1 : 0));
  for (const t of nodeLike.spec?.taints ?? []) {
    out.push(sample('kube_node_spec_taint', KSM_TARGET, { node, key: t.key, value: t.value, effect: t.effect }, 1));
  }
  for (const label of Object.keys(nodeLike.metadata?.labels ?? {})) {
    const m = /^node-role\.kubernetes\.io\/(.+)$/.exec(label);
    if (m) out.push(sample('kube_node_role', KSM_TARGET, { node, role: m[1] }, 1));
  }
  // The kubelet target of the node: down while the node is not Ready (rebooting, lost).
  const ready = condition(nodeLike.status?.conditions, 'Ready')?.status === 'True';
  const ip = nodeLike.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? node;
  for (const metricsPath of ['/metrics', '/metrics/cadvisor', '/metrics/probes']) {
    out.push(
      sample(
        'up',
        {
          endpoint: 'https-metrics',
          instance: `${ip}:10250`,
          job: 'kubelet',
          metrics_path: metricsPath,
          namespace: 'kube-system',
          node,
          service: 'kubelet',
        },
        {},
        ready ? 1 : 0,
      ),
    );
  }
  return out;
}

function podSeries(pods: readonly PodLike[]): ScrapedSample[] {
  const out: ScrapedSample[] = [];
  for (const p of pods) out.push(...memoised(podSamples, p, onePodSeries));
  return out;
}

function onePodSeries(podLike: PodLike): ScrapedSample[] {
  const out: ScrapedSample[] = [];
  const labels = { namespace: podLike.metadata?.namespace, pod: podLike.metadata?.name, uid: podLike.metadata?.uid };
  const phase = podLike.status?.phase ?? 'Pending';
  for (const ph of ['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown']) {
    out.push(sample('kube_pod_status_phase', KSM_TARGET, { ...labels, phase: ph }, ph === phase ? 1 : 0));
  }
  const ready = (condition(podLike.status?.conditions, 'Ready')?.status ?? 'Unknown').toLowerCase();
  for (const s of ['true', 'false', 'unknown']) {
    out.push(sample('kube_pod_status_ready', KSM_TARGET, { ...labels, condition: s }, s === ready ? 1 : 0));
  }
  if (podLike.spec?.nodeName)
    out.push(sample('kube_pod_info', KSM_TARGET, { ...labels, node: podLike.spec.nodeName }, 1));
  return out;
}

function pdbSeries(pdbs: readonly PodDisruptionBudgetLike[]): ScrapedSample[] {
  const out: ScrapedSample[] = [];
  for (const b of pdbs) {
    const labels = { namespace: b.metadata?.namespace, poddisruptionbudget: b.metadata?.name };
    const s = b.status ?? {};
    out.push(sample('kube_poddisruptionbudget_status_current_healthy', KSM_TARGET, labels, s.currentHealthy ?? 0));
    out.push(sample('kube_poddisruptionbudget_status_desired_healthy', KSM_TARGET, labels, s.desiredHealthy ?? 0));
    out.push(sample('kube_poddisruptionbudget_status_expected_pods', KSM_TARGET, labels, s.expectedPods ?? 0));
    out.push(
      sample('kube_poddisruptionbudget_status_pod_disruptions_allowed', KSM_TARGET, labels, s.disruptionsAllowed ?? 0),
    );
  }
  return out;
}

function cvoSeries(objects: ClusterObjects): ScrapedSample[] {
  const cv = objects.clusterVersion;
  const out: ScrapedSample[] = [];
  if (!cv && (objects.clusterOperators ?? []).length === 0) return out;
  out.push(sample('up', CVO_TARGET, {}, 1));
  if (cv) {
    const history = cv.status?.history ?? [];
    const conditions = cv.status?.conditions ?? [];
    const initial = history.at(-1);
    const completedIndex = history.findIndex((h) => h.state === 'Completed');
    const completed = completedIndex >= 0 ? history[completedIndex] : undefined;
    const previous = history.slice(completedIndex + 1).find((h) => h.state === 'Completed');
    const version = (
      type: string,
      release: { version?: string | undefined; image?: string | undefined } | undefined,
      from: string | undefined,
      value: number,
    ): void => {
      out.push(
        sample(
          'cluster_version',
          CVO_TARGET,
          { type, version: release?.version ?? '', image: release?.image ?? '', from_version: from },
          value,
        ),
      );
    };
    if (completed) version('completed', completed, previous?.version, seconds(completed.completionTime));
    version('cluster', initial, undefined, seconds(cv.metadata?.creationTimestamp));
    // The CVO runs the desired release once it has accepted it.
    const current = cv.status?.desired;
    const failing = condition(conditions, 'Failing');
    const desired = cv.spec?.desiredUpdate;
    if (desired && desired.image !== undefined && desired.image !== current?.image) {
      version('desired', desired, completed?.version, mostRecentTimestamp(cv));
      if (failing?.status === 'True')
        version('failure', desired, completed?.version, seconds(failing.lastTransitionTime));
    }
    if (failing?.status === 'True')
      version('failure', current, completed?.version, seconds(failing.lastTransitionTime));
    const head = history[0];
    if (head?.state === 'Partial') version('updating', head, completed?.version, seconds(head.startedTime));
    const available = cv.status?.availableUpdates ?? [];
    if (cv.spec?.upstream || available.length > 0 || condition(conditions, 'RetrievedUpdates')?.status === 'True') {
      out.push(
        sample(
          'cluster_version_available_updates',
          CVO_TARGET,
          { upstream: cv.spec?.upstream || '<default>', channel: cv.spec?.channel ?? '' },
          available.length,
        ),
      );
    }
    version('current', current, completed?.version, objects.currentReleaseCreated ?? 0);
    out.push(...operatorSeries('version', current?.version, conditions));
  }
  for (const co of objects.clusterOperators ?? []) {
    out.push(
      ...operatorSeries(co.metadata?.name ?? '', co.status?.versions?.[0]?.version, co.status?.conditions ?? []),
    );
  }
  return out;
}

/** `cluster_operator_up` (Available=True and not Failing) and `cluster_operator_conditions` (True 1, False 0, Unknown omitted). */
function operatorSeries(
  name: string,
  version: string | undefined,
  conditions: readonly ConditionLike[],
): ScrapedSample[] {
  const out: ScrapedSample[] = [];
  const available = condition(conditions, 'Available');
  const up = available?.status === 'True' && condition(conditions, 'Failing')?.status !== 'True';
  out.push(
    sample(
      'cluster_operator_up',
      CVO_TARGET,
      { name, version, reason: available?.reason ?? (available ? '' : 'NoAvailableCondition') },
      up ? 1 : 0,
    ),
  );
  for (const c of conditions) {
    if (c.status === 'Unknown' || !c.type) continue;
    out.push(
      sample(
        'cluster_operator_conditions',
        CVO_TARGET,
        { name, condition: c.type, reason: c.reason },
        c.status === 'True' ? 1 : 0,
      ),
    );
  }
  return out;
}

function mostRecentTimestamp(cv: ClusterVersionLike): number {
  let latest = 0;
  const head = cv.status?.history?.[0];
  if (head) latest = Math.max(seconds(head.startedTime), seconds(head.completionTime));
  for (const c of cv.status?.conditions ?? []) latest = Math.max(latest, seconds(c.lastTransitionTime));
  return Math.max(latest, seconds(cv.metadata?.creationTimestamp));
}

function mccSeries(objects: ClusterObjects): ScrapedSample[] {
  const out: ScrapedSample[] = [];
  if ((objects.nodes ?? []).length === 0) return out;
  out.push(sample('up', MCC_TARGET, {}, 1));
  for (const node of objects.drainErrorNodes ?? []) out.push(sample('mcc_drain_err', MCC_TARGET, { node }, 1));
  return out;
}
