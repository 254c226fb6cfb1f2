/**
 * The simulated MachineSet controller (machine-api-operator `pkg/controller/machineset`),
 * docs/design/cluster-model.md#machinesets: keeps `spec.replicas` Machines (also when scaled
 * through `/scale`), named `<machineset>-<5 random>`, with the template's labels, annotations and
 * spec and a controller ownerReference; on scale-down deletes the Machines the delete policy ranks
 * first (Machines already deleting still count until they are gone, as in the real controller).
 * Status: replicas, fullyLabeledReplicas, readyReplicas (Node Ready), availableReplicas (Ready for
 * minReadySeconds), observedGeneration.
 */
import type { Node } from 'kubernetes-types/core/v1.js';
import { NodeResource } from '../../api/builtin.js';
import { MachineAnnotation, MachineResource, type Machine } from '../../api/openshift/machine-v1beta1/machine.js';
import {
  MachineSetResource,
  type MachineSet,
  type MachineSetStatus,
} from '../../api/openshift/machine-v1beta1/machine-set.js';
import type { Controller } from '../../kube/controller.js';
import { type ReconcileResult } from '../../kube/controller.js';
import { splitKey } from '../../kube/indexer.js';
import { isConflict, isNotFound } from '../../kube/status-error.js';
import { jsonEqual, type JsonValue } from '../../lib/json.js';
import type { SeededRandom } from '../../lib/random.js';
import { type SimContext, simController } from '../context.js';
import { hasLabels, matchesLabelSelector } from '../workloads/label-selector.js';
import { randomSuffix } from '../workloads/names.js';
import { controllerOf, isNodeReady } from '../workloads/scheduling.js';
import { machinesToDelete } from './delete-policy.js';

export interface MachineSetControllerConfig {
  random: SeededRandom;
  workers?: number;
}

/** The Machine a MachineSet creates. */
export function newMachine(ms: MachineSet, suffix: string): Machine {
  const template = ms.spec?.template;
  return {
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'Machine',
    metadata: {
      name: `${ms.metadata?.name}-${suffix}`,
      namespace: ms.metadata?.namespace ?? '',
      labels: { ...template?.metadata?.labels },
      ...(template?.metadata?.annotations ? { annotations: { ...template.metadata.annotations } } : {}),
      ownerReferences: [
        {
          apiVersion: 'machine.openshift.io/v1beta1',
          kind: 'MachineSet',
          name: ms.metadata?.name ?? '',
          uid: ms.metadata?.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: structuredClone(template?.spec ?? {}),
  };
}

/** The MachineSet status for its Machines and their Nodes (pure; `wake` is when an availability changes). */
export function machineSetStatus(
  ms: MachineSet,
  owned: readonly Machine[],
  nodeOf: (machine: Machine) => Node | undefined,
  now: number,
): { status: MachineSetStatus; wake: number | undefined } {
  const templateLabels = ms.spec?.template?.metadata?.labels ?? {};
  const minReadyMs = (ms.spec?.minReadySeconds ?? 0) * 1000;
  let ready = 0;
  let available = 0;
  let wake: number | undefined;
  for (const m of owned) {
    const node = nodeOf(m);
    if (!node || !isNodeReady(node)) continue;
    ready++;
    const since = Date.parse(node.status?.conditions?.find((c) => c.type === 'Ready')?.lastTransitionTime ?? '') || now;
    if (since + minReadyMs <= now) available++;
    else wake = Math.min(wake ?? Infinity, since + minReadyMs);
  }
  const status: MachineSetStatus = {
    ...ms.status,
    replicas: owned.length,
    fullyLabeledReplicas: owned.filter((m) => hasLabels(templateLabels, m.metadata?.labels)).length,
    readyReplicas: ready,
    availableReplicas: available,
    observedGeneration: ms.metadata?.generation ?? 1,
  };
  return { status, wake };
}

/** The MachineSet controller as a src/kube Controller. */
export function createMachineSetController(ctx: SimContext, cfg: MachineSetControllerConfig): Controller {
  const log = ctx.logger.child({ component: 'sim-machineset-controller' });
  const sets = ctx.informers.informerFor(MachineSetResource);
  const machines = ctx.informers.informerFor(MachineResource);
  const nodes = ctx.informers.informerFor(NodeResource);
  /** Machines created but not yet in the cache, per MachineSet key. */
  const expected = new Map<string, Map<string, Machine>>();

  const reconcile = async (key: string): Promise<ReconcileResult | void> => {
    const ms = sets.getByKey(key);
    if (!ms || ms.metadata?.deletionTimestamp !== undefined) {
      expected.delete(key);
      return;
    }
    const { namespace } = splitKey(key);
    const uid = ms.metadata?.uid ?? '';
    const now = ctx.clock.now();
    const cached = machines
      .list(namespace)
      .filter((m) => controllerOf(m)?.uid === uid && matchesLabelSelector(ms.spec?.selector, m.metadata?.labels))
      .sort((a, b) => cmp(a.metadata?.name ?? '', b.metadata?.name ?? ''));
    const inFlight = expected.get(key) ?? new Map<string, Machine>();
    for (const m of cached) inFlight.delete(m.metadata?.name ?? '');
    const owned = [...cached, ...inFlight.values()];
    const want = ms.spec?.replicas ?? 1;

    if (owned.length < want) {
      for (let i = owned.length; i < want; i++) {
        const created = await ctx.client.create(MachineResource, newMachine(ms, randomSuffix(cfg.random)));
        inFlight.set(created.metadata?.name ?? '', created);
        log.info({ machineset: key, machine: created.metadata?.name }, 'created machine');
      }
    } else if (owned.length > want) {
      const policy = ms.spec?.deletePolicy ?? 'Random';
      // Random: a seeded shuffle decides among equals.
      const candidates = policy === 'Random' ? shuffle(cached, cfg.random) : cached;
      for (const m of machinesToDelete(candidates, owned.length - want, policy, now)) {
        if (m.metadata?.deletionTimestamp !== undefined) continue;
        try {
          await ctx.client.delete(MachineResource, m.metadata?.namespace, m.metadata?.name ?? '');
          log.info(
            {
              machineset: key,
              machine: m.metadata?.name,
              policy,
              marked: m.metadata?.annotations?.[MachineAnnotation.DeleteMachine] !== undefined,
            },
            'deleting machine',
          );
        } catch (err) {
          if (!isNotFound(err)) throw err;
        }
      }
    }
    if (inFlight.size > 0) expected.set(key, inFlight);
    else expected.delete(key);

    const nodeOf = (machine: Machine): Node | undefined => {
      const name = machine.status?.nodeRef?.name;
      return name === undefined ? undefined : nodes.get(undefined, name);
    };
    const { status, wake } = machineSetStatus(ms, [...cached, ...inFlight.values()], nodeOf, now);
    if (!jsonEqual(status as unknown as JsonValue, (ms.status ?? {}) as unknown as JsonValue)) {
      try {
        await ctx.client.updateStatus(MachineSetResource, { ...ms, status });
      } catch (err) {
        if (isConflict(err)) return { requeue: true };
        if (!isNotFound(err)) throw err;
      }
    }
    return wake === undefined ? undefined : { requeueAfter: Math.max(1, wake - now) };
  };

  const controller = simController(ctx, {
    name: 'sim-machineset-controller',
    reconcile,
    logger: log,
    workers: cfg.workers ?? 2,
  });
  controller
    .for(MachineSetResource)
    .owns(MachineResource)
    // A Node's readiness changes its MachineSet's readyReplicas.
    .watches(NodeResource, (node: Node) => {
      const ref = node.metadata?.annotations?.[MachineAnnotation.NodeMachine];
      if (ref === undefined) return [];
      const m = machines.getByKey(ref);
      const owner = m ? controllerOf(m) : undefined;
      return owner?.kind === 'MachineSet' ? [`${m?.metadata?.namespace}/${owner.name}`] : [];
    });
  return controller;
}

function cmp(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

function shuffle<T>(items: readonly T[], random: SeededRandom): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
