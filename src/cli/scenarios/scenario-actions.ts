/**
 * The actions of scenario files: when a trigger holds (pure), and what each action does to the
 * simulated cluster (its fault hooks), to the API (as a user would) or to the operator process.
 */
import {
  CLUSTER_VERSION_NAME,
  ClusterVersionResource,
  type ClusterVersion,
} from '../../api/openshift/config-v1/cluster-version.js';
import { NodeResource } from '../../api/builtin.js';
import type { ApiFaultSettings } from '../../apiserver/faults.js';
import { HttpClient } from '../../integrations/http/http-client.js';
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
export function triggerHolds(
  scenarioTrigger: ScenarioTrigger | undefined,
  scenarioProgress: ScenarioProgress,
  cv: ClusterVersion | undefined,
): boolean {
  if (!scenarioTrigger) return true;
  if (scenarioTrigger.phase !== undefined && scenarioProgress.phase !== scenarioTrigger.phase) return false;
  if (
    scenarioTrigger.stepStarted !== undefined &&
    scenarioProgress.step !== `${scenarioTrigger.stepStarted}=False` &&
    !(
      scenarioProgress.stepMessage.startsWith(scenarioTrigger.stepStarted) &&
      !scenarioProgress.doneSteps.includes(scenarioTrigger.stepStarted)
    )
  )
    return false;
  if (scenarioTrigger.stepDone !== undefined && !scenarioProgress.doneSteps.includes(scenarioTrigger.stepDone))
    return false;
  if (scenarioTrigger.workersUpdated !== undefined) {
    const [updated, total] = scenarioProgress.pools['worker'] ?? [0, 0];
    if (!(updated >= scenarioTrigger.workersUpdated && updated < total)) return false;
  }
  if (scenarioTrigger.offered !== undefined && newestOffered(cv, scenarioTrigger.offered) === undefined) return false;
  if (
    scenarioTrigger.jobCondition !== undefined &&
    !scenarioProgress.upgradeJob.trueConditions.includes(scenarioTrigger.jobCondition)
  )
    return false;
  if (
    scenarioTrigger.progressing !== undefined &&
    !scenarioProgress.clusterVersion.progressing.includes(scenarioTrigger.progressing)
  )
    return false;
  return true;
}

/** The newest available update whose version starts with `prefix` (by patch number, then text). */
export function newestOffered(
  cv: ClusterVersion | undefined,
  prefix: string,
): { version: string; image: string } | undefined {
  const offered = (cv?.status?.availableUpdates ?? []).filter((r) => (r.version ?? '').startsWith(prefix) && r.image);
  const patch = (v: string): number => Number(v.split('.')[2]?.split('-')[0] ?? 0);
  offered.sort(
    (a, b) => patch(b.version ?? '') - patch(a.version ?? '') || (b.version ?? '').localeCompare(a.version ?? ''),
  );
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
  /** Cancels the first OCM policy (scenarios with `ocm`). */
  cancelOcmPolicy(): void;
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
 * Whether a file asks for API faults (its `cluster.apiFaults`, an explicit `apiOutageOnReboot:
 * true`, an `apiFaults` or `apiOutage` action): only the embedded API server injects them, so such
 * a file cannot run against an external one. Pure.
 */
export function asksForApiFaults(file: ScenarioFile): boolean {
  return (
    file.cluster.apiFaults !== undefined ||
    file.cluster.apiOutageOnReboot === true ||
    (file.actions ?? []).some((a) => a.do.apiFaults !== undefined || a.do.apiOutage !== undefined)
  );
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
  const asked = asksForApiFaults(file);
  if (!faults) {
    if (asked)
      throw new Error('API faults need the embedded API server: this scenario cannot run against an external one');
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
      log.info(
        { outage: down },
        down ? 'the node is NotReady: its API server is down' : 'the node is Ready: its API server is back',
      );
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
export function apiFaultSettings(scenarioApiFaults: ScenarioApiFaults): ApiFaultSettings {
  const every =
    scenarioApiFaults.watchDisconnectEvery === undefined
      ? undefined
      : parseGoDurationMs(scenarioApiFaults.watchDisconnectEvery);
  return {
    ...(scenarioApiFaults.errorRate !== undefined ? { errorRate: scenarioApiFaults.errorRate } : {}),
    ...(scenarioApiFaults.errors !== undefined ? { errors: scenarioApiFaults.errors } : {}),
    ...(every?.ok === true ? { watchDisconnectIntervalMs: every.ms } : {}),
    ...(scenarioApiFaults.watchResumeGone !== undefined ? { watchGoneRate: scenarioApiFaults.watchResumeGone } : {}),
    ...(scenarioApiFaults.clients !== undefined ? { clients: scenarioApiFaults.clients } : {}),
  };
}

/** Performs one action (the file's `do`, already validated to hold exactly one key). */
export async function performAction(
  scenarioDo: ScenarioDo,
  actionTarget: ActionTarget,
  signal: AbortSignal,
): Promise<void> {
  const ops = actionTarget.sim.components.operators;
  const monitoring = actionTarget.sim.components.monitoring;
  if (scenarioDo.degradeOperator)
    ops.degrade(scenarioDo.degradeOperator.name, {
      reason: scenarioDo.degradeOperator.reason,
      message: scenarioDo.degradeOperator.message,
    });
  else if (scenarioDo.makeOperatorUnavailable) {
    const { name, reason, message } = scenarioDo.makeOperatorUnavailable;
    ops.makeUnavailable(name, { ...(reason ? { reason } : {}), ...(message ? { message } : {}) });
  } else if (scenarioDo.stickOperator) ops.stick(scenarioDo.stickOperator);
  else if (scenarioDo.unstickOperator) ops.unstick(scenarioDo.unstickOperator);
  else if (scenarioDo.setUpgradeable) {
    const { name, upgradeable, reason, message } = scenarioDo.setUpgradeable;
    ops.setUpgradeable(name, upgradeable, {
      reason: reason ?? 'ScenarioFault',
      message: message ?? `${name} is not upgradeable`,
    });
  } else if (scenarioDo.clearOperatorFaults) ops.clearFaults(scenarioDo.clearOperatorFaults);
  else if (scenarioDo.alertmanager)
    monitoring.setAlertmanagerFault(
      scenarioDo.alertmanager === 'up'
        ? { kind: 'none' }
        : scenarioDo.alertmanager === 'down'
          ? { kind: 'down' }
          : { kind: 'error' },
    );
  else if (scenarioDo.prometheus)
    monitoring.setPrometheusFault(
      scenarioDo.prometheus === 'up'
        ? { mode: 'none' }
        : scenarioDo.prometheus === 'down'
          ? { mode: 'down' }
          : { mode: '5xx' },
    );
  else if (scenarioDo.updateService)
    await actionTarget.sim.updateService.setFault(
      scenarioDo.updateService === 'up' ? undefined : { kind: scenarioDo.updateService },
    );
  else if (scenarioDo.setRisks) actionTarget.sim.components.clusterVersionOperator.setRiskTable(scenarioDo.setRisks);
  else if (scenarioDo.blockNodeJoin)
    actionTarget.sim.components.machineApi.blockJoin({ machineSet: scenarioDo.blockNodeJoin.machineSet });
  else if (scenarioDo.restartOperator) await actionTarget.restartOperator();
  else if (scenarioDo.stopOperator) await actionTarget.stopOperator();
  else if (scenarioDo.startOperator) await actionTarget.startOperator();
  else if (scenarioDo.apply)
    for (const m of scenarioDo.apply)
      await applyManifest(actionTarget.client, actionTarget.expand(m as JsonObject), signal);
  else if (scenarioDo.ocmReschedule) {
    const r = parseGoDurationMs(scenarioDo.ocmReschedule.nextRunIn);
    if (!r.ok) throw new Error(r.error);
    actionTarget.rescheduleOcmPolicy(r.ms);
  } else if (scenarioDo.ocmCancel) actionTarget.cancelOcmPolicy();
  else if (scenarioDo.pausePool !== undefined)
    await actionTarget.sim.components.machineConfigOperator.pausePool(scenarioDo.pausePool);
  else if (scenarioDo.unpausePool !== undefined)
    await actionTarget.sim.components.machineConfigOperator.unpausePool(scenarioDo.unpausePool);
  else if (scenarioDo.patch) {
    const r = await discoverResource(actionTarget.client, scenarioDo.patch.apiVersion, scenarioDo.patch.kind, signal);
    await actionTarget.client.patch(
      r,
      scenarioDo.patch.namespace,
      scenarioDo.patch.name,
      actionTarget.expand(scenarioDo.patch.merge as JsonObject),
      { type: 'merge', signal, ...(scenarioDo.patch.subresource ? { subresource: scenarioDo.patch.subresource } : {}) },
    );
  } else if (scenarioDo.silence) {
    await createSilence(actionTarget, scenarioDo.silence, signal);
  } else if (scenarioDo.apiFaults !== undefined)
    actionTarget.apiFaults.set(scenarioDo.apiFaults === 'off' ? undefined : apiFaultSettings(scenarioDo.apiFaults));
  else if (scenarioDo.apiOutage) {
    const r = parseGoDurationMs(scenarioDo.apiOutage.for);
    if (!r.ok) throw new Error(r.error);
    actionTarget.apiFaults.outage(r.ms);
  } else if (scenarioDo.restartClusterVersionOperator) actionTarget.sim.components.clusterVersionOperator.restart();
  else if (scenarioDo.setChannel)
    await actionTarget.client.patch(
      ClusterVersionResource,
      undefined,
      CLUSTER_VERSION_NAME,
      { spec: { channel: scenarioDo.setChannel } },
      { type: 'merge', signal },
    );
  else if (scenarioDo.upgradeToLatest !== undefined) {
    const cv = await actionTarget.client.get(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME, { signal });
    const target = newestOffered(cv, scenarioDo.upgradeToLatest);
    if (!target) throw new Error(`no offered update starts with ${scenarioDo.upgradeToLatest}`);
    await actionTarget.client.patch(
      ClusterVersionResource,
      undefined,
      CLUSTER_VERSION_NAME,
      { spec: { desiredUpdate: target } },
      { type: 'merge', signal },
    );
  }
}

/**
 * Creates a silence through the simulated Alertmanager's API (`POST /api/v2/silences`), as
 * `amtool silence add` does; times are RFC 3339 or `{{ +<duration> }}` after the start.
 */
async function createSilence(
  actionTarget: ActionTarget,
  silence: NonNullable<ScenarioDo['silence']>,
  signal: AbortSignal,
): Promise<void> {
  const url = actionTarget.sim.components.monitoring.alertmanagerUrl;
  if (url === undefined) throw new Error('the simulated cluster serves no Alertmanager');
  const time = (text: string): string => {
    const v = actionTarget.expand({ t: text })['t'];
    return typeof v === 'string' ? v : text;
  };
  const body = {
    matchers: silence.matchers.map((m) => ({
      name: m.name,
      value: m.value,
      isRegex: m.isRegex ?? false,
      isEqual: true,
    })),
    startsAt: time(silence.startsAt ?? '{{ +0s }}'),
    endsAt: time(silence.endsAt),
    createdBy: silence.createdBy,
    comment: silence.comment,
  };
  const alertmanager = new HttpClient({ api: 'alertmanager', baseUrl: url });
  try {
    await alertmanager.request({ method: 'POST', path: '/api/v2/silences', json: body, signal });
  } finally {
    await alertmanager.close();
  }
}
