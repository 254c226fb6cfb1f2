/**
 * Creates any object from a manifest, as `kubectl create -f` does: the resource (plural name,
 * scope) is found through the API server's discovery, so a scenario can apply built-in kinds,
 * OpenShift kinds and this project's custom resources alike. A Namespace that exists is adopted.
 */
import { resource, type KubeObjectLike, type ResourceDescriptor } from '../../api/resource.js';
import type { KubeClient } from '../../kube/client.js';
import { isAlreadyExists } from '../../kube/status-error.js';
import { isJsonObject, type JsonObject } from '../../lib/json.js';

/** The descriptor of `kind` in `apiVersion`, from discovery. */
export async function discoverResource(
  client: KubeClient,
  apiVersion: string,
  kind: string,
  signal?: AbortSignal,
): Promise<ResourceDescriptor<KubeObjectLike>> {
  const [group, version] = apiVersion.includes('/') ? (apiVersion.split('/', 2) as [string, string]) : ['', apiVersion];
  const list = await client.request({
    method: 'GET',
    path: group ? `/apis/${group}/${version}` : `/api/${version}`,
    ...(signal ? { signal } : {}),
  });
  const resources = isJsonObject(list) && Array.isArray(list['resources']) ? list['resources'] : [];
  for (const r of resources) {
    if (isJsonObject(r) && r['kind'] === kind && typeof r['name'] === 'string' && !r['name'].includes('/')) {
      return resource({ group, version, kind, plural: r['name'], namespaced: r['namespaced'] === true });
    }
  }
  throw new Error(`the server has no kind ${kind} in ${apiVersion}`);
}

/** Creates the object (namespaced kinds default to `default`). */
export async function applyManifest(client: KubeClient, manifest: JsonObject, signal?: AbortSignal): Promise<void> {
  const { apiVersion, kind } = manifest;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string')
    throw new Error('a manifest needs apiVersion and kind');
  const d = await discoverResource(client, apiVersion, kind, signal);
  const meta = isJsonObject(manifest['metadata']) ? manifest['metadata'] : {};
  const obj =
    d.namespaced && typeof meta['namespace'] !== 'string'
      ? { ...manifest, metadata: { ...meta, namespace: 'default' } }
      : manifest;
  try {
    await client.create(d, obj, signal ? { signal } : {});
  } catch (err) {
    // A Namespace that is there already (prepared by the user, with the shipped RBAC) is adopted.
    if (!(apiVersion === 'v1' && kind === 'Namespace' && isAlreadyExists(err))) throw err;
  }
}

/** True when the object's `status.conditions` has `type` with `status`. */
export function hasCondition(obj: KubeObjectLike, type: string, status: string, reason?: string): boolean {
  const conditions = (obj as { status?: { conditions?: Array<{ type?: string; status?: string; reason?: string }> } })
    .status?.conditions;
  return (conditions ?? []).some(
    (c) => c.type === type && c.status === status && (reason === undefined || c.reason === reason),
  );
}
