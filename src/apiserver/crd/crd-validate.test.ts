import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { aggregateMessage, fieldErrorMessage } from '../field-errors.js';
import { cloneJson, type JsonObject } from '../../lib/json.js';
import { crdPrinterColumns, crdVersionSchema, validateCustomResourceDefinition } from './crd-validate.js';

function crd(): JsonObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'upgradeconfigs.upgrade.managed.openshift.io' },
    spec: {
      group: 'upgrade.managed.openshift.io',
      scope: 'Namespaced',
      names: {
        plural: 'upgradeconfigs',
        singular: 'upgradeconfig',
        kind: 'UpgradeConfig',
        listKind: 'UpgradeConfigList',
        shortNames: ['upgrade'],
      },
      versions: [
        {
          name: 'v1alpha1',
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: [{ name: 'desired_version', type: 'string', jsonPath: '.spec.desired.version' }],
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: {
                    type: { type: 'string', enum: ['OSD', 'ARO'], default: 'OSD' },
                    hooks: {
                      type: 'array',
                      'x-kubernetes-list-type': 'map',
                      'x-kubernetes-list-map-keys': ['name'],
                      items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
                    },
                  },
                },
              },
            },
          },
        },
      ],
    },
  };
}

type Edit = (c: JsonObject) => void;
const spec = (c: JsonObject): JsonObject => c['spec'] as JsonObject;
const version0 = (c: JsonObject): JsonObject => (spec(c)['versions'] as JsonObject[])[0]!;
const schema0 = (c: JsonObject): JsonObject => (version0(c)['schema'] as JsonObject)['openAPIV3Schema'] as JsonObject;
const specProps = (c: JsonObject): JsonObject =>
  ((schema0(c)['properties'] as JsonObject)['spec'] as JsonObject)['properties'] as JsonObject;

const P = 'spec.versions[0].schema.openAPIV3Schema';

void describe('validateCustomResourceDefinition', () => {
  void it('accepts a valid CRD', () => assert.deepEqual(validateCustomResourceDefinition(crd()), []));

  const cases: [string, Edit, string][] = [
    [
      'name not plural.group',
      (c) => ((c['metadata'] as JsonObject)['name'] = 'x.upgrade.managed.openshift.io'),
      'metadata.name: Invalid value: "x.upgrade.managed.openshift.io": must be spec.names.plural+"."+spec.group',
    ],
    [
      'group without dot',
      (c) => {
        spec(c)['group'] = 'upgrade';
        (c['metadata'] as JsonObject)['name'] = 'upgradeconfigs.upgrade';
      },
      'spec.group: Invalid value: "upgrade": should be a domain with at least one dot',
    ],
    [
      'bad scope',
      (c) => (spec(c)['scope'] = 'Global'),
      'spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"',
    ],
    [
      'missing listKind',
      (c) => delete (spec(c)['names'] as JsonObject)['listKind'],
      'spec.names.listKind: Required value',
    ],
    [
      'upper-case plural',
      (c) => ((spec(c)['names'] as JsonObject)['shortNames'] = ['Up']),
      "spec.names.shortNames[0]: Invalid value: \"Up\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    ],
    [
      'no storage version',
      (c) => (version0(c)['storage'] = false),
      'must have exactly one version marked as storage version',
    ],
    ['schema missing', (c) => delete version0(c)['schema'], `${P}: Required value: schemas are required`],
    [
      'untyped field',
      (c) => (specProps(c)['x'] = { description: 'no type' }),
      `${P}.properties[spec].properties[x].type: Required value: must not be empty for specified object fields`,
    ],
    [
      'array without items',
      (c) => (specProps(c)['x'] = { type: 'array' }),
      `${P}.properties[spec].properties[x].items: Required value: must be specified`,
    ],
    [
      '$ref',
      (c) => (specProps(c)['x'] = { type: 'object', $ref: '#/definitions/x' }),
      `${P}.properties[spec].properties[x].$ref: Forbidden: $ref is not supported`,
    ],
    [
      'additionalProperties with properties',
      (c) =>
        (specProps(c)['x'] = {
          type: 'object',
          properties: { a: { type: 'string' } },
          additionalProperties: { type: 'string' },
        }),
      `${P}.properties[spec].properties[x].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
    ],
    [
      'type in anyOf',
      (c) => (specProps(c)['x'] = { type: 'string', anyOf: [{ type: 'string' }] }),
      `${P}.properties[spec].properties[x].anyOf[0].type: Forbidden: must be empty to be structural`,
    ],
    [
      'uniqueItems',
      (c) => (specProps(c)['x'] = { type: 'array', items: { type: 'string' }, uniqueItems: true }),
      `${P}.properties[spec].properties[x].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
    ],
    [
      'list-map key neither required nor defaulted',
      (c) => {
        const hooks = specProps(c)['hooks'] as JsonObject;
        (hooks['items'] as JsonObject)['required'] = [];
      },
      `${P}.properties[spec].properties[hooks].items.properties[name].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
    ],
    [
      'default outside enum',
      (c) => ((specProps(c)['type'] as JsonObject)['default'] = 'GKE'),
      `${P}.properties[spec].properties[type].default: Unsupported value: "GKE": supported values: "OSD", "ARO"`,
    ],
    [
      'root not object',
      (c) => (schema0(c)['type'] = 'string'),
      `${P}.type: Invalid value: "string": must be object at the root`,
    ],
    [
      'printer column without jsonPath',
      (c) => (version0(c)['additionalPrinterColumns'] = [{ name: 'x', type: 'string', jsonPath: 'spec.x' }]),
      'spec.versions[0].additionalPrinterColumns[0].JSONPath: Invalid value: "spec.x": must be a simple json path starting with .',
    ],
    [
      'printer column type',
      (c) => (version0(c)['additionalPrinterColumns'] = [{ name: 'x', type: 'text', jsonPath: '.spec.x' }]),
      'spec.versions[0].additionalPrinterColumns[0].type: Invalid value: "text": must be one of boolean,date,integer,number,string',
    ],
    [
      'rule that does not parse',
      (c) => ((specProps(c)['type'] as JsonObject)['x-kubernetes-validations'] = [{ rule: 'self ==' }]),
      `${P}.properties[spec].properties[type].x-kubernetes-validations[0].rule: Invalid value`,
    ],
    [
      'pattern Go cannot compile (a lookahead JavaScript would take)',
      (c) => (specProps(c)['x'] = { type: 'string', pattern: 'a(?=b)' }),
      `${P}.properties[spec].properties[x].pattern: Invalid value: "a(?=b)": must be a valid regular expression, but isn't: error parsing regexp: invalid or unsupported Perl syntax: \`(?=\``,
    ],
    [
      'bad rule reason',
      (c) => ((specProps(c)['type'] as JsonObject)['x-kubernetes-validations'] = [{ rule: 'true', reason: 'Nope' }]),
      `${P}.properties[spec].properties[type].x-kubernetes-validations[0].reason: Unsupported value: "Nope": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
    ],
  ];
  for (const [name, edit, want] of cases) {
    void it(name, () => {
      const c = crd();
      edit(c);
      const errs = validateCustomResourceDefinition(c);
      assert.ok(errs.length > 0, 'expected errors');
      const messages = errs.map(fieldErrorMessage);
      assert.ok(
        messages.some((m) => m.includes(want)),
        `want ${want}\n got ${aggregateMessage(errs)}`,
      );
    });
  }

  void it('rejects changing the group or plural, and scope or kind once established', () => {
    const old = crd();
    old['status'] = { conditions: [{ type: 'Established', status: 'True' }] };
    const next = cloneJson(old);
    spec(next)['scope'] = 'Cluster';
    (spec(next)['names'] as JsonObject)['kind'] = 'Upgrade';
    assert.equal(
      aggregateMessage(validateCustomResourceDefinition(next, old)),
      '[spec.scope: Invalid value: "Cluster": field is immutable, spec.names.kind: Invalid value: "Upgrade": field is immutable]',
    );
  });

  void it('looks up a version schema and printer columns', () => {
    const c = crd();
    assert.equal(crdVersionSchema(c, 'v1alpha1'), schema0(c));
    assert.equal(crdVersionSchema(c, 'v9'), undefined);
    assert.deepEqual(crdPrinterColumns(c, 'v1alpha1'), [
      { name: 'desired_version', type: 'string', jsonPath: '.spec.desired.version' },
    ]);
    assert.deepEqual(crdPrinterColumns(c, 'v9'), []);
  });
});
