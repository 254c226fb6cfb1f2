/**
 * The simulated OpenShift cluster, assembled: the update service, the installed state of a
 * profile (Nodes, worker MachineSets and Machines, machine-config state, ClusterOperators and
 * operator Deployments, the ClusterVersion), and every simulated component started on one
 * SimContext. The components meet only through API objects; this module only wires them.
 */
import type { Node } from 'kubernetes-types/core/v1.js';
import { NamespaceResource, NodeResource } from '../api/builtin.js';
import { MachineAnnotation, MachineLabel, MachineResource, type Machine } from '../api/openshift/machine-v1beta1/machine.js';
import { MachineSetResource, type MachineSet } from '../api/openshift/machine-v1beta1/machine-set.js';
import { isAlreadyExists } from '../kube/status-error.js';
import { formatTime } from '../lib/clock.js';
import type { SimComponent, SimContext } from './context.js';
import { createClusterVersionOperator, type ClusterVersionOperator } from './cvo/cvo.js';
import { installState } from './cvo/install.js';
import { createJobController } from './jobs/job-controller.js';
import { createMachineApi, type MachineApi } from './machineapi/machine-api.js';
import { createMachineConfigDaemons, type MachineConfigDaemons } from './mco/daemon/daemon.js';
import { createDrainController, type DrainController } from './mco/drain/drain-controller.js';
import { installMachineConfigState } from './mco/install.js';
import { createMachineConfigOperator, type MachineConfigOperator } from './mco/machine-config-operator.js';
import { createClusterMonitoring, type ClusterMonitoring } from './monitoring/cluster-monitoring.js';
import { installClusterOperators } from './operators/install.js';
import { createOperatorActors, type OperatorActors } from './operators/operator-actors.js';
import { profileByName, type ClusterProfile, type MachineSetProfile, type NodeProfile } from './profiles.js';
import { buildCatalogue, type Catalogue } from './releases/catalogue.js';
import { startUpdateService, type UpdateService } from './updateservice/server.js';
import { createWorkloads } from './workloads/deployment-controller.js';
import { openshiftCustomResourceDefinitions } from '../api/openshift/crds.js';
import { installCustomResourceDefinitions } from './install-crds.js';

const MACHINE_API_NAMESPACE = 'openshift-machine-api';

/** Options of {@link createSimulatedCluster}. */
export interface SimulatedClusterOptions {
  /** A profile, or its name (`ha-cloud`). */
  profile: ClusterProfile | string;
  /** Installed version (default: the profile's). */
  version?: string;
  /** Channel at install (default: the profile's). */
  channel?: string;
  /** Default: the built-in catalogue. */
  catalogue?: Catalogue;
  /** Seeds the cluster ID (the components draw from `ctx.random`). Default 1. */
  seed?: number;
  /** Divides every duration of every component (default 1). */
  timeScale?: number;
  /** Serve Prometheus and Alertmanager over HTTP (default true). */
  serveMonitoring?: boolean;
}

/** The components, for the scenario layer's fault hooks. */
export interface SimulatedClusterComponents {
  clusterVersionOperator: ClusterVersionOperator;
  operators: OperatorActors;
  machineConfigOperator: MachineConfigOperator;
  daemons: MachineConfigDaemons;
  drain: DrainController;
  machineApi: MachineApi;
  workloads: SimComponent;
  jobs: SimComponent;
  monitoring: ClusterMonitoring;
}

/** The assembled cluster. */
export interface SimulatedCluster {
  readonly profile: ClusterProfile;
  readonly components: SimulatedClusterComponents;
  /** The update service's graph URL (`spec.upstream`); throws before `start`. */
  readonly updateServiceUrl: string;
  /** The update service itself (fault hooks); throws before `start`. */
  readonly updateService: UpdateService;
  /** Installs the cluster's state and starts every component; resolves once all are running. */
  start(signal: AbortSignal): Promise<void>;
  /** Stops the update service (components stop with the signal given to `start`). */
  close(): Promise<void>;
}

/** Builds the simulated cluster (nothing is written until `start`). */
export function createSimulatedCluster(ctx: SimContext, options: SimulatedClusterOptions): SimulatedCluster {
  const profile = typeof options.profile === 'string' ? profileByName(options.profile) : options.profile;
  const version = options.version ?? profile.version;
  const channel = options.channel ?? profile.channel;
  const catalogue = options.catalogue ?? buildCatalogue();
  const timeScale = options.timeScale ?? 1;
  let service: UpdateService | undefined;

  const drain = createDrainController(ctx, { timeScale });
  const components: SimulatedClusterComponents = {
    machineConfigOperator: createMachineConfigOperator(ctx, { timeScale }),
    daemons: createMachineConfigDaemons(ctx, { timeScale }),
    drain,
    machineApi: createMachineApi(ctx, { timeScale }),
    workloads: createWorkloads(ctx, { timeScale }),
    jobs: createJobController(ctx, { timeScale }),
    operators: createOperatorActors(ctx, { timeScale, catalogue }),
    clusterVersionOperator: createClusterVersionOperator(ctx, { catalogue, timeScale }),
    monitoring: createClusterMonitoring(ctx, { drainErrorNodes: () => drain.drainErrorNodes(), serve: options.serveMonitoring ?? true }),
  };

  const requireService = (): UpdateService => {
    if (!service) throw new Error('the simulated cluster is not started');
    return service;
  };

  return {
    profile,
    components,
    get updateServiceUrl() {
      return requireService().graphUrl;
    },
    get updateService() {
      return requireService();
    },
    async start(signal: AbortSignal): Promise<void> {
      await installCustomResourceDefinitions(ctx.client, openshiftCustomResourceDefinitions());
      service = await startUpdateService({
        catalogue,
        clock: ctx.clock,
        ...(ctx.activity ? { activity: ctx.activity } : {}),
        logger: ctx.logger.child({ component: 'sim-update-service' }),
      });
      signal.addEventListener('abort', () => void service?.close(), { once: true });
      await installNodes(ctx, profile);
      await installMachines(ctx, profile);
      await installMachineConfigState(ctx, { version });
      await installClusterOperators(ctx, version, { catalogue, signal });
      await installState(ctx, { version, channel, catalogue, upstream: service.graphUrl, clusterID: clusterIdFor(options.seed ?? 1) });
      // Order matters only for readability: every component waits for its own caches.
      const order: SimComponent[] = [
        components.machineConfigOperator,
        components.daemons,
        components.drain,
        components.machineApi,
        components.workloads,
        components.jobs,
        components.operators,
        components.clusterVersionOperator,
        components.monitoring,
      ];
      for (const c of order) await c.start(signal);
    },
    async close(): Promise<void> {
      await service?.close();
    },
  };
}

/** A UUID-shaped cluster ID derived from the seed (stable across runs). */
export function clusterIdFor(seed: number): string {
  let h = (seed >>> 0) ^ 0x9e3779b9;
  let hex = '';
  while (hex.length < 32) {
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
    h = (h ^ (h >>> 12)) >>> 0;
    hex += h.toString(16).padStart(8, '0');
  }
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The Node object of a profile node, as the kubelet registers it (status written separately). */
export function nodeObject(n: NodeProfile): Node {
  const node: Node = { apiVersion: 'v1', kind: 'Node', metadata: { name: n.name, labels: { ...n.labels } }, spec: {} };
  if (n.role === 'master') node.spec = { taints: [{ key: 'node-role.kubernetes.io/master', effect: 'NoSchedule' }] };
  node.spec = { ...node.spec, providerID: `aws:///${n.zone}/i-0${hashHex(n.name, 16)}` };
  if (n.machineSet) node.metadata = { ...node.metadata, annotations: { [MachineAnnotation.NodeMachine]: `${MACHINE_API_NAMESPACE}/${machineNameFor(n)}` } };
  return node;
}

function hashHex(s: string, length: number): string {
  let h = 2166136261;
  let out = '';
  for (let round = 0; out.length < length; round++) {
    for (const ch of `${s}#${round}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
    out += h.toString(16).padStart(8, '0');
  }
  return out.slice(0, length);
}

/** The Machine name of a worker node. */
export function machineNameFor(n: NodeProfile): string {
  return `${n.machineSet ?? ''}-${hashHex(n.name, 5).replace(/[0-9]/g, (d) => 'bcdfghjklm'[Number(d)] ?? 'x')}`;
}

async function createOrGet<T>(create: () => Promise<T>, get: () => Promise<T>): Promise<T> {
  try {
    return await create();
  } catch (err) {
    if (isAlreadyExists(err)) return get();
    throw err;
  }
}

async function installNodes(ctx: SimContext, profile: ClusterProfile): Promise<void> {
  const now = formatTime(ctx.clock.now());
  for (const n of profile.nodes) {
    const created = await createOrGet(
      () => ctx.client.create(NodeResource, nodeObject(n)),
      () => ctx.client.get(NodeResource, undefined, n.name),
    );
    const cpu = n.role === 'master' ? '4' : '8';
    const memory = n.role === 'master' ? '16163416Ki' : '32512836Ki';
    await ctx.client.updateStatus(NodeResource, {
      ...created,
      status: {
        capacity: { cpu, memory, pods: '250' },
        allocatable: { cpu: n.role === 'master' ? '3500m' : '7500m', memory, pods: '250' },
        conditions: [
          { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available', lastHeartbeatTime: now, lastTransitionTime: now },
          { type: 'DiskPressure', status: 'False', reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure', lastHeartbeatTime: now, lastTransitionTime: now },
          { type: 'PIDPressure', status: 'False', reason: 'KubeletHasSufficientPID', message: 'kubelet has sufficient PID available', lastHeartbeatTime: now, lastTransitionTime: now },
          { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: now, lastTransitionTime: now },
        ],
        addresses: [
          { type: 'InternalIP', address: n.name.replace(/^ip-/, '').replace(/\.ec2\.internal$/, '').replace(/-/g, '.') },
          { type: 'Hostname', address: n.name },
          { type: 'InternalDNS', address: n.name },
        ],
        nodeInfo: {
          architecture: 'amd64',
          bootID: hashHex(`${n.name}/boot`, 32),
          containerRuntimeVersion: 'cri-o://1.27.4',
          kernelVersion: '5.14.0-284.73.1.el9_2.x86_64',
          kubeProxyVersion: 'v1.27.16',
          kubeletVersion: 'v1.27.16',
          machineID: hashHex(`${n.name}/machine`, 32),
          operatingSystem: 'linux',
          osImage: 'Red Hat Enterprise Linux CoreOS',
          systemUUID: hashHex(`${n.name}/uuid`, 32),
        },
      },
    });
  }
}

function machineSetObject(ms: MachineSetProfile, profile: ClusterProfile): MachineSet {
  const selector = { [MachineLabel.Cluster]: profile.infrastructureName, [MachineLabel.MachineSet]: ms.name };
  return {
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'MachineSet',
    // Hive labels the MachineSets of its machine pools (OSD/ROSA clusters); managed upgrades select them by it.
    metadata: { name: ms.name, namespace: MACHINE_API_NAMESPACE, labels: { [MachineLabel.Cluster]: profile.infrastructureName, 'hive.openshift.io/machine-pool': 'worker' } },
    spec: {
      replicas: profile.nodes.filter((n) => n.machineSet === ms.name).length,
      selector: { matchLabels: selector },
      template: {
        metadata: { labels: { ...selector, [MachineLabel.MachineRole]: 'worker', [MachineLabel.MachineType]: 'worker' } },
        spec: {
          metadata: {},
          providerSpec: {
            value: {
              apiVersion: 'machine.openshift.io/v1beta1',
              kind: 'AWSMachineProviderConfig',
              instanceType: profile.instanceType.worker,
              placement: { availabilityZone: ms.zone, region: profile.region },
            },
          },
        },
      },
    },
  };
}

async function installMachines(ctx: SimContext, profile: ClusterProfile): Promise<void> {
  if (profile.machineSets.length === 0) return;
  await createOrGet(
    () => ctx.client.create(NamespaceResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: MACHINE_API_NAMESPACE } }),
    () => ctx.client.get(NamespaceResource, undefined, MACHINE_API_NAMESPACE),
  );
  const now = formatTime(ctx.clock.now());
  for (const msProfile of profile.machineSets) {
    const ms = await createOrGet(
      () => ctx.client.create(MachineSetResource, machineSetObject(msProfile, profile)),
      () => ctx.client.get(MachineSetResource, MACHINE_API_NAMESPACE, msProfile.name),
    );
    for (const n of profile.nodes.filter((x) => x.machineSet === msProfile.name)) {
      const node = await ctx.client.get(NodeResource, undefined, n.name);
      const template = ms.spec?.template;
      const machine: Machine = {
        apiVersion: 'machine.openshift.io/v1beta1',
        kind: 'Machine',
        metadata: {
          name: machineNameFor(n),
          namespace: MACHINE_API_NAMESPACE,
          labels: {
            ...template?.metadata?.labels,
            'machine.openshift.io/instance-type': profile.instanceType.worker,
            'machine.openshift.io/region': profile.region,
            'machine.openshift.io/zone': n.zone,
          },
          annotations: { [MachineAnnotation.InstanceState]: 'running' },
          ownerReferences: [{ apiVersion: 'machine.openshift.io/v1beta1', kind: 'MachineSet', name: ms.metadata?.name ?? '', uid: ms.metadata?.uid ?? '', controller: true, blockOwnerDeletion: true }],
        },
        spec: { ...structuredClone(template?.spec ?? {}), providerID: node.spec?.providerID ?? '' },
      };
      const created = await createOrGet(
        () => ctx.client.create(MachineResource, machine),
        () => ctx.client.get(MachineResource, MACHINE_API_NAMESPACE, machine.metadata?.name ?? ''),
      );
      await ctx.client.updateStatus(MachineResource, {
        ...created,
        status: {
          phase: 'Running',
          lastUpdated: now,
          nodeRef: { kind: 'Node', name: n.name, uid: node.metadata?.uid ?? '' },
          addresses: node.status?.addresses ?? [],
        },
      });
    }
  }
}
