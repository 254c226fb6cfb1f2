/**
 * The embedded Kubernetes API server: plain HTTP on loopback over the in-memory store, with the
 * CRD registry and the built-in controllers (garbage collector, namespace lifecycle, disruption).
 */
import { splitApiVersion } from '../api/resource.js';
import { setMaxListeners } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFile } from 'node:fs/promises';
import { NO_ACTIVITY, type ActivityTracker } from '../lib/activity.js';
import { RealClock, type Clock } from '../lib/clock.js';
import { silentLogger, type Logger } from '../lib/log.js';
import type { Random } from '../lib/random.js';
import type { ApiContext } from './api-context.js';
import { DisruptionController } from './builtin/disruption.js';
import { namespaceType } from './builtin/kinds.js';
import { GarbageCollector } from './builtin/garbage-collector.js';
import { NamespaceController } from './builtin/namespace-lifecycle.js';
import { CrdRegistry } from './crd-registry.js';
import { ApiFaultInjector } from './faults.js';
import { kubeconfigFor, type KubeconfigOptions } from './kubeconfig.js';
import { loadState, Persistence } from './persistence.js';
import { route } from './router.js';
import { MemoryStore, type PodTermination } from './storage/store.js';
import { WatchHub } from './storage/watch-hub.js';
import type { KubeObject, Store } from './types.js';
import { updateManagedFields } from './patch/managed-fields.js';
import { patchMetaFromSchema, type PatchMeta } from './patch/patch-meta.js';
import { PodLogs } from './pod-logs.js';
import { forgetRetiredVersion } from './retired-versions.js';

export interface ApiServerOptions {
  /** TCP port; 0 or unset picks a free one. */
  port?: number;
  host?: '127.0.0.1';
  clock?: Clock;
  logger?: Logger;
  /** Load state from this file at start, save it there (debounced and at close). */
  dataFile?: string;
  podTermination?: PodTermination;
  activity?: ActivityTracker;
  /**
   * At most this many changes kept per resource type for watches that resume from a
   * resourceVersion (default 10,000; changes older than 75 s go beyond the newest 100); an
   * older resourceVersion gets 410 Expired. Tests make it tiny to force re-lists.
   */
  watchWindowSize?: number;
  /** Source of object uids and generated names (default: crypto); a seeded one makes a simulation replay exactly. */
  random?: Random;
}

export interface ApiServer {
  url: string;
  port: number;
  store: Store;
  /** Fault injection (errors at a rate, watch disconnects, outages); off until configured. */
  faults: ApiFaultInjector;
  /** The log sources `pods/log` serves (a pod without one has empty logs). */
  podLogs: PodLogs;
  kubeconfig(options?: KubeconfigOptions): string;
  writeKubeconfig(path: string): Promise<void>;
  close(): Promise<void>;
}

interface Controller {
  start(): void;
  stop(): void;
}

/** Patch metadata for managedFields: a custom resource's comes from its schema. */
function patchMetaOf(store: MemoryStore, obj: KubeObject): PatchMeta | undefined {
  const { group, version } = splitApiVersion(obj.apiVersion);
  const rt = store.resourceTypeOfKind(group, obj.kind);
  const schema = rt?.custom ? (rt.schemas?.[version] ?? rt.schemas?.[rt.version]) : undefined;
  return schema ? patchMetaFromSchema(schema) : undefined;
}

/** The namespaces every cluster starts with. */
const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

function bootstrapNamespaces(store: MemoryStore): void {
  for (const name of SYSTEM_NAMESPACES) {
    if (!store.get(namespaceType, '', name))
      store.create(namespaceType, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  }
}

function isWatchRequest(req: IncomingMessage): boolean {
  const url = req.url ?? '';
  if (!url.includes('watch=')) return false;
  const q = url.split('?')[1] ?? '';
  return /(^|&)watch=(true|1)(&|$)/.test(q);
}

/** Starts the server; resolves once it listens. */
export async function startApiServer(options: ApiServerOptions = {}): Promise<ApiServer> {
  const clock = options.clock ?? new RealClock();
  const logger = (options.logger ?? silentLogger()).child({ component: 'apiserver' });
  const activity = options.activity ?? NO_ACTIVITY;
  const store: MemoryStore = new MemoryStore({
    clock,
    ...(options.random ? { random: options.random } : {}),
    podTermination: options.podTermination ?? 'expire',
    managedFields: (args) => {
      const meta = patchMetaOf(store, args.updated);
      return updateManagedFields({ ...args, ...(meta ? { meta } : {}) });
    },
  });
  if (options.dataFile) await loadState(store, options.dataFile);
  bootstrapNamespaces(store);
  const hub = new WatchHub(store, {
    clock,
    activity,
    ...(options.watchWindowSize !== undefined ? { windowSize: options.watchWindowSize } : {}),
  });
  // After the hub, so live watches get a change before its predecessor's memos go.
  const unsubscribeRetired = store.subscribe(forgetRetiredVersion);
  const closing = new AbortController();
  // Every open watch listens on this signal to end when the server closes.
  setMaxListeners(0, closing.signal);
  const podLogs = new PodLogs();
  const ctx: ApiContext = { store, hub, clock, logger, activity, closing: closing.signal, podLogs };
  const crds = new CrdRegistry({ store, clock, logger, activity });
  crds.start();
  const controllerOptions = { store, clock, logger, activity };
  const controllers: Controller[] = [
    new GarbageCollector(controllerOptions),
    new NamespaceController(controllerOptions),
    new DisruptionController(controllerOptions),
  ];
  for (const c of controllers) c.start();
  const persistence = options.dataFile ? new Persistence({ store, file: options.dataFile, clock, logger }) : undefined;

  const faults = new ApiFaultInjector({ clock, logger, currentResourceVersion: () => store.currentResourceVersion() });

  let address = '127.0.0.1:0';
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    // The server's time is its clock's (virtual in a simulation), as its timestamps are: clients
    // that compute ages from the answer's Date (upgrade-operator status) agree with the objects.
    res.setHeader('Date', new Date(clock.now()).toUTCString());
    // Faults first, as a load balancer or a failing server answers before any handler runs.
    if (faults.intercept(req, res)) return;
    const end = isWatchRequest(req) ? undefined : activity.begin('http-request');
    route(ctx, req, res, address)
      .catch((err: unknown) => logger.error({ err }, 'request handler failed'))
      .finally(() => end?.());
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  address = `127.0.0.1:${port}`;
  const url = `http://${address}`;
  logger.info({ url }, 'API server listening');
  let closed: Promise<void> | undefined;
  return {
    url,
    port,
    store,
    faults,
    podLogs,
    kubeconfig: (o) => kubeconfigFor(url, o),
    writeKubeconfig: (path) => writeFile(path, kubeconfigFor(url), { mode: 0o600 }),
    close: () => {
      closed ??= (async () => {
        closing.abort();
        faults.close();
        hub.close();
        unsubscribeRetired();
        for (const c of controllers) c.stop();
        crds.stop();
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await stopped;
        store.close();
        await persistence?.flush();
      })();
      return closed;
    },
  };
}
