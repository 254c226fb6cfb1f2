import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonObject } from '../../lib/json.js';
import { applySchemaDefaults } from './defaults.js';
import { pruneUnknownFields } from './prune.js';

const schema: JsonObject = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        type: { type: 'string', default: 'OSD' },
        drain: {
          type: 'object',
          default: {},
          properties: { timeout: { type: 'integer', default: 60 }, force: { type: 'boolean' } },
        },
        hooks: {
          type: 'array',
          items: { type: 'object', properties: { name: { type: 'string' }, retries: { type: 'integer', default: 3 } } },
        },
        labels: {
          type: 'object',
          additionalProperties: { type: 'object', properties: { v: { type: 'string', default: 'x' } } },
        },
        extra: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: { known: { type: 'object', properties: { a: { type: 'string' } } } },
        },
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: { data: { type: 'object', additionalProperties: { type: 'string' } } },
        },
        note: { type: 'string', nullable: true },
        count: { type: 'integer' },
        mode: { type: 'string', default: 'auto' },
      },
    },
  },
};

void describe('pruneUnknownFields', () => {
  void it('drops unspecified fields and reports them sorted, like strict field validation', () => {
    const obj: JsonObject = {
      apiVersion: 'g/v1',
      kind: 'K',
      metadata: { name: 'a', bogus: 1 },
      spec: { type: 'OSD', foo: 1, hooks: [{ name: 'h', bar: true }], drain: { force: true, zap: 1 } },
      status: { x: 1 },
    };
    const { object, unknownFields } = pruneUnknownFields(obj, schema);
    assert.deepEqual(unknownFields, ['metadata.bogus', 'spec.drain.zap', 'spec.foo', 'spec.hooks[0].bar', 'status']);
    assert.deepEqual(object, {
      apiVersion: 'g/v1',
      kind: 'K',
      metadata: { name: 'a' },
      spec: { type: 'OSD', hooks: [{ name: 'h' }], drain: { force: true } },
    });
    assert.equal((obj['spec'] as JsonObject)['foo'], 1, 'input untouched');
  });

  void it('keeps unknown fields under x-kubernetes-preserve-unknown-fields but prunes specified children', () => {
    const { object, unknownFields } = pruneUnknownFields(
      { spec: { extra: { anything: { deep: 1 }, known: { a: 'x', b: 'y' } } } },
      schema,
    );
    assert.deepEqual(unknownFields, ['spec.extra.known.b']);
    assert.deepEqual(object, { spec: { extra: { anything: { deep: 1 }, known: { a: 'x' } } } });
  });

  void it('keeps apiVersion/kind/metadata of embedded resources and prunes their metadata to ObjectMeta', () => {
    const { object, unknownFields } = pruneUnknownFields(
      {
        spec: {
          template: {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: 'c', labels: { a: 'b' }, junk: 1 },
            data: { k: 'v' },
            other: 2,
          },
        },
      },
      schema,
    );
    assert.deepEqual(unknownFields, ['spec.template.metadata.junk', 'spec.template.other']);
    assert.deepEqual(object, {
      spec: {
        template: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'c', labels: { a: 'b' } },
          data: { k: 'v' },
        },
      },
    });
  });

  void it('keeps map entries and prunes inside their values', () => {
    const { object, unknownFields } = pruneUnknownFields({ spec: { labels: { one: { v: 'a', w: 'b' } } } }, schema);
    assert.deepEqual(unknownFields, ['spec.labels.one.w']);
    assert.deepEqual(object, { spec: { labels: { one: { v: 'a' } } } });
  });
});

void describe('applySchemaDefaults', () => {
  void it('fills missing fields, defaults inside defaults, items and map values', () => {
    const out = applySchemaDefaults(
      { spec: { hooks: [{ name: 'a' }, { name: 'b', retries: 0 }], labels: { x: {} } } },
      schema,
    );
    assert.deepEqual(out, {
      spec: {
        type: 'OSD',
        mode: 'auto',
        drain: { timeout: 60 },
        hooks: [
          { name: 'a', retries: 3 },
          { name: 'b', retries: 0 },
        ],
        labels: { x: { v: 'x' } },
      },
    });
  });

  void it('leaves present values alone and does not default a missing parent without its own default', () => {
    const out = applySchemaDefaults({ spec: { type: 'ARO', drain: { timeout: 5 } } }, schema);
    assert.deepEqual(out, { spec: { type: 'ARO', mode: 'auto', drain: { timeout: 5 } } });
    assert.deepEqual(applySchemaDefaults({ metadata: { name: 'a' } }, schema), { metadata: { name: 'a' } });
  });

  void it('replaces null of a non-nullable defaulted field, keeps nullable nulls and drops other nulls', () => {
    const out = applySchemaDefaults({ spec: { type: null, note: null, count: null } }, schema);
    assert.deepEqual(out, { spec: { type: 'OSD', note: null, mode: 'auto', drain: { timeout: 60 } } });
  });
});
