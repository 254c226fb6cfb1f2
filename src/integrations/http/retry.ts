/**
 * Retry with exponential backoff and jitter, on the injected Clock and a seeded Random, so that
 * tests are deterministic. Written by hand because undici's RetryAgent has no jitter and runs on
 * real timers (docs/design/dependencies.md#http-client). Which failures are worth another try is
 * the caller's call.
 */
import type { Clock } from '../../lib/clock.js';
import type { Random } from '../../lib/random.js';
import { isIntegrationError } from '../integration-error.js';

/** How often and how far apart to try. */
export interface BackoffPolicy {
  /** Total tries, the first one included (≥ 1). */
  attempts: number;
  /** Delay before the second try. */
  initialDelayMs: number;
  /** Each further delay is the previous one times this (1 = constant). */
  factor: number;
  /** Upper bound of a delay before jitter (default: none). */
  maxDelayMs?: number;
  /** Each delay is drawn uniformly from [d·(1−jitter), d·(1+jitter)) (default 0: exact). */
  jitter?: number;
}

/**
 * MUO's external-dependency availability check: 3 tries, 1 s then 2 s apart, no jitter
 * (use with {@link isTransientHttpFailure}: server errors and transport failures are retried,
 * a 4xx answer is final).
 */
export const EXTERNAL_DEPENDENCY_RETRY: BackoffPolicy = { attempts: 3, initialDelayMs: 1_000, factor: 2 };

/** The OCM client: 5 retries after the first try, from 2 s doubling, with 30 % jitter. */
export const OCM_RETRY: BackoffPolicy = { attempts: 6, initialDelayMs: 2_000, factor: 2, jitter: 0.3 };

/** What one retry is about to do, for logs and metrics. */
export interface RetryNotice {
  /** The try that failed (1-based). */
  attempt: number;
  error: unknown;
  /** The wait before the next try. */
  delayMs: number;
}

/** Options of {@link retry}. */
export interface RetryOptions {
  policy: BackoffPolicy;
  clock: Clock;
  /** Needed when the policy has jitter. */
  random?: Random;
  /** Whether a failure of try `attempt` (1-based) is worth another try. */
  retryable: (error: unknown, attempt: number) => boolean;
  /** Aborts the wait between tries (the signal's reason is thrown) and is passed to each try. */
  signal?: AbortSignal;
  onRetry?: (notice: RetryNotice) => void;
}

/**
 * The wait after failed try number `retryIndex + 1` (so `retryIndex` 0 is the first wait):
 * `initialDelayMs · factor^retryIndex`, capped at `maxDelayMs`, then jittered.
 */
export function backoffDelay(policy: BackoffPolicy, retryIndex: number, random?: Random): number {
  let delay = policy.initialDelayMs * policy.factor ** retryIndex;
  if (policy.maxDelayMs !== undefined) delay = Math.min(delay, policy.maxDelayMs);
  const jitter = policy.jitter ?? 0;
  if (jitter > 0) {
    if (!random) throw new Error('backoffDelay: a policy with jitter needs a Random');
    delay *= 1 - jitter + 2 * jitter * random.next();
  }
  return Math.round(delay);
}

/**
 * Runs `fn` until it resolves, a failure is not retryable, or the tries are used up (then the
 * last failure is thrown). Waits between tries on `options.clock`.
 */
export async function retry<T>(
  fn: (attempt: number, signal: AbortSignal | undefined) => Promise<T>,
  options: RetryOptions,
): Promise<T> {
  const { policy, clock, signal } = options;
  if (!(policy.attempts >= 1)) throw new RangeError(`retry: attempts must be at least 1, got ${policy.attempts}`);
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt, signal);
    } catch (error) {
      if (attempt >= policy.attempts || signal?.aborted || !options.retryable(error, attempt)) throw error;
      const delayMs = backoffDelay(policy, attempt - 1, options.random);
      options.onRetry?.({ attempt, error, delayMs });
      await clock.sleep(delayMs, signal);
    }
  }
}

/**
 * True for failures another try may fix: no connection, a timeout, or a 5xx answer. A 4xx
 * answer, an unreadable body or the caller's abort are final.
 */
export function isTransientHttpFailure(error: unknown): boolean {
  if (!isIntegrationError(error)) return false;
  switch (error.reason) {
    case 'Unreachable':
    case 'Timeout':
      return true;
    case 'HttpStatus':
      return (error.status ?? 0) >= 500;
    case 'BadResponse':
    case 'Aborted':
      return false;
  }
}
