/**
 * The simulated MCO drain controller (pkg/controller/drain,
 * docs/design/cluster-model.md#drains-and-poddisruptionbudgets): one controller over Nodes acting
 * on the `desiredDrain` annotation the daemons write.
 *
 * `drain-<config>`: cordon (spec.unschedulable + the `node.kubernetes.io/unschedulable` taint
 * with timeAdded), then drain attempts of 90 s that evict every pod but mirror and DaemonSet
 * pods through the real `pods/eviction` subresource (a 429 from a disruption budget is retried
 * every 5 s) and wait for the evicted pods to be gone. A failed attempt is retried after 1 min,
 * or after 5 min with a `DrainThresholdExceeded` event once the drain has been failing for
 * 10 min; past 1 h every attempt emits `DrainFailed` and the node is listed by
 * {@link DrainController.drainErrorNodes} (`mcc_drain_err{node}=1`). It never gives up. Success
 * writes `lastAppliedDrain=<request>`. `uncordon-<config>`: uncordon, then `lastAppliedDrain`.
 *
 * Requests are acted on 5 s after they appear (the controller's UpdateDelay). A drain also lasts at
 * least a drawn duration from the cordon (pods' shutdown; per-node drain in
 * docs/design/cluster-model.md#durations). Reconciles never sleep: the attempt's retries are
 * requeues on the clock.
 */
import type { Node, Pod } from 'kubernetes-types/core/v1.js';
import { NodeResource, PodResource } from '../../../api/builtin.js';
import { MachineConfigNodeAnnotation as A } from '../../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import type { Controller } from '../../../kube/controller.js';
import { type ReconcileResult } from '../../../kube/controller.js';
import { EventRecorder } from '../../../kube/event-recorder.js';
import { isNotFound, isTooManyRequests } from '../../../kube/status-error.js';
import type { Logger } from '../../../lib/log.js';
import type { SeededRandom } from '../../../lib/random.js';
import { type SimComponent, type SimContext, simController } from '../../context.js';
import { drawMs } from '../../durations.js';
import { DEFAULT_DRAIN_DURATIONS, type DrainDurations } from '../daemon/durations.js';
import {
  annotationPatch,
  cordonPatch,
  drainVerb,
  hasTaint,
  isControlPlaneNode,
  mcoAnnotations,
  UNSCHEDULABLE_TAINT_KEY,
} from '../daemon/node-state.js';
import {
  attemptTimeoutMessage,
  drainFailedMessage,
  drainThresholdMessage,
  evictionFor,
  evictionPath,
  podsToDrain,
  type BlockedPod,
} from './drain-pods.js';

/** The drain controller's fixed timings (DefaultConfig of the real one; not divided by timeScale). */
export interface DrainTiming {
  /** Delay before a new request is acted on (5 s). */
  updateDelayMs: number;
  /** One drain attempt (the drain helper's Timeout, 90 s). */
  attemptTimeoutMs: number;
  /** Retry of an eviction refused with 429 (5 s). */
  evictRetryMs: number;
  /** Poll for evicted pods to be gone (1 s). */
  deletePollMs: number;
  /** Requeue after a failed attempt (1 min). */
  requeueMs: number;
  /** Failing for longer than this slows the requeue down (10 min). */
  failingThresholdMs: number;
  /** The slower requeue (5 min). */
  failingRequeueMs: number;
  /** Failing for longer than this: DrainFailed and mcc_drain_err (1 h). */
  timeoutMs: number;
}

export const DEFAULT_DRAIN_TIMING: DrainTiming = {
  updateDelayMs: 5_000,
  attemptTimeoutMs: 90_000,
  evictRetryMs: 5_000,
  deletePollMs: 1_000,
  requeueMs: 60_000,
  failingThresholdMs: 10 * 60_000,
  failingRequeueMs: 5 * 60_000,
  timeoutMs: 60 * 60_000,
};

export interface DrainControllerOptions {
  /** Drawn minimum drain durations by node class (default: docs/design/cluster-model.md#durations). */
  durations?: Partial<DrainDurations>;
  /** Divides every drawn duration (default 1). */
  timeScale?: number;
  timing?: Partial<DrainTiming>;
  /** Namespace its events are recorded in (default openshift-machine-config-operator). */
  eventNamespace?: string;
}

/** The drain controller. */
export interface DrainController extends SimComponent {
  /** Nodes whose drain has been failing for over the timeout: the series `mcc_drain_err{node}=1`. */
  drainErrorNodes(): string[];
}

/** The real controller records through the node controller's event source (sic). */
const COMPONENT = 'machineconfigcontroller-nodecontroller';
const MCO_NAMESPACE = 'openshift-machine-config-operator';

interface Attempt {
  start: number;
  deadline: number;
  /** How long the drain had been going on when this attempt started. */
  failingFor: number;
  blocked: BlockedPod[];
}

interface Request {
  value: string;
  notBefore: number;
  attempt?: Attempt | undefined;
  /** The drain does not finish before this (drawn from the first cordon). */
  doneNotBefore?: number;
}

/** Creates the drain controller. */
export function createDrainController(ctx: SimContext, options: DrainControllerOptions = {}): DrainController {
  return new Drainer(ctx, options);
}

class Drainer implements DrainController {
  readonly name = 'machine-config-controller-drain';
  readonly #ctx: SimContext;
  readonly #durations: DrainDurations;
  readonly #timeScale: number;
  readonly #t: DrainTiming;
  readonly #eventNamespace: string;
  readonly #random: SeededRandom;
  readonly #randoms = new Map<string, SeededRandom>();
  readonly #requests = new Map<string, Request>();
  /** ongoingDrains: when each node was (last) cordoned for its drain. */
  readonly #ongoing = new Map<string, number>();
  readonly #drainErr = new Set<string>();
  readonly #controller: Controller;
  readonly #recorder: EventRecorder;
  readonly #log: Logger;

  constructor(ctx: SimContext, options: DrainControllerOptions) {
    this.#ctx = ctx;
    this.#durations = { ...DEFAULT_DRAIN_DURATIONS, ...options.durations };
    this.#timeScale = options.timeScale ?? 1;
    this.#t = { ...DEFAULT_DRAIN_TIMING, ...options.timing };
    this.#eventNamespace = options.eventNamespace ?? MCO_NAMESPACE;
    this.#random = ctx.random.fork(this.name);
    this.#log = ctx.logger.child({ component: this.name });
    const activity = ctx.activity ? { activity: ctx.activity } : {};
    this.#recorder = new EventRecorder({
      client: ctx.client,
      clock: ctx.clock,
      logger: ctx.logger,
      component: COMPONENT,
      ...activity,
    });
    this.#controller = simController(ctx, {
      name: this.name,
      reconcile: (key) => this.#reconcile(key),
      workers: 5,
    }).for(NodeResource, {
      predicates: [
        {
          update: (o, n) =>
            o.metadata?.annotations?.[A.DesiredDrain] !== n.metadata?.annotations?.[A.DesiredDrain] ||
            (o.spec?.unschedulable ?? false) !== (n.spec?.unschedulable ?? false),
        },
      ],
    });
  }

  async start(signal: AbortSignal): Promise<void> {
    const running = this.#controller.start(signal);
    void running.catch((err: unknown) => this.#log.error({ err: String(err) }, 'controller stopped'));
    await this.#ctx.informers.informerFor(NodeResource).waitForSync(signal);
  }

  drainErrorNodes(): string[] {
    return [...this.#drainErr].sort();
  }

  async #reconcile(name: string): Promise<ReconcileResult | void> {
    const node = this.#ctx.informers.informerFor(NodeResource).get(undefined, name);
    if (!node) {
      this.#requests.delete(name);
      this.#ongoing.delete(name);
      this.#drainErr.delete(name);
      return;
    }
    const a = mcoAnnotations(node);
    const desired = a.desiredDrain ?? '';
    if (desired === (a.lastAppliedDrain ?? '')) {
      this.#requests.delete(name);
      return;
    }
    const now = this.#ctx.clock.now();
    let req = this.#requests.get(name);
    if (req?.value !== desired) {
      req = { value: desired, notBefore: now + this.#t.updateDelayMs };
      this.#requests.set(name, req);
    }
    if (now < req.notBefore) return { requeueAfter: req.notBefore - now };
    const verb = drainVerb(desired);
    if (verb === 'uncordon') {
      await this.#cordon(node, false, now);
      await this.#complete(name, desired);
      return;
    }
    if (verb !== 'drain') throw new Error(`node ${name}: non-recognized drain verb detected ${verb}`);
    return this.#drain(node, req, now);
  }

  async #drain(node: Node, req: Request, now: number): Promise<ReconcileResult | void> {
    const name = node.metadata?.name ?? '';
    const t = this.#t;
    let attempt = req.attempt;
    if (!attempt) {
      const since = this.#ongoing.get(name);
      const failingFor = since === undefined ? 0 : now - since;
      if (since !== undefined && failingFor > t.timeoutMs) {
        const message = drainFailedMessage(name, t.timeoutMs);
        this.#log.error({ node: name }, message);
        this.#event(node, 'DrainFailed', message);
        this.#drainErr.add(name);
      }
      if (since === undefined || node.spec?.unschedulable !== true) {
        if (since !== undefined)
          this.#log.info({ node: name }, 'External actor has unexpectedly uncordoned node, cordoning again...');
        await this.#cordon(node, true, now);
        this.#ongoing.set(name, now);
      }
      attempt = { start: now, deadline: now + t.attemptTimeoutMs, failingFor, blocked: [] };
      req.attempt = attempt;
      req.doneNotBefore ??=
        now +
        drawMs(
          this.#randomFor(name),
          isControlPlaneNode(node) ? this.#durations.master : this.#durations.worker,
          this.#timeScale,
        );
    }
    if (now >= attempt.deadline)
      return this.#attemptFailed(node, req, attempt, now, attemptTimeoutMessage(attempt.blocked, t.attemptTimeoutMs));

    const pods = await this.#ctx.client.list(PodResource, { fieldSelector: `spec.nodeName=${name}` });
    const blocked: BlockedPod[] = [];
    let refused = false;
    for (const pod of podsToDrain(pods.items)) {
      const id = { namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '' };
      if (pod.metadata?.deletionTimestamp) {
        blocked.push({ ...id, cause: 'terminating' });
        continue;
      }
      const result = await this.#evict(pod);
      if (result === 'gone') continue;
      if (result === 'evicted') {
        this.#log.info({ node: name, pod: `${id.namespace}/${id.name}` }, 'Evicted pod');
        blocked.push({ ...id, cause: 'terminating' });
      } else if (result === 'refused') {
        refused = true;
        blocked.push({ ...id, cause: 'eviction' });
      } else {
        return this.#attemptFailed(
          node,
          req,
          attempt,
          now,
          `error when evicting pods/"${id.name}" -n "${id.namespace}": ${result.error}`,
        );
      }
    }
    attempt.blocked = blocked;
    if (blocked.length > 0)
      return { requeueAfter: Math.min(refused ? t.evictRetryMs : t.deletePollMs, attempt.deadline - now) };
    if (req.doneNotBefore !== undefined && now < req.doneNotBefore) return { requeueAfter: req.doneNotBefore - now };

    // Drained. Not if someone uncordoned the node meanwhile: new pods may have landed (the
    // unschedulable change requeues the node and the next attempt cordons again).
    const latest = this.#ctx.informers.informerFor(NodeResource).get(undefined, name);
    if (latest?.spec?.unschedulable !== true) {
      req.attempt = undefined;
      return { requeueAfter: t.updateDelayMs };
    }
    await this.#complete(name, req.value);
    this.#ongoing.delete(name);
    this.#drainErr.delete(name);
    return;
  }

  #attemptFailed(node: Node, req: Request, attempt: Attempt, now: number, error: string): ReconcileResult {
    const name = node.metadata?.name ?? '';
    const t = this.#t;
    req.attempt = undefined;
    if (attempt.failingFor > t.failingThresholdMs) {
      const message = drainThresholdMessage(t.failingThresholdMs, t.failingRequeueMs, error);
      this.#log.info({ node: name }, message);
      this.#event(node, 'DrainThresholdExceeded', message);
      req.notBefore = now + t.failingRequeueMs;
    } else {
      this.#log.info({ node: name, error }, `Drain failed. Waiting ${t.requeueMs / 60_000} minute then retrying.`);
      req.notBefore = now + t.requeueMs;
    }
    return { requeueAfter: req.notBefore - now };
  }

  async #evict(pod: Pod): Promise<'evicted' | 'gone' | 'refused' | { error: string }> {
    try {
      await this.#ctx.client.request({ method: 'POST', path: evictionPath(pod), body: evictionFor(pod) });
      return 'evicted';
    } catch (err) {
      if (isNotFound(err)) return 'gone';
      if (isTooManyRequests(err)) return 'refused';
      return { error: err instanceof Error ? err.message : String(err) };
    }
  }

  /** Cordons (unschedulable + taint with timeAdded) or uncordons, if not already so. */
  async #cordon(node: Node, cordon: boolean, now: number): Promise<void> {
    const is = node.spec?.unschedulable === true;
    if (is === cordon && hasTaint(node, UNSCHEDULABLE_TAINT_KEY, 'NoSchedule') === cordon) return;
    await this.#ctx.client.patch(NodeResource, undefined, node.metadata?.name ?? '', cordonPatch(node, cordon, now), {
      type: 'merge',
    });
    this.#log.info({ node: node.metadata?.name }, cordon ? 'cordoned' : 'uncordoned');
  }

  async #complete(name: string, request: string): Promise<void> {
    await this.#ctx.client.patch(NodeResource, undefined, name, annotationPatch({ [A.LastAppliedDrain]: request }), {
      type: 'merge',
    });
    this.#requests.delete(name);
    this.#log.info({ node: name, request }, 'operation successful; applying completion annotation');
  }

  #event(node: Node, reason: string, message: string): void {
    const m = node.metadata ?? {};
    // NamespacedEventRecorder: events about cluster-scoped objects land in the MCO namespace.
    const involved = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: m.name ?? '', namespace: this.#eventNamespace, ...(m.uid ? { uid: m.uid } : {}) },
    };
    this.#recorder.event(involved, 'Warning', reason, message);
  }

  #randomFor(name: string): SeededRandom {
    let r = this.#randoms.get(name);
    if (!r) this.#randoms.set(name, (r = this.#random.fork(name)));
    return r;
  }
}
