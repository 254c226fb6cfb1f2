/**
 * metav1.Status error bodies, worded like k8s.io/apimachinery/pkg/api/errors, so that kubectl and
 * client libraries recognise reasons and codes and users read familiar messages.
 */
import type { JsonObject } from '../lib/json.js';
import { aggregateMessage, fieldErrorBody, type FieldError } from './field-errors.js';

export type StatusReason =
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Expired'
  | 'Invalid'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'UnsupportedMediaType'
  | 'RequestEntityTooLarge'
  | 'TooManyRequests'
  | 'InternalError'
  | 'Timeout'
  | 'ServiceUnavailable';

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

/** A failed API call: carries the HTTP code and the Status body to send. */
export class ApiError extends Error {
  readonly code: number;
  readonly reason: StatusReason;
  readonly details: StatusDetails | undefined;

  constructor(code: number, reason: StatusReason, message: string, details?: StatusDetails) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.reason = reason;
    this.details = details;
  }

  /** The metav1.Status body. */
  toStatus(): JsonObject {
    const body: JsonObject = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
    };
    if (this.details) body.details = this.details as JsonObject;
    body.code = this.code;
    return body;
  }
}

/** A group/resource as apimachinery prints it: 'pods', 'deployments.apps'. */
export interface QualifiedResource {
  group: string;
  resource: string;
}

function qualified(gr: QualifiedResource): string {
  return gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
}

/** The success Status returned by some deletes. */
export function successStatus(details?: StatusDetails): JsonObject {
  const body: JsonObject = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' };
  if (details) body.details = details as JsonObject;
  return body;
}

export const apiErrors = {
  notFound: (gr: QualifiedResource, name: string): ApiError =>
    new ApiError(404, 'NotFound', `${qualified(gr)} "${name}" not found`, { name, group: gr.group, kind: gr.resource }),
  alreadyExists: (gr: QualifiedResource, name: string): ApiError =>
    new ApiError(409, 'AlreadyExists', `${qualified(gr)} "${name}" already exists`, {
      name,
      group: gr.group,
      kind: gr.resource,
    }),
  conflict: (gr: QualifiedResource, name: string, err: string): ApiError =>
    new ApiError(409, 'Conflict', `Operation cannot be fulfilled on ${qualified(gr)} "${name}": ${err}`, {
      name,
      group: gr.group,
      kind: gr.resource,
    }),
  /** The usual optimistic-concurrency conflict. */
  staleConflict: (gr: QualifiedResource, name: string): ApiError =>
    apiErrors.conflict(
      gr,
      name,
      'the object has been modified; please apply your changes to the latest version and try again',
    ),
  invalid: (group: string, kind: string, name: string, errors: FieldError[]): ApiError =>
    new ApiError(
      422,
      'Invalid',
      `${group ? `${kind}.${group}` : kind} "${name}" is invalid: ${aggregateMessage(errors)}`,
      {
        name,
        group,
        kind,
        causes: errors.map((e) => ({ reason: e.type, message: fieldErrorBody(e), field: e.field })),
      },
    ),
  badRequest: (message: string): ApiError => new ApiError(400, 'BadRequest', message),
  forbidden: (gr: QualifiedResource, name: string, err: string, causes?: StatusCause[]): ApiError =>
    new ApiError(403, 'Forbidden', `${qualified(gr)} "${name}" is forbidden: ${err}`, {
      name,
      group: gr.group,
      kind: gr.resource,
      ...(causes ? { causes } : {}),
    }),
  /** 410 for a watch or list continuation from a compacted resourceVersion. */
  expired: (message: string): ApiError => new ApiError(410, 'Expired', message),
  gone: (message: string): ApiError => new ApiError(410, 'Gone', message),
  methodNotSupported: (gr: QualifiedResource, action: string): ApiError =>
    new ApiError(405, 'MethodNotAllowed', `${action} is not supported on resources of kind "${qualified(gr)}"`, {
      group: gr.group,
      kind: gr.resource,
    }),
  notAcceptable: (message: string): ApiError => new ApiError(406, 'NotAcceptable', message),
  unsupportedMediaType: (message: string): ApiError => new ApiError(415, 'UnsupportedMediaType', message),
  tooManyRequests: (message: string, retryAfterSeconds: number, causes?: StatusCause[]): ApiError =>
    new ApiError(429, 'TooManyRequests', message, {
      ...(retryAfterSeconds > 0 ? { retryAfterSeconds } : {}),
      ...(causes ? { causes } : {}),
    }),
  internal: (err: string): ApiError =>
    new ApiError(500, 'InternalError', `Internal error occurred: ${err}`, { causes: [{ message: err }] }),
  timeout: (message: string, retryAfterSeconds: number): ApiError =>
    new ApiError(504, 'Timeout', message, { retryAfterSeconds }),
};
