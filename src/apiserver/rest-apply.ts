/** Server-side apply (PATCH with application/apply-patch+yaml). */
import { formatTime } from '../lib/clock.js';
import type { ResourceCall } from './api-context.js';
import { fieldError } from './field-errors.js';
import { parseObjectBody, sendJson } from './http-util.js';
import { serverSideApply } from './patch/apply.js';
import { patchMetaFromSchema } from './patch/patch-meta.js';
import { patchMetaFor } from './patch/strategic-merge.js';
import { atVersion } from './rest-read.js';
import { checkBody, commitWrite } from './rest-write.js';
import { apiErrors } from './status.js';
import { warningHeader } from './custom-resources.js';

/** Applies a configuration for a field manager; creates the object when it does not exist. */
export function handleApply(call: ResourceCall, text: string): void {
  const { rt, namespace, name, version, subresource } = call.target;
  const manager = call.query.get('fieldManager') ?? '';
  if (manager === '') {
    throw apiErrors.invalid('meta.k8s.io', 'PatchOptions', '', [
      fieldError.required('fieldManager', 'is required for apply patch'),
    ]);
  }
  const forceText = call.query.get('force');
  if (forceText !== null && forceText !== 'true' && forceText !== 'false')
    throw apiErrors.badRequest(`invalid force parameter: ${forceText}`);
  const applied = checkBody(call, parseObjectBody(text, 'application/apply-patch+yaml', true));
  const appliedName = typeof applied.metadata.name === 'string' ? applied.metadata.name : '';
  if (appliedName !== name)
    throw apiErrors.badRequest(
      `the name of the object (${appliedName}) does not match the name on the URL (${name ?? ''})`,
    );
  const stored = call.ctx.store.get(rt, namespace ?? '', name);
  const live = stored ? atVersion(call, stored) : undefined;
  const schema = rt.schemas?.[version];
  const meta = rt.custom ? (schema ? patchMetaFromSchema(schema) : undefined) : patchMetaFor(rt.group, rt.kind);
  const result = serverSideApply({
    live,
    applied,
    manager,
    force: forceText === 'true',
    time: formatTime(call.ctx.clock.now()),
    meta,
    ...(subresource === 'status' ? { subresource: 'status' } : {}),
  });
  const { object, warnings } = commitWrite(call, result, stored, {
    origin: 'apply',
    ...(subresource === 'status' ? { subresource: 'status' as const } : {}),
  });
  sendJson(call.res, stored ? 200 : 201, atVersion(call, object), warningHeader(warnings));
}
