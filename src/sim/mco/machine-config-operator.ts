/**
 * The simulated Machine Config Operator (docs/design/cluster-model.md#the-mco-and-its-pools,
 * docs/simulation.md#simulated-controllers): the operator with its render controller, and the node
 * controller, as one SimComponent, plus the fault hooks the scenario layer calls. The daemon
 * (per-node MCD) and the drain controller are separate components (`src/sim/mco/daemon/`,
 * `src/sim/mco/drain/`); they meet this one only through the node annotations and pools.
 */
import { MachineConfigPoolResource } from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import type { Controller } from '../../kube/controller.js';
import type { SimComponent, SimContext } from '../context.js';
import { createNodeController } from './node-controller.js';
import {
  createOperatorController,
  DEFAULT_MCO_DURATIONS,
  MACHINE_CONFIG_CO,
  type MachineConfigOperatorDurations,
  type RenderFailure,
} from './operator.js';

export interface MachineConfigOperatorOptions {
  /** Durations (virtual minutes); defaults are the HA-cloud column of docs/design/cluster-model.md#durations. */
  durations?: Partial<MachineConfigOperatorDurations>;
  /** Divides every duration and timeout (default 1). */
  timeScale?: number;
}

/** The MCO component and its fault hooks. */
export interface MachineConfigOperator extends SimComponent {
  /**
   * Makes rendering fail for a pool (RenderDegraded=True, so Degraded=True) until `until`
   * (virtual epoch ms), or for good; the pool keeps its old target meanwhile.
   */
  renderFailure(pool: string, options?: { until?: number; message?: string }): void;
  /** Ends an injected render failure at once. */
  clearRenderFailure(pool: string): void;
  /** Sets `spec.paused: true` on a pool (what an administrator or upgrade operator does). */
  pausePool(pool: string): Promise<void>;
  /** Sets `spec.paused: false` on a pool. */
  unpausePool(pool: string): Promise<void>;
}

/** Builds the simulated MCO. Draws come from `ctx.random.fork('machine-config-operator')`. */
export function createMachineConfigOperator(
  ctx: SimContext,
  options: MachineConfigOperatorOptions = {},
): MachineConfigOperator {
  const timeScale = options.timeScale ?? 1;
  if (!(timeScale > 0)) throw new RangeError(`timeScale must be positive, got ${timeScale}`);
  const renderFailures = new Map<string, RenderFailure>();
  const operator = createOperatorController(ctx, {
    durations: { ...DEFAULT_MCO_DURATIONS, ...options.durations },
    timeScale,
    random: ctx.random.fork('machine-config-operator'),
    renderFailures,
  });
  const nodeController = createNodeController(ctx);
  const controllers: Controller[] = [operator, nodeController];
  const poke = (): void => operator.queue.add(MACHINE_CONFIG_CO);
  const setPaused = async (pool: string, paused: boolean): Promise<void> => {
    await ctx.client.patch(MachineConfigPoolResource, undefined, pool, { spec: { paused } }, { type: 'merge' });
  };
  return {
    name: 'machine-config-operator',
    async start(signal: AbortSignal): Promise<void> {
      for (const c of controllers) {
        c.start(signal).catch((err: unknown) =>
          ctx.logger.error(
            { controller: c.name, err: err instanceof Error ? err.message : String(err) },
            'controller stopped',
          ),
        );
      }
      await ctx.informers.waitForSync(signal);
    },
    renderFailure(pool, options = {}): void {
      const failure: RenderFailure = {
        message: options.message ?? 'could not generate rendered MachineConfig: simulated render failure',
      };
      if (options.until !== undefined) failure.until = options.until;
      renderFailures.set(pool, failure);
      poke();
    },
    clearRenderFailure(pool): void {
      renderFailures.delete(pool);
      poke();
    },
    pausePool: (pool) => setPaused(pool, true),
    unpausePool: (pool) => setPaused(pool, false),
  };
}
