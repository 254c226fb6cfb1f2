/** PATCH: JSON patch, merge patch, strategic merge patch (built-in kinds), server-side apply. */
import { isJsonObject, type JsonObject, type JsonValue } from '../lib/json.js';
import type { ResourceCall } from './api-context.js';
import { mediaType, parseBody, readBody, sendJson } from './http-util.js';
import { applyJsonPatch } from './patch/json-patch.js';
import { applyMergePatch } from './patch/merge-patch.js';
import { applyStrategicMergePatch, patchMetaFor } from './patch/strategic-merge.js';
import { handleApply } from './rest-apply.js';
import { atVersion, mustGet } from './rest-read.js';
import { checkBody, commitWrite, fieldManagerOf } from './rest-write.js';
import { fromScale, scaleSpecOf, toScale } from './scale.js';
import { apiErrors } from './status.js';
import type { KubeObject } from './types.js';
import { warningHeader } from './custom-resources.js';

const JSON_PATCH = 'application/json-patch+json';
const MERGE_PATCH = 'application/merge-patch+json';
const STRATEGIC_PATCH = 'application/strategic-merge-patch+json';
const APPLY_PATCH = 'application/apply-patch+yaml';

function unsupported(custom: boolean): Error {
  const types = custom
    ? [JSON_PATCH, MERGE_PATCH, APPLY_PATCH]
    : [JSON_PATCH, MERGE_PATCH, STRATEGIC_PATCH, APPLY_PATCH];
  return apiErrors.unsupportedMediaType(
    `the body of the request was in an unknown format - accepted media types include: ${types.join(', ')}`,
  );
}

/** Applies a non-apply patch document to an object. */
export function applyPatch(
  contentType: string,
  base: JsonObject,
  patch: JsonValue,
  group: string,
  kind: string,
  custom: boolean,
): JsonObject {
  let out: JsonValue;
  switch (contentType) {
    case JSON_PATCH:
      out = applyJsonPatch(base, patch);
      break;
    case MERGE_PATCH:
      out = applyMergePatch(base, patch);
      break;
    case STRATEGIC_PATCH: {
      const meta = custom ? undefined : patchMetaFor(group, kind);
      if (!meta) throw unsupported(custom);
      if (!isJsonObject(patch))
        throw apiErrors.badRequest('json: cannot unmarshal array into Go value of type map[string]interface {}');
      out = applyStrategicMergePatch(base, patch, meta);
      break;
    }
    default:
      throw unsupported(custom);
  }
  if (!isJsonObject(out)) throw apiErrors.badRequest('the patch did not produce an object');
  return out;
}

/** PATCH on an object or its status/scale subresource. */
export async function handlePatch(call: ResourceCall): Promise<void> {
  const { rt, name, subresource } = call.target;
  const contentType = mediaType(call.req.headers['content-type']);
  if (subresource !== undefined && subresource !== 'status' && subresource !== 'scale') {
    throw apiErrors.methodNotSupported({ group: rt.group, resource: `${rt.resource}/${subresource}` }, 'patch');
  }
  if (
    (subresource === 'status' && !rt.subresources.includes('status')) ||
    (subresource === 'scale' && !scaleSpecOf(rt))
  ) {
    throw apiErrors.methodNotSupported({ group: rt.group, resource: `${rt.resource}/${subresource}` }, 'patch');
  }
  const text = await readBody(call.req);
  if (contentType === APPLY_PATCH) {
    handleApply(call, text);
    return;
  }
  if (contentType !== JSON_PATCH && contentType !== MERGE_PATCH && contentType !== STRATEGIC_PATCH)
    throw unsupported(rt.custom);
  const patch = parseBody(text, contentType, false);
  const old = mustGet(call);
  const manager = fieldManagerOf(call);
  if (subresource === 'scale') {
    const spec = scaleSpecOf(rt)!;
    const scaled = applyPatch(contentType, toScale(spec, old), patch, 'autoscaling', 'Scale', false);
    const { object } = commitWrite(call, fromScale(spec, old, scaled), old, { manager });
    sendJson(call.res, 200, toScale(spec, object));
    return;
  }
  const patched = applyPatch(contentType, atVersion(call, old), patch, rt.group, rt.kind, rt.custom);
  const obj: KubeObject = checkBody(call, patched);
  const patchedName = typeof obj.metadata.name === 'string' ? obj.metadata.name : '';
  if (patchedName !== name)
    throw apiErrors.badRequest(
      `the name of the object (${patchedName}) does not match the name on the URL (${name ?? ''})`,
    );
  const { object, warnings } = commitWrite(call, obj, old, {
    manager,
    ...(subresource === 'status' ? { subresource: 'status' as const } : {}),
  });
  sendJson(call.res, 200, atVersion(call, object), warningHeader(warnings));
}
