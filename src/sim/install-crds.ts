/**
 * Installs CustomResourceDefinitions the simulated cluster needs (the OpenShift kinds) on
 * whatever API server it runs against, and waits until each is served. Idempotent: a CRD that
 * already exists is left as it is.
 */
import { CustomResourceDefinitionResource } from '../api/builtin.js';
import type { KubeObjectLike } from '../api/resource.js';
import type { KubeClient } from '../kube/client.js';
import { isAlreadyExists } from '../kube/status-error.js';

interface CrdShape {
  spec: { group: string; names: { plural: string }; versions: Array<{ name: string; served: boolean }> };
}

/** How {@link installCustomResourceDefinitions} waits for discovery. */
export interface InstallCrdOptions {
  /** Discovery checks per CRD before giving up (default 200). */
  attempts?: number;
  /**
   * Waits between two checks (default: one event-loop turn, enough for an API server in this
   * process). A server elsewhere registers CRDs in its own time: pass a wall-clock sleep.
   */
  pause?: () => Promise<void>;
}

/** Creates the CRDs (skipping existing ones) and resolves once discovery lists each resource. */
export async function installCustomResourceDefinitions(
  client: KubeClient,
  crds: KubeObjectLike[],
  options: InstallCrdOptions = {},
): Promise<void> {
  for (const crd of crds) {
    try {
      await client.create(CustomResourceDefinitionResource, crd);
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
    }
  }
  const attempts = options.attempts ?? 200;
  for (const crd of crds) {
    const spec = (crd as CrdShape).spec;
    const version = spec.versions.find((v) => v.served)?.name;
    if (version === undefined) continue;
    for (let attempt = 0; ; attempt++) {
      const res = await client
        .request({ method: 'GET', path: `/apis/${spec.group}/${version}` })
        .catch(() => undefined);
      if (
        (res as { resources?: Array<{ name: string }> } | undefined)?.resources?.some(
          (r) => r.name === spec.names.plural,
        )
      )
        break;
      if (attempt > attempts) throw new Error(`CRD ${spec.names.plural}.${spec.group} was not served in time`);
      // Registration is asynchronous on any API server; this waits on I/O, not on simulated time.
      await (options.pause ? options.pause() : new Promise<void>((resolve) => setImmediate(resolve)));
    }
  }
}
