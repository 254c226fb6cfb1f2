/**
 * PromQL errors with the HTTP API's error types (`bad_data` for parse and type errors,
 * `execution` for evaluation failures), so the HTTP layer can answer exactly as Prometheus does.
 */

/** The `errorType` values of the Prometheus HTTP API. */
export type PromErrorType = 'bad_data' | 'execution' | 'timeout' | 'canceled' | 'internal' | 'unavailable';

/** An error the Prometheus HTTP API reports with `{status:"error", errorType, error}`. */
export class PromqlError extends Error {
  readonly errorType: PromErrorType;
  constructor(errorType: PromErrorType, message: string) {
    super(message);
    this.name = 'PromqlError';
    this.errorType = errorType;
  }
}

/** A `bad_data` error for a parse or type problem. */
export function badData(message: string): PromqlError {
  return new PromqlError('bad_data', message);
}

/** An `execution` error raised while evaluating. */
export function executionError(message: string): PromqlError {
  return new PromqlError('execution', message);
}
