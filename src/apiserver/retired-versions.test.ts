import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonObject } from '../lib/json.js';
import { configMapType } from './builtin/kinds.js';
import { objectJson } from './http-util.js';
import { fromFieldsV1 } from './patch/field-set.js';
import { forgetRetiredVersion } from './retired-versions.js';
import type { KubeObject } from './types.js';

function cmWith(entries: JsonObject[]): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'a', namespace: 'default', managedFields: entries },
  };
}

const entry = (fieldsV1: JsonObject): JsonObject => ({ manager: 'm', operation: 'Update', fieldsV1 });

void test('an update forgets the decoded field sets its successor no longer shares; a delete forgets all', () => {
  const shared = { 'f:data': { 'f:x': {} } };
  const replaced = { 'f:metadata': { 'f:labels': {} } };
  const v1 = cmWith([entry(shared), entry(replaced)]);
  const v2 = cmWith([entry(shared), entry({ 'f:metadata': { 'f:labels': { 'f:app': {} } } })]);
  const sharedSet = fromFieldsV1(shared);
  const replacedSet = fromFieldsV1(replaced);
  assert.equal(fromFieldsV1(replaced), replacedSet, 'memoised');
  forgetRetiredVersion({ type: 'MODIFIED', resourceType: configMapType, object: v2, oldObject: v1 });
  assert.equal(fromFieldsV1(shared), sharedSet, 'still shared by the stored version');
  assert.notEqual(fromFieldsV1(replaced), replacedSet);
  const gone = { ...v2, metadata: { ...v2.metadata, resourceVersion: '9' } };
  forgetRetiredVersion({ type: 'DELETED', resourceType: configMapType, object: gone, oldObject: v2 });
  assert.notEqual(fromFieldsV1(shared), sharedSet);
});

void test("a retired version's cached JSON text is dropped", () => {
  const v1: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' }, data: { k: '1' } };
  const v2: KubeObject = { ...v1, data: { k: '2' } };
  const text = objectJson(v1);
  // Stored objects are never changed; changing one here shows whether its text is still cached.
  v1.data = { k: 'changed' };
  assert.equal(objectJson(v1), text, 'cached while stored');
  forgetRetiredVersion({ type: 'MODIFIED', resourceType: configMapType, object: v2, oldObject: v1 });
  assert.match(objectJson(v1), /"changed"/);
});
