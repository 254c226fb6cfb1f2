/**
 * Structural lint of every generated CRD schema (apiextensions' structural-schema rules,
 * docs/design/dependencies.md#crd-schemas), and unit tests of the CRD-safe helpers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from 'typebox';
import type { JsonObject, JsonValue } from '../lib/json.js';
import { customResourceDefinitions } from './manifests.js';
import { checkAgainstSchema } from './schema-check.js';
import {
  condition,
  crdFor,
  intOrString,
  listMap,
  map,
  nullable,
  preserveUnknown,
  stringEnum,
  toJsonSchema,
  typeMeta,
} from './schema.js';

const FORBIDDEN = [
  '$ref',
  'definitions',
  'dependencies',
  'patternProperties',
  'additionalItems',
  'id',
  '$schema',
  'const',
  '$id',
  '$defs',
];
const NOT_IN_JUNCTORS = [
  'type',
  'default',
  'description',
  'nullable',
  'additionalProperties',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-int-or-string',
];

function isObj(v: JsonValue | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Every violation of the structural-schema rules in `node` (an openAPIV3Schema), with its path. */
export function structuralProblems(node: JsonObject, path = '', needsDescription = false): string[] {
  const out: string[] = [];
  const at = path === '' ? '<root>' : path;
  for (const k of FORBIDDEN) if (k in node) out.push(`${at}: forbidden keyword ${k}`);
  if (node['uniqueItems'] === true) out.push(`${at}: uniqueItems: true is forbidden`);
  if (node['type'] === 'null') out.push(`${at}: type: null is forbidden (use nullable)`);
  if (Array.isArray(node['items'])) out.push(`${at}: items must be one schema, not an array`);
  if (node['additionalProperties'] === false) out.push(`${at}: additionalProperties: false is forbidden`);
  if ('additionalProperties' in node && 'properties' in node) out.push(`${at}: additionalProperties beside properties`);
  const intOrString = node['x-kubernetes-int-or-string'] === true;
  const preserve = node['x-kubernetes-preserve-unknown-fields'] === true;
  if (typeof node['type'] !== 'string' && !intOrString && !preserve) out.push(`${at}: node without type`);
  if (needsDescription && (typeof node['description'] !== 'string' || node['description'] === ''))
    out.push(`${at}: no description`);
  for (const j of ['anyOf', 'oneOf', 'allOf', 'not']) {
    const branches = j === 'not' ? (isObj(node[j]) ? [node[j]] : []) : Array.isArray(node[j]) ? node[j] : [];
    if (intOrString && j === 'anyOf') {
      if (JSON.stringify(branches) !== JSON.stringify([{ type: 'integer' }, { type: 'string' }]))
        out.push(`${at}: int-or-string anyOf must be [integer, string]`);
      continue;
    }
    for (const b of branches) {
      if (!isObj(b)) continue;
      for (const k of NOT_IN_JUNCTORS) if (k in b) out.push(`${at}: ${k} inside ${j}`);
      for (const k of FORBIDDEN) if (k in b) out.push(`${at}: forbidden keyword ${k} inside ${j}`);
    }
  }
  if (node['x-kubernetes-list-type'] === 'map') {
    const keys = node['x-kubernetes-list-map-keys'];
    const items = node['items'];
    if (!Array.isArray(keys) || keys.length === 0) out.push(`${at}: list-type map without list-map-keys`);
    else if (!isObj(items)) out.push(`${at}: list-type map without an items schema`);
    else {
      const props = isObj(items['properties']) ? items['properties'] : {};
      const required = Array.isArray(items['required']) ? items['required'] : [];
      for (const k of keys) {
        if (typeof k !== 'string' || !isObj(props[k]))
          out.push(`${at}: list-map key ${JSON.stringify(k)} is not a property of the items`);
        else if (!required.includes(k) && !('default' in props[k]))
          out.push(`${at}: list-map key ${k} is neither required nor defaulted`);
      }
    }
  }
  if (isObj(node['properties'])) {
    const required = Array.isArray(node['required']) ? node['required'] : [];
    for (const r of required)
      if (typeof r !== 'string' || !(r in node['properties']))
        out.push(`${at}: required ${JSON.stringify(r)} is not a property`);
    for (const [name, child] of Object.entries(node['properties'])) {
      if (!isObj(child)) continue;
      const isRootMeta = path === '' && name === 'metadata';
      if (isRootMeta && JSON.stringify(child) !== '{"type":"object"}')
        out.push(`${at}: root metadata may only be {type: object}`);
      out.push(...structuralProblems(child, `${path}.${name}`, !isRootMeta));
    }
  }
  if (isObj(node['items'])) out.push(...structuralProblems(node['items'], `${path}[*]`));
  if (isObj(node['additionalProperties'])) out.push(...structuralProblems(node['additionalProperties'], `${path}{*}`));
  return out;
}

function openApiSchemaOf(crd: JsonObject): JsonObject {
  const spec = crd['spec'] as { versions: { schema: { openAPIV3Schema: JsonObject } }[] };
  return spec.versions[0]!.schema.openAPIV3Schema;
}

void test('every generated CRD schema is structural, typed and described', () => {
  const crds = customResourceDefinitions();
  assert.equal(crds.length, 7);
  for (const crd of crds) {
    const name = (crd['metadata'] as { name: string }).name;
    const schema = openApiSchemaOf(crd);
    assert.equal(schema['type'], 'object', name);
    assert.deepEqual(structuralProblems(schema), [], `${name} breaks the structural-schema rules`);
  }
});

void test('every CRD has one served and stored version, a status subresource and valid printer columns', () => {
  for (const crd of customResourceDefinitions()) {
    const spec = crd['spec'] as {
      names: { kind: string; listKind: string; plural: string; singular: string };
      scope: string;
      versions: {
        served: boolean;
        storage: boolean;
        subresources?: JsonObject;
        additionalPrinterColumns?: { jsonPath: string; type: string }[];
      }[];
    };
    assert.equal(spec.versions.length, 1);
    const v = spec.versions[0]!;
    assert.equal(v.served, true);
    assert.equal(v.storage, true);
    assert.deepEqual(v.subresources, { status: {} });
    assert.equal(spec.names.listKind, `${spec.names.kind}List`);
    assert.equal(spec.names.singular, spec.names.kind.toLowerCase());
    assert.equal(spec.scope, 'Namespaced');
    for (const c of v.additionalPrinterColumns ?? []) {
      assert.match(c.jsonPath, /^\./);
      assert.ok(['string', 'integer', 'number', 'boolean', 'date'].includes(c.type));
    }
  }
});

void test('short names are unique and avoid the short names OpenShift already uses', () => {
  const taken = new Set([
    'co',
    'mc',
    'mcp',
    'cv',
    'clusterversion',
    'machine',
    'ma',
    'ms',
    'po',
    'no',
    'ns',
    'job',
    'cj',
    'ev',
    'deploy',
    'ds',
    'pdb',
  ]);
  const seen = new Map<string, string>();
  for (const crd of customResourceDefinitions()) {
    const name = (crd['metadata'] as { name: string }).name;
    const shortNames = (crd['spec'] as { names: { shortNames?: string[] } }).names.shortNames ?? [];
    for (const s of shortNames) {
      assert.ok(!seen.has(s), `${s} used by ${seen.get(s)} and ${name}`);
      if (name !== 'upgradeconfigs.upgrade.managed.openshift.io') {
        assert.ok(!taken.has(s) && s !== 'upgrade', `${name}: short name ${s} collides`);
      }
      seen.set(s, name);
    }
  }
});

void test('the lint catches what plain TypeBox would emit', () => {
  const bad = toJsonSchema(
    Type.Object({
      u: Type.Union([Type.Literal('A'), Type.Literal('B')]),
      r: Type.Record(Type.String(), Type.String()),
      closed: Type.Object({ a: Type.String() }, { additionalProperties: false }),
      m: Type.Array(Type.Object({ k: Type.Optional(Type.String()) }), {
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['k'],
      }),
    }),
  );
  const problems = structuralProblems(bad).join('\n');
  assert.match(problems, /\.u: node without type/);
  assert.match(problems, /\.u: type inside anyOf/);
  assert.match(problems, /forbidden keyword const/);
  assert.match(problems, /\.r: forbidden keyword patternProperties/);
  assert.match(problems, /\.closed: additionalProperties: false is forbidden/);
  assert.match(problems, /\.m: list-map key k is neither required nor defaulted/);
  assert.match(problems, /\.u: no description/);
});

void test('stringEnum emits type+enum and rejects other values', () => {
  const s = stringEnum(['A', 'B'], 'd', { default: 'A' });
  assert.deepEqual(toJsonSchema(s), { default: 'A', description: 'd', enum: ['A', 'B'], type: 'string' });
  assert.deepEqual(checkAgainstSchema(toJsonSchema(s), 'B').problems, []);
  assert.equal(checkAgainstSchema(toJsonSchema(s), 'C').problems.length, 1);
});

void test('map, intOrString, preserveUnknown, listMap and nullable emit CRD keywords', () => {
  assert.deepEqual(toJsonSchema(map(Type.Integer(), 'd')), {
    additionalProperties: { type: 'integer' },
    description: 'd',
    type: 'object',
  });
  assert.deepEqual(toJsonSchema(intOrString('d')), {
    anyOf: [{ type: 'integer' }, { type: 'string' }],
    description: 'd',
    'x-kubernetes-int-or-string': true,
  });
  assert.deepEqual(toJsonSchema(preserveUnknown('d')), {
    description: 'd',
    type: 'object',
    'x-kubernetes-preserve-unknown-fields': true,
  });
  const lm = toJsonSchema(listMap(Type.Object({ k: Type.String() }), ['k'], 'd'));
  assert.equal(lm['x-kubernetes-list-type'], 'map');
  assert.deepEqual(lm['x-kubernetes-list-map-keys'], ['k']);
  const n = toJsonSchema(nullable(Type.String({ description: 'd' })));
  assert.deepEqual(n, { description: 'd', nullable: true, type: 'string' });
  assert.deepEqual(checkAgainstSchema(n, null).problems, []);
  assert.equal(checkAgainstSchema(n, 3).problems.length > 0, true);
  const ios = toJsonSchema(intOrString('d'));
  assert.deepEqual(checkAgainstSchema(ios, 3).problems, []);
  assert.deepEqual(checkAgainstSchema(ios, '25%').problems, []);
  assert.ok(checkAgainstSchema(ios, true).problems.length > 0);
});

void test('condition carries apimachinery validation', () => {
  const s = toJsonSchema(condition());
  assert.deepEqual(s['required'], ['lastTransitionTime', 'message', 'reason', 'status', 'type']);
  const ok = {
    type: 'Succeeded',
    status: 'True',
    reason: 'Succeeded',
    message: '',
    lastTransitionTime: '2026-01-01T00:00:00Z',
  };
  assert.deepEqual(checkAgainstSchema(s, ok).problems, []);
  assert.ok(checkAgainstSchema(s, { ...ok, reason: '' }).problems.length > 0, 'empty reason');
  assert.ok(checkAgainstSchema(s, { ...ok, reason: 'has space' }).problems.length > 0, 'reason pattern');
  assert.ok(checkAgainstSchema(s, { ...ok, status: 'Yes' }).problems.length > 0, 'status enum');
  assert.ok(checkAgainstSchema(s, { ...ok, message: 'x'.repeat(32769) }).problems.length > 0, 'message length');
});

void test('crdFor names the CRD <plural>.<group> and keeps keys sorted', () => {
  const crd = crdFor({
    group: 'example.com',
    version: 'v1',
    kind: 'Thing',
    plural: 'things',
    singular: 'thing',
    scope: 'Cluster',
    schema: Type.Object({
      ...typeMeta(),
      spec: Type.Object({ b: Type.String(), a: Type.String() }, { description: 'd' }),
    }),
    printerColumns: [{ name: 'A', type: 'string', jsonPath: '.spec.a' }],
    statusSubresource: false,
  });
  assert.equal((crd['metadata'] as JsonObject)['name'], 'things.example.com');
  const spec = crd['spec'] as JsonObject;
  assert.deepEqual(Object.keys(spec), ['group', 'names', 'scope', 'versions']);
  const v = (spec['versions'] as JsonObject[])[0]!;
  assert.equal('subresources' in v, false);
  const props = ((openApiSchemaOf(crd)['properties'] as JsonObject)['spec'] as JsonObject)['properties'] as JsonObject;
  assert.deepEqual(Object.keys(props), ['a', 'b']);
});
