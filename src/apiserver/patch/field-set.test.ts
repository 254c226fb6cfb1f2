import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  difference,
  emptySet,
  fieldElement,
  fromFieldsV1,
  isEmptySet,
  insertPath,
  intersection,
  keyElement,
  memberPaths,
  pathString,
  recursiveDifference,
  toFieldsV1,
  union,
  valueElement,
} from './field-set.js';

const f = fieldElement;

void describe('field sets', () => {
  void it('encode as fieldsV1 with "." for members that have children', () => {
    const s = emptySet();
    insertPath(s, [f('metadata'), f('labels')]);
    insertPath(s, [f('metadata'), f('labels'), f('app')]);
    insertPath(s, [f('spec'), f('containers'), keyElement({ name: 'x' })]);
    insertPath(s, [f('spec'), f('containers'), keyElement({ name: 'x' }), f('image')]);
    insertPath(s, [f('metadata'), f('finalizers'), valueElement('a/b')]);
    assert.deepEqual(toFieldsV1(s), {
      'f:metadata': { 'f:finalizers': { 'v:"a/b"': {} }, 'f:labels': { '.': {}, 'f:app': {} } },
      'f:spec': { 'f:containers': { 'k:{"name":"x"}': { '.': {}, 'f:image': {} } } },
    });
    assert.deepEqual(toFieldsV1(fromFieldsV1(toFieldsV1(s)) ?? emptySet()), toFieldsV1(s));
  });

  void it('share what an operation leaves unchanged, and memoise encodings by set (sets are immutable)', () => {
    const s = emptySet();
    insertPath(s, [f('data'), f('a')]);
    insertPath(s, [f('metadata'), f('labels'), f('app')]);
    const other = emptySet();
    insertPath(other, [f('spec'), f('replicas')]);
    assert.equal(difference(s, other), s, 'nothing taken away: the same set');
    assert.equal(union(s, emptySet()), s);
    assert.equal(recursiveDifference(s, other), s);
    const data = emptySet();
    insertPath(data, [f('data'), f('a')]);
    const rest = difference(s, data);
    assert.notEqual(rest, s);
    assert.deepEqual(memberPaths(rest), [['f:metadata', 'f:labels', 'f:app']]);
    assert.equal(rest.children.get('f:metadata'), s.children.get('f:metadata'), 'the untouched subtree is shared');
    assert.equal(rest.children.has('f:data'), false, 'an emptied subtree is dropped');
    assert.equal(memberPaths(s).length, 2, 'the input is unchanged');
    assert.ok(isEmptySet(difference(s, s)));
    assert.deepEqual(memberPaths(union(rest, data)), memberPaths(s));

    const json = toFieldsV1(s);
    assert.equal(toFieldsV1(s), json, 'one encoding per set');
    assert.equal(fromFieldsV1(json), s, 'decoding an encoding gives the set back');
    const parsed = JSON.parse(JSON.stringify(json)) as typeof json;
    assert.deepEqual(memberPaths(fromFieldsV1(parsed) ?? emptySet()), memberPaths(s));
  });

  void it('sorts list-map keys by name inside k:', () => {
    assert.equal(keyElement({ protocol: 'TCP', containerPort: 80 }), 'k:{"containerPort":80,"protocol":"TCP"}');
  });

  void it('prints paths like structured-merge-diff', () => {
    assert.equal(
      pathString([f('spec'), f('containers'), keyElement({ name: 'nginx' }), f('image')]),
      '.spec.containers[name="nginx"].image',
    );
    assert.equal(pathString([f('metadata'), f('finalizers'), valueElement('x')]), '.metadata.finalizers[="x"]');
    assert.equal(
      pathString([f('spec'), f('ports'), keyElement({ port: 80, protocol: 'TCP' })]),
      '.spec.ports[port=80,protocol="TCP"]',
    );
  });

  void it('rejects malformed fieldsV1', () => {
    assert.equal(fromFieldsV1({ bogus: {} }), undefined);
    assert.equal(fromFieldsV1('x'), undefined);
  });

  void it('computes union, intersection, recursive difference and member order', () => {
    const a = emptySet();
    insertPath(a, [f('spec'), f('replicas')]);
    insertPath(a, [f('spec'), f('template'), f('x')]);
    insertPath(a, [f('status'), f('y')]);
    const b = emptySet();
    insertPath(b, [f('spec'), f('replicas')]);
    insertPath(b, [f('status')]);
    assert.deepEqual(memberPaths(intersection(a, b)), [[f('spec'), f('replicas')]]);
    assert.deepEqual(memberPaths(recursiveDifference(a, b)), [[f('spec'), f('template'), f('x')]]);
    assert.deepEqual(memberPaths(union(a, b)), [
      [f('status')],
      [f('spec'), f('replicas')],
      [f('spec'), f('template'), f('x')],
      [f('status'), f('y')],
    ]);
  });
});
