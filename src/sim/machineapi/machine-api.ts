/**
 * The simulated Machine API (docs/design/cluster-model.md#the-machine-api): the MachineSet
 * controller and the machine controller as one SimComponent, with the fault the scenario layer can
 * inject.
 */
import { MachineResource, type Machine } from '../../api/openshift/machine-v1beta1/machine.js';
import { MachineLabel } from '../../api/openshift/machine-v1beta1/machine.js';
import type { Controller } from '../../kube/controller.js';
import type { SimComponent, SimContext } from '../context.js';
import {
  createMachineController,
  DEFAULT_MACHINE_API_DURATIONS,
  type MachineApiDurations,
} from './machine-controller.js';
import { createMachineSetController } from './machine-set-controller.js';

export interface MachineApiOptions {
  /** Virtual-minute triangles (defaults: the HA-cloud column of docs/design/cluster-model.md#durations). */
  durations?: Partial<MachineApiDurations>;
  /** Divides every duration (default 1). */
  timeScale?: number;
}

/** The Machine API component, with its fault knobs. */
export interface MachineApi extends SimComponent {
  /**
   * Fault: new Machines of this MachineSet (or this Machine, by name) stay `Provisioned` — their
   * Node never joins — until the virtual time `until` (default: for ever, until `unblockJoin`).
   */
  blockJoin(target: { machineSet?: string; machine?: string }, options?: { until?: number }): void;
  /** Lifts every join block. */
  unblockJoin(): void;
}

/** Creates the Machine API component. */
export function createMachineApi(ctx: SimContext, options: MachineApiOptions = {}): MachineApi {
  const durations: MachineApiDurations = { ...DEFAULT_MACHINE_API_DURATIONS, ...options.durations };
  const random = ctx.random.fork('machineapi');
  const blocks: Array<{ machineSet?: string; machine?: string; until: number }> = [];
  const joinBlockedUntil = (machine: Machine): number | undefined => {
    let until: number | undefined;
    for (const b of blocks) {
      const hit =
        (b.machine !== undefined && b.machine === machine.metadata?.name) ||
        (b.machineSet !== undefined && b.machineSet === machine.metadata?.labels?.[MachineLabel.MachineSet]);
      if (hit) until = Math.max(until ?? 0, b.until);
    }
    return until;
  };
  const machineController = createMachineController(ctx, {
    durations,
    timeScale: options.timeScale ?? 1,
    random: random.fork('machines'),
    joinBlockedUntil,
  });
  const machineSetController = createMachineSetController(ctx, { random: random.fork('machinesets') });
  const machines = ctx.informers.informerFor(MachineResource);
  const requeueAll = (controller: Controller): void => {
    for (const m of machines.list()) controller.queue.add(`${m.metadata?.namespace}/${m.metadata?.name}`);
  };
  const log = ctx.logger.child({ component: 'sim-machineapi' });

  return {
    name: 'machine-api',
    async start(signal: AbortSignal): Promise<void> {
      for (const c of [machineSetController, machineController]) {
        c.start(signal).catch((err: unknown) =>
          log.error(
            { controller: c.name, err: err instanceof Error ? err.message : String(err) },
            'controller stopped',
          ),
        );
      }
      await ctx.informers.waitForSync(signal);
    },
    blockJoin(target, opts = {}) {
      blocks.push({ ...target, until: opts.until ?? Infinity });
    },
    unblockJoin() {
      blocks.length = 0;
      requeueAll(machineController);
    },
  };
}
