/**
 * Conflict-safe status updates: GET, mutate, PUT …/status with the object's resourceVersion;
 * on 409 GET again and re-apply the mutation (bounded attempts, backoff on the Clock), like
 * client-go's retry.RetryOnConflict.
 */
import type { KubeObjectLike, ResourceDescriptor } from '../api/resource.js';
import type { Clock } from '../lib/clock.js';
import type { KubeClient } from './client.js';
import { splitKey } from './indexer.js';
import { isConflict } from './status-error.js';

export interface StatusWriterOptions {
  clock: Clock;
  /** Attempts in all (default 5, as retry.DefaultRetry). */
  attempts?: number;
  /**
   * First backoff, doubled after each conflict, with up to +10 % jitter when random is given.
   * Default 0: a conflict is resolved by reading the object again, and sleeping inside a
   * reconcile holds its work item (and, under the simulation's event-driven clock, holds time
   * itself: the clock jumps only when nothing is busy). Set it for objects many writers contend on.
   */
  backoffMs?: number;
  random?: { next(): number };
  signal?: AbortSignal;
}

/**
 * Updates an object's status. `mutate` gets a fresh copy and returns the object to write, or
 * undefined for "no change" (nothing is written). Returns the final object (the written one, or
 * the current one when no write was needed). Errors other than 409, and a 409 after the last
 * attempt, are thrown.
 */
export async function updateStatusWithRetry<T extends KubeObjectLike>(
  client: KubeClient,
  descriptor: ResourceDescriptor<T>,
  key: string,
  mutate: (obj: T) => T | undefined,
  options: StatusWriterOptions,
): Promise<T> {
  const { namespace, name } = splitKey(key);
  const attempts = Math.max(1, options.attempts ?? 5);
  let delay = options.backoffMs ?? 0;
  for (let attempt = 1; ; attempt++) {
    const current = await client.get(
      descriptor,
      namespace || undefined,
      name,
      options.signal ? { signal: options.signal } : {},
    );
    const next = mutate(structuredClone(current));
    if (next === undefined) return current;
    const toWrite = {
      ...next,
      metadata: { ...next.metadata, resourceVersion: current.metadata?.resourceVersion },
    } as T;
    try {
      return await client.updateStatus(descriptor, toWrite, options.signal ? { signal: options.signal } : {});
    } catch (err) {
      if (!isConflict(err) || attempt >= attempts) throw err;
    }
    if (delay > 0) await options.clock.sleep(delay * (1 + 0.1 * (options.random?.next() ?? 0)), options.signal);
    delay *= 2;
  }
}
