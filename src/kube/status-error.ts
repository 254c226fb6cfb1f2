/**
 * Errors from the Kubernetes API, classified like k8s.io/apimachinery/pkg/api/errors: the HTTP
 * code, the metav1.Status `reason` and the parsed Status body, with `isX()` helpers.
 */
import { isJsonObject, type JsonObject } from '../lib/json.js';

/** A metav1.Status as the API server sends it (only the fields the client reads are typed). */
export interface KubeStatus {
  kind?: string;
  apiVersion?: string;
  status?: string;
  message?: string;
  reason?: string;
  code?: number;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    uid?: string;
    causes?: Array<{ reason?: string; message?: string; field?: string }>;
    retryAfterSeconds?: number;
  };
}

/** A failed API call. `reason` is the Status reason, or derived from the code when the body has none. */
export class KubeApiError extends Error {
  readonly code: number;
  readonly reason: string;
  readonly status: KubeStatus;
  /** Seconds the server asked us to wait (Retry-After header or details.retryAfterSeconds). */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: number, status: KubeStatus, options: { retryAfterSeconds?: number; cause?: unknown } = {}) {
    super(
      status.message ?? `the server responded with HTTP ${code}`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = 'KubeApiError';
    this.code = code;
    this.status = status;
    this.reason = status.reason !== undefined && status.reason !== '' ? status.reason : reasonForCode(code);
    this.retryAfterSeconds = options.retryAfterSeconds ?? status.details?.retryAfterSeconds;
  }
}

/**
 * Builds a KubeApiError from an HTTP error response. A body that is not a Status (for example
 * a proxy's HTML page) becomes the message, as client-go does for unstructured errors.
 */
export function kubeApiErrorFrom(code: number, body: string, retryAfterHeader?: string): KubeApiError {
  let status: KubeStatus;
  try {
    const parsed: unknown = JSON.parse(body);
    if (isJsonObject(parsed) && parsed.kind === 'Status') status = statusFromJson(parsed);
    else status = { message: trimBody(body) };
  } catch {
    status = { message: body.trim() === '' ? `the server responded with HTTP ${code}` : trimBody(body) };
  }
  const header = retryAfterHeader === undefined ? undefined : Number.parseInt(retryAfterHeader, 10);
  return new KubeApiError(
    code,
    status,
    header !== undefined && Number.isFinite(header) && header >= 0 ? { retryAfterSeconds: header } : {},
  );
}

/** Reads a Status from a JSON object (for example a watch ERROR event's object). */
export function statusFromJson(value: JsonObject): KubeStatus {
  const s: KubeStatus = {};
  if (typeof value.kind === 'string') s.kind = value.kind;
  if (typeof value.apiVersion === 'string') s.apiVersion = value.apiVersion;
  if (typeof value.status === 'string') s.status = value.status;
  if (typeof value.message === 'string') s.message = value.message;
  if (typeof value.reason === 'string') s.reason = value.reason;
  if (typeof value.code === 'number') s.code = value.code;
  if (isJsonObject(value.details)) s.details = value.details;
  return s;
}

function trimBody(body: string): string {
  const t = body.trim();
  return t.length > 512 ? `${t.slice(0, 512)}…` : t;
}

/** The reason apimachinery assumes for a code when the Status carries none. */
export function reasonForCode(code: number): string {
  switch (code) {
    case 400:
      return 'BadRequest';
    case 401:
      return 'Unauthorized';
    case 403:
      return 'Forbidden';
    case 404:
      return 'NotFound';
    case 405:
      return 'MethodNotAllowed';
    case 406:
      return 'NotAcceptable';
    case 409:
      return 'Conflict';
    case 410:
      return 'Gone';
    case 413:
      return 'RequestEntityTooLarge';
    case 415:
      return 'UnsupportedMediaType';
    case 422:
      return 'Invalid';
    case 429:
      return 'TooManyRequests';
    case 500:
      return 'InternalError';
    case 503:
      return 'ServiceUnavailable';
    case 504:
      return 'Timeout';
    default:
      return 'Unknown';
  }
}

function hasReason(err: unknown, reason: string, code: number): boolean {
  return err instanceof KubeApiError && (err.reason === reason || (err.reason === 'Unknown' && err.code === code));
}

/** 404 NotFound. */
export function isNotFound(err: unknown): boolean {
  return hasReason(err, 'NotFound', 404);
}
/** 409 Conflict (stale resourceVersion). */
export function isConflict(err: unknown): boolean {
  return hasReason(err, 'Conflict', 409);
}
/** 409 AlreadyExists. */
export function isAlreadyExists(err: unknown): boolean {
  return err instanceof KubeApiError && err.reason === 'AlreadyExists';
}
/** 410 Gone, or Expired (a resourceVersion too old for a watch or a continue token). */
export function isGone(err: unknown): boolean {
  return hasReason(err, 'Gone', 410) || (err instanceof KubeApiError && err.reason === 'Expired');
}
/** 422 Invalid. */
export function isInvalid(err: unknown): boolean {
  return hasReason(err, 'Invalid', 422);
}
/** 429 TooManyRequests. */
export function isTooManyRequests(err: unknown): boolean {
  return hasReason(err, 'TooManyRequests', 429) || (err instanceof KubeApiError && err.code === 429);
}
/** 403 Forbidden. */
export function isForbidden(err: unknown): boolean {
  return hasReason(err, 'Forbidden', 403);
}
/** 401 Unauthorized. */
export function isUnauthorized(err: unknown): boolean {
  return hasReason(err, 'Unauthorized', 401);
}

/**
 * Awaits `p` and resolves `undefined` when it fails with 404 NotFound; any other failure is
 * rethrown. Like controller-runtime's `client.IgnoreNotFound`, for writes and deletes where an
 * object that no longer exists means there is nothing left to do:
 * `await ignoreNotFound(client.delete(PodResource, ns, name))`.
 */
export async function ignoreNotFound<T>(promise: Promise<T>): Promise<T | undefined> {
  try {
    return await promise;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/**
 * Awaits `p` and resolves `undefined` when it fails with 404 NotFound or 409 Conflict; any other
 * failure is rethrown. A 409 here means the object changed since it was read or is being replaced
 * (a stale resourceVersion or a failed UID precondition), which the callers treat as gone: the
 * watch will deliver the newer object and the next reconcile decides again. (Not to be confused
 * with `isGone`, which is 410 Gone/Expired.) 409 AlreadyExists is rethrown.
 */
export async function ignoreNotFoundOrConflict<T>(promise: Promise<T>): Promise<T | undefined> {
  try {
    return await promise;
  } catch (err) {
    if (isNotFound(err) || isConflict(err)) return undefined;
    throw err;
  }
}
