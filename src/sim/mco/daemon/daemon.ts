/**
 * The simulated machine-config daemons: one state machine per node, run by one controller over
 * Nodes, speaking only through the real MCO node annotations
 * (docs/design/cluster-model.md#node-annotations,
 * docs/design/cluster-model.md#the-per-node-update).
 *
 * When `desiredConfig` ≠ `currentConfig`: `state=Working`; request a drain
 * (`desiredDrain=drain-<config>`, events Cordon and Drain) and poll every 10 s, for up to 1 h,
 * for `lastAppliedDrain` to match (skipped on `controlPlaneTopology: SingleReplica`); update the
 * OS (drawn); `post-config-action=Rebooting`, event Reboot, the node NotReady (`KubeletNotReady`)
 * for a drawn time; after the rejoin delay request the uncordon (`uncordon-<config>`, up to
 * 10 min); then SetDone: `state=Done`, `currentConfig=<config>`, `reason=""`.
 * Errors set `state=Degraded` (or `Unreconcilable`) with the daemon's reason, are retried with
 * backoff, and a retry never writes `Working` over them: the next SetDone clears them.
 *
 * A reconcile never sleeps: every wait is a requeue on the clock, so the virtual clock can jump.
 */
import type { Node } from 'kubernetes-types/core/v1.js';
import { NodeResource } from '../../../api/builtin.js';
import { MachineConfigResource } from '../../../api/openshift/machineconfiguration-v1/machine-config.js';
import {
  MachineConfigDaemonState as S,
  MachineConfigNodeAnnotation as A,
} from '../../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import type { Controller } from '../../../kube/controller.js';
import { type ReconcileResult } from '../../../kube/controller.js';
import { EventRecorder, type EventType } from '../../../kube/event-recorder.js';
import type { JsonObject } from '../../../lib/json.js';
import type { Logger } from '../../../lib/log.js';
import type { SeededRandom } from '../../../lib/random.js';
import { type SimComponent, type SimContext, simController } from '../../context.js';
import { drawMs } from '../../durations.js';
import { HA_CLOUD_DAEMON_DURATIONS, type DaemonDurations } from './durations.js';
import {
  annotationPatch,
  drainRequest,
  drainTimeoutMessage,
  mcoAnnotations,
  osUpdateErrorMessage,
  readyCondition,
  SINGLE_REPLICA_TOPOLOGY,
  truncateReason,
  uncordonRequest,
  uncordonTimeoutMessage,
  withReadyCondition,
  type McoNodeAnnotations,
} from './node-state.js';

/** The daemon's fixed timings (real values by default; not divided by timeScale). */
export interface DaemonTiming {
  /** How often the daemon polls for lastAppliedDrain (10 s). */
  pollMs: number;
  /** How long it waits for the drain before going Degraded (1 h). */
  drainTimeoutMs: number;
  /** How long it waits for the uncordon (10 min). */
  uncordonTimeoutMs: number;
  /** First retry delay after an error, doubled per failure (5 s). */
  retryBaseMs: number;
  /** Longest retry delay (2 min). */
  retryMaxMs: number;
}

export const DEFAULT_DAEMON_TIMING: DaemonTiming = {
  pollMs: 10_000,
  drainTimeoutMs: 60 * 60_000,
  uncordonTimeoutMs: 10 * 60_000,
  retryBaseMs: 5_000,
  retryMaxMs: 2 * 60_000,
};

export interface MachineConfigDaemonsOptions {
  /** Drawn durations (default: the HA-cloud column of docs/design/cluster-model.md#durations). */
  durations?: Partial<DaemonDurations>;
  /** Divides every drawn duration (default 1). */
  timeScale?: number;
  timing?: Partial<DaemonTiming>;
  /** Topology assumed for nodes without the `controlPlaneTopology` annotation (default HighlyAvailable). */
  controlPlaneTopology?: string;
}

/** Fault windows end at `until` (virtual epoch ms); without it they last until cleared. */
export interface FaultWindow {
  until?: number;
}

/** The daemons, with the fault knobs of docs/simulation.md#simulated-controllers. */
export interface MachineConfigDaemons extends SimComponent {
  /** The node's next (or current) reboot never ends: it stays NotReady until clearFaults. */
  neverReturn(nodeName: string): void;
  /** Updates of the node fail with `state=Unreconcilable` and this reason. */
  unreconcilable(nodeName: string, message: string, window?: FaultWindow): void;
  /** The OS update (rpm-ostree) fails: `state=Degraded`, retried with backoff. */
  osUpdateError(nodeName: string, window?: FaultWindow & { message?: string }): void;
  /** Lifts every fault of the node; a node held down by neverReturn boots now. */
  clearFaults(nodeName: string): void;
}

type Phase = 'start' | 'drain-wait' | 'os-update' | 'rebooting' | 'rejoin' | 'uncordon-wait';

/** One node's update in progress (the daemon's memory; the API holds the rest). */
interface Update {
  target: string;
  phase: Phase;
  /** When the current wait began (drain-wait, uncordon-wait). */
  since: number;
  /** When the current timed step ends. */
  dueAt: number;
  failures: number;
}

interface NodeFaults {
  neverReturn?: boolean;
  unreconcilable?: { message: string; until?: number | undefined };
  osUpdateError?: { message?: string | undefined; until?: number | undefined };
}

const COMPONENT = 'machineconfigdaemon';

/** Creates the machine-config daemons of every node. */
export function createMachineConfigDaemons(
  ctx: SimContext,
  options: MachineConfigDaemonsOptions = {},
): MachineConfigDaemons {
  return new Daemons(ctx, options);
}

class Daemons implements MachineConfigDaemons {
  readonly name = 'machine-config-daemon';
  readonly #ctx: SimContext;
  readonly #durations: DaemonDurations;
  readonly #timeScale: number;
  readonly #timing: DaemonTiming;
  readonly #topology: string;
  readonly #random: SeededRandom;
  readonly #randoms = new Map<string, SeededRandom>();
  readonly #recorders = new Map<string, EventRecorder>();
  readonly #updates = new Map<string, Update>();
  readonly #faults = new Map<string, NodeFaults>();
  readonly #controller: Controller;
  readonly #log: Logger;

  constructor(ctx: SimContext, options: MachineConfigDaemonsOptions) {
    this.#ctx = ctx;
    this.#durations = { ...HA_CLOUD_DAEMON_DURATIONS, ...options.durations };
    this.#timeScale = options.timeScale ?? 1;
    this.#timing = { ...DEFAULT_DAEMON_TIMING, ...options.timing };
    this.#topology = options.controlPlaneTopology ?? 'HighlyAvailable';
    this.#random = ctx.random.fork(this.name);
    this.#log = ctx.logger.child({ component: this.name });
    this.#controller = simController(ctx, {
      name: this.name,
      reconcile: (key) => this.#reconcile(key),
      workers: 4,
    }).for(NodeResource);
  }

  async start(signal: AbortSignal): Promise<void> {
    const running = this.#controller.start(signal);
    void running.catch((err: unknown) => this.#log.error({ err: String(err) }, 'controller stopped'));
    await this.#ctx.informers.informerFor(NodeResource).waitForSync(signal);
  }

  neverReturn(nodeName: string): void {
    this.#fault(nodeName).neverReturn = true;
    this.#controller.queue.add(nodeName);
  }

  unreconcilable(nodeName: string, message: string, window: FaultWindow = {}): void {
    this.#fault(nodeName).unreconcilable = { message, until: window.until };
    this.#controller.queue.add(nodeName);
  }

  osUpdateError(nodeName: string, window: FaultWindow & { message?: string } = {}): void {
    this.#fault(nodeName).osUpdateError = { message: window.message, until: window.until };
    this.#controller.queue.add(nodeName);
  }

  clearFaults(nodeName: string): void {
    this.#faults.delete(nodeName);
    const u = this.#updates.get(nodeName);
    if (u?.phase === 'rebooting') u.dueAt = Math.min(u.dueAt, this.#ctx.clock.now());
    this.#controller.queue.add(nodeName);
  }

  #fault(nodeName: string): NodeFaults {
    let f = this.#faults.get(nodeName);
    if (!f) this.#faults.set(nodeName, (f = {}));
    return f;
  }

  #active(window: { until?: number | undefined } | undefined, now: number): boolean {
    return window !== undefined && (window.until === undefined || now < window.until);
  }

  #draw(nodeName: string, which: keyof DaemonDurations): number {
    let r = this.#randoms.get(nodeName);
    if (!r) this.#randoms.set(nodeName, (r = this.#random.fork(nodeName)));
    return drawMs(r, this.#durations[which], this.#timeScale);
  }

  #event(node: Node, type: EventType, reason: string, message: string): void {
    const name = node.metadata?.name ?? '';
    let rec = this.#recorders.get(name);
    if (!rec) {
      const c = this.#ctx;
      rec = new EventRecorder({
        client: c.client,
        clock: c.clock,
        logger: c.logger,
        component: COMPONENT,
        instance: name,
        ...(c.activity ? { activity: c.activity } : {}),
      });
      this.#recorders.set(name, rec);
    }
    rec.event(
      { apiVersion: 'v1', kind: 'Node', metadata: { name, ...(node.metadata?.uid ? { uid: node.metadata.uid } : {}) } },
      type,
      reason,
      message,
    );
  }

  async #annotate(name: string, annotations: Record<string, string | null>): Promise<void> {
    await this.#ctx.client.patch(NodeResource, undefined, name, annotationPatch(annotations), { type: 'merge' });
  }

  async #reconcile(key: string): Promise<ReconcileResult | void> {
    const node = this.#ctx.informers.informerFor(NodeResource).get(undefined, key);
    if (!node) {
      this.#updates.delete(key);
      return;
    }
    const a = mcoAnnotations(node);
    const now = this.#ctx.clock.now();
    let u = this.#updates.get(key);
    // Retargeted before the node was touched: start over on the new config.
    if (
      u &&
      a.desiredConfig !== undefined &&
      u.target !== a.desiredConfig &&
      (u.phase === 'start' || u.phase === 'drain-wait')
    ) {
      this.#updates.delete(key);
      u = undefined;
    }
    if (!u) {
      if (a.desiredConfig === undefined || a.desiredConfig === '' || a.desiredConfig === a.currentConfig) return;
      u = { target: a.desiredConfig, phase: 'start', since: now, dueAt: now, failures: 0 };
      // Picked up mid-reboot (e.g. after a restart of the simulation): the node is still down.
      const ready = readyCondition(node);
      if (
        ready?.status === 'False' &&
        ready.reason === 'KubeletNotReady' &&
        node.metadata?.annotations?.[A.PostConfigAction] === 'Rebooting'
      ) {
        u.phase = 'rebooting';
        u.dueAt = now + this.#draw(key, 'reboot');
      }
      this.#updates.set(key, u);
    }
    return this.#step(node, a, u, now);
  }

  async #step(
    node: Node,
    mcoNodeAnnotations: McoNodeAnnotations,
    update: Update,
    now: number,
  ): Promise<ReconcileResult | void> {
    const name = node.metadata?.name ?? '';
    const t = this.#timing;
    const faults = this.#faults.get(name);
    switch (update.phase) {
      case 'start': {
        if (now < update.dueAt) return { requeueAfter: update.dueAt - now };
        if (faults?.unreconcilable && this.#active(faults.unreconcilable, now)) {
          return this.#fail(name, update, now, faults.unreconcilable.message, 'start', S.Unreconcilable);
        }
        const failing = mcoNodeAnnotations.state === S.Degraded || mcoNodeAnnotations.state === S.Unreconcilable;
        const writes: Record<string, string | null> =
          failing || mcoNodeAnnotations.state === S.Working ? {} : { [A.State]: S.Working };
        const skipDrain = (mcoNodeAnnotations.controlPlaneTopology ?? this.#topology) === SINGLE_REPLICA_TOPOLOGY;
        const drain = drainRequest(update.target);
        if (skipDrain || mcoNodeAnnotations.lastAppliedDrain === drain) {
          if (Object.keys(writes).length > 0) await this.#annotate(name, writes);
          this.#log.info(
            { node: name },
            skipDrain ? 'Drain not required, skipping' : 'drain is already completed on this node',
          );
          return this.#startOsUpdate(node, update, now);
        }
        if (mcoNodeAnnotations.desiredDrain !== drain) writes[A.DesiredDrain] = drain;
        if (Object.keys(writes).length > 0) await this.#annotate(name, writes);
        this.#event(node, 'Normal', 'Cordon', 'Cordoned node to apply update');
        this.#event(node, 'Normal', 'Drain', 'Draining node to update config.');
        update.phase = 'drain-wait';
        update.since = now;
        return { requeueAfter: t.drainTimeoutMs };
      }
      case 'drain-wait': {
        if (mcoNodeAnnotations.lastAppliedDrain === drainRequest(update.target)) {
          const tick = nextPoll(update.since, now, t.pollMs);
          if (tick > now) return { requeueAfter: tick - now };
          return this.#startOsUpdate(node, update, now);
        }
        if (now >= update.since + t.drainTimeoutMs) {
          const message = drainTimeoutMessage(name);
          this.#event(node, 'Warning', 'FailedToDrain', message);
          return this.#fail(name, update, now, message, 'start', S.Degraded);
        }
        return { requeueAfter: update.since + t.drainTimeoutMs - now };
      }
      case 'os-update': {
        if (now < update.dueAt) return { requeueAfter: update.dueAt - now };
        if (faults?.osUpdateError && this.#active(faults.osUpdateError, now)) {
          const message = faults.osUpdateError.message ?? osUpdateErrorMessage(await this.#osImageURL(update.target));
          return this.#fail(name, update, now, message, 'start', S.Degraded);
        }
        this.#event(node, 'Normal', 'OSUpdateStaged', 'Changes to OS staged');
        await this.#annotate(name, { [A.PostConfigAction]: 'Rebooting' });
        this.#event(node, 'Normal', 'Reboot', `Node will reboot into config ${update.target}`);
        await this.#setReady(node, false, now);
        update.phase = 'rebooting';
        update.dueAt = now + this.#draw(name, 'reboot');
        return faults?.neverReturn ? undefined : { requeueAfter: update.dueAt - now };
      }
      case 'rebooting': {
        if (faults?.neverReturn) return;
        if (now < update.dueAt) return { requeueAfter: update.dueAt - now };
        await this.#setReady(node, true, now);
        update.phase = 'rejoin';
        update.dueAt = now + this.#draw(name, 'rejoin');
        return { requeueAfter: update.dueAt - now };
      }
      case 'rejoin': {
        if (now < update.dueAt) return { requeueAfter: update.dueAt - now };
        const uncordon = uncordonRequest(update.target);
        if (mcoNodeAnnotations.desiredDrain !== uncordon) await this.#annotate(name, { [A.DesiredDrain]: uncordon });
        update.phase = 'uncordon-wait';
        update.since = now;
        return { requeueAfter: t.uncordonTimeoutMs };
      }
      case 'uncordon-wait': {
        if (mcoNodeAnnotations.lastAppliedDrain === uncordonRequest(update.target)) {
          const tick = nextPoll(update.since, now, t.pollMs);
          if (tick > now) return { requeueAfter: tick - now };
          this.#event(
            node,
            'Normal',
            'Uncordon',
            `Update completed for config ${update.target} and node has been uncordoned`,
          );
          await this.#annotate(name, { [A.State]: S.Done, [A.CurrentConfig]: update.target, [A.Reason]: '' });
          this.#event(node, 'Normal', 'NodeDone', `Setting node ${name}, currentConfig ${update.target} to Done`);
          this.#updates.delete(name);
          return;
        }
        if (now >= update.since + t.uncordonTimeoutMs) {
          const message = uncordonTimeoutMessage(name);
          this.#event(node, 'Warning', 'FailedToUncordon', message);
          return this.#fail(name, update, now, message, 'rejoin', S.Degraded);
        }
        return { requeueAfter: update.since + t.uncordonTimeoutMs - now };
      }
    }
  }

  #startOsUpdate(node: Node, update: Update, now: number): ReconcileResult {
    this.#event(node, 'Normal', 'OSUpdateStarted', 'Upgrading OS');
    update.phase = 'os-update';
    update.dueAt = now + this.#draw(node.metadata?.name ?? '', 'osUpdate');
    return { requeueAfter: update.dueAt - now };
  }

  /** The daemon's updateErrorState: the state and reason annotations, then a retry with backoff. */
  async #fail(
    name: string,
    update: Update,
    now: number,
    message: string,
    retry: Phase,
    state: string,
  ): Promise<ReconcileResult> {
    await this.#annotate(name, { [A.State]: state, [A.Reason]: truncateReason(message) });
    this.#log.warn({ node: name, state, reason: message }, 'update failed; will retry');
    update.failures++;
    update.phase = retry;
    update.dueAt = now + Math.min(this.#timing.retryMaxMs, this.#timing.retryBaseMs * 2 ** (update.failures - 1));
    return { requeueAfter: update.dueAt - now };
  }

  /**
   * The kubelet going down (Ready=False) or coming back; the not-ready taint follows the
   * condition through the node lifecycle controller (src/sim/nodes), as on a real cluster.
   */
  async #setReady(node: Node, ready: boolean, now: number): Promise<void> {
    const name = node.metadata?.name ?? '';
    const status: JsonObject = { conditions: withReadyCondition(node, ready, now) as unknown as JsonObject[] };
    await this.#ctx.client.patch(
      NodeResource,
      undefined,
      name,
      { metadata: { resourceVersion: node.metadata?.resourceVersion ?? null }, status },
      { type: 'merge', subresource: 'status' },
    );
    this.#log.info({ node: name }, ready ? 'node is back from reboot' : 'node rebooting');
  }

  async #osImageURL(config: string): Promise<string> {
    try {
      const mc = await this.#ctx.client.get(MachineConfigResource, undefined, config);
      const url = (mc.spec as { osImageURL?: unknown } | undefined)?.osImageURL;
      return typeof url === 'string' && url !== '' ? url : config;
    } catch {
      return config;
    }
  }
}

/** The daemon's next poll at or after `now` (wait.PollUntilContextTimeout: every period from `since`, not at once). */
export function nextPoll(since: number, now: number, periodMs: number): number {
  const k = Math.max(1, Math.ceil((now - since) / periodMs));
  return since + k * periodMs;
}
