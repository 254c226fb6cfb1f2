/**
 * The one error type of every outside HTTP API (Prometheus, Alertmanager, OCM, the update
 * service, registries, external dependency checks): a stable `reason` a caller can branch on
 * and put in a condition, the HTTP status when there was one, and the cause.
 */

/** Why a call to an outside API failed. */
export type IntegrationFailure =
  /** Connection refused, DNS failure, TLS failure, reset. */
  | 'Unreachable'
  /** No complete answer within the timeout. */
  | 'Timeout'
  /** The server answered with an error status (`status` is set). */
  | 'HttpStatus'
  /** The answer could not be understood (not JSON, wrong shape, API-level error). */
  | 'BadResponse'
  /** The caller's signal aborted the call. */
  | 'Aborted';

/** A failed call to an outside HTTP API. */
export class IntegrationError extends Error {
  readonly reason: IntegrationFailure;
  /** The HTTP status, for `HttpStatus` (and for `BadResponse` when one was received). */
  readonly status: number | undefined;
  /** Which API (`prometheus`, `alertmanager`, `ocm`, …), for messages and metrics. */
  readonly api: string;

  constructor(
    api: string,
    reason: IntegrationFailure,
    message: string,
    options: { status?: number; cause?: unknown } = {},
  ) {
    super(`${api}: ${message}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'IntegrationError';
    this.api = api;
    this.reason = reason;
    this.status = options.status;
  }
}

/** True when `err` is an {@link IntegrationError}. */
export function isIntegrationError(err: unknown): err is IntegrationError {
  return err instanceof IntegrationError;
}
