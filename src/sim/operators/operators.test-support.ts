/**
 * Test support for the operator actors: an installed cluster with nodes, a "CVO" that applies
 * component Deployments at a new version, and a recorder of every ClusterOperator write.
 */
import type { TestContext } from 'node:test';
import { DeploymentResource, NodeResource } from '../../api/builtin.js';
import { ClusterOperatorResource, type ClusterOperator } from '../../api/openshift/config-v1/cluster-operator.js';
import type { JsonValue } from '../../lib/json.js';
import { buildCatalogue, findRelease } from '../releases/catalogue.js';
import { payloadFor, type ReleasePayload } from '../releases/payload.js';
import { startTestCluster, type TestCluster } from '../test-support/cluster.test-support.js';
import { componentDeploymentFor, operatorDeploymentManifest } from './component-deployment.js';
import { componentImage } from '../releases/operator-deployment.js';
import { CVO_FIELD_MANAGER, installClusterOperators } from './install.js';
import { createOperatorActors, type OperatorActors, type OperatorActorsOptions } from './operator-actors.js';

const catalogue = buildCatalogue();

/** The payload of a catalogue release. */
export function payloadOf(version: string): ReleasePayload {
  const r = findRelease(catalogue, version);
  if (!r) throw new Error(`no release ${version}`);
  return payloadFor(r);
}

/** One observed ClusterOperator state. */
export interface Sample {
  t: number;
  name: string;
  operator: string | undefined;
  versions: string;
  available: string | undefined;
  progressing: string | undefined;
  progressingMessage: string | undefined;
  degraded: string | undefined;
  upgradeable: string | undefined;
}

/** A running cluster with the actors. */
export interface OperatorsCluster {
  cluster: TestCluster;
  actors: OperatorActors;
  samples: Sample[];
  /** Applies the component Deployments of the named operators (all when omitted) at `version`, as the CVO does. */
  bump(version: string, names?: readonly string[]): Promise<void>;
  co(name: string): Promise<ClusterOperator>;
}

export interface OperatorsClusterOptions extends OperatorActorsOptions {
  seed?: number;
  masters?: number;
  workers?: number;
  version?: string;
}

function condition(co: ClusterOperator, type: string): { status?: string; message?: string } | undefined {
  return co.status?.conditions?.find((c) => c.type === type);
}

/** Samples a ClusterOperator. */
export function sample(t: number, co: ClusterOperator): Sample {
  return {
    t,
    name: co.metadata?.name ?? '',
    operator: co.status?.versions?.find((v) => v.name === 'operator')?.version,
    versions: JSON.stringify(co.status?.versions ?? []),
    available: condition(co, 'Available')?.status,
    progressing: condition(co, 'Progressing')?.status,
    progressingMessage: condition(co, 'Progressing')?.message,
    degraded: condition(co, 'Degraded')?.status,
    upgradeable: condition(co, 'Upgradeable')?.status,
  };
}

/** Starts the fixture: nodes, the installed operators at `version` (default 4.14.10), the actors, a recorder. */
export async function startOperatorsCluster(
  t: TestContext,
  options: OperatorsClusterOptions = {},
): Promise<OperatorsCluster> {
  const cluster = await startTestCluster(t, { seed: options.seed ?? 1 });
  const { client } = cluster;
  const nodes: Array<[string, string]> = [];
  for (let i = 0; i < (options.masters ?? 3); i++) nodes.push([`master-${i}`, 'master']);
  for (let i = 0; i < (options.workers ?? 3); i++) nodes.push([`worker-${i}`, 'worker']);
  for (const [name, role] of nodes) {
    await client.create(NodeResource, {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, labels: { [`node-role.kubernetes.io/${role}`]: '' } },
    });
  }
  const version = options.version ?? '4.14.10';
  await installClusterOperators(cluster.ctx, version, { catalogue });
  const actors = createOperatorActors(cluster.ctx, { catalogue, ...options });
  const samples: Sample[] = [];
  cluster.ctx.informers.informerFor(ClusterOperatorResource).addHandlers({
    onUpdate: (_old, co) => samples.push(sample(cluster.clock.now(), co)),
  });
  await actors.start(cluster.signal);
  const bump = async (to: string, names?: readonly string[]): Promise<void> => {
    const payload = payloadOf(to);
    const seen = new Set<string>();
    for (const co of payload.clusterOperators) {
      if (names && !names.includes(co.name)) continue;
      const ref = componentDeploymentFor(payload, co);
      if (seen.has(`${ref.namespace}/${ref.name}`)) continue;
      seen.add(`${ref.namespace}/${ref.name}`);
      const manifest = operatorDeploymentManifest(ref, to, componentImage(payload, ref.component));
      await client.patch(DeploymentResource, ref.namespace, ref.name, manifest as unknown as JsonValue, {
        type: 'apply',
        fieldManager: CVO_FIELD_MANAGER,
        force: true,
      });
    }
  };
  const co = (name: string): Promise<ClusterOperator> => client.get(ClusterOperatorResource, undefined, name);
  return { cluster, actors, samples, bump, co };
}
