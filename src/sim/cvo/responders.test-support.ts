/**
 * Test support for the simulated CVO: ClusterOperators as an installed cluster has them, and
 * minimal operator responders that report a component's new versions a scripted delay after the
 * CVO applied its Deployment (or never, while held).
 */
import { DeploymentResource } from '../../api/builtin.js';
import { ClusterOperatorResource } from '../../api/openshift/config-v1/cluster-operator.js';
import type { ClusterOperatorStatusCondition } from '../../api/openshift/config-v1/cluster-version.js';
import { formatTime } from '../../lib/clock.js';
import type { KubeClient } from '../../kube/client.js';
import { isConflict } from '../../kube/status-error.js';
import { buildCatalogue, findRelease, type Catalogue } from '../releases/catalogue.js';
import { payloadFor, taskGraph, type OperandVersion } from '../releases/payload.js';
import type { TestCluster } from '../test-support/cluster.test-support.js';
import { installState } from './install.js';
import {
  componentDeployment,
  componentImage,
  CVO_FIELD_MANAGER,
  deploymentManifest,
} from '../releases/operator-deployment.js';

export const CLUSTER_ID = '6f1c8a2e-3b7d-4c19-9a55-0e2d7b4f8c31';

function conditions(now: number, degraded = false, available = true): ClusterOperatorStatusCondition[] {
  const t = formatTime(now);
  return [
    { type: 'Available', status: available ? 'True' : 'False', reason: 'AsExpected', lastTransitionTime: t },
    { type: 'Progressing', status: 'False', reason: 'AsExpected', lastTransitionTime: t },
    {
      type: 'Degraded',
      status: degraded ? 'True' : 'False',
      reason: degraded ? 'Scripted' : 'AsExpected',
      lastTransitionTime: t,
    },
  ];
}

/** Sets fields of a CO's status (conditions by type are replaced or added). */
export async function patchOperator(
  client: KubeClient,
  name: string,
  change: {
    versions?: OperandVersion[];
    conditions?: Array<Omit<ClusterOperatorStatusCondition, 'lastTransitionTime'>>;
  },
  now: number,
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await patchOnce(client, name, change, now);
      return;
    } catch (err) {
      if (attempt >= 4 || !isConflict(err)) throw err;
    }
  }
}

async function patchOnce(
  client: KubeClient,
  name: string,
  change: {
    versions?: OperandVersion[];
    conditions?: Array<Omit<ClusterOperatorStatusCondition, 'lastTransitionTime'>>;
  },
  now: number,
): Promise<void> {
  const co = await client.get(ClusterOperatorResource, undefined, name);
  const status = co.status ?? {};
  if (change.versions) status.versions = change.versions;
  for (const c of change.conditions ?? []) {
    const list = status.conditions ?? [];
    const old = list.find((x) => x.type === c.type);
    const next = {
      ...c,
      lastTransitionTime: old && old.status === c.status ? old.lastTransitionTime : formatTime(now),
    };
    status.conditions = old ? list.map((x) => (x.type === c.type ? next : x)) : [...list, next];
  }
  co.status = status;
  await client.updateStatus(ClusterOperatorResource, co);
}

/** Installs ClusterVersion, every ClusterOperator and every operator Deployment at `version`. */
export async function installCluster(
  cluster: TestCluster,
  version: string,
  options: { channel?: string; upstream?: string; catalogue?: Catalogue } = {},
): Promise<void> {
  const catalogue = options.catalogue ?? buildCatalogue();
  const release = findRelease(catalogue, version)!;
  const payload = payloadFor(release);
  const now = cluster.clock.now();
  for (const m of payload.clusterOperators) {
    const co = await cluster.client.create(ClusterOperatorResource, {
      apiVersion: 'config.openshift.io/v1',
      kind: 'ClusterOperator',
      metadata: { name: m.name },
      spec: {},
    });
    co.status = { conditions: conditions(now), versions: m.operandVersions ?? [] };
    await cluster.client.updateStatus(ClusterOperatorResource, co);
  }
  await installState(cluster.ctx, {
    version,
    channel: options.channel ?? 'stable-4.15',
    clusterID: CLUSTER_ID,
    catalogue,
    ...(options.upstream ? { upstream: options.upstream } : {}),
  });
  // Operator Deployments at the installed version (so the CVO's first apply is a change).
  for (const stage of taskGraph(payload)) {
    if (stage.kind !== 'runlevel') continue;
    for (const chain of stage.components) {
      const ref = componentDeployment(chain);
      if (!ref) continue;
      await cluster.client
        .create(
          { group: '', version: 'v1', kind: 'Namespace', plural: 'namespaces', namespaced: false },
          { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ref.namespace } },
        )
        .catch(() => undefined);
      await cluster.client.patch(
        DeploymentResource,
        ref.namespace,
        ref.name,
        deploymentManifest(ref, version, componentImage(payload, chain.component)) as never,
        {
          type: 'apply',
          force: true,
          fieldManager: CVO_FIELD_MANAGER,
        },
      );
    }
  }
}

export interface Responders {
  /** Never report the new versions of these operators (until released). */
  hold(name: string): void;
  release(name: string): void;
  /** Operators that reported a version, in order, with the virtual time. */
  readonly reported: Array<{ name: string; version: string; at: number }>;
}

/**
 * Starts responders: when the CVO applies a component's Deployment with a new RELEASE_VERSION,
 * each of the component's ClusterOperators reports the new versions `delayMs(name)` later.
 */
export function startResponders(
  cluster: TestCluster,
  options: { catalogue?: Catalogue; delayMs?: (name: string) => number } = {},
): Responders {
  const catalogue = options.catalogue ?? buildCatalogue();
  const delay = options.delayMs ?? (() => 60_000);
  const held = new Set<string>();
  const waiting = new Map<string, string>();
  const reported: Responders['reported'] = [];
  const report = (name: string, version: string): void => {
    if (held.has(name)) {
      waiting.set(name, version);
      return;
    }
    const release = findRelease(catalogue, version)!;
    const manifest = payloadFor(release).clusterOperators.find((m) => m.name === name);
    if (!manifest) return;
    void patchOperator(cluster.client, name, { versions: manifest.operandVersions ?? [] }, cluster.clock.now()).then(
      () => {
        reported.push({ name, version, at: cluster.clock.now() });
      },
    );
  };
  const seen = new Map<string, string>();
  const inf = cluster.ctx.informers.informerFor(DeploymentResource);
  const onDeployment = (d: {
    metadata?: { namespace?: string; name?: string };
    spec?: { template?: { spec?: { containers?: Array<{ env?: Array<{ name: string; value?: string }> }> } } };
  }): void => {
    const version = d.spec?.template?.spec?.containers?.[0]?.env?.find((e) => e.name === 'RELEASE_VERSION')?.value;
    const key = `${d.metadata?.namespace ?? ''}/${d.metadata?.name ?? ''}`;
    if (!version || seen.get(key) === version) return;
    const first = !seen.has(key);
    seen.set(key, version);
    if (first) return;
    const release = findRelease(catalogue, version);
    if (!release) return;
    for (const stage of taskGraph(payloadFor(release))) {
      if (stage.kind !== 'runlevel') continue;
      for (const chain of stage.components) {
        const ref = componentDeployment(chain);
        if (!ref || `${ref.namespace}/${ref.name}` !== key) continue;
        for (const co of chain.tasks.filter((t) => t.kind === 'ClusterOperator')) {
          cluster.clock.setTimer(delay(co.name), () => report(co.name, version));
        }
      }
    }
  };
  inf.addHandlers({ onAdd: onDeployment, onUpdate: (_old, d) => onDeployment(d) });
  cluster.ctx.informers.start(cluster.signal);
  return {
    hold: (name) => held.add(name),
    release: (name) => {
      held.delete(name);
      const v = waiting.get(name);
      waiting.delete(name);
      if (v) report(name, v);
    },
    reported,
  };
}
