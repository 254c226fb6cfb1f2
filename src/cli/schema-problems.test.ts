import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from 'typebox';
import { schemaProblems } from './schema-problems.js';

const Schema = Type.Object(
  {
    cluster: Type.Object(
      {
        version: Type.String(),
        profile: Type.Optional(Type.Union([Type.Literal('ha-cloud'), Type.Literal('single-node')])),
        workers: Type.Optional(Type.Integer({ minimum: 0 })),
      },
      { additionalProperties: false },
    ),
    tags: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: false },
);

test('problems read as words: unknown keys with a suggestion, choices listed, types named, required keys', () => {
  assert.deepEqual(schemaProblems(Schema, { cluster: { version: '4.14.30' } }), []);
  assert.deepEqual(
    schemaProblems(Schema, {
      cluster: { version: 4, profil: 'ha-cloud', profile: 'ha-clud' },
      extra: true,
    }),
    [
      '/: unknown key "extra"',
      '/cluster: unknown key "profil" (did you mean "profile"?)',
      '/cluster/version: must be a string, not 4',
      '/cluster/profile: must be one of "ha-cloud", "single-node", not "ha-clud" (did you mean "ha-cloud"?)',
    ],
  );
  assert.deepEqual(schemaProblems(Schema, { cluster: { version: '4', workers: -1 } }), [
    '/cluster/workers: must be >= 0',
  ]);
  assert.deepEqual(schemaProblems(Schema, { cluster: { version: '4' }, tags: { a: 1 } }), [
    '/tags: must be an array, not a map',
  ]);
  assert.deepEqual(schemaProblems(Schema, {}), ['/: the key "cluster" is required']);
});
