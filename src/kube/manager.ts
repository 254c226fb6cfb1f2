/**
 * The manager: one client, one shared informer factory, the controllers (and other
 * {@link Runnable}s, such as the UpgradeConfigManager's sync loop), and optional leader
 * election. Informers run for the manager's whole life (so a new leader starts warm); the
 * controllers run only while leading. On leadership loss it either stops (the caller exits,
 * as controller-runtime does) or campaigns again. stop() (wired to SIGTERM/SIGINT by the
 * caller) drains the controllers, then releases the Lease.
 */
import { setMaxListeners } from 'node:events';
import type { ActivityTracker } from '../lib/activity.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/log.js';
import type { Random } from '../lib/random.js';
import type { KubeClient } from './client.js';
import { InformerFactory, type InformerFactoryOptions } from './informer-factory.js';
import { LeaderElector, type LeaderElectorOptions } from './leader-election.js';
import type { RuntimeMetrics } from './runtime-metrics.js';

export interface ManagerLeaderElection extends Pick<
  LeaderElectorOptions,
  'namespace' | 'name' | 'identity' | 'leaseDurationMs' | 'renewDeadlineMs' | 'retryPeriodMs' | 'releaseOnCancel'
> {
  /** After losing leadership: 'exit' (start() rejects with LeadershipLostError; default) or 'recampaign'. */
  onLost?: 'exit' | 'recampaign';
  onNewLeader?(identity: string): void;
}

export interface ManagerOptions {
  client: KubeClient;
  clock: Clock;
  logger: Logger;
  random: Random;
  activity?: ActivityTracker;
  leaderElection?: ManagerLeaderElection;
  informerDefaults?: InformerFactoryOptions['defaults'];
  /** The controller-runtime families: every runnable added reports to them, and so does leader election. */
  metrics?: RuntimeMetrics;
}

/**
 * Anything the manager runs while leading: a Controller, or a loop such as the
 * UpgradeConfigManager. `start` runs until the signal aborts and may be called again after a
 * leadership change.
 */
export interface Runnable {
  readonly name: string;
  start(signal: AbortSignal): Promise<void>;
  /** Reports to the controller-runtime families (a Controller does; other loops need not). */
  instrument?(metrics: RuntimeMetrics): void;
}

/** Thrown by start() when leadership is lost and onLost is 'exit'. */
export class LeadershipLostError extends Error {
  readonly reason = 'LeadershipLost';
  constructor(identity: string) {
    super(`leader election lost (identity ${identity})`);
    this.name = 'LeadershipLostError';
  }
}

/** Runs controllers, with leader election when configured. */
export class Manager {
  readonly client: KubeClient;
  readonly informers: InformerFactory;
  readonly #log: Logger;
  readonly #controllers: Runnable[] = [];
  readonly #stop = new AbortController();
  readonly #elector: LeaderElector | undefined;
  readonly #le: ManagerLeaderElection | undefined;
  #leading = false;
  #started = false;
  readonly #metrics: RuntimeMetrics | undefined;
  readonly #leaderStatus: ((leading: boolean) => void) | undefined;

  constructor(options: ManagerOptions) {
    this.client = options.client;
    this.#log = options.logger.child({ component: 'manager' });
    this.informers = new InformerFactory({
      client: options.client,
      clock: options.clock,
      logger: options.logger,
      random: options.random,
      ...(options.informerDefaults ? { defaults: options.informerDefaults } : {}),
    });
    const le = options.leaderElection;
    this.#le = le;
    this.#metrics = options.metrics;
    this.#leaderStatus = le ? options.metrics?.leaderElection(le.name) : undefined;
    if (le) {
      this.#elector = new LeaderElector({
        ...le,
        client: options.client,
        clock: options.clock,
        logger: options.logger,
        random: options.random,
      });
    }
  }

  /** Adds a controller or another runnable; it runs while the manager leads (or always, without leader election). */
  add(runnable: Runnable): this {
    if (this.#started) throw new Error('controllers must be added before start()');
    if (this.#metrics) runnable.instrument?.(this.#metrics);
    this.#controllers.push(runnable);
    return this;
  }

  /** True while controllers run (always true without leader election once started). */
  get leading(): boolean {
    return this.#leading;
  }

  /**
   * Runs until stop() or the signal. Resolves after a clean stop; rejects with
   * LeadershipLostError when leadership is lost and onLost is 'exit'.
   */
  async start(signal?: AbortSignal): Promise<void> {
    if (this.#started) throw new Error('manager already started');
    this.#started = true;
    const stopSignal = signal ? AbortSignal.any([signal, this.#stop.signal]) : this.#stop.signal;
    // Every informer, controller and request of the process listens on it: Node's limit of ten
    // listeners is a leak heuristic such a signal outgrows by design.
    setMaxListeners(0, stopSignal);
    this.informers.start(stopSignal);
    try {
      const le = this.#le;
      if (!this.#elector || !le) {
        await this.#runControllers(stopSignal);
        return;
      }
      while (!stopSignal.aborted) {
        const lost = await this.#elector.run(stopSignal, {
          onStartedLeading: (leading) => this.#runControllers(leading),
          onNewLeader: (identity) => le.onNewLeader?.(identity),
        });
        if (!lost) break;
        if ((le.onLost ?? 'exit') === 'exit') throw new LeadershipLostError(le.identity);
        this.#log.warn('leadership lost; campaigning again');
      }
    } finally {
      this.#stop.abort();
      await this.informers.stopped();
    }
  }

  /** Asks the manager to stop: controllers drain, the lease is released, informers stop. */
  stop(): void {
    this.#stop.abort(new Error('manager stopped'));
  }

  async #runControllers(signal: AbortSignal): Promise<void> {
    this.#leading = true;
    this.#leaderStatus?.(true);
    this.#log.info({ controllers: this.#controllers.map((c) => c.name) }, 'starting controllers');
    try {
      await Promise.all(this.#controllers.map((c) => c.start(signal)));
      if (!signal.aborted)
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    } finally {
      this.#leading = false;
      this.#leaderStatus?.(false);
      this.#log.info('controllers stopped');
    }
  }
}
