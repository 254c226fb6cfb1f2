/**
 * The simulated ClusterOperator actors (docs/design/cluster-model.md#how-an-operator-rolls-out,
 * docs/simulation.md#simulated-controllers; wave-2 contract items 2 and 6): one per ClusterOperator
 * of the payload except machine-config. Each watches its component's Deployment; when the
 * Deployment's `RELEASE_VERSION` differs from the operator's reported `operator` version it rolls
 * out — Progressing=True once the new operator pod runs, with messages that advance as its operands
 * roll, for a drawn duration — then reports every version of the release and Progressing=False in
 * one write. Faults (docs/simulation.md#simulated-controllers) are methods the scenario layer
 * calls. The Deployment controller of operator Deployments runs alongside.
 */
import {
  ClusterOperatorResource,
  operatorVersion,
  type ClusterOperator,
  type OperandVersion,
} from '../../api/openshift/config-v1/cluster-operator.js';
import { DeploymentResource, NodeResource } from '../../api/builtin.js';
import type { ReconcileResult } from '../../kube/controller.js';
import { isAlreadyExists, isNotFound } from '../../kube/status-error.js';
import { jsonEqual, type JsonValue } from '../../lib/json.js';
import type { SeededRandom } from '../../lib/random.js';
import { type SimComponent, type SimContext, simController } from '../context.js';
import { buildCatalogue, type Catalogue } from '../releases/catalogue.js';
import { payloadFor, type ReleasePayload } from '../releases/payload.js';
import {
  componentDeploymentFor,
  deploymentRolledOut,
  releaseVersionOf,
  type ComponentDeploymentRef,
} from './component-deployment.js';
import { defaultUnavailable, mergeConditions, operatorConditions, type ReasonMessage } from './co-status.js';
import { writeStatusFromCache } from './cached-status-write.js';
import { createOperatorDeploymentController } from './deployment-controller.js';
import { drawMs } from '../durations.js';
import { HA_CLOUD_DURATIONS, rolloutRange, type OperatorDurations } from './durations.js';
import { operatorProfile, type OperatorProfile } from './profiles.js';
import { clusterSize, operandVersionsAt, revisionOf, unitCount } from './actor-support.js';

/** Options of {@link createOperatorActors}. */
export interface OperatorActorsOptions {
  /** Per-stage ranges (virtual minutes); missing entries come from the HA-cloud column. */
  durations?: Partial<OperatorDurations>;
  /** Divides every duration (default 1). */
  timeScale?: number;
  /** ClusterOperators without an actor (default `['machine-config']`, which the MCO simulation owns). */
  exclude?: readonly string[];
  /** The payload naming the ClusterOperators and their Deployments (default: the newest release of `catalogue`). */
  payload?: ReleasePayload;
  /** Used when no payload is given (default: the built-in catalogue). */
  catalogue?: Catalogue;
}

/** A fault with an optional end (virtual epoch milliseconds). */
export interface TimedFault {
  until?: number;
}

/** Options of {@link OperatorActors.flap}. */
export interface FlapOptions extends TimedFault {
  /** Degraded=True for one period, False for the next, and so on (virtual ms). */
  periodMs: number;
  reason?: string;
  message?: string;
}

/** The actors and their fault hooks. Unknown operator names throw. */
export interface OperatorActors extends SimComponent {
  /** Names of the ClusterOperators with an actor. */
  readonly operators: readonly string[];
  /** Degraded=True with this reason and message, until the given time (or until cleared). */
  degrade(name: string, fault: ReasonMessage & TimedFault): void;
  /** Available=False (reason and message default to the operator's own wording). */
  makeUnavailable(name: string, fault?: Partial<ReasonMessage> & TimedFault): void;
  /** Keeps rolling out forever: Progressing=True, the new version is never reported. */
  stick(name: string): void;
  /** Ends `stick`: the rollout finishes at once if its time has passed. */
  unstick(name: string): void;
  /** Upgradeable=False with a reason and message, or back to True. */
  setUpgradeable(name: string, upgradeable: boolean, fault?: ReasonMessage): void;
  /** Degraded flapping True/False every period. */
  flap(name: string, options: FlapOptions): void;
  /** Removes every fault of the operator. */
  clearFaults(name: string): void;
}

interface Rollout {
  target: string;
  startedAt: number;
  durationMs: number;
  fromRevision: number;
  /** When Progressing=True was first reported. */
  progressingAt?: number;
}

interface Actor {
  name: string;
  profile: OperatorProfile;
  deployment: ComponentDeploymentRef;
  random: SeededRandom;
  rollout?: Rollout | undefined;
  stuck: boolean;
  degraded?: (ReasonMessage & TimedFault) | undefined;
  unavailable?: (Partial<ReasonMessage> & TimedFault) | undefined;
  notUpgradeable?: ReasonMessage | undefined;
  flap?: (FlapOptions & { since: number }) | undefined;
}

/** A Progressing=True period is always visible for at least this long before the versions flip. */
const MIN_PROGRESSING_MS = 1000;

/** Creates the ClusterOperator actors (and the operator-Deployment controller). */
export function createOperatorActors(ctx: SimContext, options: OperatorActorsOptions = {}): OperatorActors {
  const durations: OperatorDurations = { ...HA_CLOUD_DURATIONS, ...options.durations };
  const timeScale = options.timeScale ?? 1;
  if (!(timeScale > 0)) throw new RangeError(`timeScale must be positive, got ${timeScale}`);
  const exclude = new Set(options.exclude ?? ['machine-config']);
  const payload = options.payload ?? newestPayload(options.catalogue ?? buildCatalogue());
  const random = ctx.random.fork('operators');
  const log = ctx.logger.child({ component: 'sim-operators' });

  const actors = new Map<string, Actor>();
  const byDeployment = new Map<string, string[]>();
  for (const co of payload.clusterOperators) {
    if (exclude.has(co.name) || actors.has(co.name)) continue;
    const deployment = componentDeploymentFor(payload, co);
    actors.set(co.name, {
      name: co.name,
      profile: operatorProfile(co.name),
      deployment,
      random: random.fork(co.name),
      stuck: false,
    });
    const key = `${deployment.namespace}/${deployment.name}`;
    byDeployment.set(key, [...(byDeployment.get(key) ?? []), co.name]);
  }

  const coInformer = ctx.informers.informerFor(ClusterOperatorResource);
  const depInformer = ctx.informers.informerFor(DeploymentResource);
  const nodeInformer = ctx.informers.informerFor(NodeResource);
  const nodeSensitive = [...actors.values()]
    .filter((a) => ['static-pod', 'network', 'dns', 'workload'].includes(a.profile.style))
    .map((a) => a.name);

  const reconcile = async (name: string, signal: AbortSignal): Promise<ReconcileResult | void> => {
    const actor = actors.get(name);
    if (!actor) return;
    const now = ctx.clock.now();
    const size = clusterSize(nodeInformer.list());
    const dep = depInformer.get(actor.deployment.namespace, actor.deployment.name);
    const co = coInformer.get(undefined, name);
    const wakeups: number[] = [];
    expireFaults(actor, now, wakeups);
    const target = releaseVersionOf(dep);
    const current = operatorVersion(co);
    if (target === undefined || target === current) {
      actor.rollout = undefined;
    } else if (actor.rollout?.target !== target) {
      const range = rolloutRange(actor.profile, durations, size.nodes);
      actor.rollout = {
        target,
        startedAt: now,
        durationMs: drawMs(actor.random, range, timeScale),
        fromRevision: revisionOf(co, name),
      };
      log.debug({ operator: name, target, durationMs: actor.rollout.durationMs }, 'rollout started');
    }
    let versions = co?.status?.versions;
    const r = actor.rollout;
    let view: { target: string; fraction: number; fromRevision: number } | undefined;
    let revision = revisionOf(co, name);
    let finished: Rollout | undefined;
    if (r) {
      if (r.progressingAt === undefined) {
        const fallback = r.startedAt + Math.floor(r.durationMs / 2);
        if (deploymentRolledOut(dep) || now >= fallback) r.progressingAt = now;
        else wakeups.push(fallback);
      }
      if (r.progressingAt !== undefined) {
        const finishAt = Math.max(r.startedAt + r.durationMs, r.progressingAt + MIN_PROGRESSING_MS);
        if (now >= finishAt && !actor.stuck) {
          versions = operandVersionsAt(name, r.target);
          revision = r.fromRevision + 1;
          finished = r;
        } else {
          const span = finishAt - r.progressingAt;
          const fraction = Math.min(0.999, Math.max(0, (now - r.progressingAt) / span));
          view = { target: r.target, fraction, fromRevision: r.fromRevision };
          const units = unitCount(actor.profile.style, size);
          const nextStep = r.progressingAt + (Math.floor(fraction * units) + 1) * (span / units);
          if (nextStep < finishAt) wakeups.push(Math.ceil(nextStep));
          if (!actor.stuck) wakeups.push(finishAt);
        }
      }
    }
    const flapping = flapState(actor, now, wakeups);
    const input = {
      profile: actor.profile,
      version: versions?.find((v) => v.name === 'operator')?.version,
      rollout: view,
      revision,
      masters: size.masters,
      nodes: size.nodes,
      degraded: actor.degraded ?? flapping,
      unavailable: actor.unavailable
        ? { ...defaultUnavailable({ profile: actor.profile, name }), ...stripUntil(actor.unavailable) }
        : undefined,
      notUpgradeable: actor.notUpgradeable,
    };
    try {
      await writeStatus(ctx, co, name, { profile: actor.profile, versions, target }, input, signal);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await createClusterOperator(ctx, name, signal);
      return { requeue: true };
    }
    if (finished && actor.rollout === finished) {
      actor.rollout = undefined;
      log.debug({ operator: name, version: finished.target }, 'rollout finished');
    }
    const next = wakeups.filter((t) => t > now).reduce((a, b) => Math.min(a, b), Number.POSITIVE_INFINITY);
    if (Number.isFinite(next)) return { requeueAfter: next - now };
  };

  const controller = simController(ctx, { name: 'sim-operators', reconcile })
    .for(ClusterOperatorResource)
    .watches(
      DeploymentResource,
      (d) => byDeployment.get(`${d.metadata?.namespace ?? ''}/${d.metadata?.name ?? ''}`) ?? [],
    )
    .watches(NodeResource, () => nodeSensitive, { predicates: [{ update: () => false }] });
  const deployments = createOperatorDeploymentController(ctx, {
    durations,
    timeScale,
    random: ctx.random.fork('operator-deployments'),
  });

  const actor = (name: string): Actor => {
    const a = actors.get(name);
    if (!a) throw new Error(`no simulated ClusterOperator named ${JSON.stringify(name)}`);
    return a;
  };
  const poke = (name: string): void => controller.queue.add(name);
  const dropUndefined = <T extends object>(o: T): T =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

  return {
    name: 'sim-operators',
    operators: [...actors.keys()],
    async start(signal: AbortSignal): Promise<void> {
      const runs = [controller.start(signal), deployments.start(signal)];
      for (const run of runs)
        run.catch((err: unknown) =>
          log.error({ err: err instanceof Error ? err.message : String(err) }, 'controller stopped'),
        );
      await Promise.all([coInformer, depInformer, nodeInformer].map((i) => i.waitForSync(signal)));
    },
    degrade(name, fault) {
      actor(name).degraded = dropUndefined({ ...fault });
      poke(name);
    },
    makeUnavailable(name, fault = {}) {
      actor(name).unavailable = dropUndefined({ ...fault });
      poke(name);
    },
    stick(name) {
      actor(name).stuck = true;
      poke(name);
    },
    unstick(name) {
      actor(name).stuck = false;
      poke(name);
    },
    setUpgradeable(name, upgradeable, fault) {
      if (!upgradeable && !fault) throw new Error('setUpgradeable(false) needs a reason and a message');
      actor(name).notUpgradeable = upgradeable ? undefined : fault;
      poke(name);
    },
    flap(name, flapOptions) {
      if (!(flapOptions.periodMs > 0))
        throw new RangeError(`flap: periodMs must be positive, got ${flapOptions.periodMs}`);
      actor(name).flap = dropUndefined({ ...flapOptions, since: ctx.clock.now() });
      poke(name);
    },
    clearFaults(name) {
      const a = actor(name);
      a.degraded = a.unavailable = a.notUpgradeable = a.flap = undefined;
      a.stuck = false;
      poke(name);
    },
  };
}

function newestPayload(catalogue: Catalogue): ReleasePayload {
  const newest = catalogue.releases.at(-1);
  if (!newest) throw new Error('the catalogue has no release');
  return payloadFor(newest);
}

function stripUntil<T extends TimedFault>(fault: T): Omit<T, 'until'> {
  const { until: _until, ...rest } = fault;
  return rest;
}

/** Clears faults whose time is up; remembers the next end. */
function expireFaults(actor: Actor, now: number, wakeups: number[]): void {
  const check = <T extends TimedFault>(fault: T | undefined): T | undefined => {
    if (fault?.until === undefined) return fault;
    if (now >= fault.until) return undefined;
    wakeups.push(fault.until);
    return fault;
  };
  actor.degraded = check(actor.degraded);
  actor.unavailable = check(actor.unavailable);
  actor.flap = check(actor.flap);
}

function flapState(actor: Actor, now: number, wakeups: number[]): ReasonMessage | undefined {
  const f = actor.flap;
  if (!f) return undefined;
  const period = Math.floor((now - f.since) / f.periodMs);
  wakeups.push(f.since + (period + 1) * f.periodMs);
  if (period % 2 === 1) return undefined;
  return { reason: f.reason ?? 'Flapping', message: f.message ?? `${actor.name} is intermittently degraded` };
}

interface WritePlan {
  profile: OperatorProfile;
  versions: OperandVersion[] | undefined;
  /** The version the Deployment asks for. */
  target: string | undefined;
}

async function writeStatus(
  ctx: SimContext,
  cached: ClusterOperator | undefined,
  name: string,
  plan: WritePlan,
  input: Parameters<typeof operatorConditions>[0],
  signal: AbortSignal,
): Promise<void> {
  const { profile, versions, target } = plan;
  const desired = operatorConditions(input);
  const planned = versions?.find((v) => v.name === 'operator')?.version;
  await writeStatusFromCache<ClusterOperator>(
    ctx.client,
    ClusterOperatorResource,
    name,
    cached,
    (fresh) => {
      // A decision made on a stale cache must not take back a version already reported.
      if (target !== undefined && operatorVersion(fresh) === target && planned !== target) return undefined;
      const status = {
        ...fresh.status,
        conditions: mergeConditions(fresh.status?.conditions, desired, ctx.clock.now()),
        relatedObjects:
          profile.relatedObjects.length > 0 ? profile.relatedObjects : (fresh.status?.relatedObjects ?? []),
        ...(versions ? { versions } : {}),
        extension: fresh.status?.extension ?? null,
      };
      if (jsonEqual((fresh.status ?? {}) as JsonValue, status as unknown as JsonValue)) return undefined;
      return { ...fresh, status };
    },
    { clock: ctx.clock, signal },
  );
}

async function createClusterOperator(ctx: SimContext, name: string, signal: AbortSignal): Promise<void> {
  try {
    await ctx.client.create(
      ClusterOperatorResource,
      { apiVersion: 'config.openshift.io/v1', kind: 'ClusterOperator', metadata: { name }, spec: {} },
      { signal },
    );
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
  }
}
