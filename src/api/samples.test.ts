/**
 * deploy/samples: one realistic object per kind, each valid against its CRD (TypeBox's
 * validator and the embedded API server's), and losing nothing to pruning.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import type { JsonObject } from '../lib/json.js';
import { customResourceDefinitions } from './manifests.js';
import { checkAgainstSchema } from './schema-check.js';
import { validateAgainstSchema } from '../apiserver/crd/schema-validate.js';
import { applySchemaDefaults } from '../apiserver/crd/defaults.js';
import { pruneUnknownFields } from '../apiserver/crd/prune.js';

const samplesDir = fileURLToPath(new URL('../../deploy/samples', import.meta.url));

function samples(): { file: string; obj: JsonObject }[] {
  const out: { file: string; obj: JsonObject }[] = [];
  for (const file of readdirSync(samplesDir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    for (const doc of parseAllDocuments(readFileSync(join(samplesDir, file), 'utf8'), { version: '1.1' })) {
      assert.equal(doc.errors.length, 0, `${file}: ${doc.errors.map((e) => e.message).join('; ')}`);
      out.push({ file, obj: doc.toJS() as JsonObject });
    }
  }
  return out;
}

function schemaFor(obj: JsonObject): JsonObject {
  for (const crd of customResourceDefinitions()) {
    const spec = crd['spec'] as {
      group: string;
      names: { kind: string };
      versions: { name: string; schema: { openAPIV3Schema: JsonObject } }[];
    };
    const v = spec.versions[0]!;
    if (obj['apiVersion'] === `${spec.group}/${v.name}` && obj['kind'] === spec.names.kind)
      return v.schema.openAPIV3Schema;
  }
  throw new Error(`no CRD for ${JSON.stringify(obj['apiVersion'])} ${JSON.stringify(obj['kind'])}`);
}

void test('there is one sample per kind, in the anchors’ namespaces', () => {
  const all = samples();
  const kinds = all.map(({ obj }) => `${obj['apiVersion'] as string}/${obj['kind'] as string}`).sort();
  assert.deepEqual(kinds, [
    'managedupgrade.appuio.io/v1beta1/ClusterVersion',
    'managedupgrade.appuio.io/v1beta1/NodeForceDrain',
    'managedupgrade.appuio.io/v1beta1/UpgradeConfig',
    'managedupgrade.appuio.io/v1beta1/UpgradeJob',
    'managedupgrade.appuio.io/v1beta1/UpgradeJobHook',
    'managedupgrade.appuio.io/v1beta1/UpgradeSuspensionWindow',
    'upgrade.managed.openshift.io/v1alpha1/UpgradeConfig',
  ]);
  for (const { obj } of all) {
    const meta = obj['metadata'] as { name: string; namespace: string };
    const expected =
      obj['apiVersion'] === 'upgrade.managed.openshift.io/v1alpha1'
        ? 'openshift-managed-upgrade-operator'
        : 'appuio-openshift-upgrade-controller';
    assert.equal(meta.namespace, expected);
  }
  const muo = all.find(({ obj }) => obj['apiVersion'] === 'upgrade.managed.openshift.io/v1alpha1')!;
  assert.equal((muo.obj['metadata'] as { name: string }).name, 'managed-upgrade-config');
});

void test('every sample is valid against its CRD schema (TypeBox validator)', () => {
  for (const { file, obj } of samples()) {
    assert.deepEqual(checkAgainstSchema(schemaFor(obj), obj).problems, [], file);
  }
});

void test('every sample passes the embedded API server’s defaulting, pruning and validation', () => {
  for (const { file, obj } of samples()) {
    const schema = schemaFor(obj);
    const defaulted = applySchemaDefaults(obj, schema);
    const { unknownFields } = pruneUnknownFields(defaulted, schema);
    assert.deepEqual(unknownFields, [], `${file}: fields would be pruned`);
    assert.deepEqual(validateAgainstSchema(defaulted, schema), [], file);
  }
});
