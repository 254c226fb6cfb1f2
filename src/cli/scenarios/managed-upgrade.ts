/**
 * The managed-upgrade rehearsal: a simulated cluster, this project's operator in the loop (the
 * same composition `upgrade-operator run` uses, on the virtual clock), and an UpgradeConfig
 * created the way SRE tooling or OCM would. A script adds faults before the upgrade or when
 * the upgrade reaches a point, and may restart the operator (a new process: nothing kept in
 * memory). Progress is read only from what a user can read: the UpgradeConfig, ClusterVersion
 * and MachineConfigPools, through informers.
 */
import { setMaxListeners } from 'node:events';
import { ConfigMapResource, NamespaceResource } from '../../api/builtin.js';
import { CLUSTER_VERSION_NAME, ClusterVersionResource, type ClusterVersion } from '../../api/openshift/config-v1/cluster-version.js';
import { MachineConfigPoolResource } from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import {
  MANAGED_UPGRADE_CONFIG_NAME,
  MANAGED_UPGRADE_CONFIGMAP_KEY,
  MANAGED_UPGRADE_CONFIGMAP_NAME,
  MANAGED_UPGRADE_OPERATOR_NAMESPACE,
  ManagedUpgradeConfigResource,
} from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { managedUpgradeConfigCrd, type ManagedUpgradeConfig } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import { defaultOperatorSettings } from '../../config/operator-settings.js';
import { InformerFactory } from '../../kube/informer-factory.js';
import type { ActivityTracker } from '../../lib/activity.js';
import { formatTime } from '../../lib/clock.js';
import { errorMessage } from '../../lib/errors.js';
import { SeededRandom } from '../../lib/random.js';
import { startMetricsServer, type MetricsServer } from '../../metrics/metrics-server.js';
import { createSimulatedCluster, type SimulatedCluster } from '../../sim/cluster.js';
import { installCustomResourceDefinitions } from '../../sim/install-crds.js';
import { createManagedOperator, type ManagedOperator } from '../managed-operator.js';
import type { SimEnvironment } from './sim-environment.js';

const MINUTE = 60_000;
const NS = MANAGED_UPGRADE_OPERATOR_NAMESPACE;

/** What is upgraded, how, and when. */
export interface ManagedUpgradeSpec {
  type: 'OSD' | 'ARO';
  /** Cluster profile (default `ha-cloud`). */
  profile?: string;
  from: string;
  fromChannel: string;
  desired: { version: string; channel: string };
  /** `upgradeAt` this many virtual minutes after the UpgradeConfig is created. */
  startInMinutes: number;
  capacityReservation: boolean;
  pdbForceDrainTimeoutMinutes: number;
  /** The operator ConfigMap's `config.yaml`. */
  operatorConfig: string;
  /** The run stops after this many virtual minutes whatever happened. */
  limitMinutes: number;
}

/** What a user watching the upgrade sees at one moment. */
export interface ManagedProgress {
  /** Virtual ms since the UpgradeConfig was created. */
  elapsedMs: number;
  /** Phase of the newest history entry (empty before the operator wrote one). */
  phase: string;
  /** The newest history condition as `Type=Status`, and its message. */
  step: string;
  stepMessage: string;
  /** Message of the `Waiting` condition while it is True. */
  waiting: string;
  /** Pool name → [updated, total]. */
  pools: Record<string, [number, number]>;
  /** ClusterVersion: newest history entry, and the Progressing message. */
  clusterVersion: { version: string; state: string; progressing: string };
  /** History condition types that are True. */
  doneSteps: string[];
}

/** A fault or an intervention, made once, as soon as both of its triggers hold. */
export interface ScenarioAction {
  name: string;
  /** A virtual time after the UpgradeConfig's creation. */
  afterMinutes?: number;
  /** A state of the upgrade. */
  when?(p: ManagedProgress): boolean;
  run(r: ManagedUpgradeRun): Promise<void> | void;
}

/** The script of a scenario. */
export interface ManagedScenarioScript {
  /** Runs once the cluster and the operator run, before the UpgradeConfig exists. */
  setup?(r: ManagedUpgradeRun): Promise<void> | void;
  actions?: ScenarioAction[];
  /** Ends the run early (default: phase Upgraded or Failed). */
  done?(p: ManagedProgress): boolean;
}

/** A run, for scripts and for whoever inspects it afterwards. */
export interface ManagedUpgradeRun {
  readonly env: SimEnvironment;
  readonly sim: SimulatedCluster;
  readonly namespace: string;
  /** Every distinct progress snapshot, oldest first. */
  readonly timeline: ManagedProgress[];
  /** Actions that ran, with the virtual ms at which they ran. */
  readonly actionsRun: Array<{ name: string; elapsedMs: number }>;
  /** Base URL of the running operator's metrics endpoints (`/metrics`: gauges, `/collector`: the CR collector). */
  metricsUrl(): string;
  /** The operator process stops (its work in flight ends) and a new one starts with nothing in memory. */
  restartOperator(): Promise<void>;
  /** How many operator processes have run. */
  readonly operatorStarts: number;
  upgradeConfig(): ManagedUpgradeConfig | undefined;
  progress(): ManagedProgress;
  /** Stops the operator and the simulated cluster's servers (the environment stays). */
  close(): Promise<void>;
}

interface OperatorProcess {
  operator: ManagedOperator;
  metrics: MetricsServer;
  abort: AbortController;
  running: Promise<void>;
  close(): Promise<void>;
}

/** Reports every HTTP request the operator starts (API server and outside APIs), by label. */
export type RequestObserver = (what: string) => void;

/** The virtual clock's activity tracker, also telling `observe` of each HTTP request. */
function observedActivity(inner: ActivityTracker, observe: RequestObserver | undefined): ActivityTracker {
  if (!observe) return inner;
  return {
    begin(what: string): () => void {
      if (what.startsWith('http ')) observe(what);
      return inner.begin(what);
    },
  };
}

async function startOperatorProcess(env: SimEnvironment, sim: SimulatedCluster, seed: number, onRequest?: RequestObserver): Promise<OperatorProcess> {
  const activity = observedActivity(env.clock.activity, onRequest);
  const client = env.newClient('upgrade-operator', NS, activity);
  const informers = new InformerFactory({ client, clock: env.clock, logger: env.logger, random: new SeededRandom(seed) });
  const monitoring = sim.components.monitoring;
  const operator = createManagedOperator({
    client,
    informers,
    clock: env.clock,
    logger: env.logger,
    activity,
    settings: defaultOperatorSettings(),
    prometheusUrl: monitoring.prometheusUrl ?? '',
    alertmanagerUrl: monitoring.alertmanagerUrl ?? '',
    releaseActivityAfterWallMs: 2000,
  });
  const metrics = await startMetricsServer({
    port: 0,
    registries: [{ path: '/metrics', registry: operator.metricsRegistry }, { path: '/collector', registry: operator.collectorRegistry }],
    health: () => ({ live: true, ready: true }),
  });
  const abort = new AbortController();
  const signal = AbortSignal.any([abort.signal, env.signal]);
  // Every controller and watch of the operator listens on this one signal.
  setMaxListeners(0, signal);
  const running = operator.start(signal).catch((err: unknown) => env.logger.error({ err: errorMessage(err) }, 'operator stopped with an error'));
  return {
    operator,
    metrics,
    abort,
    running,
    async close(): Promise<void> {
      abort.abort();
      await running;
      await Promise.allSettled([operator.close(), metrics.close(), client.close()]);
    },
  };
}

function snapshot(elapsedMs: number, cr: ManagedUpgradeConfig | undefined, cv: ClusterVersion | undefined, pools: Record<string, [number, number]>): ManagedProgress {
  const h = cr?.status?.history?.[0];
  const newest = h?.conditions?.[0];
  const waiting = cr?.status?.conditions?.find((c) => c.type === 'Waiting');
  const cvh = cv?.status?.history?.[0];
  return {
    elapsedMs,
    phase: h?.phase ?? '',
    step: newest ? `${newest.type}=${newest.status}` : '',
    stepMessage: newest?.message ?? '',
    waiting: waiting?.status === 'True' ? (waiting.message ?? '') : '',
    pools,
    clusterVersion: { version: cvh?.version ?? '', state: cvh?.state ?? '', progressing: cv?.status?.conditions?.find((c) => c.type === 'Progressing')?.message ?? '' },
    doneSteps: (h?.conditions ?? []).filter((c) => c.status === 'True').map((c) => c.type),
  };
}

/** Progress without the time, to tell whether anything changed. */
function progressKey(p: ManagedProgress): string {
  return JSON.stringify({ ...p, elapsedMs: 0 });
}

/**
 * Runs the rehearsal in `env` and returns once the script's end (default: Upgraded or Failed)
 * or the time limit is reached. The caller closes the run (then the environment).
 */
export async function runManagedUpgrade(
  env: SimEnvironment,
  spec: ManagedUpgradeSpec,
  script: ManagedScenarioScript,
  options: { seed: number; onProgress?: (p: ManagedProgress) => void; onOperatorRequest?: RequestObserver },
): Promise<ManagedUpgradeRun> {
  const sim = createSimulatedCluster(env.ctx, { profile: spec.profile ?? 'ha-cloud', version: spec.from, channel: spec.fromChannel, seed: options.seed });
  await sim.start(env.signal);
  await installCustomResourceDefinitions(env.client, [managedUpgradeConfigCrd()]);
  const informers = env.ctx.informers;
  const configs = informers.informerFor(ManagedUpgradeConfigResource, { namespace: NS });
  const cvs = informers.informerFor(ClusterVersionResource);
  const pools = informers.informerFor(MachineConfigPoolResource);
  informers.start(env.signal);
  await informers.waitForSync(env.signal);

  await env.client.create(NamespaceResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  await env.client.create(ConfigMapResource, {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: MANAGED_UPGRADE_CONFIGMAP_NAME, namespace: NS },
    data: { [MANAGED_UPGRADE_CONFIGMAP_KEY]: spec.operatorConfig },
  });

  let operatorStarts = 1;
  let process = await startOperatorProcess(env, sim, options.seed, options.onOperatorRequest);
  let createdAt = env.clock.now();
  const timeline: ManagedProgress[] = [];
  const actionsRun: Array<{ name: string; elapsedMs: number }> = [];
  const pending = [...(script.actions ?? [])];
  const failures: string[] = [];
  let busy = Promise.resolve();

  const progress = (): ManagedProgress =>
    snapshot(
      env.clock.now() - createdAt,
      configs.get(NS, MANAGED_UPGRADE_CONFIG_NAME),
      cvs.get(undefined, CLUSTER_VERSION_NAME),
      Object.fromEntries(pools.list().map((p) => [p.metadata?.name ?? '', [p.status?.updatedMachineCount ?? 0, p.status?.machineCount ?? 0]])),
    );

  const run: ManagedUpgradeRun = {
    env,
    sim,
    namespace: NS,
    timeline,
    actionsRun,
    metricsUrl: () => process.metrics.url,
    get operatorStarts() {
      return operatorStarts;
    },
    async restartOperator(): Promise<void> {
      await process.close();
      operatorStarts++;
      process = await startOperatorProcess(env, sim, options.seed + operatorStarts, options.onOperatorRequest);
    },
    upgradeConfig: () => configs.get(NS, MANAGED_UPGRADE_CONFIG_NAME),
    progress,
    async close(): Promise<void> {
      await process.close();
      await sim.close();
    },
  };

  const ready = (a: ScenarioAction, p: ManagedProgress): boolean =>
    (a.afterMinutes === undefined || p.elapsedMs >= a.afterMinutes * MINUTE) && (a.when?.(p) ?? true);
  const act = (p: ManagedProgress): void => {
    for (const action of pending.filter((a) => ready(a, p))) {
      pending.splice(pending.indexOf(action), 1);
      // One action at a time, in order; the clock stands still while their API calls run.
      const done = env.clock.activity.begin(`scenario action ${action.name}`);
      busy = busy
        .then(async () => {
          actionsRun.push({ name: action.name, elapsedMs: env.clock.now() - createdAt });
          await action.run(run);
        })
        .catch((err: unknown) => void failures.push(`${action.name}: ${errorMessage(err)}`))
        .finally(done);
    }
  };
  const observe = (): void => {
    const p = progress();
    const last = timeline.at(-1);
    if (last && progressKey(last) === progressKey(p)) return;
    timeline.push(p);
    options.onProgress?.(p);
    act(p);
  };
  for (const inf of [configs, cvs, pools] as const) {
    (inf as typeof configs).addHandlers({ onAdd: observe, onUpdate: observe });
  }

  await script.setup?.(run);
  createdAt = env.clock.now();
  await env.client.create(ManagedUpgradeConfigResource, {
    apiVersion: 'upgrade.managed.openshift.io/v1alpha1',
    kind: 'UpgradeConfig',
    metadata: { name: MANAGED_UPGRADE_CONFIG_NAME, namespace: NS },
    spec: {
      type: spec.type,
      upgradeAt: formatTime(createdAt + spec.startInMinutes * MINUTE),
      PDBForceDrainTimeout: spec.pdbForceDrainTimeoutMinutes,
      capacityReservation: spec.capacityReservation,
      desired: spec.desired,
    },
  });
  for (const a of pending) {
    if (a.afterMinutes === undefined) continue;
    // A timer on the virtual clock: the clock jumps to it when nothing else is due first.
    env.clock.sleep(a.afterMinutes * MINUTE, env.signal).then(() => act(progress()), () => undefined);
  }
  const done = (p: ManagedProgress): boolean => (script.done ? script.done(p) : p.phase === 'Upgraded' || p.phase === 'Failed');
  const limit = createdAt + spec.limitMinutes * MINUTE;
  await env.clock.run({ until: () => failures.length > 0 || done(progress()) || env.clock.now() > limit, signal: env.signal });
  await busy;
  if (failures.length > 0) throw new Error(`scenario action failed: ${failures.join('; ')}`);
  return run;
}
