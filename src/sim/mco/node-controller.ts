/**
 * The simulated MCO node controller (docs/design/cluster-model.md#choosing-the-nodes-to-update,
 * docs/design/cluster-model.md#paused-pools; `pkg/controller/node`): per pool, targets nodes under
 * maxUnavailable by writing their `desiredConfig` annotation and the UpdateInProgress taint,
 * removes the taint from nodes that are done, and writes the pool status exactly as the MCO
 * computes it. A paused pool only gets its status recomputed.
 */
import type { Node, Pod, Taint } from 'kubernetes-types/core/v1.js';
import { NodeResource, PodResource } from '../../api/builtin.js';
import {
  MachineConfigNodeAnnotation,
  MachineConfigPoolResource,
  type MachineConfigPool,
} from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import type { Controller } from '../../kube/controller.js';
import { EventRecorder } from '../../kube/event-recorder.js';
import type { Informer } from '../../kube/informer.js';
import { updateStatusWithRetry } from '../../kube/status-writer.js';
import { jsonEqual, type JsonValue } from '../../lib/json.js';
import { type SimContext, simController } from '../context.js';
import { isNodeDone, nodesForPool, UPDATE_IN_PROGRESS_TAINT } from './node-state.js';
import { selectNodesToUpdate } from './node-selection.js';
import { computePoolStatus } from './pool-status.js';

/** Namespace and label of the machine-config-operator pod (its node is updated last in the master pool). */
export const MCO_NAMESPACE = 'openshift-machine-config-operator';
export const MCO_POD_SELECTOR = 'k8s-app=machine-config-operator';

/** The node controller as a kube Controller keyed by pool name. */
export function createNodeController(ctx: SimContext): Controller {
  const pools = ctx.informers.informerFor(MachineConfigPoolResource);
  const nodes = ctx.informers.informerFor(NodeResource);
  const mcoPods = ctx.informers.informerFor(PodResource, { namespace: MCO_NAMESPACE, labelSelector: MCO_POD_SELECTOR });
  const recorder = new EventRecorder({
    client: ctx.client,
    clock: ctx.clock,
    logger: ctx.logger,
    component: 'machineconfigcontroller-nodecontroller',
    ...(ctx.activity ? { activity: ctx.activity } : {}),
  });
  const fresh = new FreshNodes(nodes);
  const allPools = (): string[] => pools.list().map((p) => p.metadata?.name ?? '');

  const reconcile = async (key: string): Promise<void> => {
    const pool = pools.get(undefined, key);
    if (!pool || pool.metadata?.deletionTimestamp) return;
    let members = nodesForPool(pool, fresh.list(), pools.list());
    for (const node of members) {
      if (isNodeDone(node) && hasTaint(node, UPDATE_IN_PROGRESS_TAINT))
        await fresh.patch(ctx, node, {
          spec: {
            taints: (node.spec?.taints ?? []).filter(
              (t) => !sameTaint(t, UPDATE_IN_PROGRESS_TAINT),
            ) as unknown as JsonValue,
          },
        });
    }
    const target = pool.spec.configuration?.name;
    if (target && !pool.spec.paused) {
      const operatorNode = mcoPods.list().find((p: Pod) => p.spec?.nodeName && !p.metadata?.deletionTimestamp)
        ?.spec?.nodeName;
      const { chosen } = selectNodesToUpdate(pool, members, { operatorNode });
      for (const node of chosen) {
        const patch: Record<string, JsonValue> = {
          metadata: { annotations: { [MachineConfigNodeAnnotation.DesiredConfig]: target } },
        };
        if (!hasTaint(node, UPDATE_IN_PROGRESS_TAINT))
          patch.spec = {
            taints: [...(node.spec?.taints ?? []), { ...UPDATE_IN_PROGRESS_TAINT }] as unknown as JsonValue,
          };
        await fresh.patch(ctx, node, patch);
      }
      if (chosen.length === 1)
        recorder.event(
          pool,
          'Normal',
          'SetDesiredConfig',
          `Targeted node ${chosen[0]!.metadata?.name ?? ''} to MachineConfig: ${target}`,
        );
      else if (chosen.length > 1)
        recorder.event(
          pool,
          'Normal',
          'SetDesiredConfig',
          `Set target for ${chosen.length} nodes to MachineConfig: ${target}`,
        );
      if (chosen.length > 0) members = nodesForPool(pool, fresh.list(), pools.list());
    }
    const now = ctx.clock.now();
    const computed = computePoolStatus(pool, members, now);
    if (!computed || jsonEqual(computed as unknown as JsonValue, (pool.status ?? null) as unknown as JsonValue)) return;
    // The cached pool may lag our own last write: recompute on the fresh object (as the MCO's retry does).
    let before: MachineConfigPool | undefined;
    const written = await updateStatusWithRetry(
      ctx.client,
      MachineConfigPoolResource,
      key,
      (fresh) => {
        before = structuredClone(fresh);
        const status = computePoolStatus(fresh, members, now);
        if (!status || jsonEqual(status as unknown as JsonValue, (fresh.status ?? null) as unknown as JsonValue))
          return undefined;
        fresh.status = status;
        return fresh;
      },
      { clock: ctx.clock, backoffMs: 0 },
    );
    const reached = written.spec.configuration?.name;
    if (reached && written.status?.configuration.name === reached && before?.status?.configuration.name !== reached) {
      recorder.event(written, 'Normal', 'Completed', `Pool ${key} has completed update to MachineConfig ${reached}`);
    }
  };

  return simController(ctx, { name: 'machineconfigcontroller-nodecontroller', reconcile })
    .for(MachineConfigPoolResource)
    .watches(NodeResource, allPools)
    .watches(PodResource, () => ['master'], { namespace: MCO_NAMESPACE, labelSelector: MCO_POD_SELECTOR });
}

function sameTaint(left: Taint, right: { key: string; effect: string }): boolean {
  return left.key === right.key && left.effect === right.effect;
}

function hasTaint(node: Node, text: { key: string; effect: string }): boolean {
  return node.spec?.taints?.some((x) => sameTaint(x, text)) ?? false;
}

/**
 * The node cache, overlaid with the nodes this controller just wrote until the informer has caught
 * up, so that a sync right after a write never re-counts slots from a stale view. Writes carry the
 * node's resourceVersion: a concurrent writer makes them fail with 409 and the pool is retried.
 */
class FreshNodes {
  readonly #informer: Informer<Node>;
  /** name → the node as written, and the cached resourceVersion at the time of the write. */
  readonly #written = new Map<string, { node: Node; cachedRv: string }>();

  constructor(informer: Informer<Node>) {
    this.#informer = informer;
  }

  list(): Node[] {
    return this.#informer.list().map((cached) => {
      const name = cached.metadata?.name ?? '';
      const mine = this.#written.get(name);
      if (!mine) return cached;
      if (caughtUp(cached, mine.node, mine.cachedRv)) {
        this.#written.delete(name);
        return cached;
      }
      return mine.node;
    });
  }

  async patch(ctx: SimContext, node: Node, patch: Record<string, JsonValue>): Promise<void> {
    const name = node.metadata?.name ?? '';
    const cachedRv = this.#informer.get(undefined, name)?.metadata?.resourceVersion ?? '';
    const meta = (patch.metadata ?? {}) as Record<string, JsonValue>;
    const body = { ...patch, metadata: { ...meta, resourceVersion: node.metadata?.resourceVersion ?? '' } };
    const written = await ctx.client.patch(NodeResource, undefined, name, body, { type: 'merge' });
    this.#written.set(name, { node: written, cachedRv });
  }
}

/**
 * True when the cache has seen our write: resourceVersions compared as integers when they are
 * (the embedded server and etcd), else any change of the cached version since the write.
 */
function caughtUp(cached: Node, mine: Node, cachedRvAtWrite: string): boolean {
  const rc = cached.metadata?.resourceVersion ?? '';
  const rm = mine.metadata?.resourceVersion ?? '';
  if (/^\d+$/.test(rc) && /^\d+$/.test(rm)) return BigInt(rc) >= BigInt(rm);
  return rc !== cachedRvAtWrite;
}
