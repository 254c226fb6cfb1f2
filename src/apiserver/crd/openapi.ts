/**
 * OpenAPI documents for served resources, shaped like kube-apiserver's: `/openapi/v3/apis/<g>/<v>`
 * (OpenAPI 3.0, `components.schemas` named by reversed group: `io.openshift.managed.upgrade.
 * v1alpha1.UpgradeConfig`) and `/openapi/v2` (Swagger 2.0 `definitions`). Each kind schema
 * carries `x-kubernetes-group-version-kind` and a metadata reference to ObjectMeta; each
 * resource has list/create/get/replace/patch/delete paths, and PATCH declares the
 * `fieldValidation` parameter so kubectl leaves field validation to the server.
 */
import { cloneJson, isJsonObject, type JsonObject, type JsonValue } from '../../lib/json.js';
import type { ResourceType } from '../types.js';

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';

/** Schema name of a kind: reversed group, version, kind (`io.k8s.api.core.v1.Pod` for core). */
export function schemaName(group: string, version: string, kind: string): string {
  const g = group === '' ? 'io.k8s.api.core' : group.split('.').reverse().join('.');
  return `${g}.${version}.${kind}`;
}

function metaSchemas(ref: (name: string) => JsonObject): Record<string, JsonObject> {
  const time: JsonObject = {
    type: 'string',
    format: 'date-time',
    description: 'Time is an RFC 3339 timestamp in UTC, at second precision.',
  };
  const str = (description: string): JsonObject => ({ type: 'string', description });
  const map = (description: string): JsonObject => ({
    type: 'object',
    additionalProperties: { type: 'string', default: '' },
    description,
  });
  return {
    [`${META}.Time`]: time,
    [`${META}.FieldsV1`]: {
      type: 'object',
      description: 'FieldsV1 stores a set of fields in a data structure like a Trie, in JSON.',
    },
    [`${META}.OwnerReference`]: {
      type: 'object',
      description: 'OwnerReference names an object that owns this one.',
      required: ['apiVersion', 'kind', 'name', 'uid'],
      properties: {
        apiVersion: str('API version of the referent.'),
        kind: str('Kind of the referent.'),
        name: str('Name of the referent.'),
        uid: str('UID of the referent.'),
        controller: { type: 'boolean', description: 'True when this reference points to the managing controller.' },
        blockOwnerDeletion: {
          type: 'boolean',
          description: 'True when the owner cannot be deleted before this object is removed.',
        },
      },
      'x-kubernetes-map-type': 'atomic',
    },
    [`${META}.ManagedFieldsEntry`]: {
      type: 'object',
      description:
        'ManagedFieldsEntry is a workflow-id, a FieldSet and the group version of the resource that the fieldset applies to.',
      properties: {
        apiVersion: str('Version of the resource this field set applies to.'),
        fieldsType: str('Format of the fields: FieldsV1.'),
        fieldsV1: ref('FieldsV1'),
        manager: str('Identifier of the workflow managing these fields.'),
        operation: str('Operation type that caused this entry: Apply or Update.'),
        subresource: str('Subresource the object was updated through.'),
        time: ref('Time'),
      },
    },
    [`${META}.ObjectMeta`]: {
      type: 'object',
      description: 'ObjectMeta is metadata that all persisted resources must have.',
      properties: {
        annotations: map('Unstructured key value map stored with a resource.'),
        creationTimestamp: ref('Time'),
        deletionGracePeriodSeconds: {
          type: 'integer',
          format: 'int64',
          description: 'Seconds allowed for graceful termination before removal.',
        },
        deletionTimestamp: ref('Time'),
        finalizers: {
          type: 'array',
          items: { type: 'string', default: '' },
          description: 'Must be empty before the object is deleted from the registry.',
          'x-kubernetes-list-type': 'set',
        },
        generateName: str('Prefix used by the server to generate a unique name when name is not provided.'),
        generation: {
          type: 'integer',
          format: 'int64',
          description: 'A sequence number representing a specific generation of the desired state.',
        },
        labels: map('Map of string keys and values used to organize and categorize objects.'),
        managedFields: {
          type: 'array',
          items: ref('ManagedFieldsEntry'),
          description: 'Maps workflow-id and version to the set of fields managed by that workflow.',
        },
        name: str('Name must be unique within a namespace.'),
        namespace: str('Namespace defines the space within which each name must be unique.'),
        ownerReferences: {
          type: 'array',
          items: ref('OwnerReference'),
          description: 'List of objects depended by this object.',
          'x-kubernetes-list-map-keys': ['uid'],
          'x-kubernetes-list-type': 'map',
        },
        resourceVersion: str('An opaque value that represents the internal version of this object.'),
        selfLink: str('Deprecated: selfLink is a legacy read-only field.'),
        uid: str('UID is the unique in time and space value for this object.'),
      },
    },
    [`${META}.ListMeta`]: {
      type: 'object',
      description: 'ListMeta describes metadata that synthetic resources must have.',
      properties: {
        continue: str('Set when more items are available for the list.'),
        remainingItemCount: {
          type: 'integer',
          format: 'int64',
          description: 'Number of subsequent items in the list.',
        },
        resourceVersion: str('Identifies the server-internal version of this list.'),
        selfLink: str('Deprecated: selfLink is a legacy read-only field.'),
      },
    },
  };
}

type Flavor = 'v3' | 'v2';

function refTo(flavor: Flavor, name: string): JsonObject {
  return { $ref: flavor === 'v3' ? `#/components/schemas/${name}` : `#/definitions/${name}` };
}

/** Rewrites a CRD schema for Swagger 2.0: no nullable or junctors, int-or-string as a format. */
function toV2(node: JsonValue): JsonValue {
  if (Array.isArray(node)) return node.map(toV2);
  if (!isJsonObject(node)) return node;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(node)) {
    if (['nullable', 'anyOf', 'oneOf', 'allOf', 'not', 'x-kubernetes-validations'].includes(k)) continue;
    out[k] = k === 'default' || k === 'enum' || k === 'example' ? v : toV2(v);
  }
  if (out['x-kubernetes-int-or-string'] === true) {
    delete out['type'];
    out['format'] = 'int-or-string';
  }
  return out;
}

function kindSchema(flavor: Flavor, rt: ResourceType, version: string, schema: JsonObject): JsonObject {
  const s = flavor === 'v3' ? cloneJson(schema) : (toV2(schema) as JsonObject);
  const props = isJsonObject(s['properties']) ? s['properties'] : {};
  const metaRef = refTo(flavor, `${META}.ObjectMeta`);
  s['type'] = 'object';
  s['properties'] = {
    apiVersion: {
      type: 'string',
      description: 'APIVersion defines the versioned schema of this representation of an object.',
    },
    kind: {
      type: 'string',
      description: 'Kind is a string value representing the REST resource this object represents.',
    },
    ...props,
    metadata:
      flavor === 'v3'
        ? { allOf: [metaRef], default: {}, description: 'Standard object metadata.' }
        : { ...metaRef, description: 'Standard object metadata.' },
  };
  s['x-kubernetes-group-version-kind'] = [{ group: rt.group, kind: rt.kind, version }];
  return s;
}

function listSchema(flavor: Flavor, rt: ResourceType, version: string): JsonObject {
  const listMeta = refTo(flavor, `${META}.ListMeta`);
  return {
    type: 'object',
    description: `${rt.listKind} is a list of ${rt.kind}`,
    required: ['items'],
    properties: {
      apiVersion: {
        type: 'string',
        description: 'APIVersion defines the versioned schema of this representation of an object.',
      },
      items: {
        type: 'array',
        description: `List of ${rt.resource}.`,
        items: refTo(flavor, schemaName(rt.group, version, rt.kind)),
      },
      kind: {
        type: 'string',
        description: 'Kind is a string value representing the REST resource this object represents.',
      },
      metadata:
        flavor === 'v3'
          ? { allOf: [listMeta], default: {}, description: 'Standard list metadata.' }
          : { ...listMeta, description: 'Standard list metadata.' },
    },
    'x-kubernetes-group-version-kind': [{ group: rt.group, kind: rt.listKind, version }],
  };
}

function queryParam(name: string, description: string): JsonObject {
  return { name, in: 'query', description, schema: { type: 'string', uniqueItems: true } };
}

function operation(
  rt: ResourceType,
  version: string,
  action: string,
  verb: string,
  responseRef: string,
  extra: JsonObject[] = [],
): JsonObject {
  const gvk: JsonObject = { group: rt.group, kind: rt.kind, version };
  const kindName = rt.kind;
  const params = [...extra];
  if (action === 'patch' || action === 'put' || action === 'post') {
    params.push(queryParam('dryRun', 'When present, modifications are not persisted.'));
    params.push(queryParam('fieldManager', 'Name of the actor making the change.'));
    params.push(
      queryParam('fieldValidation', 'How the server handles unknown or duplicate fields: Ignore, Warn or Strict.'),
    );
  }
  if (action === 'patch')
    params.push({
      name: 'force',
      in: 'query',
      description: 'Force apply requests.',
      schema: { type: 'boolean', uniqueItems: true },
    });
  return {
    description: `${verb} ${kindName}`,
    operationId: `${verb}${kindName}`,
    tags: [rt.group === '' ? 'core_v1' : `${rt.group.split('.').join('')}_${version}`],
    parameters: params,
    responses: {
      '200': { description: 'OK', content: { 'application/json': { schema: { $ref: responseRef } } } },
      '401': { description: 'Unauthorized' },
    },
    'x-kubernetes-action': action,
    'x-kubernetes-group-version-kind': gvk,
  };
}

function pathsFor(rt: ResourceType, version: string): JsonObject {
  const prefix = rt.group === '' ? `/api/${version}` : `/apis/${rt.group}/${version}`;
  const base = rt.namespaced ? `${prefix}/namespaces/{namespace}/${rt.resource}` : `${prefix}/${rt.resource}`;
  const kindRef = `#/components/schemas/${schemaName(rt.group, version, rt.kind)}`;
  const listRef = `#/components/schemas/${schemaName(rt.group, version, rt.listKind)}`;
  const nsParam: JsonObject[] = rt.namespaced
    ? [
        {
          name: 'namespace',
          in: 'path',
          required: true,
          description: 'object name and auth scope',
          schema: { type: 'string', uniqueItems: true },
        },
      ]
    : [];
  const nameParam: JsonObject = {
    name: 'name',
    in: 'path',
    required: true,
    description: `name of the ${rt.kind}`,
    schema: { type: 'string', uniqueItems: true },
  };
  const item = {
    parameters: [nameParam, ...nsParam],
    get: operation(rt, version, 'get', 'read', kindRef),
    put: operation(rt, version, 'put', 'replace', kindRef),
    patch: operation(rt, version, 'patch', 'patch', kindRef),
    delete: operation(rt, version, 'delete', 'delete', kindRef),
  };
  const paths: JsonObject = {
    [base]: {
      parameters: nsParam,
      get: operation(rt, version, 'list', 'list', listRef),
      post: operation(rt, version, 'post', 'create', kindRef),
    },
    [`${base}/{name}`]: item,
  };
  if (rt.subresources.includes('status')) {
    paths[`${base}/{name}/status`] = {
      parameters: [nameParam, ...nsParam],
      get: operation(rt, version, 'get', 'readStatus', kindRef),
      put: operation(rt, version, 'put', 'replaceStatus', kindRef),
      patch: operation(rt, version, 'patch', 'patchStatus', kindRef),
    };
  }
  if (rt.namespaced)
    paths[`${prefix}/${rt.resource}`] = { get: operation(rt, version, 'list', 'listForAllNamespaces', listRef) };
  return paths;
}

/** The OpenAPI 3.0 document of one group/version (`/openapi/v3/apis/<group>/<version>`). */
export function openApiV3Document(
  group: string,
  version: string,
  resources: { rt: ResourceType; schema: JsonObject }[],
): JsonObject {
  const schemas: JsonObject = metaSchemas((n) => ({ allOf: [refTo('v3', `${META}.${n}`)] }));
  let paths: JsonObject = {};
  for (const { rt, schema } of resources) {
    schemas[schemaName(group, version, rt.kind)] = kindSchema('v3', rt, version, schema);
    schemas[schemaName(group, version, rt.listKind)] = listSchema('v3', rt, version);
    paths = { ...paths, ...pathsFor(rt, version) };
  }
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: 'v1.29.0' }, paths, components: { schemas } };
}

/** The Swagger 2.0 document of every resource (`/openapi/v2`). */
export function openApiV2Document(resources: { rt: ResourceType; version: string; schema: JsonObject }[]): JsonObject {
  const definitions: JsonObject = metaSchemas((n) => refTo('v2', `${META}.${n}`));
  for (const { rt, version, schema } of resources) {
    definitions[schemaName(rt.group, version, rt.kind)] = kindSchema('v2', rt, version, schema);
    definitions[schemaName(rt.group, version, rt.listKind)] = listSchema('v2', rt, version);
  }
  return { swagger: '2.0', info: { title: 'Kubernetes', version: 'v1.29.0' }, paths: {}, definitions };
}
