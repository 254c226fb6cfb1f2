/** What every REST handler works with. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ActivityTracker } from '../lib/activity.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/log.js';
import type { MemoryStore } from './storage/store.js';
import type { WatchHub } from './storage/watch-hub.js';
import type { ResourceTarget } from './request-info.js';
import type { Negotiated } from './http-util.js';
import type { PodLogs } from './pod-logs.js';

/** The server's shared state, passed to handlers. */
export interface ApiContext {
  store: MemoryStore;
  hub: WatchHub;
  clock: Clock;
  logger: Logger;
  activity: ActivityTracker;
  /** Resolves when the server is closing (ends watch streams). */
  closing: AbortSignal;
  /** Where `pods/log` reads each pod's logs. */
  podLogs: PodLogs;
}

/** One resource request being served. */
export interface ResourceCall {
  ctx: ApiContext;
  req: IncomingMessage;
  res: ServerResponse;
  target: ResourceTarget;
  query: URLSearchParams;
  accept: Negotiated;
}
