/**
 * The real kubectl against the embedded API server, for the tests that apply the install
 * manifests as docs/install.md tells users to (kubectl runs in the repository's root). The embedded server serves the RBAC kinds with
 * their schemas (apiserver/builtin/rbac.ts); the harness installs the ServiceMonitor and
 * PrometheusRule CRDs as OpenShift monitoring does (and the simulated cluster does), so
 * `--validate=strict` checks those shapes.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { startApiServer, type ApiServer } from '../../apiserver/server.js';
import type { JsonObject } from '../../lib/json.js';
import { ManualClock } from '../../lib/clock.js';
import type { ManifestFile } from './operator-objects.js';
import { monitoringCustomResourceDefinitions } from '../monitoring/crds.js';

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** A kubectl run's outcome. */
export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The server, a kubeconfig for it, and kubectl. */
export interface KubectlHarness {
  readonly dir: string;
  kubectl(args: string[]): Promise<KubectlResult>;
  close(): Promise<void>;
}

async function post(server: ApiServer, path: string, body: JsonObject): Promise<void> {
  const res = await fetch(server.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 201, await res.text());
}

/** Starts the server with the monitoring CRDs and the namespaces every OpenShift cluster has. */
export async function startKubectlHarness(): Promise<KubectlHarness> {
  const dir = mkdtempSync(join(tmpdir(), 'operator-manifests-'));
  const server = await startApiServer({ port: 0, clock: new ManualClock('2026-03-02T08:00:00Z') });
  const kubeconfig = join(dir, 'kubeconfig');
  await server.writeKubeconfig(kubeconfig);
  for (const crd of monitoringCustomResourceDefinitions())
    await post(server, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
  // The CRD registry serves new groups asynchronously.
  for (let i = 0; i < 200 && (await fetch(`${server.url}/apis/monitoring.coreos.com/v1`)).status !== 200; i++)
    await sleep(10);
  for (const name of ['openshift-machine-api', 'openshift-monitoring', 'openshift-config'])
    await post(server, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  return {
    dir,
    kubectl: (args) =>
      new Promise((resolve) => {
        execFile(
          '/usr/bin/kubectl',
          [...args, `--kubeconfig=${kubeconfig}`, `--cache-dir=${join(dir, 'cache')}`],
          // From the repository's root, so that tests run the documented `kubectl apply -k deploy/managed`.
          { timeout: 60_000, cwd: REPO_ROOT },
          (err, stdout, stderr) => {
            resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
          },
        );
      }),
    async close(): Promise<void> {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One generated object and how kubectl names it (`kind.group/name`). */
export interface ObjectRef {
  ref: string;
  namespace: string | undefined;
  object: JsonObject;
}

/** Every object of the files, as kubectl names them in its output. */
export function objectRefs(files: readonly ManifestFile[]): ObjectRef[] {
  return files.flatMap((f) =>
    f.documents.map((d) => {
      const {
        metadata: meta,
        apiVersion,
        kind: kindName,
      } = d.object as unknown as { metadata: { name: string; namespace?: string }; apiVersion: string; kind: string };
      const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
      const kind = kindName.toLowerCase();
      return {
        ref: `${group === '' ? kind : `${kind}.${group}`}/${meta.name}`,
        namespace: meta.namespace,
        object: d.object,
      };
    }),
  );
}

/** Asserts that the server stored each object's labels, RBAC fields, data and Service/ServiceMonitor spec as generated. */
export async function assertStoredAsGenerated(h: KubectlHarness, refs: readonly ObjectRef[]): Promise<void> {
  for (const { ref, namespace, object } of refs) {
    const r = await h.kubectl(['get', ref, ...(namespace ? ['-n', namespace] : []), '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const stored = JSON.parse(r.stdout) as JsonObject;
    const meta = stored['metadata'] as { name: string; labels?: Record<string, string> };
    assert.deepEqual(
      meta.labels,
      {
        ...(object['metadata'] as { labels?: Record<string, string> }).labels,
        ...(ref.startsWith('namespace/') ? { 'kubernetes.io/metadata.name': meta.name } : {}),
      },
      ref,
    );
    for (const key of ['rules', 'roleRef', 'subjects', 'data'])
      if (object[key] !== undefined) assert.deepEqual(stored[key], object[key], `${ref} ${key}`);
    if (ref.startsWith('servicemonitor') || ref.startsWith('service/')) {
      const spec = stored['spec'] as JsonObject;
      for (const [k, v] of Object.entries(object['spec'] as JsonObject))
        assert.deepEqual(spec[k], v, `${ref} spec.${k}`);
    }
  }
}
