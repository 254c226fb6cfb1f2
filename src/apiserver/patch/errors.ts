/**
 * Errors of the patch and apply functions. Each carries the HTTP code and Status reason that
 * kube-apiserver answers with for that failure, so that the REST layer only has to wrap them.
 */

/** The Status reasons a patch can fail with. */
export type PatchErrorReason = 'BadRequest' | 'Invalid' | 'Conflict' | 'RequestEntityTooLarge';

const codes: Record<PatchErrorReason, number> = {
  BadRequest: 400,
  Invalid: 422,
  Conflict: 409,
  RequestEntityTooLarge: 413,
};

/**
 * A patch that could not be applied. `message` is what kube-apiserver puts in the Status body;
 * `detail` keeps the underlying library's explanation where the server hides it (JSON patch
 * application failures are all answered with one generic 422 text).
 */
export class PatchError extends Error {
  readonly reason: PatchErrorReason;
  readonly code: number;
  readonly detail: string | undefined;

  constructor(reason: PatchErrorReason, message: string, detail?: string) {
    super(message);
    this.name = 'PatchError';
    this.reason = reason;
    this.code = codes[reason];
    this.detail = detail;
  }
}

/** The message of apimachinery's NewGenericServerResponse for a 422 without a resource. */
export const GENERIC_INVALID_MESSAGE = 'the server rejected our request due to an error in our request';

/** One field another manager owns with a different value. */
export interface ApplyConflict {
  /** The manager's name (managedFields[].manager). */
  manager: string;
  /** The field path as structured-merge-diff prints it: `.spec.replicas`, `.spec.containers[name="app"].image`. */
  field: string;
  /** The owning entry's operation. */
  operation: 'Apply' | 'Update';
  /** The owning entry's apiVersion (printed for Update managers). */
  apiVersion: string;
  /** The owning entry's subresource, when not the main resource. */
  subresource?: string;
}

/** A metav1.StatusCause of type FieldManagerConflict. */
export interface ApplyConflictCause {
  reason: 'FieldManagerConflict';
  message: string;
  field: string;
}

/** How kube-apiserver names a manager in conflict messages (fieldmanager's printManager). */
export function printManager(
  applyConflict: Pick<ApplyConflict, 'manager' | 'operation' | 'apiVersion' | 'subresource'>,
): string {
  let s = JSON.stringify(applyConflict.manager);
  if (applyConflict.subresource) s += ` with subresource ${JSON.stringify(applyConflict.subresource)}`;
  if (applyConflict.operation === 'Update') s += ` using ${applyConflict.apiVersion}`;
  return s;
}

function conflictMessage(conflicts: readonly ApplyConflict[]): string {
  const first = conflicts[0];
  if (conflicts.length === 1 && first)
    return `Apply failed with 1 conflict: conflict with ${printManager(first)}: ${first.field}`;
  const byManager = new Map<string, ApplyConflict[]>();
  for (const c of conflicts) {
    const id = printManager(c);
    const list = byManager.get(id) ?? [];
    list.push(c);
    byManager.set(id, list);
  }
  const lines: string[] = [];
  for (const id of [...byManager.keys()].sort()) {
    lines.push(`conflicts with ${id}:`);
    for (const c of byManager.get(id) ?? []) lines.push(`- ${c.field}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

/** A server-side apply that would change fields owned by other managers (HTTP 409, reason Conflict). */
export class ApplyConflictError extends Error {
  readonly reason = 'Conflict' as const;
  readonly code = 409;
  readonly conflicts: ApplyConflict[];

  constructor(conflicts: ApplyConflict[]) {
    super(conflictMessage(conflicts));
    this.name = 'ApplyConflictError';
    this.conflicts = conflicts;
  }

  /** The Status details causes kube-apiserver sends with the conflict. */
  causes(): ApplyConflictCause[] {
    return this.conflicts.map((c) => ({
      reason: 'FieldManagerConflict',
      message: `conflict with ${printManager(c)}`,
      field: c.field,
    }));
  }
}
