/**
 * Runs a scenario file: a simulated cluster, this project's operator in the loop when the file
 * asks for it (the same composition `upgrade-operator run` uses, on the virtual clock), the
 * file's manifests applied as a user would, its actions made when their triggers hold, until
 * its end condition or timeout. Progress is read only from what a user can read (the
 * UpgradeConfig, ClusterVersion, MachineConfigPools) through informers.
 *
 * With an external operator (`simulate --operator external`, a rehearsal of the real
 * deployment) no operator runs in this process: once the cluster runs, the caller is told where
 * its monitoring is (it writes the rehearsal file `upgrade-operator run --rehearsal` reads), and
 * the manifests wait until that operator holds its Lease, as a deployed operator is up before an
 * upgrade is asked of it.
 */
import { ConfigMapResource, EventResource, LeaseResource, NodeResource } from '../../api/builtin.js';
import { UpgradeJobResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import { customResourceDefinitions } from '../../api/manifests.js';
import { CLUSTER_VERSION_NAME, ClusterVersionResource } from '../../api/openshift/config-v1/cluster-version.js';
import type { Node } from 'kubernetes-types/core/v1.js';
import {
  MachineConfigDaemonState,
  MachineConfigNodeAnnotation,
  MachineConfigPoolResource,
} from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import {
  MANAGED_UPGRADE_CONFIG_NAME,
  MANAGED_UPGRADE_CONFIGMAP_KEY,
  MANAGED_UPGRADE_CONFIGMAP_NAME,
  MANAGED_UPGRADE_OPERATOR_NAMESPACE,
  ManagedUpgradeConfigResource,
} from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import type { ManagedUpgradeConfig } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import { formatTime } from '../../lib/clock.js';
import { errorMessage } from '../../lib/errors.js';
import { parseGoDurationMs } from '../../lib/go-duration.js';
import type { JsonObject } from '../../lib/json.js';
import { createSimulatedCluster, type SimulatedCluster } from '../../sim/cluster.js';
import { installCustomResourceDefinitions } from '../../sim/install-crds.js';
import { startClusterRecorder, type ClusterRecorder } from '../../sim/recorder/cluster-recorder.js';
import { startInvariantMonitor, type InvariantMonitor } from '../../sim/invariant-monitor.js';
import type { JobRule } from '../../sim/jobs/job-rules.js';
import { poolFullyUpdated } from '../../managed/cluster-version/worker-pools.js';
import { applyManifest, discoverResource, hasCondition } from './apply-manifest.js';
import {
  startOperatorProcess,
  type OperatorFlows,
  type OperatorProcess,
  type RequestObserver,
} from './operator-process.js';
import { OperatorPod } from './operator-pod.js';
import { performAction, startApiFaultControl, triggerHolds, type ActionTarget } from './scenario-actions.js';
import { startScenarioOcm, type ScenarioOcm } from './scenario-ocm.js';
import { expandTimes, type ScenarioAction, type ScenarioFile, type ScenarioJobRule } from './scenario-file.js';
import {
  activeSilenceComments,
  firingAlertNames,
  newestUpgradeJob,
  newestWarning,
  poolActivity,
  progressKey,
  snapshot,
  type ScenarioProgress,
} from './scenario-progress.js';
import type { SimEnvironment } from './sim-environment.js';
import { compileGoRegexp, type GoRegexp } from '../../lib/go-regexp.js';
import { isAlreadyExists } from '../../kube/status-error.js';
import { ensureNamespace } from '../../kube/ensure-namespace.js';
import { LEADER_ELECTION_ID, SCHEDULED_LEADER_ELECTION_ID } from '../commands/run.js';

const NS = MANAGED_UPGRADE_OPERATOR_NAMESPACE;
/** The scheduled flow's namespace unless the file names one (APPUiO's deployment namespace). */
const SCHEDULED_NS = 'appuio-openshift-upgrade-controller';
/** The run stops after this much virtual time unless the file says otherwise. */
const DEFAULT_TIMEOUT_MS = 10 * 60 * 60_000;

/** A run, for actions and for whoever inspects it afterwards. */
export interface ScenarioRun {
  readonly env: SimEnvironment;
  readonly sim: SimulatedCluster;
  readonly file: ScenarioFile;
  /** The operator's namespace (its ConfigMap, UpgradeConfig, Events). */
  readonly namespace: string;
  /** The simulated OCM, when the file has an `ocm` block. */
  readonly ocm: ScenarioOcm | undefined;
  /** Every distinct progress snapshot, oldest first. */
  readonly timeline: ScenarioProgress[];
  /** Actions that ran, with the virtual ms (since the start) at which they ran. */
  readonly actionsRun: Array<{ name: string; elapsedMs: number }>;
  /** Why the run stopped. */
  readonly ended: 'end condition' | 'timeout' | 'until';
  /** Base URL of the running operator's metrics endpoints (`/metrics`, `/collector`); throws without an operator. */
  metricsUrl(): string;
  /** How many operator processes have run (0 without an operator). */
  readonly operatorStarts: number;
  /** The cluster's transitions, alerts, silences and final objects since just before the manifests. */
  readonly recorder: ClusterRecorder;
  /** Virtual ms at which the manifests were applied (the origin of `elapsedMs`). */
  readonly startedAt: number;
  /** The invariants (docs/design/cluster-model.md#invariants), checked on every event from before the manifests on. */
  readonly invariants: InvariantMonitor;
  upgradeConfig(): ManagedUpgradeConfig | undefined;
  progress(): ScenarioProgress;
  /** Stops the operator and the simulated cluster's servers (the environment stays). */
  close(): Promise<void>;
}

export interface RunScenarioOptions {
  seed: number;
  onProgress?: (scenarioProgress: ScenarioProgress) => void;
  onOperatorRequest?: RequestObserver;
  /** Stop after this much virtual time, whatever the file says (`--until`). */
  untilMs?: number;
  /** Called once the cluster runs and the operator started, before the manifests (tests, benchmarks). */
  beforeManifests?(run: ScenarioRun): void;
  /** The operator runs in another process (`run --rehearsal`), not in this one. */
  externalOperator?: ExternalOperator;
}

/** What an operator in another process needs to know of the simulated cluster. */
export interface ExternalOperatorEndpoints {
  prometheusUrl: string;
  alertmanagerUrl: string;
  /** The simulated OCM (also in the operator's ConfigMap), when the file has one. */
  ocmUrl?: string;
  flows: OperatorFlows['flows'];
  /** The scheduled flow's namespace (`run --namespace`). */
  namespace: string;
}

/** The Lease an operator process holds while it acts (namespace and name). */
export interface OperatorLease {
  namespace: string;
  name: string;
}

/** The caller's side of an external operator. */
export interface ExternalOperator {
  /** The cluster runs: tell the operator where it is (the rehearsal file); the run then waits for `lease`. */
  ready(endpoints: ExternalOperatorEndpoints, lease: OperatorLease): Promise<void> | void;
  /** The operator holds its Lease; the manifests are applied next. */
  arrived?(holder: string): void;
}

/**
 * Why a file cannot run with its operator in another process (empty: it can), pure: it must have
 * an operator, and no action may stop or start the in-process one.
 */
export function externalOperatorProblems(file: ScenarioFile): string[] {
  if (!file.operator) return ['the scenario runs no operator: there is nothing for an external operator to do'];
  const problems: string[] = [];
  for (const action of file.actions ?? []) {
    const what = (['restartOperator', 'stopOperator', 'startOperator'] as const).find((k) => action.do[k]);
    if (what)
      problems.push(
        `action "${action.name}" (${what}) controls the operator process of simulate; with an external operator, stop and start your own \`upgrade-operator run\` instead, or pick a scenario without it`,
      );
  }
  return problems;
}

/** The Lease `upgrade-operator run` takes for these flows with its defaults (src/cli/run.ts). */
export function operatorLease(flows: OperatorFlows): OperatorLease {
  return flows.flows.includes('managed')
    ? { namespace: NS, name: LEADER_ELECTION_ID }
    : { namespace: flows.scheduledNamespace, name: SCHEDULED_LEADER_ELECTION_ID };
}

function durationMs(text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const r = parseGoDurationMs(text);
  return r.ok ? r.ms : fallback;
}

/** The simulated Job controller's rule of a file's `cluster.jobs` entry (validated by the parser). */
/** A regular expression the scenario file already validated. */
function goRegexp(source: string): GoRegexp {
  const compiled = compileGoRegexp(source);
  if (!compiled.ok) throw new Error(compiled.error);
  return compiled.regexp;
}

function jobRule(scenarioJobRule: ScenarioJobRule): JobRule {
  const m = scenarioJobRule.match;
  return {
    match: {
      ...(m.namespace ? { namespace: m.namespace } : {}),
      ...(m.name ? { name: goRegexp(m.name) } : {}),
      ...(m.labels ? { labels: m.labels } : {}),
    },
    outcome: scenarioJobRule.outcome,
    ...(scenarioJobRule.after !== undefined ? { after: durationMs(scenarioJobRule.after, 0) / 60_000 } : {}),
  };
}

/** The kinds whose Warning Events the progress shows: the operator's own. */
const OPERATOR_KINDS = new Set(['UpgradeConfig', 'UpgradeJob']);

/**
 * A node that may be draining, updating or rebooting (its configs differ, its daemon works, it
 * is cordoned or NotReady): only these are assessed, so that a 500-node cluster costs little.
 */
function mayBeBusy(node: Node): boolean {
  const a = node.metadata?.annotations ?? {};
  return (
    a[MachineConfigNodeAnnotation.CurrentConfig] !== a[MachineConfigNodeAnnotation.DesiredConfig] ||
    a[MachineConfigNodeAnnotation.State] === MachineConfigDaemonState.Working ||
    node.spec?.unschedulable === true ||
    node.status?.conditions?.some((c) => c.type === 'Ready' && c.status !== 'True') === true
  );
}

/** Runs the scenario in `env`; the caller closes the run (then the environment). */
export async function runScenarioFile(
  env: SimEnvironment,
  file: ScenarioFile,
  options: RunScenarioOptions,
): Promise<ScenarioRun> {
  const external = options.externalOperator;
  const refused = external ? externalOperatorProblems(file) : [];
  if (refused.length > 0)
    throw new Error(`this scenario cannot run with an external operator:\n  - ${refused.join('\n  - ')}`);
  const sim = createSimulatedCluster(env.ctx, {
    profile: file.cluster.profile ?? 'ha-cloud',
    version: file.cluster.version,
    channel: file.cluster.channel,
    workers: file.cluster.workers,
    infraNodes: file.cluster.infraNodes,
    seed: options.seed,
    foreignNodes: env.foreignNodes,
    ...(file.cluster.nodes || file.cluster.pools
      ? {
          topology: {
            nodes: file.cluster.nodes,
            machineSets: file.cluster.machineSets,
            pools: file.cluster.pools,
          },
        }
      : {}),
    ...(file.cluster.alerts ? { alerts: file.cluster.alerts } : {}),
    ...(file.cluster.jobs ? { jobRules: file.cluster.jobs.map(jobRule) } : {}),
  });
  await sim.start(env.signal);
  // Before the operator and the manifests, so that the report holds every transition of the run.
  const recorder = await startClusterRecorder(env.ctx, sim.components.monitoring, env.signal);
  const invariants = startInvariantMonitor(env.ctx, sim.components.monitoring);
  // Every kind of this project, so that a file may apply any of its custom resources.
  await installCustomResourceDefinitions(env.client, customResourceDefinitions());
  const flows: OperatorFlows = {
    flows: file.operator?.flows ?? ['managed'],
    scheduledNamespace: file.operator?.namespace ?? SCHEDULED_NS,
  };
  const monitoring = sim.components.monitoring;
  const informers = env.ctx.informers;
  const configs = informers.informerFor(ManagedUpgradeConfigResource, { namespace: NS });
  const cvs = informers.informerFor(ClusterVersionResource);
  const pools = informers.informerFor(MachineConfigPoolResource);
  const upgradeJobs = informers.informerFor(UpgradeJobResource, { namespace: flows.scheduledNamespace });
  const nodes = informers.informerFor(NodeResource);
  // The Warning Events of the operator's objects: in its namespace and the scheduled flow's.
  const eventInformers = [...new Set([NS, flows.scheduledNamespace])].map((namespace) =>
    informers.informerFor(EventResource, { namespace }),
  );
  informers.start(env.signal);
  await informers.waitForSync(env.signal);

  const ocm = file.ocm ? await startScenarioOcm(env, file.ocm, file.cluster.version) : undefined;
  let operatorStarts = 0;
  let operator: OperatorProcess | undefined;
  // The embedded operator's Deployment, pod and log (`kubectl logs deploy/upgrade-operator`).
  const operatorPod = new OperatorPod(env.clock, flows.flows.includes('managed'));
  if (file.operator) {
    // A namespace the user prepared (the shipped ServiceAccount, Roles and ConfigMap) is adopted.
    await ensureNamespace(env.client, NS, { signal: env.signal });
    if (file.operator.config !== undefined) {
      await writeOperatorConfig(env, file.operator.config.replaceAll('{{ ocmUrl }}', ocm?.url ?? ''));
    }
    if (!external) {
      operatorStarts = 1;
      operator = await startOperatorProcess(env, sim, options.seed, flows, options.onOperatorRequest, operatorPod);
    }
  }
  // An operator elsewhere takes its Lease in its namespace, which must exist first: the file's
  // Namespaces go in before it is awaited, the rest of its manifests after.
  const early = external
    ? (file.manifests ?? []).filter((m) => m['apiVersion'] === 'v1' && m['kind'] === 'Namespace')
    : [];
  if (external) {
    for (const m of early) await applyManifest(env.client, m as JsonObject, env.signal);
    const lease = operatorLease(flows);
    await ensureNamespace(env.client, lease.namespace, { signal: env.signal });
    if (!monitoring.prometheusUrl || !monitoring.alertmanagerUrl)
      throw new Error('the simulated cluster serves no Prometheus or Alertmanager for an external operator');
    // The rehearsal file carries the scaled time: it begins now (the wait for the operator counts).
    env.clock.beginScaledTime();
    await external.ready(
      {
        prometheusUrl: monitoring.prometheusUrl,
        alertmanagerUrl: monitoring.alertmanagerUrl,
        ...(ocm ? { ocmUrl: ocm.url } : {}),
        flows: flows.flows,
        namespace: flows.scheduledNamespace,
      },
      lease,
    );
    external.arrived?.(await leaseHolder(env, lease));
  }
  // API faults from here on: the file's settings, its actions, the single-node reboot outage.
  const apiFaults = startApiFaultControl(env, file);
  let start = env.clock.now();
  const timeline: ScenarioProgress[] = [];
  const actionsRun: Array<{ name: string; elapsedMs: number }> = [];
  const pending: ScenarioAction[] = [...(file.actions ?? [])];
  const failures: string[] = [];
  let busy = Promise.resolve();
  let ended: ScenarioRun['ended'] = 'timeout';

  // Firing alerts change only at a rule evaluation that changed some alert's state, the newest
  // Warning only with an Event: both are read then, not at every snapshot.
  let firing = firingAlertNames(monitoring.rules.activeAlerts());
  const readWarning = (): string =>
    newestWarning(
      eventInformers.flatMap((i) => i.list()).filter((e) => OPERATOR_KINDS.has(e.involvedObject.kind ?? '')),
    );
  let warning = readWarning();
  const progress = (): ScenarioProgress => {
    const poolList = pools.list();
    const now = env.clock.now();
    return snapshot(
      now,
      now - start,
      configs.get(NS, MANAGED_UPGRADE_CONFIG_NAME),
      cvs.get(undefined, CLUSTER_VERSION_NAME),
      Object.fromEntries(
        poolList.map((p) => [
          p.metadata?.name ?? '',
          [p.status?.updatedMachineCount ?? 0, p.status?.machineCount ?? 0],
        ]),
      ),
      newestUpgradeJob(upgradeJobs.list()),
      {
        poolActivity: poolActivity(nodes.list().filter(mayBeBusy), poolList),
        alerts: firing,
        silences: activeSilenceComments(monitoring.alertmanager.silences.list(), now),
        warning,
      },
    );
  };
  const expand = (m: JsonObject): JsonObject => expandTimes(m, start, formatTime) as JsonObject;

  const run: ScenarioRun = {
    env,
    sim,
    file,
    namespace: NS,
    ocm,
    timeline,
    actionsRun,
    get ended() {
      return ended;
    },
    metricsUrl: () => {
      if (!operator) throw new Error('no operator runs');
      return operator.metrics.url;
    },
    get operatorStarts() {
      return operatorStarts;
    },
    recorder,
    invariants,
    get startedAt() {
      return start;
    },
    upgradeConfig: () => configs.get(NS, MANAGED_UPGRADE_CONFIG_NAME),
    progress,
    async close(): Promise<void> {
      stopAlerts();
      recorder.stop();
      invariants.stop();
      await operator?.close();
      await ocm?.close();
      await sim.close();
    },
  };
  const target: ActionTarget = {
    sim,
    client: env.client,
    expand,
    apiFaults,
    rescheduleOcmPolicy(afterStartMs: number): void {
      if (!ocm) throw new Error('the scenario has no ocm');
      ocm.reschedule(start + afterStartMs);
    },
    cancelOcmPolicy(): void {
      if (!ocm) throw new Error('the scenario has no ocm');
      ocm.cancel();
    },
    async restartOperator(): Promise<void> {
      await target.stopOperator();
      await target.startOperator();
    },
    async stopOperator(): Promise<void> {
      if (external) throw new Error('the operator runs in another process');
      await operator?.close();
      operator = undefined;
    },
    async startOperator(): Promise<void> {
      if (external) throw new Error('the operator runs in another process');
      if (operator) return;
      operatorStarts++;
      operator = await startOperatorProcess(
        env,
        sim,
        options.seed + operatorStarts,
        flows,
        options.onOperatorRequest,
        operatorPod,
      );
    },
  };

  // Actions and their triggers count from the manifests applied (the origin of `after`): none
  // runs while the informers replay what exists or while the manifests are being created.
  let manifestsApplied = false;
  const act = (scenarioProgress: ScenarioProgress): void => {
    if (!manifestsApplied) return;
    const cv = cvs.get(undefined, CLUSTER_VERSION_NAME);
    for (const action of pending.filter(
      (a) => scenarioProgress.elapsedMs >= durationMs(a.after, 0) && triggerHolds(a.when, scenarioProgress, cv),
    )) {
      pending.splice(pending.indexOf(action), 1);
      // One action at a time, in order; the clock stands still while their API calls run.
      const done = env.clock.activity.begin(`scenario action ${action.name}`);
      busy = busy
        .then(async () => {
          actionsRun.push({ name: action.name, elapsedMs: env.clock.now() - start });
          await performAction(action.do, target, env.signal);
        })
        .catch((err: unknown) => void failures.push(`${action.name}: ${errorMessage(err)}`))
        .finally(done);
    }
  };
  const observe = (): void => {
    const p = progress();
    const last = timeline.at(-1);
    if (!last || progressKey(last) !== progressKey(p)) {
      timeline.push(p);
      options.onProgress?.(p);
    }
    // Triggers may read more than the snapshot (e.g. offered updates).
    act(p);
  };
  configs.addHandlers({ onAdd: observe, onUpdate: observe });
  cvs.addHandlers({ onAdd: observe, onUpdate: observe });
  pools.addHandlers({ onAdd: observe, onUpdate: observe });
  upgradeJobs.addHandlers({ onAdd: observe, onUpdate: observe });
  nodes.addHandlers({ onUpdate: observe });
  const onEvent = (): void => {
    warning = readWarning();
    observe();
  };
  for (const i of eventInformers) i.addHandlers({ onAdd: onEvent, onUpdate: onEvent });
  const stopAlerts = monitoring.rules.onTransitions(() => {
    firing = firingAlertNames(monitoring.rules.activeAlerts());
    observe();
  });

  options.beforeManifests?.(run);
  // On an external server the set-up ran at the wall pace; the scenario runs on its scaled time
  // (docs/simulation.md#time-on-an-external-server).
  env.clock.beginScaledTime();
  start = env.clock.now();
  ocm?.addPolicies(start);
  for (const m of file.manifests ?? [])
    if (!early.includes(m)) await applyManifest(env.client, expand(m as JsonObject), env.signal);
  for (const a of pending) {
    if (a.after === undefined) continue;
    // A timer on the virtual clock: it jumps there when nothing else is due first.
    env.clock.sleep(durationMs(a.after, 0), env.signal).then(
      () => act(progress()),
      () => undefined,
    );
  }
  manifestsApplied = true;
  act(progress());

  const managedFlow = file.operator !== undefined && flows.flows.includes('managed');
  const endPhases = file.end?.phase ?? (managedFlow ? ['Upgraded', 'Failed'] : []);
  const endObject = file.end?.objectCondition;
  const clusterUpgraded = file.end?.clusterUpgraded ?? (!managedFlow && endObject === undefined);
  const endObjects = endObject
    ? env.ctx.informers.informerFor(
        await discoverResource(env.client, endObject.apiVersion, endObject.kind, env.signal),
        { namespace: endObject.namespace },
      )
    : undefined;
  if (endObjects) await endObjects.waitForSync(env.signal);
  const endReached = (): boolean => {
    const p = progress();
    if (endPhases.includes(p.phase)) return true;
    if (
      endObject &&
      endObjects?.list().some((o) => hasCondition(o, endObject.type, endObject.status, endObject.reason))
    )
      return true;
    if (!clusterUpgraded) return false;
    const cvh = cvs.get(undefined, CLUSTER_VERSION_NAME)?.status?.history?.[0];
    return (
      p.clusterVersion.desired !== file.cluster.version &&
      cvh?.state === 'Completed' &&
      cvh.version === p.clusterVersion.desired &&
      pools.list().length > 0 &&
      pools.list().every(poolFullyUpdated)
    );
  };
  const limit =
    start + Math.min(durationMs(file.end?.timeout, DEFAULT_TIMEOUT_MS), options.untilMs ?? Number.POSITIVE_INFINITY);
  await env.clock.run({
    until: () => failures.length > 0 || endReached() || env.clock.now() >= limit,
    signal: env.signal,
  });
  await busy;
  apiFaults.end();
  if (failures.length > 0) throw new Error(`scenario action failed: ${failures.join('; ')}`);
  ended = endReached()
    ? 'end condition'
    : options.untilMs !== undefined && env.clock.now() >= start + options.untilMs
      ? 'until'
      : 'timeout';
  return run;
}

/**
 * The operator's ConfigMap with the scenario's config: created, or, in a namespace the user
 * prepared (the shipped `05-config-map.yaml`), its config replaced by the scenario's.
 */
async function writeOperatorConfig(env: SimEnvironment, config: string): Promise<void> {
  const data = { [MANAGED_UPGRADE_CONFIGMAP_KEY]: config };
  try {
    await env.client.create(
      ConfigMapResource,
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: MANAGED_UPGRADE_CONFIGMAP_NAME, namespace: NS }, data },
      { signal: env.signal },
    );
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
    const existing = await env.client.get(ConfigMapResource, NS, MANAGED_UPGRADE_CONFIGMAP_NAME, {
      signal: env.signal,
    });
    await env.client.update(
      ConfigMapResource,
      { ...existing, data: { ...existing.data, ...data } },
      { signal: env.signal },
    );
  }
}

/** Resolves with the holder once someone holds the Lease (watched, not polled); rejects if the run is closed first. */
async function leaseHolder(env: SimEnvironment, lease: OperatorLease): Promise<string> {
  const leases = env.ctx.informers.informerFor(LeaseResource, { namespace: lease.namespace });
  await leases.waitForSync(env.signal);
  return new Promise<string>((resolve, reject) => {
    const check = (): void => {
      const holder = leases.get(lease.namespace, lease.name)?.spec?.holderIdentity;
      if (!holder) return;
      env.signal.removeEventListener('abort', onAbort);
      resolve(holder);
    };
    const onAbort = (): void => reject(new Error('stopped while waiting for the operator'));
    env.signal.addEventListener('abort', onAbort, { once: true });
    leases.addHandlers({ onAdd: check, onUpdate: check });
    check();
  });
}
