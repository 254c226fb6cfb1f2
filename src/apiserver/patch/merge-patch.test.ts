import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { JsonValue } from '../../lib/json.js';
import { applyMergePatch, createMergePatch } from './merge-patch.js';

// RFC 7386 appendix A, written from the RFC's description of each example.
const cases: [JsonValue, JsonValue, JsonValue][] = [
  [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
  [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
  [{ a: 'b' }, { a: null }, {}],
  [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
  [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
  [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
  [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
  [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
  [
    ['a', 'b'],
    ['c', 'd'],
    ['c', 'd'],
  ],
  [{ a: 'b' }, ['c'], ['c']],
  [{ a: 'foo' }, null, null],
  [{ a: 'foo' }, 'bar', 'bar'],
  [{ e: null }, { a: 1 }, { e: null, a: 1 }],
  [[1, 2], { a: 'b', c: null }, { a: 'b' }],
  [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
];

/** JSON values whose objects hold no nulls: what a merge patch can produce. */
const nullFreeJson = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.integer(),
    fc.boolean(),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), tie('value'), { maxKeys: 4, noNullPrototype: true }),
  ),
})).value;

void describe('applyMergePatch', () => {
  cases.forEach(([doc, patch, want], i) => {
    void it(`RFC 7386 example ${i + 1}`, () => assert.deepEqual(applyMergePatch(doc, patch), want));
  });

  void it('does not mutate its inputs and shares nothing with them', () => {
    const doc = { a: { b: 1 }, c: [1] };
    const patch = { d: { e: 2 } };
    const out = applyMergePatch(doc, patch) as { a: { b: number }; d: { e: number } };
    out.a.b = 5;
    out.d.e = 5;
    assert.deepEqual(doc, { a: { b: 1 }, c: [1] });
    assert.deepEqual(patch, { d: { e: 2 } });
  });

  void it('applying createMergePatch(a, b) to a gives b (property)', () => {
    fc.assert(
      fc.property(nullFreeJson, nullFreeJson, (a, b) => {
        assert.deepEqual(applyMergePatch(a, createMergePatch(a, b)), b);
      }),
      { numRuns: 500 },
    );
  });
});
