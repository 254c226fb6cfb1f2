/**
 * The OpenShift Cluster Manager of a scenario: the simulated OCM (src/sim/ocm) on loopback with
 * the cluster registered under its ClusterVersion `clusterID`, the pull-secret OCM's token comes
 * from, and the file's upgrade policies, due at times relative to the scenario's start. The
 * operator reaches it through `configManager.ocmBaseUrl`, which the file writes as
 * `{{ ocmUrl }}`. With `agent: true` that URL is the simulated OCM agent's instead: on loopback,
 * with the agent's in-cluster service address as its path, since the operator picks its agent
 * client by finding that address in `ocmBaseUrl`.
 */
import { SecretResource } from '../../api/builtin.js';
import { CLUSTER_VERSION_NAME, ClusterVersionResource } from '../../api/openshift/config-v1/cluster-version.js';
import { ensureNamespace } from '../../kube/ensure-namespace.js';
import { parseGoDurationMs } from '../../lib/go-duration.js';
import { OCM_AGENT_ADDRESS } from '../../managed/config/managed-operator-config.js';
import type { HttpServer } from '../../sim/http-server.js';
import { SimOcm } from '../../sim/ocm/sim-ocm.js';
import type { ScenarioFile } from './scenario-file.js';
import type { SimEnvironment } from './sim-environment.js';

/** The token of the scenario's pull-secret (what OCM accepts). */
const TOKEN = 'scenario-pull-secret-token';

/** A running scenario OCM. */
export interface ScenarioOcm {
  readonly ocm: SimOcm;
  /** What `{{ ocmUrl }}` becomes: OCM's URL, or the agent's with `agent: true`. */
  readonly url: string;
  /** OCM's id of the simulated cluster. */
  readonly clusterId: string;
  /** Adds the file's policies, due relative to `start` (virtual ms). */
  addPolicies(start: number): void;
  /** Moves the first policy's next_run to `at` (virtual epoch ms), as an SRE rescheduling it in OCM would. */
  reschedule(at: number): void;
  /** Cancels the first policy (state `cancelled`), as an SRE cancelling the upgrade in OCM would. */
  cancel(): void;
  close(): Promise<void>;
}

/** Starts OCM for `file.ocm` (call after the simulated cluster is installed). */
export async function startScenarioOcm(
  env: SimEnvironment,
  spec: NonNullable<ScenarioFile['ocm']>,
  version: string,
): Promise<ScenarioOcm> {
  const cv = await env.client.get(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME, { signal: env.signal });
  const ocm = new SimOcm({ clock: env.clock, random: env.ctx.random.fork('ocm'), auth: { tokens: [TOKEN] } });
  const cluster = ocm.state.addCluster({
    externalId: cv.spec?.clusterID ?? '',
    name: 'scenario-cluster',
    version,
    ...(spec.nodeDrainGracePeriod ? { nodeDrainGracePeriod: spec.nodeDrainGracePeriod } : {}),
  });
  const served = { activity: env.clock.activity, logger: env.logger };
  const server: HttpServer = spec.agent
    ? await ocm.listenAgent({ ...served, clusterId: cluster.id, pathPrefix: `/${OCM_AGENT_ADDRESS}` })
    : await ocm.listen(served);
  await ensureNamespace(env.client, 'openshift-config', { signal: env.signal });
  const dockerconfig = JSON.stringify({ auths: { 'cloud.openshift.com': { auth: TOKEN, email: 'sre@example.com' } } });
  await env.client.create(SecretResource, {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'pull-secret', namespace: 'openshift-config' },
    type: 'kubernetes.io/dockerconfigjson',
    data: { '.dockerconfigjson': Buffer.from(dockerconfig).toString('base64') },
  });
  return {
    ocm,
    url: spec.agent ? `${server.url}/${OCM_AGENT_ADDRESS}` : server.url,
    clusterId: cluster.id,
    addPolicies(start: number): void {
      for (const p of spec.policies) {
        const due = parseGoDurationMs(p.nextRunIn);
        if (!due.ok) throw new Error(`ocm.policies nextRunIn: ${due.error}`);
        ocm.state.addPolicy(cluster.id, {
          version: p.version,
          nextRun: start + due.ms,
          ...(p.upgradeType ? { upgradeType: p.upgradeType } : {}),
          ...(p.capacityReservation !== undefined ? { capacityReservation: p.capacityReservation } : {}),
        });
      }
    },
    reschedule(at: number): void {
      const first = ocm.state.policies(cluster.id)[0];
      if (!first) throw new Error('the scenario OCM has no policy to reschedule');
      ocm.state.updatePolicy(cluster.id, first.id, { nextRun: at });
    },
    cancel(): void {
      const first = ocm.state.policies(cluster.id)[0];
      if (!first) throw new Error('the scenario OCM has no policy to cancel');
      ocm.state.cancelPolicy(cluster.id, first.id);
    },
    close: () => server.close(),
  };
}
