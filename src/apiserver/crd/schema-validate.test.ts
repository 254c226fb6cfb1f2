import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { aggregateMessage } from '../field-errors.js';
import type { JsonObject, JsonValue } from '../../lib/json.js';
import { validateAgainstSchema } from './schema-validate.js';

const upgradeConfigSchema: JsonObject = {
  type: 'object',
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { type: 'object' },
    spec: {
      type: 'object',
      required: ['type', 'desired'],
      properties: {
        type: { type: 'string', enum: ['OSD', 'ARO'] },
        upgradeAt: { type: 'string', format: 'date-time' },
        PDBForceDrainTimeout: { type: 'integer', format: 'int32', minimum: 0, maximum: 1440 },
        capacityReservation: { type: 'boolean' },
        delay: { type: 'string', format: 'duration' },
        channel: { type: 'string', pattern: '^[a-z]+-4\\.[0-9]+$', maxLength: 12, minLength: 1 },
        desired: { type: 'object', properties: { version: { type: 'string' } } },
        ratio: { type: 'number', exclusiveMinimum: true, minimum: 0 },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 2, minItems: 1, 'x-kubernetes-list-type': 'set' },
        labels: { type: 'object', additionalProperties: { type: 'string' }, maxProperties: 2 },
        maxUnavailable: { 'x-kubernetes-int-or-string': true },
        note: { type: 'string', nullable: true },
        hooks: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: {
            type: 'object',
            required: ['name'],
            properties: { name: { type: 'string' }, image: { type: 'string' } },
          },
        },
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
        },
      },
    },
  },
};

function spec(extra: JsonObject): JsonObject {
  return {
    apiVersion: 'upgrade.managed.openshift.io/v1alpha1',
    kind: 'UpgradeConfig',
    metadata: { name: 'x' },
    spec: { type: 'OSD', desired: {}, ...extra },
  };
}

function message(obj: JsonValue, schema: JsonObject = upgradeConfigSchema, old?: JsonValue): string {
  const errs = validateAgainstSchema(obj, schema, old === undefined ? {} : { oldObject: old });
  return errs.length === 0 ? '' : aggregateMessage(errs);
}

void describe('validateAgainstSchema: OpenAPI value validation', () => {
  const cases: [string, JsonObject, string][] = [
    ['valid object', {}, ''],
    [
      'wrong type',
      { PDBForceDrainTimeout: 'string' },
      'spec.PDBForceDrainTimeout: Invalid value: "string": spec.PDBForceDrainTimeout in body must be of type integer: "string"',
    ],
    [
      'number for integer',
      { PDBForceDrainTimeout: 1.5 },
      'spec.PDBForceDrainTimeout: Invalid value: "number": spec.PDBForceDrainTimeout in body must be of type integer: "number"',
    ],
    [
      'null for non-nullable',
      { capacityReservation: null },
      'spec.capacityReservation: Invalid value: "null": spec.capacityReservation in body must be of type boolean: "null"',
    ],
    ['null for nullable', { note: null }, ''],
    ['enum', { type: 'X' }, 'spec.type: Unsupported value: "X": supported values: "OSD", "ARO"'],
    [
      'maximum',
      { PDBForceDrainTimeout: 2000 },
      'spec.PDBForceDrainTimeout: Invalid value: 2000: spec.PDBForceDrainTimeout in body should be less than or equal to 1440',
    ],
    [
      'minimum',
      { PDBForceDrainTimeout: -1 },
      'spec.PDBForceDrainTimeout: Invalid value: -1: spec.PDBForceDrainTimeout in body should be greater than or equal to 0',
    ],
    ['exclusive minimum', { ratio: 0 }, 'spec.ratio: Invalid value: 0: spec.ratio in body should be greater than 0'],
    ['integer for number', { ratio: 2 }, ''],
    [
      'date-time format',
      { upgradeAt: 'tomorrow' },
      'spec.upgradeAt: Invalid value: "tomorrow": spec.upgradeAt in body must be of type date-time: "tomorrow"',
    ],
    ['date-time ok', { upgradeAt: '2024-05-01T10:00:00Z' }, ''],
    [
      'duration format',
      { delay: 'soon' },
      'spec.delay: Invalid value: "soon": spec.delay in body must be of type duration: "soon"',
    ],
    ['duration ok', { delay: '1h30m' }, ''],
    [
      'pattern',
      { channel: 'fast' },
      'spec.channel: Invalid value: "fast": spec.channel in body should match \'^[a-z]+-4\\.[0-9]+$\'',
    ],
    ['maxLength', { channel: 'candidate-4.15' }, 'spec.channel: Too long: may not be more than 12 bytes'],
    [
      'minLength',
      { channel: '' },
      '[spec.channel: Invalid value: "": spec.channel in body should be at least 1 chars long, spec.channel: Invalid value: "": spec.channel in body should match \'^[a-z]+-4\\.[0-9]+$\']',
    ],
    ['maxItems', { tags: ['a', 'b', 'c'] }, 'spec.tags: Too many: 3: must have at most 2 items'],
    ['minItems', { tags: [] }, 'spec.tags: Invalid value: 0: spec.tags in body should have at least 1 items'],
    ['set duplicate', { tags: ['a', 'a'] }, 'spec.tags[1]: Duplicate value: "a"'],
    [
      'map duplicate',
      { hooks: [{ name: 'a' }, { name: 'a', image: 'x' }] },
      'spec.hooks[1]: Duplicate value: map[string]interface {}{"name":"a"}',
    ],
    ['item required', { hooks: [{ image: 'x' }] }, 'spec.hooks[0].name: Required value'],
    [
      'map value type',
      { labels: { a: 1 } },
      'spec.labels.a: Invalid value: "integer": spec.labels.a in body must be of type string: "integer"',
    ],
    ['maxProperties', { labels: { a: 'x', b: 'y', c: 'z' } }, 'spec.labels: Too many: 3: must have at most 2 items'],
    ['int-or-string int', { maxUnavailable: 1 }, ''],
    ['int-or-string string', { maxUnavailable: '10%' }, ''],
    [
      'int-or-string bool',
      { maxUnavailable: true },
      'spec.maxUnavailable: Invalid value: "boolean": spec.maxUnavailable in body must be of type integer,string: "boolean"',
    ],
    [
      'embedded resource without kind',
      { template: { apiVersion: 'v1', metadata: {} } },
      'spec.template.kind: Required value: must not be empty',
    ],
    ['embedded resource ok', { template: { apiVersion: 'v1', kind: 'ConfigMap', data: { a: 'b' } } }, ''],
  ];
  for (const [name, extra, want] of cases) {
    void it(name, () => assert.equal(message(spec(extra)), want));
  }

  void it('reports required fields and several errors in brackets', () => {
    const obj: JsonObject = { apiVersion: 'a/v1', kind: 'K', metadata: {}, spec: { type: 'Y' } };
    assert.equal(
      message(obj),
      '[spec.type: Unsupported value: "Y": supported values: "OSD", "ARO", spec.desired: Required value]',
    );
  });

  void it('names errors at the root <nil> and below rootPath when given', () => {
    assert.equal(
      aggregateMessage(validateAgainstSchema('x', { type: 'object' })),
      '<nil>: Invalid value: "string":  in body must be of type object: "string"',
    );
    assert.equal(
      aggregateMessage(
        validateAgainstSchema(
          { a: 'x' },
          { type: 'object', properties: { a: { type: 'integer' } } },
          { rootPath: 'spec' },
        ),
      ),
      'spec.a: Invalid value: "string": a in body must be of type integer: "string"',
    );
  });

  void it('checks pattern in time linear in the value, with Go syntax (a backtracking engine never ends here)', () => {
    const schema: JsonObject = { type: 'object', properties: { v: { type: 'string', pattern: '^(a+)+$' } } };
    const value = `${'a'.repeat(41)}b`;
    assert.equal(message({ v: value }, schema), `v: Invalid value: "${value}": v in body should match '^(a+)+$'`);
    assert.equal(message({ v: 'a'.repeat(41) }, schema), '');
    const go: JsonObject = { type: 'object', properties: { v: { type: 'string', pattern: '\\Aab\\z' } } };
    assert.equal(message({ v: 'ab' }, go), '');
    assert.equal(message({ v: 'xab' }, go), `v: Invalid value: "xab": v in body should match '\\Aab\\z'`);
  });

  void it('reports anyOf failures', () => {
    const schema: JsonObject = {
      type: 'object',
      properties: { v: { type: 'string', anyOf: [{ pattern: '^a' }, { pattern: '^b' }] } },
    };
    assert.equal(
      message({ v: 'c' }, schema),
      '[<nil>: Invalid value: "": "v" must validate at least one schema (anyOf), v: Invalid value: "c": v in body should match \'^a\']',
    );
    assert.equal(message({ v: 'b' }, schema), '');
  });
});

// The shape of APPUiO's ClusterVersion (spec.template is openshift/api's ClusterVersionSpec).
const clusterVersionSchema: JsonObject = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        template: {
          type: 'object',
          properties: {
            spec: {
              type: 'object',
              properties: {
                channel: { type: 'string' },
                desiredUpdate: {
                  type: 'object',
                  properties: {
                    architecture: { type: 'string', enum: ['Multi', ''] },
                    image: { type: 'string' },
                    version: { type: 'string' },
                    force: { type: 'boolean' },
                  },
                  'x-kubernetes-validations': [
                    {
                      rule: '!(has(self.architecture) && has(self.image))',
                      message: 'cannot set both Architecture and Image',
                    },
                    {
                      rule: 'has(self.version) || !has(self.architecture)',
                      message: 'Version must be set if Architecture is set',
                    },
                  ],
                },
                capabilities: {
                  type: 'object',
                  properties: {
                    baselineCapabilitySet: { type: 'string' },
                    additionalEnabledCapabilities: {
                      type: 'array',
                      items: { type: 'string' },
                      'x-kubernetes-list-type': 'atomic',
                    },
                  },
                  'x-kubernetes-validations': [
                    {
                      rule: "!has(self.additionalEnabledCapabilities) || self.additionalEnabledCapabilities.all(c, c.matches('^[A-Za-z]+$'))",
                      messageExpression: "'invalid capability in ' + self.additionalEnabledCapabilities.join(',')",
                      fieldPath: '.additionalEnabledCapabilities',
                    },
                  ],
                },
              },
            },
          },
        },
        pinned: {
          type: 'string',
          'x-kubernetes-validations': [
            { rule: 'self == oldSelf', message: 'pinned is immutable', reason: 'FieldValueForbidden' },
          ],
        },
        retries: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self < 5' }] },
      },
      'x-kubernetes-validations': [
        { rule: "self.pinned.lowerAscii().startsWith('v') || !has(self.pinned)", message: 'pinned must start with v' },
      ],
    },
  },
};

function cv(desiredUpdate: JsonObject, extra: JsonObject = {}): JsonObject {
  return {
    apiVersion: 'managedupgrade.appuio.io/v1beta1',
    kind: 'ClusterVersion',
    metadata: { name: 'version' },
    spec: { template: { spec: { desiredUpdate } }, ...extra },
  };
}

void describe('validateAgainstSchema: x-kubernetes-validations (CEL)', () => {
  void it('accepts a valid desired update', () =>
    assert.equal(message(cv({ version: '4.15.1' }), clusterVersionSchema), ''));
  void it('rejects architecture together with image', () => {
    assert.equal(
      message(cv({ architecture: 'Multi', image: 'quay.io/x@sha256:1', version: '4.15.1' }), clusterVersionSchema),
      'spec.template.spec.desiredUpdate: Invalid value: "object": cannot set both Architecture and Image',
    );
  });
  void it('rejects architecture without version', () => {
    assert.equal(
      message(cv({ architecture: 'Multi' }), clusterVersionSchema),
      'spec.template.spec.desiredUpdate: Invalid value: "object": Version must be set if Architecture is set',
    );
  });
  void it('uses messageExpression and fieldPath', () => {
    const obj = cv({ version: '1' });
    (obj['spec'] as JsonObject)['template'] = {
      spec: { capabilities: { additionalEnabledCapabilities: ['ok', 'not ok'] } },
    };
    assert.equal(
      message(obj, clusterVersionSchema),
      'spec.template.spec.capabilities.additionalEnabledCapabilities: Invalid value: "object": invalid capability in ok,not ok',
    );
  });
  void it('reports the default message for a rule without message', () => {
    assert.equal(
      message(cv({ version: '1' }, { retries: 7 }), clusterVersionSchema),
      'spec.retries: Invalid value: "integer": failed rule: self < 5',
    );
  });
  void it('evaluates transition rules only on update, with the reason given', () => {
    assert.equal(message(cv({ version: '1' }, { pinned: 'v1' }), clusterVersionSchema), '');
    assert.equal(
      message(cv({ version: '1' }, { pinned: 'v2' }), clusterVersionSchema, cv({ version: '1' }, { pinned: 'v1' })),
      'spec.pinned: Forbidden: pinned is immutable',
    );
    assert.equal(message(cv({ version: '1' }, { pinned: 'v2' }), clusterVersionSchema, cv({ version: '1' })), '');
  });
  void it('uses string library functions', () => {
    assert.equal(
      message(cv({ version: '1' }, { pinned: 'X2' }), clusterVersionSchema),
      'spec: Invalid value: "object": pinned must start with v',
    );
  });
  void it('skips rules after a blocking schema error', () => {
    assert.equal(
      message(cv({ architecture: 'Other', image: 'x' }), clusterVersionSchema),
      '[spec.template.spec.desiredUpdate.architecture: Unsupported value: "Other": supported values: "Multi", "", <nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]',
    );
  });
  void it('reports evaluation errors with the rule', () => {
    const schema: JsonObject = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: { a: { type: 'string' } },
          'x-kubernetes-validations': [{ rule: "self.a == 'x'" }],
        },
      },
    };
    assert.equal(
      message({ spec: {} }, schema),
      'spec: Invalid value: "object": no such key: a evaluating rule: self.a == \'x\'',
    );
  });
  void it('runs Kubernetes list functions', () => {
    const schema: JsonObject = {
      type: 'object',
      properties: {
        l: {
          type: 'array',
          items: { type: 'integer' },
          'x-kubernetes-validations': [
            { rule: 'self.isSorted() && self.sum() == 6 && self.max() == 3 && self.indexOf(2) == 1' },
          ],
        },
      },
    };
    assert.equal(message({ l: [1, 2, 3] }, schema), '');
    assert.equal(
      message({ l: [3, 2, 1] }, schema),
      'l: Invalid value: "array": failed rule: self.isSorted() && self.sum() == 6 && self.max() == 3 && self.indexOf(2) == 1',
    );
  });
});
