/**
 * Test support for the MCO tests: nodes, the CVO's apply of the MCO Deployment, a few-line in-test
 * "MCD" (desiredConfig ≠ currentConfig → Working → after a delay Done), the test cluster's
 * invariant monitor (docs/design/cluster-model.md#invariants) (pools, nodes, the machine-config
 * ClusterOperator), and an observer that records a timeline.
 */
import type { TestContext } from 'node:test';
import type { Node } from 'kubernetes-types/core/v1.js';
import { DeploymentResource, NamespaceResource, NodeResource } from '../../api/builtin.js';
import { ClusterOperatorResource, type ClusterOperator } from '../../api/openshift/config-v1/cluster-operator.js';
import {
  MachineConfigNodeAnnotation as Ann,
  MachineConfigPoolResource,
  type MachineConfigPool,
} from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { createLogger } from '../../lib/log.js';
import { startTestCluster, type TestCluster } from '../test-support/cluster.test-support.js';
import { installMachineConfigState, mcoImageFor, type PoolInstallSpec } from './install.js';
import {
  createMachineConfigOperator,
  type MachineConfigOperator,
  type MachineConfigOperatorOptions,
} from './machine-config-operator.js';
import { MCO_NAMESPACE } from './node-controller.js';

export interface NodeSpec {
  name: string;
  /** master, worker, or a custom pool name (its nodes also carry the worker role). */
  role: string;
  zone?: string;
}

export interface McoHarness {
  cluster: TestCluster;
  mco: MachineConfigOperator;
  /**
   * The invariant violations (docs/design/cluster-model.md#invariants) seen so far (the test
   * cluster's monitor), one per distinct message.
   */
  readonly violations: string[];
  /** Virtual time, node name → when its desiredConfig changed (in order). */
  targeted: Array<{ at: number; node: string; config: string }>;
  /** Virtual time, node name → when its currentConfig changed (it reached a config). */
  done: Array<{ at: number; node: string; config: string }>;
  /** Times the machine-config CO's operator version changed, and master pool status.configuration changes. */
  coVersions: Array<{ at: number; version: string }>;
  poolConfigs: Array<{ at: number; pool: string; config: string }>;
  /** What the CVO does: apply the MCO Deployment at a release. */
  applyMcoDeployment(version: string): Promise<void>;
  pool(name: string): MachineConfigPool;
  co(): ClusterOperator;
  nodes(): Node[];
  /** Runs the virtual clock until the condition holds (fails after `maxMinutes`). */
  until(cond: () => boolean, maxMinutes?: number): Promise<void>;
}

export interface HarnessOptions {
  version: string;
  nodes: NodeSpec[];
  pools?: PoolInstallSpec[];
  mco?: MachineConfigOperatorOptions;
  /** In-test MCD: ms a node takes from Working to Done (undefined: never). Default 5 min. */
  mcdDelay?: (node: string, n: number) => number | undefined;
  /** Run the in-test MCD (default true); false when the test starts the real daemons. */
  inTestMcd?: boolean;
  /** In-test MCD: set this node Degraded with this reason instead of Done. */
  mcdDegrade?: (node: string) => string | undefined;
}

/** Starts the cluster, nodes, installed MCO state, the MCO and the in-test MCD. */
export async function startMcoHarness(t: TestContext, o: HarnessOptions): Promise<McoHarness> {
  // MCO_TEST_LOG=debug shows the simulated cluster's log when a test needs debugging.
  const cluster = await startTestCluster(t, { logger: createLogger({ level: process.env.MCO_TEST_LOG ?? 'silent' }) });
  const { client, ctx, clock } = cluster;
  await client.create(NamespaceResource, { metadata: { name: MCO_NAMESPACE } });
  for (const n of o.nodes) {
    const labels: Record<string, string> = {
      'kubernetes.io/hostname': n.name,
      [`node-role.kubernetes.io/${n.role}`]: '',
    };
    if (n.role !== 'master' && n.role !== 'worker') labels['node-role.kubernetes.io/worker'] = '';
    if (n.zone) labels['topology.kubernetes.io/zone'] = n.zone;
    const created = await client.create(NodeResource, { metadata: { name: n.name, labels }, spec: {} });
    await client.updateStatus(NodeResource, {
      ...created,
      status: {
        conditions: [
          { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
        ],
      },
    });
  }
  await installMachineConfigState(ctx, { version: o.version, ...(o.pools ? { pools: o.pools } : {}) });

  const h: McoHarness = {
    cluster,
    mco: createMachineConfigOperator(ctx, o.mco),
    get violations(): string[] {
      return cluster.invariants!.violations().map((v) => v.message);
    },
    targeted: [],
    done: [],
    coVersions: [],
    poolConfigs: [],
    async applyMcoDeployment(version: string): Promise<void> {
      const body = {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: {
          name: 'machine-config-operator',
          namespace: MCO_NAMESPACE,
          annotations: { 'release.openshift.io/version': version },
        },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: 'machine-config-operator' } },
          template: {
            metadata: { labels: { app: 'machine-config-operator' } },
            spec: {
              containers: [
                { name: 'operator', image: mcoImageFor(version), env: [{ name: 'RELEASE_VERSION', value: version }] },
              ],
            },
          },
        },
      };
      await client.patch(DeploymentResource, MCO_NAMESPACE, 'machine-config-operator', body, {
        type: 'apply',
        fieldManager: 'cluster-version-operator',
        force: true,
      });
    },
    pool: (name) => pools.get(undefined, name)!,
    co: () => cos.get(undefined, 'machine-config')!,
    nodes: () => nodes.list(),
    async until(cond, maxMinutes = 600): Promise<void> {
      const deadline = clock.now() + maxMinutes * 60_000;
      await clock.run({ until: () => cond() || clock.now() >= deadline });
      if (!cond()) throw new Error(`condition not reached within ${maxMinutes} virtual minutes`);
    },
  };
  const pools = ctx.informers.informerFor(MachineConfigPoolResource);
  const nodes = ctx.informers.informerFor(NodeResource);
  const cos = ctx.informers.informerFor(ClusterOperatorResource);
  pools.addHandlers({
    onUpdate: (before, after) => {
      if (before.status?.configuration.name !== after.status?.configuration.name)
        h.poolConfigs.push({
          at: clock.now(),
          pool: after.metadata?.name ?? '',
          config: after.status?.configuration.name ?? '',
        });
    },
  });
  cos.addHandlers({
    onUpdate: (before, after) => {
      const v = (c: ClusterOperator): string | undefined =>
        c.status?.versions?.find((x) => x.name === 'operator')?.version;
      if (v(before) !== v(after)) h.coVersions.push({ at: clock.now(), version: v(after) ?? '' });
    },
  });

  // The in-test MCD.
  const delay = o.mcdDelay ?? ((): number => 5 * 60_000);
  const finished = new Map<string, string>();
  const started = new Map<string, string>();
  let count = 0;
  const onNode = (before: Node | undefined, node: Node): void => {
    const name = node.metadata?.name ?? '';
    const ann = node.metadata?.annotations ?? {};
    const desired = ann[Ann.DesiredConfig];
    if (before && before.metadata?.annotations?.[Ann.DesiredConfig] !== desired && desired)
      h.targeted.push({ at: clock.now(), node: name, config: desired });
    const current = ann[Ann.CurrentConfig];
    if (before && before.metadata?.annotations?.[Ann.CurrentConfig] !== current && current)
      h.done.push({ at: clock.now(), node: name, config: current });
    if (o.inTestMcd === false) return;
    if (
      !desired ||
      desired === ann[Ann.CurrentConfig] ||
      finished.get(name) === desired ||
      started.get(name) === desired
    )
      return;
    started.set(name, desired);
    const ms = delay(name, count++);
    void client
      .patch(
        NodeResource,
        undefined,
        name,
        { metadata: { annotations: { [Ann.State]: 'Working' } } },
        { type: 'merge' },
      )
      .then(() => {
        if (ms === undefined) return;
        clock.setTimer(ms, () => {
          const reason = o.mcdDegrade?.(name);
          const annotations = reason
            ? { [Ann.State]: 'Degraded', [Ann.Reason]: reason }
            : { [Ann.CurrentConfig]: desired, [Ann.State]: 'Done', [Ann.Reason]: '' };
          void client
            .patch(NodeResource, undefined, name, { metadata: { annotations } }, { type: 'merge' })
            .then(() => {
              if (!reason) finished.set(name, desired);
            });
        });
      });
  };
  nodes.addHandlers({ onAdd: (n) => onNode(undefined, n), onUpdate: onNode });
  await h.mco.start(cluster.signal);
  return h;
}

/** Node specs: `n` nodes of a role named `<prefix>0…`, zones a, b, c … in order. */
export function nodeSpecs(role: string, prefix: string, n: number): NodeSpec[] {
  return Array.from({ length: n }, (_, i) => ({
    name: `${prefix}${i}`,
    role,
    zone: `zone-${String.fromCharCode(97 + i)}`,
  }));
}
