/**
 * An error the simulated Alertmanager answers with a given HTTP status and JSON body, exactly
 * as Alertmanager's go-swagger server does: most handler errors are a bare JSON string,
 * swagger validation errors `{code, message}`, and a few answers have no body at all.
 */
import type { JsonValue } from '../../../lib/json.js';

export class AmError extends Error {
  /** HTTP status. */
  readonly status: number;
  /** JSON body; undefined for an empty body. */
  readonly body: JsonValue | undefined;

  constructor(status: number, body: JsonValue | undefined) {
    super(typeof body === 'string' ? body : body === undefined ? `HTTP ${status}` : JSON.stringify(body));
    this.name = 'AmError';
    this.status = status;
    this.body = body;
  }
}

/** A handler error: a JSON string body (`"silence not found"`). */
export function amText(status: number, message: string): AmError {
  return new AmError(status, message);
}

/** A go-swagger error: `{"code": <code>, "message": "..."}` (422 for 601/602/612, 400 for 400). */
export function amSwagger(code: number, message: string): AmError {
  return new AmError(code >= 600 ? 422 : code, { code, message });
}
