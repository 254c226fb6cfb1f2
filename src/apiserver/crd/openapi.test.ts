import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { JsonObject } from '../../lib/json.js';
import type { ResourceType } from '../types.js';
import { openApiV2Document, openApiV3Document, schemaName } from './openapi.js';

const GROUP = 'upgrade.managed.openshift.io';
const VERSION = 'v1alpha1';
const rt: ResourceType = {
  group: GROUP,
  version: VERSION,
  versions: [VERSION],
  resource: 'upgradeconfigs',
  singular: 'upgradeconfig',
  kind: 'UpgradeConfig',
  listKind: 'UpgradeConfigList',
  namespaced: true,
  shortNames: [],
  categories: [],
  subresources: ['status'],
  custom: true,
};
const schema: JsonObject = {
  type: 'object',
  description: 'UpgradeConfig is the Schema for the upgradeconfigs API',
  properties: {
    spec: {
      type: 'object',
      description: 'UpgradeConfigSpec defines the desired state of UpgradeConfig',
      required: ['desired', 'upgradeAt', 'type'],
      properties: {
        desired: {
          type: 'object',
          description: 'Specify the desired OpenShift release',
          properties: {
            version: { type: 'string', description: 'Version of openshift release' },
            channel: { type: 'string' },
          },
        },
        upgradeAt: { type: 'string', description: 'Specify the upgrade start time' },
        type: {
          type: 'string',
          enum: ['OSD', 'ARO'],
          description: 'Type indicates the ClusterUpgrader implementation to use to perform an upgrade of the cluster',
        },
        PDBForceDrainTimeout: {
          type: 'integer',
          format: 'int32',
          description: 'The maximum grace period granted to a node whose drain is blocked',
        },
        maxUnavailable: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
        note: { type: 'string', nullable: true },
      },
    },
    status: {
      type: 'object',
      properties: {
        history: { type: 'array', items: { type: 'object', properties: { version: { type: 'string' } } } },
      },
    },
  },
};

void describe('openApiV3Document', () => {
  const doc = openApiV3Document(GROUP, VERSION, [{ rt, schema }]);
  void it('names schemas like kube and tags them with their GVK', () => {
    assert.equal(schemaName(GROUP, VERSION, 'UpgradeConfig'), 'io.openshift.managed.upgrade.v1alpha1.UpgradeConfig');
    assert.equal(schemaName('', 'v1', 'Pod'), 'io.k8s.api.core.v1.Pod');
    const schemas = (doc['components'] as JsonObject)['schemas'] as JsonObject;
    const kind = schemas['io.openshift.managed.upgrade.v1alpha1.UpgradeConfig'] as JsonObject;
    assert.deepEqual(kind['x-kubernetes-group-version-kind'], [
      { group: GROUP, kind: 'UpgradeConfig', version: VERSION },
    ]);
    assert.deepEqual(((kind['properties'] as JsonObject)['metadata'] as JsonObject)['allOf'], [
      { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' },
    ]);
    assert.ok(schemas['io.openshift.managed.upgrade.v1alpha1.UpgradeConfigList']);
    assert.ok(schemas['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']);
  });
  void it('declares fieldValidation on PATCH so kubectl validates on the server', () => {
    const paths = doc['paths'] as JsonObject;
    const item = paths[
      '/apis/upgrade.managed.openshift.io/v1alpha1/namespaces/{namespace}/upgradeconfigs/{name}'
    ] as JsonObject;
    const patch = item['patch'] as JsonObject;
    assert.deepEqual(patch['x-kubernetes-group-version-kind'], {
      group: GROUP,
      kind: 'UpgradeConfig',
      version: VERSION,
    });
    assert.ok((patch['parameters'] as JsonObject[]).some((p) => p['name'] === 'fieldValidation'));
    assert.ok(paths['/apis/upgrade.managed.openshift.io/v1alpha1/namespaces/{namespace}/upgradeconfigs/{name}/status']);
  });
  void it('writes Swagger 2.0 without nullable and with int-or-string as a format', () => {
    const v2 = openApiV2Document([{ rt, version: VERSION, schema }]);
    const defs = v2['definitions'] as JsonObject;
    const spec = (
      ((defs['io.openshift.managed.upgrade.v1alpha1.UpgradeConfig'] as JsonObject)['properties'] as JsonObject)[
        'spec'
      ] as JsonObject
    )['properties'] as JsonObject;
    assert.deepEqual(spec['maxUnavailable'], { 'x-kubernetes-int-or-string': true, format: 'int-or-string' });
    assert.deepEqual(spec['note'], { type: 'string' });
  });
});

/** A loopback server with a minimal discovery and our OpenAPI documents: enough for kubectl. */
function fakeApiServer(): Server {
  const v3 = openApiV3Document(GROUP, VERSION, [{ rt, schema }]);
  const v2 = openApiV2Document([{ rt, version: VERSION, schema }]);
  const routes: Record<string, JsonObject> = {
    '/version': { major: '1', minor: '29', gitVersion: 'v1.29.0', platform: 'linux/amd64' },
    '/api': {
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1' }],
    },
    '/api/v1': { kind: 'APIResourceList', groupVersion: 'v1', resources: [] },
    '/apis': {
      kind: 'APIGroupList',
      apiVersion: 'v1',
      groups: [
        {
          name: GROUP,
          versions: [{ groupVersion: `${GROUP}/${VERSION}`, version: VERSION }],
          preferredVersion: { groupVersion: `${GROUP}/${VERSION}`, version: VERSION },
        },
      ],
    },
    [`/apis/${GROUP}/${VERSION}`]: {
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: `${GROUP}/${VERSION}`,
      resources: [
        {
          name: 'upgradeconfigs',
          singularName: 'upgradeconfig',
          namespaced: true,
          kind: 'UpgradeConfig',
          verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
          storageVersionHash: 'x',
        },
        {
          name: 'upgradeconfigs/status',
          singularName: '',
          namespaced: true,
          kind: 'UpgradeConfig',
          verbs: ['get', 'patch', 'update'],
        },
      ],
    },
    '/openapi/v3': {
      paths: { [`apis/${GROUP}/${VERSION}`]: { serverRelativeURL: `/openapi/v3/apis/${GROUP}/${VERSION}?hash=0123` } },
    },
    [`/openapi/v3/apis/${GROUP}/${VERSION}`]: v3,
    '/openapi/v2': v2,
  };
  return createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const body = routes[path];
    res.setHeader('Content-Type', 'application/json');
    if (!body) {
      res.statusCode = 404;
      res.end(
        JSON.stringify({
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: 'the server could not find the requested resource',
          reason: 'NotFound',
          code: 404,
        }),
      );
      return;
    }
    res.end(JSON.stringify(body));
  });
}

function kubectl(
  args: string[],
  kubeconfig: string,
  cacheDir: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      '/usr/bin/kubectl',
      [...args, `--kubeconfig=${kubeconfig}`, `--cache-dir=${cacheDir}`],
      { timeout: 60_000 },
      (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
      },
    );
  });
}

void describe('real kubectl against the OpenAPI documents', () => {
  let server: Server;
  let dir: string;
  let kubeconfig: string;
  before(async () => {
    server = fakeApiServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    dir = mkdtempSync(join(tmpdir(), 'crd-openapi-'));
    kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(
      kubeconfig,
      `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: http://127.0.0.1:${port}\ncontexts:\n- name: c\n  context:\n    cluster: c\n    user: u\n    namespace: default\nusers:\n- name: u\n  user: {}\ncurrent-context: c\n`,
    );
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  void it('kubectl explain upgradeconfigs.spec lists the fields with their types and descriptions', async () => {
    const r = await kubectl(['explain', 'upgradeconfigs.spec'], kubeconfig, join(dir, 'cache'));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /KIND:\s+UpgradeConfig/);
    assert.match(r.stdout, /GROUP:\s+upgrade\.managed\.openshift\.io\n/);
    assert.match(r.stdout, /VERSION:\s+v1alpha1/);
    assert.match(r.stdout, /desired\s+<Object> -required-/);
    assert.match(r.stdout, /Specify the desired OpenShift release/);
    assert.match(r.stdout, /PDBForceDrainTimeout\s+<integer>/);
    assert.match(r.stdout, /type\s+<string> -required-/);
  });

  void it('kubectl explain upgradeconfig --recursive walks the whole schema including metadata', async () => {
    const r = await kubectl(['explain', 'upgradeconfig', '--recursive'], kubeconfig, join(dir, 'cache'));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /metadata\s+<ObjectMeta>/);
    assert.match(r.stdout, /creationTimestamp\s+<string>/);
    assert.match(r.stdout, /history\s+<\[\]Object>/);
    assert.match(r.stdout, /version\s+<string>/);
  });

  void it('kubectl create --dry-run=client accepts an UpgradeConfig (validation left to the server)', async () => {
    const file = join(dir, 'uc.yaml');
    writeFileSync(
      file,
      `apiVersion: ${GROUP}/${VERSION}\nkind: UpgradeConfig\nmetadata:\n  name: osd\nspec:\n  type: OSD\n  upgradeAt: "2024-01-01T00:00:00Z"\n  desired:\n    version: 4.15.1\n`,
    );
    const r = await kubectl(['create', '--dry-run=client', '-o', 'name', '-f', file], kubeconfig, join(dir, 'cache'));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'upgradeconfig.upgrade.managed.openshift.io/osd');
  });
});
