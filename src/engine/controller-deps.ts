/**
 * What every controller of this project is built from, and the controller runtime's share of it,
 * so that each controller's options name only what is its own.
 */
import type { KubeClient } from '../kube/client.js';
import type { ControllerOptions } from '../kube/controller.js';
import type { InformerFactory } from '../kube/informer-factory.js';
import type { ActivityTracker } from '../lib/activity.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/log.js';

/** The client, caches, clock, logger and (with a virtual clock) activity tracker of a controller. */
export interface ControllerDeps {
  client: KubeClient;
  informers: InformerFactory;
  clock: Clock;
  logger: Logger;
  activity?: ActivityTracker;
}

/** The part `new Controller({ name, ...runtimeOf(o), reconcile })` takes. */
export function runtimeOf(
  deps: Omit<ControllerDeps, 'client'>,
): Pick<ControllerOptions, 'informers' | 'clock' | 'logger' | 'activity'> {
  return {
    informers: deps.informers,
    clock: deps.clock,
    logger: deps.logger,
    ...(deps.activity ? { activity: deps.activity } : {}),
  };
}
