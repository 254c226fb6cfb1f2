/**
 * The environment every named scenario runs in: the embedded API server and a simulated
 * cluster's context (client, shared informers, seeded randomness) on one event-driven virtual
 * clock that jumps only when nothing is busy. `newClient` gives other parties (the operator, a
 * user) their own clients on the same clock.
 */
import { setMaxListeners } from 'node:events';
import { startApiServer, type ApiServer } from '../../apiserver/server.js';
import { KubeClient } from '../../kube/client.js';
import type { ActivityTracker } from '../../lib/activity.js';
import { InformerFactory } from '../../kube/informer-factory.js';
import { silentLogger, type Logger } from '../../lib/log.js';
import { SeededRandom } from '../../lib/random.js';
import type { SimContext } from '../../sim/context.js';
import { VirtualClock } from '../../sim/virtual-clock.js';

/** Virtual start of every run, so that one seed gives one timeline (2026-03-02T00:00:00Z). */
export const VIRTUAL_START = Date.UTC(2026, 2, 2);

export interface SimEnvironmentOptions {
  seed: number;
  /** Virtual start (default {@link VIRTUAL_START}). */
  start?: number;
  logger?: Logger;
}

export interface SimEnvironment {
  readonly server: ApiServer;
  readonly clock: VirtualClock;
  /** The simulated cluster's context (its client has field manager `simulated-cluster`). */
  readonly ctx: SimContext;
  /** A user's client (field manager `user`), for what `kubectl` or `oc` would do. */
  readonly client: KubeClient;
  /** Aborted by close(): every component started with it stops. */
  readonly signal: AbortSignal;
  readonly logger: Logger;
  /** Another client on the same server and clock (close it yourself); `activity` defaults to the clock's. */
  newClient(fieldManager: string, namespace?: string, activity?: ActivityTracker): KubeClient;
  close(): Promise<void>;
}

/** Starts the API server and builds the context (no simulated component runs yet). */
export async function startSimEnvironment(o: SimEnvironmentOptions): Promise<SimEnvironment> {
  const clock = new VirtualClock({ mode: 'event', start: o.start ?? VIRTUAL_START });
  const logger = o.logger ?? silentLogger();
  const server = await startApiServer({ port: 0, clock, logger, activity: clock.activity });
  const abort = new AbortController();
  // Every simulated controller and watch listens on this one signal.
  setMaxListeners(0, abort.signal);
  const newClient = (fieldManager: string, namespace = 'default', activity: ActivityTracker = clock.activity): KubeClient =>
    new KubeClient({
      config: { server: server.url, insecureSkipTLSVerify: false, auth: () => Promise.resolve(undefined), namespace },
      clock,
      logger,
      activity,
      fieldManager,
    });
  const simClient = newClient('simulated-cluster');
  const client = newClient('user');
  const random = new SeededRandom(o.seed);
  const ctx: SimContext = { client: simClient, informers: new InformerFactory({ client: simClient, clock, logger, random: random.fork('informers') }), clock, random, logger, activity: clock.activity };
  return {
    server,
    clock,
    ctx,
    client,
    signal: abort.signal,
    logger,
    newClient,
    async close(): Promise<void> {
      abort.abort();
      await Promise.allSettled([simClient.close(), client.close()]);
      await server.close();
    },
  };
}
