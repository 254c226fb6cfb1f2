/**
 * The actions of scenario files: when a trigger holds (pure), and what each action does to the
 * simulated cluster (its fault hooks), to the API (as a user would) or to the operator process.
 */
import { CLUSTER_VERSION_NAME, ClusterVersionResource, type ClusterVersion } from '../../api/openshift/config-v1/cluster-version.js';
import { NodeResource } from '../../api/builtin.js';
import type { ApiFaultSettings } from '../../apiserver/faults.js';
import type { KubeClient } from '../../kube/client.js';
import { parseGoDurationMs } from '../../lib/go-duration.js';
import type { JsonObject } from '../../lib/json.js';
import type { SimulatedCluster } from '../../sim/cluster.js';
import { isNodeReady } from '../../sim/workloads/scheduling.js';
import { applyManifest, discoverResource } from './apply-manifest.js';
import type { ScenarioApiFaults, ScenarioDo, ScenarioFile, ScenarioTrigger } from './scenario-file.js';
import type { ScenarioProgress } from './scenario-progress.js';
import type { SimEnvironment } from './sim-environment.js';

/** True when every given part of the trigger holds. */
export function triggerHolds(t: ScenarioTrigger | undefined, p: ScenarioProgress, cv: ClusterVersion | undefined): boolean {
  if (!t) return true;
  if (t.phase !== undefined && p.phase !== t.phase) return false;
  if (t.stepStarted !== undefined && p.step !== `${t.stepStarted}=False` && !(p.stepMessage.startsWith(t.stepStarted) && !p.doneSteps.includes(t.stepStarted))) return false;
  if (t.stepDone !== undefined && !p.doneSteps.includes(t.stepDone)) return false;
  if (t.workersUpdated !== undefined) {
    const [updated, total] = p.pools['worker'] ?? [0, 0];
    if (!(updated >= t.workersUpdated && updated < total)) return false;
  }
  if (t.offered !== undefined && newestOffered(cv, t.offered) === undefined) return false;
  if (t.jobCondition !== undefined && !p.upgradeJob.trueConditions.includes(t.jobCondition)) return false;
  if (t.progressing !== undefined && !p.clusterVersion.progressing.includes(t.progressing)) return false;
  return true;
}

/** The newest available update whose version starts with `prefix` (by patch number, then text). */
export function newestOffered(cv: ClusterVersion | undefined, prefix: string): { version: string; image: string } | undefined {
  const offered = (cv?.status?.availableUpdates ?? []).filter((r) => (r.version ?? '').startsWith(prefix) && r.image);
  const patch = (v: string): number => Number(v.split('.')[2]?.split('-')[0] ?? 0);
  offered.sort((a, b) => patch(b.version ?? '') - patch(a.version ?? '') || (b.version ?? '').localeCompare(a.version ?? ''));
  const top = offered[0];
  return top ? { version: top.version ?? '', image: top.image ?? '' } : undefined;
}

/** What an action may reach. */
export interface ActionTarget {
  sim: SimulatedCluster;
  client: KubeClient;
  restartOperator(): Promise<void>;
  /** Stops the operator process (nothing when none runs). */
  stopOperator(): Promise<void>;
  /** Starts a new operator process (nothing when one runs). */
  startOperator(): Promise<void>;
  /** RFC 3339 of the scenario start + a duration, for `{{ +10m }}` in applied manifests. */
  expand(manifest: JsonObject): JsonObject;
  /** Moves the first OCM policy to this many virtual ms after the start (scenarios with `ocm`). */
  rescheduleOcmPolicy(afterStartMs: number): void;
  /** The embedded API server's faults (actions `apiFaults`, `apiOutage`). */
  apiFaults: ApiFaultControl;
}

/** The scenario's switch of the embedded API server's faults (see {@link startApiFaultControl}). */
export interface ApiFaultControl {
  set(settings: ApiFaultSettings | undefined): void;
  /** An outage of this many virtual ms (outages that overlap add up to the longest). */
  outage(forMs: number): void;
  /** The run is over: no more faults, so that its outcome can be read. */
  end(): void;
}

/**
 * Wires a file's API faults to the embedded API server: the `cluster.apiFaults` settings from the
 * start, and on a single-node cluster (unless `cluster.apiOutageOnReboot` is false) an outage
 * while its node is NotReady, which is when its only API server is down. The draws come from
 * the simulation's seed (`api-faults`), so one seed gives one timeline. Against an external API
 * server nothing can be injected: a file that asks for faults is refused, the single-node
 * default is dropped with a log line.
 */
export function startApiFaultControl(env: SimEnvironment, file: ScenarioFile): ApiFaultControl {
  const faults = env.server?.faults;
  const log = env.logger.child({ component: 'scenario-api-faults' });
  const singleNode = file.cluster.profile === 'single-node';
  const onReboot = file.cluster.apiOutageOnReboot ?? singleNode;
  const asked = file.cluster.apiFaults !== undefined || file.cluster.apiOutageOnReboot === true || (file.actions ?? []).some((a) => a.do.apiFaults !== undefined || a.do.apiOutage !== undefined);
  if (!faults) {
    if (asked) throw new Error('API faults need the embedded API server: this scenario cannot run against an external one');
    if (onReboot) log.info('no API outage during the node reboot: the API server is external');
    return { set: () => undefined, outage: () => undefined, end: () => undefined };
  }
  const random = env.ctx.random.fork('api-faults');
  if (file.cluster.apiFaults) faults.configure(apiFaultSettings(file.cluster.apiFaults), random);
  let rebooting = false;
  let outages = 0;
  let ended = false;
  const apply = (): void => faults.setOutage(!ended && (rebooting || outages > 0));
  if (onReboot) {
    const nodes = env.ctx.informers.informerFor(NodeResource);
    const check = (): void => {
      const down = nodes.list().some((n) => !isNodeReady(n));
      if (down === rebooting) return;
      rebooting = down;
      log.info({ outage: down }, down ? 'the node is NotReady: its API server is down' : 'the node is Ready: its API server is back');
      apply();
    };
    nodes.addHandlers({ onAdd: check, onUpdate: check, onDelete: check });
  }
  return {
    set: (settings) => {
      if (!ended) faults.configure(settings, random);
    },
    end: () => {
      ended = true;
      faults.configure(undefined, random);
      apply();
    },
    outage: (forMs) => {
      outages++;
      apply();
      env.clock.setTimer(forMs, () => {
        outages--;
        apply();
      });
    },
  };
}

/** The API server's fault settings of a file's `apiFaults` block (validated by the parser). */
export function apiFaultSettings(f: ScenarioApiFaults): ApiFaultSettings {
  const every = f.watchDisconnectEvery === undefined ? undefined : parseGoDurationMs(f.watchDisconnectEvery);
  return {
    ...(f.errorRate !== undefined ? { errorRate: f.errorRate } : {}),
    ...(f.errors !== undefined ? { errors: f.errors } : {}),
    ...(every?.ok === true ? { watchDisconnectIntervalMs: every.ms } : {}),
    ...(f.watchResumeGone !== undefined ? { watchGoneRate: f.watchResumeGone } : {}),
    ...(f.clients !== undefined ? { clients: f.clients } : {}),
  };
}

/** Performs one action (the file's `do`, already validated to hold exactly one key). */
export async function performAction(d: ScenarioDo, t: ActionTarget, signal: AbortSignal): Promise<void> {
  const ops = t.sim.components.operators;
  const monitoring = t.sim.components.monitoring;
  if (d.degradeOperator) ops.degrade(d.degradeOperator.name, { reason: d.degradeOperator.reason, message: d.degradeOperator.message });
  else if (d.makeOperatorUnavailable) {
    const { name, reason, message } = d.makeOperatorUnavailable;
    ops.makeUnavailable(name, { ...(reason ? { reason } : {}), ...(message ? { message } : {}) });
  } else if (d.stickOperator) ops.stick(d.stickOperator);
  else if (d.unstickOperator) ops.unstick(d.unstickOperator);
  else if (d.setUpgradeable) {
    const { name, upgradeable, reason, message } = d.setUpgradeable;
    ops.setUpgradeable(name, upgradeable, { reason: reason ?? 'ScenarioFault', message: message ?? `${name} is not upgradeable` });
  } else if (d.clearOperatorFaults) ops.clearFaults(d.clearOperatorFaults);
  else if (d.alertmanager) monitoring.setAlertmanagerFault(d.alertmanager === 'up' ? { kind: 'none' } : d.alertmanager === 'down' ? { kind: 'down' } : { kind: 'error' });
  else if (d.prometheus) monitoring.setPrometheusFault(d.prometheus === 'up' ? { mode: 'none' } : d.prometheus === 'down' ? { mode: 'down' } : { mode: '5xx' });
  else if (d.updateService) await t.sim.updateService.setFault(d.updateService === 'up' ? undefined : { kind: d.updateService });
  else if (d.setRisks) t.sim.components.clusterVersionOperator.setRiskTable(d.setRisks);
  else if (d.blockNodeJoin) t.sim.components.machineApi.blockJoin({ machineSet: d.blockNodeJoin.machineSet });
  else if (d.restartOperator) await t.restartOperator();
  else if (d.stopOperator) await t.stopOperator();
  else if (d.startOperator) await t.startOperator();
  else if (d.apply) for (const m of d.apply) await applyManifest(t.client, t.expand(m as JsonObject), signal);
  else if (d.ocmReschedule) {
    const r = parseGoDurationMs(d.ocmReschedule.nextRunIn);
    if (!r.ok) throw new Error(r.error);
    t.rescheduleOcmPolicy(r.ms);
  } else if (d.pausePool !== undefined) await t.sim.components.machineConfigOperator.pausePool(d.pausePool);
  else if (d.unpausePool !== undefined) await t.sim.components.machineConfigOperator.unpausePool(d.unpausePool);
  else if (d.patch) {
    const r = await discoverResource(t.client, d.patch.apiVersion, d.patch.kind, signal);
    await t.client.patch(r, d.patch.namespace, d.patch.name, t.expand(d.patch.merge as JsonObject), { type: 'merge', signal });
  }
  else if (d.apiFaults !== undefined) t.apiFaults.set(d.apiFaults === 'off' ? undefined : apiFaultSettings(d.apiFaults));
  else if (d.apiOutage) {
    const r = parseGoDurationMs(d.apiOutage.for);
    if (!r.ok) throw new Error(r.error);
    t.apiFaults.outage(r.ms);
  }
  else if (d.restartClusterVersionOperator) t.sim.components.clusterVersionOperator.restart();
  else if (d.setChannel) await t.client.patch(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME, { spec: { channel: d.setChannel } }, { type: 'merge', signal });
  else if (d.upgradeToLatest !== undefined) {
    const cv = await t.client.get(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME, { signal });
    const target = newestOffered(cv, d.upgradeToLatest);
    if (!target) throw new Error(`no offered update starts with ${d.upgradeToLatest}`);
    await t.client.patch(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME, { spec: { desiredUpdate: target } }, { type: 'merge', signal });
  }
}
