import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { JsonValue } from '../../lib/json.js';
import { GENERIC_INVALID_MESSAGE, PatchError } from './errors.js';
import { applyJsonPatch, decodePointerToken, encodePointerToken } from './json-patch.js';

interface Case {
  name: string;
  doc: JsonValue;
  patch: JsonValue;
  want?: JsonValue;
  /** Expected failure: reason and (part of) the detail or message. */
  error?: { reason: PatchError['reason']; text: string };
}

// RFC 6902 appendix A, cases written from the RFC's descriptions.
const rfcCases: Case[] = [
  {
    name: 'A.1 add an object member',
    doc: { foo: 'bar' },
    patch: [{ op: 'add', path: '/baz', value: 'qux' }],
    want: { foo: 'bar', baz: 'qux' },
  },
  {
    name: 'A.2 add an array element',
    doc: { foo: ['bar', 'baz'] },
    patch: [{ op: 'add', path: '/foo/1', value: 'qux' }],
    want: { foo: ['bar', 'qux', 'baz'] },
  },
  {
    name: 'A.3 remove an object member',
    doc: { baz: 'qux', foo: 'bar' },
    patch: [{ op: 'remove', path: '/baz' }],
    want: { foo: 'bar' },
  },
  {
    name: 'A.4 remove an array element',
    doc: { foo: ['bar', 'qux', 'baz'] },
    patch: [{ op: 'remove', path: '/foo/1' }],
    want: { foo: ['bar', 'baz'] },
  },
  {
    name: 'A.5 replace a value',
    doc: { baz: 'qux', foo: 'bar' },
    patch: [{ op: 'replace', path: '/baz', value: 'boo' }],
    want: { baz: 'boo', foo: 'bar' },
  },
  {
    name: 'A.6 move a value',
    doc: { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } },
    patch: [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }],
    want: { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } },
  },
  {
    name: 'A.7 move an array element',
    doc: { foo: ['all', 'grass', 'cows', 'eat'] },
    patch: [{ op: 'move', from: '/foo/1', path: '/foo/3' }],
    want: { foo: ['all', 'cows', 'eat', 'grass'] },
  },
  {
    name: 'A.8 test a value: success',
    doc: { baz: 'qux', foo: ['a', 2, 'c'] },
    patch: [
      { op: 'test', path: '/baz', value: 'qux' },
      { op: 'test', path: '/foo/1', value: 2 },
    ],
    want: { baz: 'qux', foo: ['a', 2, 'c'] },
  },
  {
    name: 'A.9 test a value: error',
    doc: { baz: 'qux' },
    patch: [{ op: 'test', path: '/baz', value: 'bar' }],
    error: { reason: 'Invalid', text: 'testing value /baz failed: test failed' },
  },
  {
    name: 'A.10 add a nested member object',
    doc: { foo: 'bar' },
    patch: [{ op: 'add', path: '/child', value: { grandchild: {} } }],
    want: { foo: 'bar', child: { grandchild: {} } },
  },
  {
    name: 'A.11 ignore unrecognized elements',
    doc: { foo: 'bar' },
    patch: [{ op: 'add', path: '/baz', value: 'qux', xyz: 123 }],
    want: { foo: 'bar', baz: 'qux' },
  },
  {
    name: 'A.12 add to a nonexistent target',
    doc: { foo: 'bar' },
    patch: [{ op: 'add', path: '/baz/bat', value: 'qux' }],
    error: { reason: 'Invalid', text: 'add operation does not apply: doc is missing path: "/baz/bat": missing value' },
  },
  {
    name: 'A.14 ~ escape ordering',
    doc: { '/': 9, '~1': 10 },
    patch: [{ op: 'test', path: '/~01', value: 10 }],
    want: { '/': 9, '~1': 10 },
  },
  {
    name: 'A.15 comparing strings and numbers',
    doc: { '/': 9, '~1': 10 },
    patch: [{ op: 'test', path: '/~01', value: '10' }],
    error: { reason: 'Invalid', text: 'testing value /~01 failed' },
  },
  {
    name: 'A.16 adding an array value',
    doc: { foo: ['bar'] },
    patch: [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }],
    want: { foo: ['bar', ['abc', 'def']] },
  },
];

// What kube-apiserver (evanphx/json-patch v4) does beyond the RFC examples.
const kubeCases: Case[] = [
  {
    name: 'add at the end by index',
    doc: { a: [1] },
    patch: [{ op: 'add', path: '/a/1', value: 2 }],
    want: { a: [1, 2] },
  },
  {
    name: 'add past the end',
    doc: { a: [1] },
    patch: [{ op: 'add', path: '/a/5', value: 2 }],
    error: { reason: 'Invalid', text: 'Unable to access invalid index: 5' },
  },
  {
    name: 'negative index removes from the end',
    doc: { a: [1, 2, 3] },
    patch: [{ op: 'remove', path: '/a/-1' }],
    want: { a: [1, 2] },
  },
  {
    name: 'copy',
    doc: { a: { b: 1 } },
    patch: [{ op: 'copy', from: '/a', path: '/c' }],
    want: { a: { b: 1 }, c: { b: 1 } },
  },
  {
    name: 'replace the whole document',
    doc: { a: 1 },
    patch: [{ op: 'replace', path: '', value: { b: 2 } }],
    want: { b: 2 },
  },
  {
    name: 'replace of a missing member adds it (as the server does)',
    doc: { a: 1 },
    patch: [{ op: 'replace', path: '/b', value: 2 }],
    want: { a: 1, b: 2 },
  },
  {
    name: 'remove a missing member',
    doc: { a: 1 },
    patch: [{ op: 'remove', path: '/b' }],
    error: {
      reason: 'Invalid',
      text: "error in remove for path: '/b': Unable to remove nonexistent key: b: missing value",
    },
  },
  {
    name: 'test that a member is absent with null',
    doc: { a: 1 },
    patch: [{ op: 'test', path: '/b', value: null }],
    want: { a: 1 },
  },
  {
    name: 'unknown operation',
    doc: { a: 1 },
    patch: [{ op: 'frob', path: '/a' }],
    error: { reason: 'Invalid', text: 'Unexpected kind: frob' },
  },
  {
    name: 'a path without a leading slash',
    doc: { a: 1 },
    patch: [{ op: 'add', path: 'a', value: 2 }],
    error: { reason: 'Invalid', text: 'doc is missing path: "a"' },
  },
  {
    name: 'labels with a slash, escaped',
    doc: { metadata: { labels: {} } },
    patch: [{ op: 'add', path: '/metadata/labels/app.kubernetes.io~1name', value: 'x' }],
    want: { metadata: { labels: { 'app.kubernetes.io/name': 'x' } } },
  },
  {
    name: 'not a list of operations',
    doc: { a: 1 },
    patch: { op: 'add' },
    error: { reason: 'BadRequest', text: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch' },
  },
  {
    name: 'an operation that is not an object',
    doc: { a: 1 },
    patch: ['add'],
    error: { reason: 'BadRequest', text: 'json: cannot unmarshal string into Go value of type jsonpatch.Operation' },
  },
  {
    name: 'operations apply in order and all or nothing',
    doc: { a: 1 },
    patch: [
      { op: 'add', path: '/b', value: 2 },
      { op: 'test', path: '/a', value: 2 },
    ],
    error: { reason: 'Invalid', text: 'testing value /a failed' },
  },
];

void describe('applyJsonPatch', () => {
  for (const c of [...rfcCases, ...kubeCases]) {
    void it(c.name, () => {
      if (c.error) {
        const { reason, text } = c.error;
        assert.throws(
          () => applyJsonPatch(c.doc, c.patch),
          (e: unknown) =>
            e instanceof PatchError && e.reason === reason && `${e.message} ${e.detail ?? ''}`.includes(text),
        );
      } else {
        assert.deepEqual(applyJsonPatch(c.doc, c.patch), c.want);
      }
    });
  }

  void it('answers operation failures with the generic 422 message kube-apiserver sends', () => {
    try {
      applyJsonPatch({ a: 1 }, [{ op: 'remove', path: '/x/y' }]);
      assert.fail('expected an error');
    } catch (e) {
      assert.ok(e instanceof PatchError);
      assert.equal(e.code, 422);
      assert.equal(e.message, GENERIC_INVALID_MESSAGE);
      assert.equal(e.detail, 'remove operation does not apply: doc is missing path: "/x/y": missing value');
    }
  });

  void it('rejects more than 10000 operations with 413', () => {
    const ops = Array.from({ length: 10001 }, () => ({ op: 'test', path: '/a', value: 1 }));
    assert.throws(
      () => applyJsonPatch({ a: 1 }, ops),
      (e: unknown) =>
        e instanceof PatchError &&
        e.code === 413 &&
        e.message === 'The allowed maximum operations in a JSON patch is 10000, got 10001',
    );
  });

  void it('never mutates its inputs (property)', () => {
    const op = fc.oneof(
      fc.record({
        op: fc.constant('add'),
        path: fc.constantFrom('/a', '/a/0', '/a/-', '/b/c', '/x'),
        value: fc.jsonValue(),
      }),
      fc.record({ op: fc.constant('remove'), path: fc.constantFrom('/a', '/a/0', '/b/c') }),
      fc.record({ op: fc.constant('replace'), path: fc.constantFrom('/a', '/b', '/b/c'), value: fc.jsonValue() }),
      fc.record({
        op: fc.constantFrom('move', 'copy'),
        from: fc.constantFrom('/a', '/b', '/b/c'),
        path: fc.constantFrom('/d', '/a/0', '/b/e'),
      }),
    );
    fc.assert(
      fc.property(
        fc.record({
          a: fc.array(fc.jsonValue(), { maxLength: 3 }),
          b: fc.dictionary(fc.constantFrom('c', 'e'), fc.jsonValue(), { noNullPrototype: true }),
        }),
        fc.array(op, { maxLength: 5 }),
        (doc, patch) => {
          const docBefore = JSON.stringify(doc);
          const patchBefore = JSON.stringify(patch);
          try {
            const out = applyJsonPatch(doc as JsonValue, patch as JsonValue);
            if (typeof out === 'object' && out !== null && !Array.isArray(out)) out.mutated = true;
          } catch (e) {
            if (!(e instanceof PatchError)) throw e;
          }
          assert.equal(JSON.stringify(doc), docBefore);
          assert.equal(JSON.stringify(patch), patchBefore);
        },
      ),
      { numRuns: 300 },
    );
  });

  void it('escapes and unescapes pointer tokens (RFC 6901)', () => {
    assert.equal(encodePointerToken('a/b~c'), 'a~1b~0c');
    assert.equal(decodePointerToken('a~1b~0c'), 'a/b~c');
    assert.equal(decodePointerToken('~01'), '~1');
  });
});
