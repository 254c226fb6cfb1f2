/**
 * What every simulated controller is given. The simulated cluster is a set of ordinary API
 * clients: they reach the cluster only through `client` (and the shared informers), so they run
 * against the embedded API server or any other.
 */
import type { ActivityTracker } from '../lib/activity.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/log.js';
import type { SeededRandom } from '../lib/random.js';
import type { KubeClient } from '../kube/client.js';
import type { InformerFactory } from '../kube/informer-factory.js';
import { Controller, type Reconcile } from '../kube/controller.js';

export interface SimContext {
  client: KubeClient;
  informers: InformerFactory;
  clock: Clock;
  /** One seed drives every draw of the run; components derive their own streams with `fork`. */
  random: SeededRandom;
  logger: Logger;
  activity?: ActivityTracker;
}

/** A simulated controller (or a group of them). */
export interface SimComponent {
  readonly name: string;
  /** Starts the component; resolves once it is running (its caches synced). Stops when the signal aborts. */
  start(signal: AbortSignal): Promise<void>;
}

/** A controller of the simulated cluster on the context's informers, clock and activity tracker. */
export function simController(
  ctx: SimContext,
  options: { name: string; reconcile: Reconcile; logger?: Logger; workers?: number },
): Controller {
  return new Controller({
    name: options.name,
    reconcile: options.reconcile,
    informers: ctx.informers,
    clock: ctx.clock,
    logger: options.logger ?? ctx.logger,
    ...(options.workers !== undefined ? { workers: options.workers } : {}),
    ...(ctx.activity ? { activity: ctx.activity } : {}),
  });
}
