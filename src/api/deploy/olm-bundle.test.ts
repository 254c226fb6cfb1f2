/**
 * The OLM bundle (bundle/): committed as generated; the CSV checked against the
 * ClusterServiceVersion schema (a hand-written subset, below) with the embedded API server's own
 * pruning and OpenAPI validation, so an unknown field, a wrong type or a missing required field
 * fails; and its content agrees with deploy/managed (the same Deployment spec, every permission
 * of the install, the owned CRD in the bundle).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { operatorManifestOptions } from '../../cli/manifests.js';
import type { JsonObject } from '../../lib/json.js';
import { pruneUnknownFields } from '../../apiserver/crd/prune.js';
import { validateAgainstSchema } from '../../apiserver/crd/schema-validate.js';
import { renderOlmBundle } from '../manifests.js';
import { managedOperatorPermissions } from './managed-operator-rbac.js';
import { operatorDeployment } from './managed-operator-manifests.js';
import { bundleAnnotations, clusterServiceVersion, csvName } from './olm-bundle.js';

const BUNDLE = fileURLToPath(new URL('../../../bundle', import.meta.url));

/*
 * The ClusterServiceVersion (operators.coreos.com/v1alpha1) schema, transcribed by hand from the
 * CRD OLM publishes (operator-framework/api, crds/operators.coreos.com_clusterserviceversions.yaml):
 * every field of `spec` with its type and the required fields at each level. Not transcribed (kept
 * open): the descriptors' contents, API service and webhook definitions, and the Deployment spec
 * beyond its required `selector` and `template` (its schema there is Kubernetes' DeploymentSpec,
 * checked by kubernetes-types at compile time).
 */
const str: JsonObject = { type: 'string' };
const strings: JsonObject = { type: 'array', items: str };
const stringMap: JsonObject = { type: 'object', additionalProperties: str };
const open: JsonObject = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
const openList: JsonObject = { type: 'array', items: open };
const policyRule: JsonObject = {
  type: 'object',
  required: ['verbs'],
  properties: {
    apiGroups: strings,
    nonResourceURLs: strings,
    resourceNames: strings,
    resources: strings,
    verbs: strings,
  },
};
const deploymentPermissions: JsonObject = {
  type: 'array',
  items: {
    type: 'object',
    required: ['rules', 'serviceAccountName'],
    properties: { rules: { type: 'array', items: policyRule }, serviceAccountName: str },
  },
};
const crdDescription: JsonObject = {
  type: 'object',
  required: ['kind', 'name', 'version'],
  properties: {
    actionDescriptors: openList,
    description: str,
    displayName: str,
    kind: str,
    name: str,
    resources: {
      type: 'array',
      items: {
        type: 'object',
        required: ['kind', 'name', 'version'],
        properties: { kind: str, name: str, version: str },
      },
    },
    specDescriptors: openList,
    statusDescriptors: openList,
    version: str,
  },
};
const labelSelector: JsonObject = {
  type: 'object',
  properties: {
    matchExpressions: {
      type: 'array',
      items: {
        type: 'object',
        required: ['key', 'operator'],
        properties: { key: str, operator: str, values: strings },
      },
    },
    matchLabels: stringMap,
  },
};
const CSV_SCHEMA: JsonObject = {
  type: 'object',
  required: ['metadata', 'spec'],
  properties: {
    apiVersion: str,
    kind: str,
    metadata: { type: 'object' },
    spec: {
      type: 'object',
      required: ['displayName', 'install'],
      properties: {
        annotations: stringMap,
        apiservicedefinitions: open,
        cleanup: { type: 'object', required: ['enabled'], properties: { enabled: { type: 'boolean' } } },
        conversionwebhookdefinitions: openList,
        customresourcedefinitions: {
          type: 'object',
          properties: {
            owned: { type: 'array', items: crdDescription },
            required: { type: 'array', items: crdDescription },
          },
        },
        description: str,
        displayName: str,
        icon: {
          type: 'array',
          items: {
            type: 'object',
            required: ['base64data', 'mediatype'],
            properties: { base64data: str, mediatype: str },
          },
        },
        install: {
          type: 'object',
          required: ['strategy'],
          properties: {
            spec: {
              type: 'object',
              required: ['deployments'],
              properties: {
                clusterPermissions: deploymentPermissions,
                deployments: {
                  type: 'array',
                  items: {
                    type: 'object',
                    required: ['name', 'spec'],
                    properties: {
                      label: stringMap,
                      name: str,
                      spec: {
                        type: 'object',
                        required: ['selector', 'template'],
                        'x-kubernetes-preserve-unknown-fields': true,
                      },
                    },
                  },
                },
                permissions: deploymentPermissions,
              },
            },
            strategy: str,
          },
        },
        installModes: {
          type: 'array',
          items: {
            type: 'object',
            required: ['supported', 'type'],
            properties: { supported: { type: 'boolean' }, type: str },
          },
        },
        keywords: strings,
        labels: stringMap,
        links: { type: 'array', items: { type: 'object', properties: { name: str, url: str } } },
        maintainers: { type: 'array', items: { type: 'object', properties: { email: str, name: str } } },
        maturity: str,
        minKubeVersion: str,
        nativeAPIs: {
          type: 'array',
          items: {
            type: 'object',
            required: ['group', 'kind', 'version'],
            properties: { group: str, kind: str, version: str },
          },
        },
        provider: { type: 'object', properties: { name: str, url: str } },
        relatedImages: {
          type: 'array',
          items: { type: 'object', required: ['image', 'name'], properties: { image: str, name: str } },
        },
        replaces: str,
        selector: labelSelector,
        skips: strings,
        version: str,
        webhookdefinitions: openList,
      },
    },
    status: open,
  },
};

function problems(csv: JsonObject): string[] {
  const { object, unknownFields } = pruneUnknownFields(csv, CSV_SCHEMA);
  return [
    ...unknownFields.map((f) => `unknown field ${f}`),
    ...validateAgainstSchema(object, CSV_SCHEMA).map((e) => `${e.field}: ${e.type} ${e.detail}`),
  ];
}

void test('bundle/ is what `npm run manifests` generates', async () => {
  const expected = renderOlmBundle(operatorManifestOptions());
  const committed = [
    ...(await readdir(join(BUNDLE, 'manifests'))).map((f) => `manifests/${f}`),
    ...(await readdir(join(BUNDLE, 'metadata'))).map((f) => `metadata/${f}`),
  ].sort();
  assert.deepEqual(committed, [...expected.keys()].sort(), 'run `npm run manifests`');
  for (const [path, text] of expected)
    assert.equal(
      await readFile(join(BUNDLE, path), 'utf8'),
      text,
      `bundle/${path} is stale: run \`npm run manifests\``,
    );
  const annotations = parse(expected.get('metadata/annotations.yaml') ?? '') as { annotations: Record<string, string> };
  assert.deepEqual(annotations.annotations, bundleAnnotations());
});

void test('the CSV passes the ClusterServiceVersion schema (hand-written subset of the published one)', () => {
  const csv = clusterServiceVersion(operatorManifestOptions());
  assert.deepEqual(problems(csv), []);
  // The check means something: what OLM's schema rejects is rejected here.
  const spec = csv['spec'] as JsonObject;
  const broken: Array<[string, object]> = [
    ['no displayName', { ...csv, spec: { ...spec, displayName: undefined } }],
    ['an unknown field', { ...csv, spec: { ...spec, installMode: [] } }],
    ['installModes without supported', { ...csv, spec: { ...spec, installModes: [{ type: 'OwnNamespace' }] } }],
    [
      'a rule without verbs',
      {
        ...csv,
        spec: {
          ...spec,
          install: {
            strategy: 'deployment',
            spec: { deployments: [], permissions: [{ serviceAccountName: 'x', rules: [{ apiGroups: [''] }] }] },
          },
        },
      },
    ],
    [
      'a Deployment without its spec',
      { ...csv, spec: { ...spec, install: { strategy: 'deployment', spec: { deployments: [{ name: 'x' }] } } } },
    ],
  ];
  for (const [what, value] of broken)
    assert.notDeepEqual(problems(JSON.parse(JSON.stringify(value)) as JsonObject), [], what);
});

void test("the CSV installs what deploy/managed does: the Deployment, every permission, the owned CRD; OLM's conventions", async () => {
  const options = operatorManifestOptions();
  const csv = clusterServiceVersion(options) as unknown as {
    metadata: { name: string; annotations: Record<string, string> };
    spec: {
      version: string;
      installModes: Array<{ type: string; supported: boolean }>;
      customresourcedefinitions: { owned: Array<{ name: string; version: string; kind: string }> };
      install: {
        strategy: string;
        spec: {
          deployments: Array<{ name: string; spec: JsonObject }>;
          permissions: Array<{ rules: JsonObject[] }>;
          clusterPermissions: Array<{ rules: JsonObject[] }>;
        };
      };
      relatedImages: Array<{ image: string }>;
    };
  };
  assert.equal(csv.metadata.name, csvName(options.version));
  assert.equal(csv.spec.version, options.version);
  assert.equal(csv.spec.install.strategy, 'deployment');
  assert.deepEqual(
    csv.spec.installModes.map((m) => m.type),
    ['OwnNamespace', 'SingleNamespace', 'MultiNamespace', 'AllNamespaces'],
  );
  const deployment = operatorDeployment(options);
  assert.deepEqual(csv.spec.install.spec.deployments, [
    { name: 'upgrade-operator', label: deployment.metadata?.labels, spec: JSON.parse(JSON.stringify(deployment.spec)) },
  ]);
  const image = deployment.spec?.template.spec?.containers[0]?.image ?? '';
  assert.deepEqual(
    csv.spec.relatedImages.map((r) => r.image),
    [image],
  );
  assert.equal(csv.metadata.annotations['containerImage'], image);
  // Every rule of the install, none lost (those of other namespaces are cluster-wide here).
  const rules = [...csv.spec.install.spec.permissions[0]!.rules, ...csv.spec.install.spec.clusterPermissions[0]!.rules];
  assert.deepEqual(
    rules.map((r) => JSON.stringify(r)).sort(),
    managedOperatorPermissions({ leaseName: options.leaseName })
      .map((g) => JSON.stringify(g.rule))
      .sort(),
  );
  // The owned CRD is in the bundle, with that name, storage version and kind.
  const owned = csv.spec.customresourcedefinitions.owned;
  assert.equal(owned.length, 1);
  const crdText = renderOlmBundle(options).get(`manifests/${owned[0]!.name}.crd.yaml`) ?? assert.fail('the CRD file');
  const crd = parse(crdText) as {
    metadata: { name: string };
    spec: { names: { kind: string }; versions: Array<{ name: string; storage: boolean }> };
  };
  assert.equal(crd.metadata.name, owned[0]!.name);
  assert.equal(crd.spec.names.kind, owned[0]!.kind);
  assert.equal(crd.spec.versions.find((v) => v.storage)?.name, owned[0]!.version);
  const examples = JSON.parse(csv.metadata.annotations['alm-examples'] ?? '') as Array<{ kind: string }>;
  assert.deepEqual(
    examples.map((e) => e.kind),
    ['UpgradeConfig'],
  );
  // OLM creates the bundle's other objects in the operator's namespace: they name none.
  for (const [path, text] of renderOlmBundle(options))
    if (path.startsWith('manifests/') && !path.endsWith('.clusterserviceversion.yaml') && !path.endsWith('.crd.yaml'))
      for (const doc of text.split(/^---$/m).filter((d) => d.trim() !== ''))
        assert.equal((parse(doc) as { metadata: { namespace?: string } }).metadata.namespace, undefined, path);
});
