/**
 * The simulated node lifecycle controller: what kube-controller-manager's node lifecycle
 * controller does with the taints of a Node's Ready condition. kube-apiserver's
 * `TaintNodesByCondition` admission gives every new Node `node.kubernetes.io/not-ready:NoSchedule`;
 * the real controller lifts it once the kubelet reports Ready=True, and taints a Node again when
 * its Ready condition turns False (`not-ready`) or Unknown (`unreachable`). The simulated Nodes
 * have no kubelet and no kube-controller-manager, so without this controller a Node tainted at
 * admission would stay unschedulable for ever.
 *
 * Only the keys these two own are touched: `node.kubernetes.io/not-ready` and
 * `node.kubernetes.io/unreachable`. NoSchedule follows the condition (added while False or
 * Unknown, removed when True); a NoExecute taint of either key is never added here (the
 * simulation has no taint-based eviction), but one already there is kept on the key of the
 * current condition and removed when the Node is Ready. A Node without a Ready condition (a
 * kubelet that never reported) is left as it is, as are every other taint (the cordon's
 * `node.kubernetes.io/unschedulable`, the MCO's UpdateInProgress) and the Nodes in `foreignNodes`
 * (there before the run, with their own kube-controller-manager).
 */
import type { Node, Taint } from 'kubernetes-types/core/v1.js';
import { NodeResource } from '../../api/builtin.js';
import type { ReconcileResult } from '../../kube/controller.js';
import { isConflict, isNotFound } from '../../kube/status-error.js';
import type { JsonObject } from '../../lib/json.js';
import { type SimComponent, type SimContext, simController } from '../context.js';

/** The taint of a Node whose Ready condition is False. */
export const NOT_READY_TAINT_KEY = 'node.kubernetes.io/not-ready';
/** The taint of a Node whose Ready condition is Unknown. */
export const UNREACHABLE_TAINT_KEY = 'node.kubernetes.io/unreachable';

const OWNED_KEYS: ReadonlySet<string> = new Set([NOT_READY_TAINT_KEY, UNREACHABLE_TAINT_KEY]);

export interface NodeLifecycleOptions {
  /** Nodes this controller leaves alone (not the simulation's). */
  foreignNodes?: ReadonlySet<string>;
}

/**
 * The taints the node lifecycle controller wants on this Node (pure), or undefined when it has
 * no Ready condition. Other taints keep their place and content; owned ones that stay keep theirs.
 */
export function lifecycleTaints(node: Node): Taint[] | undefined {
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready')?.status;
  if (ready === undefined) return undefined;
  const taints = node.spec?.taints ?? [];
  const others = taints.filter((t) => !OWNED_KEYS.has(t.key));
  if (ready === 'True') return others;
  const key = ready === 'False' ? NOT_READY_TAINT_KEY : UNREACHABLE_TAINT_KEY;
  const owned = (effect: string): Taint | undefined => taints.find((t) => OWNED_KEYS.has(t.key) && t.effect === effect);
  const noSchedule = owned('NoSchedule');
  const noExecute = owned('NoExecute');
  return [
    ...others,
    noSchedule?.key === key ? noSchedule : { key, effect: 'NoSchedule' },
    ...(noExecute ? [noExecute.key === key ? noExecute : { ...noExecute, key }] : []),
  ];
}

function sameTaints(left: readonly Taint[], right: readonly Taint[]): boolean {
  if (left.length !== right.length) return false;
  const text = (t: Taint): string => `${t.key}=${t.value ?? ''}:${t.effect}`;
  const l = left.map(text).sort();
  const r = right.map(text).sort();
  return l.every((x, i) => x === r[i]);
}

/** Creates the node lifecycle controller (one Controller over Nodes). */
export function createNodeLifecycleController(ctx: SimContext, options: NodeLifecycleOptions = {}): SimComponent {
  const foreign = options.foreignNodes ?? new Set<string>();
  const log = ctx.logger.child({ component: 'sim-node-lifecycle' });
  const nodes = ctx.informers.informerFor(NodeResource);

  const reconcile = async (key: string): Promise<ReconcileResult | void> => {
    const node = nodes.getByKey(key);
    const name = node?.metadata?.name ?? '';
    if (!node || foreign.has(name) || node.metadata?.deletionTimestamp !== undefined) return;
    const want = lifecycleTaints(node);
    if (want === undefined || sameTaints(want, node.spec?.taints ?? [])) return;
    try {
      await ctx.client.patch(
        NodeResource,
        undefined,
        name,
        {
          metadata: { resourceVersion: node.metadata?.resourceVersion ?? null },
          spec: { taints: (want.length > 0 ? want : null) as unknown as JsonObject[] },
        },
        { type: 'merge' },
      );
      log.debug({ node: name, taints: want.map((t) => `${t.key}:${t.effect}`) }, 'node taints follow Ready');
    } catch (err) {
      if (isConflict(err)) return { requeue: true };
      if (!isNotFound(err)) throw err;
    }
  };

  const controller = simController(ctx, { name: 'sim-node-lifecycle', reconcile, logger: log });
  controller.for(NodeResource);

  return {
    name: 'node-lifecycle',
    async start(signal: AbortSignal): Promise<void> {
      controller
        .start(signal)
        .catch((err: unknown) =>
          log.error({ err: err instanceof Error ? err.message : String(err) }, 'node lifecycle controller stopped'),
        );
      await nodes.waitForSync(signal);
    },
  };
}
