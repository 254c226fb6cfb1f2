import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emptySet, fieldElement, fromFieldsV1, insertPath, intersection, keyElement, memberPaths, pathString, recursiveDifference, toFieldsV1, union, valueElement } from './field-set.js';

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

  void it('sorts list-map keys by name inside k:', () => {
    assert.equal(keyElement({ protocol: 'TCP', containerPort: 80 }), 'k:{"containerPort":80,"protocol":"TCP"}');
  });

  void it('prints paths like structured-merge-diff', () => {
    assert.equal(pathString([f('spec'), f('containers'), keyElement({ name: 'nginx' }), f('image')]), '.spec.containers[name="nginx"].image');
    assert.equal(pathString([f('metadata'), f('finalizers'), valueElement('x')]), '.metadata.finalizers[="x"]');
    assert.equal(pathString([f('spec'), f('ports'), keyElement({ port: 80, protocol: 'TCP' })]), '.spec.ports[port=80,protocol="TCP"]');
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
    assert.deepEqual(memberPaths(union(a, b)), [[f('status')], [f('spec'), f('replicas')], [f('spec'), f('template'), f('x')], [f('status'), f('y')]]);
  });
});
