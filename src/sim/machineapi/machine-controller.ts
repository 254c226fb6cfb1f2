/**
 * The simulated machine controller (machine-api-operator's machine controller with a cloud
 * actuator), docs/design/cluster-model.md#machines. A Machine goes Provisioning → Provisioned
 * (instance, providerID, addresses, providerStatus) → Running (its Node registered Ready and in its
 * pool with the config docs/design/cluster-model.md#new-nodes-during-an-update prescribes;
 * `status.nodeRef` set) at drawn times from its creation. Deleting a Machine (phase Deleting) waits
 * for preDrain hooks, cordons and drains its Node through `pods/eviction` (PDBs apply; a refused
 * attempt is retried every 20 s, as the machine controller requeues), waits for preTerminate hooks,
 * terminates the instance, then deletes the Node and releases the finalizer. Timers are requeues on
 * the controller's queue, so the virtual clock sees them.
 */
import type { Node } from 'kubernetes-types/core/v1.js';
import { NodeResource, PodResource } from '../../api/builtin.js';
import {
  MACHINE_FINALIZER,
  MachineAnnotation,
  MachineResource,
  type Machine,
  type MachineStatus,
} from '../../api/openshift/machine-v1beta1/machine.js';
import {
  MachineConfigNodeAnnotation,
  MachineConfigPoolResource,
} from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import type { Controller } from '../../kube/controller.js';
import { type ReconcileResult } from '../../kube/controller.js';
import {
  ignoreNotFound,
  ignoreNotFoundOrConflict,
  isAlreadyExists,
  isConflict,
  isNotFound,
} from '../../kube/status-error.js';
import { formatTime } from '../../lib/clock.js';
import type { SeededRandom } from '../../lib/random.js';
import { type SimContext, simController } from '../context.js';
import { primaryPoolName } from '../mco/node-state.js';
import { joiningConfigFor } from '../mco/pool-status.js';
import { evictPod, podsToDrain, setUnschedulable } from '../workloads/drain.js';
import { drawMs, type Triangle } from '../durations.js';
import { instanceFor, nodeForMachine, nodeSystemInfo, placementOf } from './node-template.js';

export interface MachineApiDurations {
  /** Creation → Provisioned (instance created; default (0.5, 1, 1.5) min). */
  provision: Triangle;
  /**
   * Creation → Running (Node joined and Ready; docs/design/cluster-model.md#durations "new Machine
   * → Running", default (3, 5, 8) min).
   */
  running: Triangle;
  /** Drained → instance terminated and Node deleted (default (0.5, 1, 2) min). */
  terminate: Triangle;
}

export const DEFAULT_MACHINE_API_DURATIONS: MachineApiDurations = {
  provision: [0.5, 1, 1.5],
  running: [3, 5, 8],
  terminate: [0.5, 1, 2],
};

/** How often the machine controller retries a drain that failed (its 20 s requeue). */
export const DRAIN_RETRY_MS = 20_000;
/** How often it looks again while evicted pods are still terminating. */
const DRAIN_WAIT_MS = 5_000;

export interface MachineControllerConfig {
  durations: MachineApiDurations;
  timeScale: number;
  random: SeededRandom;
  /** Until when the Machine's node must not join (a fault: it stays Provisioned); Infinity for ever, undefined when not blocked. */
  joinBlockedUntil(machine: Machine): number | undefined;
  workers?: number;
}

interface DeletionState {
  drainedAt?: number;
  terminateAt?: number;
}

/** The machine controller as a src/kube Controller. */
export function createMachineController(ctx: SimContext, cfg: MachineControllerConfig): Controller {
  const log = ctx.logger.child({ component: 'sim-machine-controller' });
  const machines = ctx.informers.informerFor(MachineResource);
  const nodes = ctx.informers.informerFor(NodeResource);
  const pools = ctx.informers.informerFor(MachineConfigPoolResource);
  const deletions = new Map<string, DeletionState>();

  const streamOf = (m: Machine): SeededRandom =>
    cfg.random.fork(`machine/${m.metadata?.namespace}/${m.metadata?.name}`);

  const writeStatus = async (m: Machine, status: MachineStatus): Promise<Machine | undefined> =>
    ignoreNotFoundOrConflict(ctx.client.updateStatus(MachineResource, { ...m, status }));

  /**
   * docs/design/cluster-model.md#new-nodes-during-an-update: the config a node of this Machine
   * boots with, and a peer's node info.
   */
  const bootConfig = (labels: Record<string, string>): { config: string | undefined; peer: Node | undefined } => {
    const probe: Node = { metadata: { labels } };
    const all = pools.list();
    const poolName = primaryPoolName(probe, all);
    const pool = all.find((p) => p.metadata?.name === poolName);
    if (!pool) return { config: undefined, peer: undefined };
    const config = joiningConfigFor(pool);
    const peer = nodes
      .list()
      .find(
        (n) =>
          primaryPoolName(n, all) === poolName &&
          n.metadata?.annotations?.[MachineConfigNodeAnnotation.CurrentConfig] === config,
      );
    return { config, peer };
  };

  const provisioned = async (machine: Machine, now: number): Promise<void> => {
    const instance = instanceFor(machine, streamOf(machine));
    const p = placementOf(machine);
    const labels: Record<string, string> = {
      ...(p.instanceType ? { 'machine.openshift.io/instance-type': p.instanceType } : {}),
      ...(p.region ? { 'machine.openshift.io/region': p.region } : {}),
      ...(p.zone ? { 'machine.openshift.io/zone': p.zone } : {}),
    };
    const updated = await ignoreNotFoundOrConflict(
      ctx.client.patch(
        MachineResource,
        machine.metadata?.namespace,
        machine.metadata?.name ?? '',
        {
          metadata: {
            resourceVersion: machine.metadata?.resourceVersion ?? null,
            labels,
            annotations: { [MachineAnnotation.InstanceState]: 'running' },
          },
          spec: { providerID: instance.providerID },
        },
        { type: 'merge' },
      ),
    );
    if (updated === undefined) return;
    const at = formatTime(now);
    const providerKind =
      p.provider === 'aws'
        ? 'AWSMachineProviderStatus'
        : p.provider === 'gce'
          ? 'GCPMachineProviderStatus'
          : p.provider === 'azure'
            ? 'AzureMachineProviderStatus'
            : 'MachineProviderStatus';
    await writeStatus(updated, {
      ...updated.status,
      phase: 'Provisioned',
      lastUpdated: at,
      providerStatus: {
        apiVersion: 'machine.openshift.io/v1beta1',
        kind: providerKind,
        instanceId: instance.instanceId,
        instanceState: 'running',
        conditions: [
          {
            type: 'MachineCreation',
            status: 'True',
            reason: 'MachineCreationSucceeded',
            message: 'Machine successfully created',
            lastTransitionTime: at,
          },
        ],
      },
      addresses: [
        { type: 'InternalIP', address: instance.internalIP },
        { type: 'InternalDNS', address: instance.nodeName },
        { type: 'Hostname', address: instance.nodeName },
      ],
      conditions: [
        { type: 'Drainable', status: 'True', lastTransitionTime: at },
        {
          type: 'InstanceExists',
          status: 'True',
          reason: 'InstanceExists',
          message: 'Instance exists',
          lastTransitionTime: at,
        },
        { type: 'Terminable', status: 'True', lastTransitionTime: at },
      ],
    });
  };

  const joined = async (machine: Machine, now: number): Promise<void> => {
    const random = streamOf(machine);
    const instance = instanceFor(machine, random);
    let node = nodes.get(undefined, instance.nodeName);
    if (!node) {
      const labels =
        nodeForMachine(machine, { instance, now, config: undefined, nodeInfo: nodeSystemInfo(undefined, random) })
          .metadata?.labels ?? {};
      const { config, peer } = bootConfig(labels);
      const fresh = nodeForMachine(machine, {
        instance,
        now,
        config,
        nodeInfo: nodeSystemInfo(peer?.status?.nodeInfo, random),
      });
      try {
        node = await ctx.client.create(NodeResource, fresh);
      } catch (err) {
        if (!isAlreadyExists(err)) throw err;
        node = await ctx.client.get(NodeResource, undefined, instance.nodeName);
      }
      log.info({ machine: machine.metadata?.name, node: instance.nodeName, config }, 'node joined');
    }
    await writeStatus(machine, {
      ...machine.status,
      phase: 'Running',
      lastUpdated: formatTime(now),
      nodeRef: { kind: 'Node', name: node.metadata?.name ?? '', uid: node.metadata?.uid ?? '' },
    });
  };

  const deleting = async (machine: Machine, now: number): Promise<ReconcileResult | void> => {
    const uid = machine.metadata?.uid ?? '';
    if (machine.status?.phase !== 'Deleting') {
      await writeStatus(machine, { ...machine.status, phase: 'Deleting', lastUpdated: formatTime(now) });
      return;
    }
    if ((machine.spec?.lifecycleHooks?.preDrain ?? []).length > 0) return;
    const state = deletions.get(uid) ?? {};
    deletions.set(uid, state);
    const nodeName = machine.status.nodeRef?.name;
    const node = nodeName === undefined ? undefined : nodes.get(undefined, nodeName);
    if (
      node &&
      state.drainedAt === undefined &&
      machine.metadata?.annotations?.[MachineAnnotation.ExcludeNodeDraining] === undefined
    ) {
      try {
        await setUnschedulable(ctx.client, node, true, now);
      } catch (err) {
        if (isConflict(err)) return { requeueAfter: 1 };
        if (!isNotFound(err)) throw err;
      }
      // Listed from the API server, as the machine controller's drain (kubectl's drain library)
      // does: a pod bound to the node a moment ago may not be in the informer's cache yet.
      const listed = await ctx.client.list(PodResource, { fieldSelector: `spec.nodeName=${nodeName ?? ''}` });
      const remaining = podsToDrain(listed.items);
      if (remaining.length > 0) {
        let refused = 0;
        for (const p of remaining) {
          if (p.metadata?.deletionTimestamp !== undefined) continue;
          const outcome = await evictPod(ctx.client, p);
          if (outcome.result === 'blocked' || outcome.result === 'error') {
            refused++;
            log.info(
              { machine: machine.metadata?.name, node: nodeName, pod: outcome.pod, message: outcome.message },
              'eviction refused; drain will be retried',
            );
          }
        }
        return { requeueAfter: refused > 0 ? DRAIN_RETRY_MS : DRAIN_WAIT_MS };
      }
      state.drainedAt = now;
      log.info({ machine: machine.metadata?.name, node: nodeName }, 'drain successful');
    }
    if ((machine.spec?.lifecycleHooks?.preTerminate ?? []).length > 0) return;
    state.terminateAt ??= now + drawMs(streamOf(machine).fork('terminate'), cfg.durations.terminate, cfg.timeScale);
    if (now < state.terminateAt) return { requeueAfter: state.terminateAt - now };
    if (nodeName !== undefined) await ignoreNotFound(ctx.client.delete(NodeResource, undefined, nodeName));
    const finalizers = (machine.metadata?.finalizers ?? []).filter((f) => f !== MACHINE_FINALIZER);
    try {
      await ctx.client.patch(
        MachineResource,
        machine.metadata?.namespace,
        machine.metadata?.name ?? '',
        { metadata: { resourceVersion: machine.metadata?.resourceVersion ?? null, finalizers } },
        { type: 'merge' },
      );
    } catch (err) {
      if (isConflict(err)) return { requeueAfter: 1 };
      if (!isNotFound(err)) throw err;
    }
    deletions.delete(uid);
  };

  const reconcile = async (key: string): Promise<ReconcileResult | void> => {
    const m = machines.getByKey(key);
    if (!m) return;
    const now = ctx.clock.now();
    if (m.metadata?.deletionTimestamp !== undefined) return deleting(m, now);
    if (!(m.metadata?.finalizers ?? []).includes(MACHINE_FINALIZER)) {
      const finalizers = [...(m.metadata?.finalizers ?? []), MACHINE_FINALIZER];
      await ignoreNotFoundOrConflict(
        ctx.client.patch(
          MachineResource,
          m.metadata?.namespace,
          m.metadata?.name ?? '',
          { metadata: { resourceVersion: m.metadata?.resourceVersion ?? null, finalizers } },
          { type: 'merge' },
        ),
      );
      return;
    }
    const created = Date.parse(m.metadata?.creationTimestamp ?? '') || now;
    const random = streamOf(m).fork('phases');
    const provisionAt = created + drawMs(random, cfg.durations.provision, cfg.timeScale);
    const runningAt = Math.max(provisionAt + 1000, created + drawMs(random, cfg.durations.running, cfg.timeScale));
    switch (m.status?.phase) {
      case undefined:
        await writeStatus(m, { ...m.status, phase: 'Provisioning', lastUpdated: formatTime(now) });
        return;
      case 'Provisioning':
        if (now < provisionAt) return { requeueAfter: provisionAt - now };
        await provisioned(m, now);
        return;
      case 'Provisioned':
        if (now < runningAt) return { requeueAfter: runningAt - now };
        {
          const blockedUntil = cfg.joinBlockedUntil(m);
          if (blockedUntil !== undefined && now < blockedUntil)
            return Number.isFinite(blockedUntil) ? { requeueAfter: blockedUntil - now } : undefined;
        }
        await joined(m, now);
        return;
      case 'Running':
      case 'Deleting':
      case 'Failed':
        return;
    }
  };

  const controller = simController(ctx, {
    name: 'sim-machine-controller',
    reconcile,
    logger: log,
    workers: cfg.workers ?? 4,
  });
  controller.for(MachineResource);
  return controller;
}
