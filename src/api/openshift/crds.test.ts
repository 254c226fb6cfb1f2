/**
 * The OpenShift CRDs: structural, accepted by the embedded API server's CRD validation, with
 * openshift/api's names, columns and subresources; the reference examples
 * (`testdata/examples.json`: ClusterVersion idle and updating, a ClusterOperator rolling out, a
 * worker pool, a MachineSet and a Machine) validate and survive pruning unchanged.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { JsonObject } from '../../lib/json.js';
import { structuralProblems } from '../schema.test.js';
import { validateCustomResourceDefinition } from '../../apiserver/crd/crd-validate.js';
import { validateAgainstSchema } from '../../apiserver/crd/schema-validate.js';
import { fieldErrorMessage } from '../../apiserver/field-errors.js';
import { pruneUnknownFields } from '../../apiserver/crd/prune.js';
import { openshiftCustomResourceDefinitions } from './crds.js';

const examples = JSON.parse(readFileSync(new URL('./testdata/examples.json', import.meta.url), 'utf8')) as Record<
  string,
  JsonObject
>;
const crds = openshiftCustomResourceDefinitions();

interface Version {
  name: string;
  schema: { openAPIV3Schema: JsonObject };
  subresources?: JsonObject;
  additionalPrinterColumns?: { name: string; jsonPath: string; type: string; priority?: number }[];
}
interface Crd {
  metadata: { name: string };
  spec: {
    group: string;
    scope: string;
    names: { kind: string; plural: string; singular: string; listKind: string; shortNames?: string[] };
    versions: Version[];
  };
}

function byName(name: string): Crd {
  const found = crds.find((c) => (c['metadata'] as { name: string }).name === name);
  assert.ok(found, `no CRD ${name}`);
  return found as unknown as Crd;
}
function schemaOf(name: string): JsonObject {
  return byName(name).spec.versions[0]!.schema.openAPIV3Schema;
}
function columns(name: string): string[] {
  return (byName(name).spec.versions[0]!.additionalPrinterColumns ?? []).map((c) => `${c.name}=${c.jsonPath}`);
}
function messages(obj: JsonObject, crdName: string): string[] {
  return validateAgainstSchema(obj, schemaOf(crdName))
    .map(fieldErrorMessage)
    .filter((m) => !m.includes('some validation rules were not checked'));
}

void test('every OpenShift CRD is structural and accepted by the API server’s CRD validation', () => {
  assert.deepEqual(
    crds.map((c) => (c['metadata'] as { name: string }).name),
    [
      'clusterversions.config.openshift.io',
      'clusteroperators.config.openshift.io',
      'infrastructures.config.openshift.io',
      'machineconfigpools.machineconfiguration.openshift.io',
      'machineconfigs.machineconfiguration.openshift.io',
      'machinesets.machine.openshift.io',
      'machines.machine.openshift.io',
      'fileintegrities.fileintegrity.openshift.io',
    ],
  );
  for (const crd of crds) {
    const name = (crd['metadata'] as { name: string }).name;
    const schema = (crd as unknown as Crd).spec.versions[0]!.schema.openAPIV3Schema;
    assert.deepEqual(structuralProblems(schema), [], `${name} breaks the structural-schema rules`);
    assert.deepEqual(validateCustomResourceDefinition(crd), [], `${name} is rejected by the API server`);
  }
});

void test('scopes, short names and subresources are openshift/api’s', () => {
  const expect: Record<string, [string, string[] | undefined]> = {
    'clusterversions.config.openshift.io': ['Cluster', undefined],
    'clusteroperators.config.openshift.io': ['Cluster', ['co']],
    'infrastructures.config.openshift.io': ['Cluster', undefined],
    'machineconfigpools.machineconfiguration.openshift.io': ['Cluster', ['mcp']],
    'machineconfigs.machineconfiguration.openshift.io': ['Cluster', ['mc']],
    'machinesets.machine.openshift.io': ['Namespaced', ['ms']],
    'machines.machine.openshift.io': ['Namespaced', undefined],
    'fileintegrities.fileintegrity.openshift.io': ['Namespaced', undefined],
  };
  for (const [name, [scope, shortNames]] of Object.entries(expect)) {
    const crd = byName(name);
    assert.equal(crd.spec.scope, scope, name);
    assert.deepEqual(crd.spec.names.shortNames, shortNames, name);
    assert.equal(crd.spec.names.listKind, `${crd.spec.names.kind}List`);
    const subresources = crd.spec.versions[0]!.subresources;
    if (name.startsWith('machinesets.')) {
      assert.deepEqual(subresources, {
        scale: {
          labelSelectorPath: '.status.labelSelector',
          specReplicasPath: '.spec.replicas',
          statusReplicasPath: '.status.replicas',
        },
        status: {},
      });
    } else assert.deepEqual(subresources, { status: {} }, name);
  }
  assert.equal(byName('clusterversions.config.openshift.io').spec.versions[0]!.name, 'v1');
  assert.equal(byName('machinesets.machine.openshift.io').spec.versions[0]!.name, 'v1beta1');
  assert.equal(byName('fileintegrities.fileintegrity.openshift.io').spec.versions[0]!.name, 'v1alpha1');
});

void test('printer columns are those of oc get', () => {
  assert.deepEqual(columns('clusterversions.config.openshift.io'), [
    'Version=.status.history[?(@.state=="Completed")].version',
    'Available=.status.conditions[?(@.type=="Available")].status',
    'Progressing=.status.conditions[?(@.type=="Progressing")].status',
    'Since=.status.conditions[?(@.type=="Progressing")].lastTransitionTime',
    'Status=.status.conditions[?(@.type=="Progressing")].message',
  ]);
  assert.deepEqual(
    columns('clusteroperators.config.openshift.io').map((c) => c.split('=')[0]),
    ['Version', 'Available', 'Progressing', 'Degraded', 'Since', 'Message'],
  );
  assert.deepEqual(
    columns('machineconfigpools.machineconfiguration.openshift.io').map((c) => c.split('=')[0]),
    [
      'Config',
      'Updated',
      'Updating',
      'Degraded',
      'MachineCount',
      'ReadyMachineCount',
      'UpdatedMachineCount',
      'DegradedMachineCount',
      'Age',
    ],
  );
  assert.deepEqual(
    columns('machinesets.machine.openshift.io').map((c) => c.split('=')[0]),
    ['Desired', 'Current', 'Ready', 'Available', 'Age'],
  );
  const machine = byName('machines.machine.openshift.io').spec.versions[0]!.additionalPrinterColumns!;
  assert.deepEqual(
    machine.filter((c) => c.priority === undefined).map((c) => c.name),
    ['Phase', 'Type', 'Region', 'Zone', 'Age'],
  );
  assert.deepEqual(
    machine.filter((c) => c.priority === 1).map((c) => c.name),
    ['Node', 'ProviderID', 'State'],
  );
});

void test('the reference examples validate and survive pruning unchanged', () => {
  const cases: [string, string][] = [
    ['clusterversion-idle', 'clusterversions.config.openshift.io'],
    ['clusterversion-updating', 'clusterversions.config.openshift.io'],
    ['clusteroperator-rolling', 'clusteroperators.config.openshift.io'],
    ['machineconfigpool-worker', 'machineconfigpools.machineconfiguration.openshift.io'],
    ['machineset-worker', 'machinesets.machine.openshift.io'],
    ['machine-provisioned', 'machines.machine.openshift.io'],
  ];
  for (const [example, crd] of cases) {
    const obj = examples[example]!;
    assert.ok(obj, example);
    assert.deepEqual(messages(obj, crd), [], `${example} is invalid`);
    const pruned = pruneUnknownFields(obj, schemaOf(crd));
    assert.deepEqual(pruned.unknownFields, [], `${example} loses fields`);
    assert.deepEqual(pruned.object, obj, example);
  }
});

void test('preserved blobs stay as written; unknown fields elsewhere are pruned', () => {
  const ms = structuredClone(examples['machineset-worker']!);
  const spec = ms['spec'] as { template: { spec: { providerSpec: { value: JsonObject } } }; bogus?: number };
  spec.template.spec.providerSpec.value['anything'] = { deeply: ['nested'] };
  spec.bogus = 1;
  const pruned = pruneUnknownFields(ms, schemaOf('machinesets.machine.openshift.io'));
  assert.deepEqual(pruned.unknownFields, ['spec.bogus']);
  assert.deepEqual((pruned.object['spec'] as typeof spec).template.spec.providerSpec.value['anything'], {
    deeply: ['nested'],
  });
  const mc: JsonObject = {
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfig',
    metadata: { name: '00-worker' },
    spec: {
      config: { ignition: { version: '3.4.0' }, storage: { files: [{ path: '/etc/x', mode: 420 }] } },
      kernelArguments: ['nosmt'],
    },
  };
  assert.deepEqual(messages(mc, 'machineconfigs.machineconfiguration.openshift.io'), []);
  assert.deepEqual(pruneUnknownFields(mc, schemaOf('machineconfigs.machineconfiguration.openshift.io')).object, mc);
});

void test('the API server rejects what openshift/api rejects', () => {
  const cv = examples['clusterversion-idle']!;
  const withSpec = (spec: JsonObject): JsonObject => ({ ...cv, spec: { ...(cv['spec'] as JsonObject), ...spec } });
  const cvd = 'clusterversions.config.openshift.io';
  const { clusterID: _id, ...noId } = cv['spec'] as JsonObject;
  assert.deepEqual(messages({ ...cv, spec: noId }, cvd), ['spec.clusterID: Required value']);
  assert.deepEqual(
    messages(
      withSpec({ desiredUpdate: { architecture: 'Multi', image: 'quay.io/x@sha256:1', version: '4.15.3' } }),
      cvd,
    ),
    ['spec.desiredUpdate: Invalid value: "object": cannot set both Architecture and Image'],
  );
  assert.ok(
    messages(withSpec({ capabilities: { baselineCapabilitySet: 'v4.99' } }), cvd).some((m) =>
      m.startsWith('spec.capabilities.baselineCapabilitySet: Unsupported value'),
    ),
  );
  const status = cv['status'] as JsonObject;
  const risky = structuredClone(status['conditionalUpdates']) as { risks: { matchingRules: JsonObject[] }[] }[];
  risky[0]!.risks[0]!.matchingRules = [];
  assert.ok(
    messages({ ...cv, status: { ...status, conditionalUpdates: risky } }, cvd).some((m) => m.includes('matchingRules')),
  );
  const { availableUpdates: _a, ...noUpdates } = status;
  assert.deepEqual(messages({ ...cv, status: noUpdates }, cvd), ['status.availableUpdates: Required value']);
  const ms = examples['machineset-worker']!;
  assert.ok(
    messages(
      { ...ms, spec: { ...(ms['spec'] as JsonObject), deletePolicy: 'Largest' } },
      'machinesets.machine.openshift.io',
    ).some((m) => m.startsWith('spec.deletePolicy: Unsupported value')),
  );
  const mcp = examples['machineconfigpool-worker']!;
  const { machineCount: _m, ...noCount } = mcp['status'] as JsonObject;
  assert.deepEqual(messages({ ...mcp, status: noCount }, 'machineconfigpools.machineconfiguration.openshift.io'), [
    'status.machineCount: Required value',
  ]);
  const co = examples['clusteroperator-rolling']!;
  const { spec: _s, ...noSpec } = co;
  assert.deepEqual(messages(noSpec, 'clusteroperators.config.openshift.io'), ['spec: Required value']);
});
