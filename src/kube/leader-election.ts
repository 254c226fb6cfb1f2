/**
 * Leader election on a coordination.k8s.io/v1 Lease, with client-go's semantics
 * (tools/leaderelection): a lease is held while `observedAt + leaseDurationSeconds` (the
 * duration written in the record, the time when *we* saw the record change, on our own Clock)
 * is in the future; acquire and renew are conditional on resourceVersion (409 ⇒ lost the race);
 * a leader that cannot renew within the renew deadline stops leading; on shutdown the lease is
 * released by clearing holderIdentity (leaseDurationSeconds 1).
 */
import { setMaxListeners } from 'node:events';
import type { Lease } from 'kubernetes-types/coordination/v1.js';
import { LeaseResource } from '../api/builtin.js';
import { formatMicroTime, type Clock } from '../lib/clock.js';
import { jsonEqual, type JsonValue } from '../lib/json.js';
import type { Logger } from '../lib/log.js';
import type { Random } from '../lib/random.js';
import type { KubeClient } from './client.js';
import { isConflict, isNotFound } from './status-error.js';

/** The election state kept in the Lease spec. */
export interface LeaderElectionRecord {
  holderIdentity: string;
  leaseDurationSeconds: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions: number;
}

/** A record as we last saw it, and when (local clock). */
export interface Observation {
  record: LeaderElectionRecord;
  observedAt: number;
}

export type Decision =
  | { action: 'create'; record: LeaderElectionRecord }
  | { action: 'update'; record: LeaderElectionRecord }
  | { action: 'wait'; holder: string };

/**
 * The pure core of tryAcquireOrRenew: given the record on the server (undefined: no Lease)
 * and our last observation (already refreshed by {@link observe}), what to write.
 */
export function decide(
  current: LeaderElectionRecord | undefined,
  observed: Observation | undefined,
  now: number,
  identity: string,
  leaseDurationSeconds: number,
): Decision {
  const nowTime = formatMicroTime(now);
  const desired: LeaderElectionRecord = {
    holderIdentity: identity,
    leaseDurationSeconds,
    acquireTime: nowTime,
    renewTime: nowTime,
    leaseTransitions: 0,
  };
  if (!current) return { action: 'create', record: desired };
  const observedAt = observed?.observedAt ?? now;
  if (
    current.holderIdentity !== '' &&
    current.holderIdentity !== identity &&
    observedAt + current.leaseDurationSeconds * 1000 > now
  ) {
    return { action: 'wait', holder: current.holderIdentity };
  }
  if (current.holderIdentity === identity) {
    if (current.acquireTime !== undefined) desired.acquireTime = current.acquireTime;
    desired.leaseTransitions = current.leaseTransitions;
  } else {
    desired.leaseTransitions = current.leaseTransitions + 1;
  }
  return { action: 'update', record: desired };
}

/** Refreshes the observation: the time moves only when the record itself changed. */
export function observe(previous: Observation | undefined, current: LeaderElectionRecord, now: number): Observation {
  if (previous && jsonEqual(previous.record as unknown as JsonValue, current as unknown as JsonValue)) return previous;
  return { record: current, observedAt: now };
}

/** Reads the record from a Lease (missing fields are zero values, as in client-go). */
export function recordFromLease(lease: Lease): LeaderElectionRecord {
  const s = lease.spec ?? {};
  const r: LeaderElectionRecord = {
    holderIdentity: s.holderIdentity ?? '',
    leaseDurationSeconds: s.leaseDurationSeconds ?? 0,
    leaseTransitions: s.leaseTransitions ?? 0,
  };
  if (s.acquireTime) r.acquireTime = s.acquireTime;
  if (s.renewTime) r.renewTime = s.renewTime;
  return r;
}

function specFromRecord(leaderElectionRecord: LeaderElectionRecord): NonNullable<Lease['spec']> {
  return {
    holderIdentity: leaderElectionRecord.holderIdentity,
    leaseDurationSeconds: leaderElectionRecord.leaseDurationSeconds,
    leaseTransitions: leaderElectionRecord.leaseTransitions,
    ...(leaderElectionRecord.acquireTime ? { acquireTime: leaderElectionRecord.acquireTime } : {}),
    ...(leaderElectionRecord.renewTime ? { renewTime: leaderElectionRecord.renewTime } : {}),
  };
}

export interface LeaderCallbacks {
  /** Called when we become leader; the signal aborts when we stop leading. Its promise is awaited before the lease is released. */
  onStartedLeading(signal: AbortSignal): Promise<void> | void;
  onStoppedLeading?(): void;
  /** Called when the observed leader changes (including to ourselves). */
  onNewLeader?(identity: string): void;
}

export interface LeaderElectorOptions {
  client: KubeClient;
  clock: Clock;
  logger: Logger;
  random: Random;
  namespace: string;
  name: string;
  identity: string;
  /** Defaults: 15 s, 10 s, 2 s (controller-runtime). */
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** Clear holderIdentity when stopped while leading (default true). */
  releaseOnCancel?: boolean;
}

/** Campaigns for, holds and releases one Lease. */
export class LeaderElector {
  readonly #o: LeaderElectorOptions;
  readonly #log: Logger;
  readonly #leaseMs: number;
  readonly #renewMs: number;
  readonly #retryMs: number;
  #observed: Observation | undefined;
  #reportedLeader: string | undefined;
  #leading = false;

  constructor(options: LeaderElectorOptions) {
    this.#o = options;
    this.#leaseMs = options.leaseDurationMs ?? 15_000;
    this.#renewMs = options.renewDeadlineMs ?? 10_000;
    this.#retryMs = options.retryPeriodMs ?? 2_000;
    if (!(this.#leaseMs > this.#renewMs && this.#renewMs > this.#retryMs * 1.2)) {
      throw new Error('leader election: need leaseDuration > renewDeadline > 1.2 × retryPeriod');
    }
    if (options.identity === '') throw new Error('leader election: identity may not be empty');
    this.#log = options.logger.child({ lease: `${options.namespace}/${options.name}`, identity: options.identity });
  }

  /** True while leading (between onStartedLeading and the end of leadership). */
  isLeader(): boolean {
    return this.#leading;
  }

  /** The holder we last observed. */
  leader(): string | undefined {
    const h = this.#observed?.record.holderIdentity;
    return h === '' ? undefined : h;
  }

  /**
   * Campaigns until leading, leads until the signal aborts or renewal fails, then returns
   * (releasing the lease first if the signal aborted). Returns true if leadership was lost.
   */
  async run(signal: AbortSignal, callbacks: LeaderCallbacks): Promise<boolean> {
    if (!(await this.#acquire(signal, callbacks))) return false;
    const leading = new AbortController();
    // The controllers and their requests listen on it (Node's ten-listener heuristic does not apply).
    setMaxListeners(0, leading.signal);
    const onAbort = (): void => leading.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    this.#leading = true;
    this.#log.info('became leader');
    const work = Promise.resolve()
      .then(() => callbacks.onStartedLeading(leading.signal))
      .catch((err: unknown) =>
        this.#log.error({ err: err instanceof Error ? err.message : String(err) }, 'leading work failed'),
      );
    const lost = await this.#renewLoop(leading.signal, callbacks);
    this.#leading = false;
    signal.removeEventListener('abort', onAbort);
    leading.abort(new Error('leadership ended'));
    await work;
    if (!lost && this.#o.releaseOnCancel !== false) await this.#release();
    if (lost) this.#log.warn('leadership lost');
    callbacks.onStoppedLeading?.();
    return lost;
  }

  async #acquire(signal: AbortSignal, callbacks: LeaderCallbacks): Promise<boolean> {
    while (!signal.aborted) {
      if (await this.#tryAcquireOrRenew(signal, callbacks)) return true;
      await this.#sleep(this.#retryMs * (1 + 1.2 * this.#o.random.next()), signal);
    }
    return false;
  }

  /** Renews every retry period; true when renewal failed past the deadline (lost), false when the signal aborted. */
  async #renewLoop(signal: AbortSignal, callbacks: LeaderCallbacks): Promise<boolean> {
    while (!signal.aborted) {
      const deadline = this.#o.clock.now() + this.#renewMs;
      let renewed = false;
      while (!signal.aborted && this.#o.clock.now() < deadline) {
        const timeout = new AbortController();
        const timer = this.#o.clock.setTimer(deadline - this.#o.clock.now(), () =>
          timeout.abort(new Error('renew deadline passed')),
        );
        const ok = await this.#tryAcquireOrRenew(AbortSignal.any([signal, timeout.signal]), callbacks);
        timer.cancel();
        if (ok) {
          renewed = true;
          break;
        }
        await this.#sleep(Math.min(this.#retryMs, Math.max(0, deadline - this.#o.clock.now())), signal);
      }
      if (signal.aborted) return false;
      if (!renewed) return true;
      await this.#sleep(this.#retryMs, signal);
    }
    return false;
  }

  async #tryAcquireOrRenew(signal: AbortSignal, callbacks: LeaderCallbacks): Promise<boolean> {
    const { client, namespace, name, identity } = this.#o;
    try {
      let lease: Lease | undefined;
      try {
        lease = await client.get(LeaseResource, namespace, name, { signal });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      const now = this.#o.clock.now();
      const current = lease ? recordFromLease(lease) : undefined;
      if (current) {
        this.#observed = observe(this.#observed, current, now);
        this.#reportLeader(current.holderIdentity, callbacks);
      }
      const d = decide(current, this.#observed, now, identity, Math.round(this.#leaseMs / 1000));
      if (d.action === 'wait') return false;
      const body: Lease = {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { namespace, name },
        spec: specFromRecord(d.record),
      };
      const written =
        d.action === 'create'
          ? await client.create(LeaseResource, body, { signal })
          : await client.update(
              LeaseResource,
              { ...body, metadata: { ...lease?.metadata, namespace, name } },
              { signal },
            );
      this.#observed = { record: recordFromLease(written), observedAt: this.#o.clock.now() };
      this.#reportLeader(identity, callbacks);
      return true;
    } catch (err) {
      this.#log.debug(
        { err: err instanceof Error ? err.message : String(err) },
        'failed to acquire or renew the lease',
      );
      return false;
    }
  }

  /**
   * Clears holderIdentity. Reads the Lease first: a renewal cut short by the shutdown may still
   * have been written by the server, so the resourceVersion we remember can be stale.
   */
  async #release(): Promise<void> {
    const { client, namespace, name, identity } = this.#o;
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const lease = await client.get(LeaseResource, namespace, name);
        const current = recordFromLease(lease);
        if (current.holderIdentity !== identity) return;
        const now = formatMicroTime(this.#o.clock.now());
        const record: LeaderElectionRecord = {
          holderIdentity: '',
          leaseDurationSeconds: 1,
          acquireTime: now,
          renewTime: now,
          leaseTransitions: current.leaseTransitions,
        };
        const written = await client.update(LeaseResource, { ...lease, spec: specFromRecord(record) });
        this.#observed = { record: recordFromLease(written), observedAt: this.#o.clock.now() };
        this.#log.info('released the lease');
        return;
      } catch (err) {
        if (isConflict(err)) continue;
        this.#log.warn({ err: err instanceof Error ? err.message : String(err) }, 'failed to release the lease');
        return;
      }
    }
    this.#log.warn('failed to release the lease: conflicts');
  }

  #reportLeader(holder: string, callbacks: LeaderCallbacks): void {
    if (holder === '' || holder === this.#reportedLeader) return;
    this.#reportedLeader = holder;
    try {
      callbacks.onNewLeader?.(holder);
    } catch (err) {
      this.#log.error({ err: err instanceof Error ? err.message : String(err) }, 'onNewLeader threw');
    }
  }

  async #sleep(ms: number, signal: AbortSignal): Promise<void> {
    try {
      await this.#o.clock.sleep(ms, signal);
    } catch {
      // aborted: the caller checks the signal
    }
  }
}
