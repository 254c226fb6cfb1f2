/** Write handlers: create (POST), update (PUT), delete, deletecollection, eviction, subresources. */
import { isJsonObject, type JsonObject } from '../lib/json.js';
import type { ResourceCall } from './api-context.js';
import { admitNamespace } from './builtin/namespace-lifecycle.js';
import { crdType, strategyFor } from './builtin/kinds.js';
import { validateCustomResourceDefinition } from './crd/crd-validate.js';
import { evictPod } from './builtin/eviction.js';
import { fieldValidationOf, prepareCustomResource, warningHeader, type WriteOrigin } from './custom-resources.js';
import { fieldError } from './field-errors.js';
import {
  jsonText,
  managerFromUserAgent,
  objectJson,
  checkBodyMediaType,
  parseObjectBody,
  readBody,
  sendJson,
  sendJsonText,
} from './http-util.js';
import { atVersion, mustGet, selectObjects } from './rest-read.js';
import { fromScale, scaleSpecOf, toScale } from './scale.js';
import { apiErrors, successStatus } from './status.js';
import type { MemoryWriteOptions } from './storage/store.js';
import { apiVersionOf, type DeleteOptions, type KubeObject, type PropagationPolicy } from './types.js';

/** True when the request asks for dryRun=All. */
export function isDryRun(query: URLSearchParams): boolean {
  const values = query.getAll('dryRun');
  for (const v of values)
    if (v !== 'All') throw apiErrors.badRequest(`Invalid dryRun parameter: unsupported dry run value: ${v}`);
  return values.length > 0;
}

/** The field manager of a request: ?fieldManager=, else the User-Agent's program name. */
export function fieldManagerOf(call: ResourceCall): string {
  const m = call.query.get('fieldManager');
  if (m !== null && m !== '') {
    if (m.length > 128) throw apiErrors.badRequest('fieldManager: Too long: must have at most 128 bytes');
    return m;
  }
  return managerFromUserAgent(call.req.headers['user-agent']);
}

/** Checks and fills apiVersion, kind and namespace of a decoded body against the URL. */
export function checkBody(call: ResourceCall, body: JsonObject): KubeObject {
  const { rt, version, namespace } = call.target;
  const expectedApiVersion = apiVersionOf(rt.group, version);
  if (body.apiVersion === undefined || body.apiVersion === '') body.apiVersion = expectedApiVersion;
  if (body.kind === undefined || body.kind === '') body.kind = rt.kind;
  if (body.apiVersion !== expectedApiVersion) {
    throw apiErrors.badRequest(
      `the API version in the data (${jsonText(body.apiVersion)}) does not match the expected API version (${expectedApiVersion})`,
    );
  }
  if (body.kind !== rt.kind)
    throw apiErrors.badRequest(
      `the kind in the data (${jsonText(body.kind)}) does not match the expected kind (${rt.kind})`,
    );
  if (!isJsonObject(body.metadata)) body.metadata = {};
  const meta = body.metadata;
  if (rt.namespaced) {
    if (typeof meta.namespace === 'string' && meta.namespace !== '' && meta.namespace !== namespace) {
      throw apiErrors.badRequest(
        'the namespace of the provided object does not match the namespace sent on the request',
      );
    }
    if (namespace !== undefined) meta.namespace = namespace;
  }
  return body as KubeObject;
}

function respond(call: ResourceCall, code: number, obj: KubeObject, warnings: string[]): void {
  // The stored object's text, serialised once for this answer and every watcher.
  sendJsonText(call.res, code, objectJson(atVersion(call, obj)), warningHeader(warnings));
}

/**
 * Stores a prepared object (create when old is undefined, else update), running the custom
 * resource pipeline first. Shared by PUT, PATCH and apply. `owned`: obj was parsed from this
 * request's body and nothing else refers to it, so the store need not copy it.
 */
export function commitWrite(
  call: ResourceCall,
  obj: KubeObject,
  old: KubeObject | undefined,
  options: { manager?: string; subresource?: 'status'; owned?: boolean; origin?: WriteOrigin } = {},
): { object: KubeObject; warnings: string[] } {
  const { rt, version } = call.target;
  const store = call.ctx.store;
  let candidate = obj;
  if (old && options.subresource === 'status')
    candidate = {
      ...old,
      status: obj.status ?? null,
      metadata: {
        ...old.metadata,
        resourceVersion: obj.metadata.resourceVersion ?? old.metadata.resourceVersion ?? '',
      },
    };
  const { object, warnings } = prepareCustomResource(
    rt,
    version,
    candidate,
    old,
    fieldValidationOf(call.query),
    options.origin,
  );
  if (rt.group === crdType.group && rt.resource === crdType.resource && options.subresource === undefined) {
    strategyFor(rt).defaults?.(object);
    const errs = validateCustomResourceDefinition(object, old);
    if (errs.length > 0) throw apiErrors.invalid(rt.group, rt.kind, jsonText(object.metadata.name), errs);
  }
  const writeOptions: MemoryWriteOptions = {
    ...(options.manager !== undefined ? { fieldManager: options.manager } : {}),
    ...(options.subresource ? { subresource: options.subresource } : {}),
    ...(isDryRun(call.query) ? { dryRun: true } : {}),
    // A status write's candidate shares the stored object's parts: never hand those over.
    ...(options.owned === true && candidate === obj ? { owned: true } : {}),
  };
  if (!old) {
    admitNamespace(store, rt, call.target.namespace ?? '', object);
    return { object: store.create(rt, object, writeOptions), warnings };
  }
  return { object: store.update(rt, object, writeOptions), warnings };
}

/** POST on a collection (create) or on pods/<name>/eviction. */
export async function handleCreate(call: ResourceCall): Promise<void> {
  const { rt, namespace, name, subresource } = call.target;
  checkBodyMediaType(call.req.headers['content-type']);
  const body = parseObjectBody(await readBody(call.req), call.req.headers['content-type'] ?? '');
  if (name !== undefined) {
    if (subresource === 'eviction' && rt.subresources.includes('eviction')) {
      if (isDryRun(call.query)) {
        const opts = isJsonObject(body.deleteOptions) ? body.deleteOptions : {};
        body.deleteOptions = { ...opts, dryRun: ['All'] };
      }
      const status = evictPod(call.ctx.store, call.ctx.clock, namespace ?? '', name, body);
      sendJson(call.res, typeof status.code === 'number' ? status.code : 201, status);
      return;
    }
    throw apiErrors.methodNotSupported(
      { group: rt.group, resource: subresource ? `${rt.resource}/${subresource}` : rt.resource },
      'create',
    );
  }
  const obj = checkBody(call, body);
  const { object, warnings } = commitWrite(call, obj, undefined, {
    manager: fieldManagerOf(call),
    owned: true,
    origin: 'body',
  });
  respond(call, 201, object, warnings);
}

/** PUT on an object, its status, scale or finalize subresource. */
export async function handleUpdate(call: ResourceCall): Promise<void> {
  const { rt, name, subresource } = call.target;
  checkBodyMediaType(call.req.headers['content-type']);
  const body = parseObjectBody(await readBody(call.req), call.req.headers['content-type'] ?? '');
  if (subresource === 'scale') {
    const spec = scaleSpecOf(rt);
    if (!spec) throw apiErrors.methodNotSupported({ group: rt.group, resource: `${rt.resource}/scale` }, 'update');
    const old = mustGet(call);
    const updated = fromScale(spec, old, body);
    const { object } = commitWrite(call, updated, old, { manager: fieldManagerOf(call) });
    sendJson(call.res, 200, toScale(spec, object));
    return;
  }
  if (
    subresource !== undefined &&
    !(subresource === 'status' && rt.subresources.includes('status')) &&
    !(subresource === 'finalize' && rt.subresources.includes('finalize'))
  ) {
    throw apiErrors.methodNotSupported({ group: rt.group, resource: `${rt.resource}/${subresource}` }, 'update');
  }
  const obj = checkBody(call, body);
  const bodyName = typeof obj.metadata.name === 'string' ? obj.metadata.name : '';
  if (bodyName !== name)
    throw apiErrors.badRequest(
      `the name of the object (${bodyName}) does not match the name on the URL (${name ?? ''})`,
    );
  const old = mustGet(call);
  if (subresource === 'finalize') {
    const updated = call.ctx.store.update(rt, obj, {
      subresource: 'finalize',
      ...(isDryRun(call.query) ? { dryRun: true } : {}),
    });
    sendJson(call.res, 200, updated);
    return;
  }
  const { object, warnings } = commitWrite(call, obj, old, {
    manager: fieldManagerOf(call),
    owned: true,
    origin: 'body',
    ...(subresource === 'status' ? { subresource: 'status' as const } : {}),
  });
  respond(call, 200, object, warnings);
}

const policies = new Set(['Foreground', 'Background', 'Orphan']);

/** DeleteOptions from the body and the query. */
export async function deleteOptionsOf(call: ResourceCall): Promise<{ options: DeleteOptions; dryRun: boolean }> {
  const text = await readBody(call.req);
  const body: JsonObject =
    text.trim() === '' ? {} : parseObjectBody(text, call.req.headers['content-type'] ?? '', false);
  const q = call.query;
  const options: DeleteOptions = {};
  let policy = body.propagationPolicy ?? q.get('propagationPolicy') ?? undefined;
  const orphan =
    body.orphanDependents ?? (q.get('orphanDependents') === null ? undefined : q.get('orphanDependents') === 'true');
  if (policy === undefined && orphan !== undefined) policy = orphan === true ? 'Orphan' : 'Background';
  if (policy !== undefined && policy !== null) {
    if (typeof policy !== 'string' || !policies.has(policy)) {
      throw apiErrors.invalid('meta.k8s.io', 'DeleteOptions', '', [
        fieldError.notSupported('propagationPolicy', policy, ['Foreground', 'Background', 'Orphan']),
      ]);
    }
    options.propagationPolicy = policy as PropagationPolicy;
  }
  const grace =
    body.gracePeriodSeconds ?? (q.get('gracePeriodSeconds') === null ? undefined : Number(q.get('gracePeriodSeconds')));
  if (typeof grace === 'number' && Number.isFinite(grace)) options.gracePeriodSeconds = grace;
  if (isJsonObject(body.preconditions)) {
    const p: NonNullable<DeleteOptions['preconditions']> = {};
    if (typeof body.preconditions.uid === 'string') p.uid = body.preconditions.uid;
    if (typeof body.preconditions.resourceVersion === 'string') p.resourceVersion = body.preconditions.resourceVersion;
    options.preconditions = p;
  }
  const dryRun = isDryRun(q) || (Array.isArray(body.dryRun) && body.dryRun.includes('All'));
  return { options, dryRun };
}

/** Kinds whose immediate delete answers with the object rather than a Status (kube's ReturnDeletedObject). */
function returnsDeletedObject(call: ResourceCall): boolean {
  const { rt } = call.target;
  return (
    rt.custom ||
    (rt.group === '' && (rt.resource === 'pods' || rt.resource === 'namespaces' || rt.resource === 'services'))
  );
}

/** DELETE on an object. */
export async function handleDelete(call: ResourceCall): Promise<void> {
  const { rt, namespace, name, subresource } = call.target;
  if (subresource !== undefined)
    throw apiErrors.methodNotSupported({ group: rt.group, resource: `${rt.resource}/${subresource}` }, 'delete');
  const { options, dryRun } = await deleteOptionsOf(call);
  const store = call.ctx.store;
  const out = store.delete(rt, namespace ?? '', name ?? '', { ...options, ...(dryRun ? { dryRun: true } : {}) });
  const gone = store.get(rt, namespace ?? '', name ?? '') === undefined;
  if (gone && !returnsDeletedObject(call)) {
    sendJson(
      call.res,
      200,
      successStatus({ name: name ?? '', group: rt.group, kind: rt.resource, uid: jsonText(out.metadata.uid) }),
    );
    return;
  }
  sendJson(call.res, 200, atVersion(call, out));
}

/** DELETE on a collection: deletes what the selectors match; answers with the list of deleted objects. */
export async function handleDeleteCollection(call: ResourceCall): Promise<void> {
  const { rt, version } = call.target;
  const { options, dryRun } = await deleteOptionsOf(call);
  const deleted: KubeObject[] = [];
  for (const o of selectObjects(call)) {
    const ns = typeof o.metadata.namespace === 'string' ? o.metadata.namespace : '';
    try {
      deleted.push(
        atVersion(
          call,
          call.ctx.store.delete(rt, ns, jsonText(o.metadata.name), { ...options, ...(dryRun ? { dryRun: true } : {}) }),
        ),
      );
    } catch (err) {
      if (!(err instanceof Error && 'code' in err && err.code === 404)) throw err;
    }
  }
  sendJson(call.res, 200, {
    kind: rt.listKind,
    apiVersion: apiVersionOf(rt.group, version),
    metadata: { resourceVersion: call.ctx.store.currentResourceVersion() },
    items: deleted,
  });
}
