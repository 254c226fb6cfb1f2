/**
 * The ClusterOperators and operator Deployments of an installed cluster at one release: every
 * ClusterOperator of the payload (`spec: {}`, status through `/status`: Available=True,
 * Progressing=False, Degraded=False, Upgradeable=True, the payload's versions) and its
 * component's Deployment as the CVO applied it (server-side apply, field manager
 * `cluster-version-operator`), rolled out.
 */
import type { Deployment } from 'kubernetes-types/apps/v1.js';
import { DeploymentResource, NodeResource } from '../../api/builtin.js';
import { ClusterOperatorResource, type ClusterOperator } from '../../api/openshift/config-v1/cluster-operator.js';
import { isAlreadyExists } from '../../kube/status-error.js';
import type { JsonValue } from '../../lib/json.js';
import { ensureNamespace } from '../../kube/ensure-namespace.js';
import type { SimContext } from '../context.js';
import { buildCatalogue, findRelease, type Catalogue } from '../releases/catalogue.js';
import { payloadFor, type ReleasePayload } from '../releases/payload.js';
import { clusterSize, revisionOf } from './actor-support.js';
import { mergeConditions, operatorConditions } from './co-status.js';
import { componentDeploymentFor, deploymentStatus, operatorDeploymentManifest } from './component-deployment.js';
import { componentImage } from '../releases/operator-deployment.js';
import { operatorProfile } from './profiles.js';

/** The field manager the CVO applies manifests with. */
export const CVO_FIELD_MANAGER = 'cluster-version-operator';

/** Options of {@link installClusterOperators}. */
export interface InstallClusterOperatorsOptions {
  /** Where `version` is looked up (default: the built-in catalogue). */
  catalogue?: Catalogue;
  /** The payload to install from (instead of looking the version up). */
  payload?: ReleasePayload;
  /** ClusterOperators to leave out (default none). */
  exclude?: readonly string[];
  signal?: AbortSignal;
}

/** Creates the ClusterOperators and operator Deployments of an installed cluster; returns the operator names. Existing objects are kept. */
export async function installClusterOperators(
  ctx: SimContext,
  version: string,
  options: InstallClusterOperatorsOptions = {},
): Promise<string[]> {
  const payload = options.payload ?? payloadOf(options.catalogue ?? buildCatalogue(), version);
  const exclude = new Set(options.exclude ?? []);
  const signal = options.signal ? { signal: options.signal } : {};
  const size = clusterSize((await ctx.client.list(NodeResource, signal)).items);
  const done = new Set<string>();
  const names: string[] = [];
  for (const co of payload.clusterOperators) {
    if (exclude.has(co.name)) continue;
    names.push(co.name);
    const ref = componentDeploymentFor(payload, co);
    const key = `${ref.namespace}/${ref.name}`;
    if (!done.has(key)) {
      done.add(key);
      await ensureNamespace(ctx.client, ref.namespace, { signal: options.signal });
      const manifest = operatorDeploymentManifest(ref, payload.version, componentImage(payload, ref.component));
      const applied = await ctx.client.patch(
        DeploymentResource,
        ref.namespace,
        ref.name,
        manifest as unknown as JsonValue,
        { type: 'apply', fieldManager: CVO_FIELD_MANAGER, force: true, ...signal },
      );
      const rolled: Deployment = { ...applied, status: { availableReplicas: 1 } };
      await ctx.client.updateStatus(
        DeploymentResource,
        { ...applied, status: deploymentStatus(rolled, 'complete', ctx.clock.now()) },
        signal,
      );
    }
    const profile = operatorProfile(co.name);
    let obj: ClusterOperator;
    try {
      obj = await ctx.client.create(
        ClusterOperatorResource,
        { apiVersion: 'config.openshift.io/v1', kind: 'ClusterOperator', metadata: { name: co.name }, spec: {} },
        signal,
      );
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      obj = await ctx.client.get(ClusterOperatorResource, undefined, co.name, signal);
      if ((obj.status?.conditions ?? []).length > 0) continue;
    }
    const conditions = operatorConditions({
      profile,
      version: payload.version,
      revision: revisionOf(undefined, co.name),
      masters: size.masters,
      nodes: size.nodes,
    });
    const versions = (co.operandVersions ?? [{ name: 'operator', version: payload.version }]).map((v) => ({ ...v }));
    const relatedObjects =
      profile.relatedObjects.length > 0
        ? profile.relatedObjects
        : [{ group: '', resource: 'namespaces', name: ref.namespace }];
    await ctx.client.updateStatus(
      ClusterOperatorResource,
      {
        ...obj,
        status: {
          conditions: mergeConditions(undefined, conditions, ctx.clock.now()),
          versions,
          relatedObjects,
          extension: null,
        },
      },
      signal,
    );
  }
  return names;
}

function payloadOf(catalogue: Catalogue, version: string): ReleasePayload {
  const release = findRelease(catalogue, version);
  if (!release) throw new Error(`release ${version} is not in the catalogue`);
  return payloadFor(release);
}
