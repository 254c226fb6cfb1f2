import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scheduledUpgradeConfigCrd } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-config.js';
import { admitObject, readObjectFile } from './object-file.js';

void test('reading files: YAML 1.1 like kubectl, dates stay strings, Lists unpacked, empty documents skipped', () => {
  const objects = readObjectFile(
    '---\napiVersion: v1\nkind: List\nitems:\n- {kind: A, when: 2024-01-01, on: yes}\n- {kind: B}\n---\n---\nkind: C\n',
    'f',
  );
  assert.deepEqual(objects, [
    // go-yaml v2 reads the key `on` as the boolean true too; sigs.k8s.io/yaml then writes "true".
    { document: 1, object: { kind: 'A', when: '2024-01-01', true: true } },
    { document: 1, object: { kind: 'B' } },
    { document: 3, object: { kind: 'C' } },
  ]);
  assert.throws(() => readObjectFile('- a\n', 'f'), /f: document 1 is not an object/);
  // An alias with no anchor is a reason like any syntax error (it threw the parser's own error before).
  assert.throws(
    () => readObjectFile('kind: A\n---\nkind: *nowhere\n', 'f'),
    /f: document 2 is not valid YAML: Unresolved alias/,
  );
});

void test('admitting an object: the name rule and the schema, several errors at once', () => {
  const r = admitObject(
    { apiVersion: 'managedupgrade.appuio.io/v1beta1', kind: 'UpgradeConfig', metadata: { name: 'Bad_Name' }, spec: {} },
    scheduledUpgradeConfigCrd(),
    { keepStatus: false },
  );
  assert.ok(!r.ok);
  assert.match(
    r.message,
    /^The UpgradeConfig "Bad_Name" is invalid:\n\* metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/,
  );
  assert.match(r.message, /\n\* spec\.schedule: Required value/);
  assert.match(r.message, /\n\* spec\.jobTemplate: Required value/);
});
