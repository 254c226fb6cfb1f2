/** Creates a Namespace unless it exists (a read first, so that no create is sent for an existing one). */
import { NamespaceResource } from '../api/builtin.js';
import type { KubeClient } from './client.js';
import { isAlreadyExists } from './status-error.js';

export async function ensureNamespace(
  client: KubeClient,
  name: string,
  options: { signal?: AbortSignal | undefined; fieldManager?: string } = {},
): Promise<void> {
  const signal = options.signal ? { signal: options.signal } : {};
  if (await client.getIfExists(NamespaceResource, undefined, name, signal)) return;
  try {
    await client.create(
      NamespaceResource,
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
      { ...signal, ...(options.fieldManager ? { fieldManager: options.fieldManager } : {}) },
    );
  } catch (err) {
    // Created meanwhile by someone else.
    if (!isAlreadyExists(err)) throw err;
  }
}
