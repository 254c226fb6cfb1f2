/**
 * The simulated OpenShift cluster, assembled: the update service, the installed state of a
 * profile (the Infrastructure, Nodes, MachineSets and Machines, machine-config state,
 * ClusterOperators and operator Deployments, the ClusterVersion), and every simulated component
 * started on one SimContext, drawing from the profile's duration column. The components meet only through API objects; this module only wires them.
 */
import { NamespaceResource, NodeResource } from '../api/builtin.js';
import { INFRASTRUCTURE_NAME, InfrastructureResource } from '../api/openshift/config-v1/infrastructure.js';
import { MachineResource } from '../api/openshift/machine-v1beta1/machine.js';
import { MachineSetResource } from '../api/openshift/machine-v1beta1/machine-set.js';
import { openshiftCustomResourceDefinitions } from '../api/openshift/crds.js';
import { isAlreadyExists } from '../kube/status-error.js';
import { formatTime } from '../lib/clock.js';
import type { SimComponent, SimContext } from './context.js';
import { createClusterVersionOperator, type ClusterVersionOperator } from './cvo/cvo.js';
import { installState } from './cvo/install.js';
import { installCustomResourceDefinitions } from './install-crds.js';
import { monitoringCustomResourceDefinitions } from '../api/monitoring/crds.js';
import { ensureNamespace } from '../kube/ensure-namespace.js';
import { createJobController } from './jobs/job-controller.js';
import type { JobRule } from './jobs/job-rules.js';
import { createMachineApi, type MachineApi } from './machineapi/machine-api.js';
import { createMachineConfigDaemons, type MachineConfigDaemons } from './mco/daemon/daemon.js';
import { createDrainController, type DrainController } from './mco/drain/drain-controller.js';
import { installMachineConfigState } from './mco/install.js';
import { createMachineConfigOperator, type MachineConfigOperator } from './mco/machine-config-operator.js';
import { createClusterMonitoring, type ClusterMonitoring } from './monitoring/cluster-monitoring.js';
import { installClusterOperators } from './operators/install.js';
import { createOperatorActors, type OperatorActors } from './operators/operator-actors.js';
import { profileByName, type ClusterProfile } from './profiles.js';
import { withExplicitTopology, type ExplicitTopology } from './profiles/explicit.js';
import { platformRuleGroups } from './monitoring/platform-rules.js';
import type { RuleGroup } from './monitoring/rules.js';
import { MACHINE_API_NAMESPACE } from '../api/openshift/machine-v1beta1/machine.js';
import { infrastructureObject, machineObject, machineSetObject, nodeObject, nodeStatus } from './profiles/objects.js';
import { buildCatalogue, type Catalogue } from './releases/catalogue.js';
import { startUpdateService, type UpdateService } from './updateservice/server.js';
import { createWorkloads } from './workloads/deployment-controller.js';
import { createNodeLifecycleController } from './nodes/node-lifecycle-controller.js';

/** Options of {@link createSimulatedCluster}. */
export interface SimulatedClusterOptions {
  /** A profile, or its name (`ha-cloud`, `bare-metal`, `single-node`). */
  profile: ClusterProfile | string;
  /** Worker nodes of a named profile (its default when undefined). */
  workers?: number | undefined;
  /** Infra nodes of a named profile (default 0). */
  infraNodes?: number | undefined;
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
  /** How batch Jobs end (first match wins; default: success after about a minute). */
  jobRules?: JobRule[];
  /** Nodes that were on the server before the run (`--force`): their own controllers keep them. */
  foreignNodes?: ReadonlySet<string>;
  /** Nodes, MachineSets and pool settings replacing the profile's (a snapshot of a real cluster). */
  topology?: ExplicitTopology;
  /** Alerts firing throughout, besides the platform rules' (alerts a snapshot found firing). */
  alerts?: readonly FiringAlert[];
}

/** An alert that fires from the start to the end of a run. */
export interface FiringAlert {
  /** Its labels, `alertname` among them. */
  labels: Record<string, string>;
  annotations?: Record<string, string> | undefined;
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
  nodeLifecycle: SimComponent;
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
  const profile = options.topology
    ? withExplicitTopology(resolveProfile(options), options.topology)
    : resolveProfile(options);
  const version = options.version ?? profile.version;
  const channel = options.channel ?? profile.channel;
  const catalogue = options.catalogue ?? buildCatalogue();
  const timeScale = options.timeScale ?? 1;
  let service: UpdateService | undefined;

  // Each component draws from the profile's duration column
  // (docs/design/cluster-model.md#durations).
  const d = profile.durations;
  const drain = createDrainController(ctx, { timeScale, durations: d.drain });
  const components: SimulatedClusterComponents = {
    nodeLifecycle: createNodeLifecycleController(ctx, {
      ...(options.foreignNodes ? { foreignNodes: options.foreignNodes } : {}),
    }),
    machineConfigOperator: createMachineConfigOperator(ctx, { timeScale, durations: d.machineConfigOperator }),
    daemons: createMachineConfigDaemons(ctx, {
      timeScale,
      durations: d.daemon,
      controlPlaneTopology: profile.controlPlaneTopology,
    }),
    drain,
    machineApi: createMachineApi(ctx, { timeScale, durations: d.machineApi }),
    workloads: createWorkloads(ctx, { timeScale }),
    jobs: createJobController(ctx, { timeScale, ...(options.jobRules ? { rules: options.jobRules } : {}) }),
    operators: createOperatorActors(ctx, { timeScale, catalogue, durations: d.operators }),
    clusterVersionOperator: createClusterVersionOperator(ctx, { catalogue, timeScale, durations: d.cvo }),
    monitoring: createClusterMonitoring(ctx, {
      drainErrorNodes: () => drain.drainErrorNodes(),
      serve: options.serveMonitoring ?? true,
      ...(options.alerts && options.alerts.length > 0
        ? { groups: [...platformRuleGroups(), firingAlertsGroup(options.alerts)] }
        : {}),
    }),
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
      await installCustomResourceDefinitions(ctx.client, [
        ...openshiftCustomResourceDefinitions(),
        ...monitoringCustomResourceDefinitions(),
      ]);
      service = await startUpdateService({
        catalogue,
        clock: ctx.clock,
        ...(ctx.activity ? { activity: ctx.activity } : {}),
        logger: ctx.logger.child({ component: 'sim-update-service' }),
      });
      signal.addEventListener('abort', () => void service?.close(), { once: true });
      // Namespaces every OpenShift 4 cluster has, whatever its profile (an install's Roles live there).
      for (const name of PLATFORM_NAMESPACES) await ensureNamespace(ctx.client, name, { signal });
      await installInfrastructure(ctx, profile);
      await installNodes(ctx, profile);
      await installMachines(ctx, profile);
      await installMachineConfigState(ctx, {
        version,
        pools: profile.pools,
        controlPlaneTopology: profile.controlPlaneTopology,
      });
      await installClusterOperators(ctx, version, { catalogue, signal });
      await installState(ctx, {
        version,
        channel,
        catalogue,
        upstream: service.graphUrl,
        clusterID: clusterIdFor(options.seed ?? 1),
      });
      // Order matters only for readability: every component waits for its own caches.
      const order: SimComponent[] = [
        components.nodeLifecycle,
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

/** A rule group whose rules keep each alert firing (`vector(1)` with its labels). */
export function firingAlertsGroup(alerts: readonly FiringAlert[]): RuleGroup {
  return {
    name: 'scenario-firing-alerts',
    file: '/etc/prometheus/rules/scenario-firing-alerts.yaml',
    rules: alerts.map(({ labels: { alertname, ...labels }, annotations }) => ({
      name: alertname ?? 'ScenarioAlert',
      expr: 'vector(1)',
      labels,
      ...(annotations ? { annotations } : {}),
    })),
  };
}

/** The profile of the options: a named one built with the size options, or the one given (then without size options). */
function resolveProfile(options: SimulatedClusterOptions): ClusterProfile {
  if (typeof options.profile === 'string')
    return profileByName(options.profile, { workers: options.workers, infraNodes: options.infraNodes });
  if (options.workers !== undefined || options.infraNodes !== undefined)
    throw new Error('workers and infraNodes apply to a named profile; size a ClusterProfile when building it');
  return options.profile;
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

async function createOrGet<T>(create: () => Promise<T>, get: () => Promise<T>): Promise<T> {
  try {
    return await create();
  } catch (err) {
    if (isAlreadyExists(err)) return get();
    throw err;
  }
}

/** The Infrastructure `cluster` (platform, topology, infrastructure name), status included. */
async function installInfrastructure(ctx: SimContext, profile: ClusterProfile): Promise<void> {
  const { status, ...object } = infrastructureObject(profile);
  const created = await createOrGet(
    () => ctx.client.create(InfrastructureResource, object),
    () => ctx.client.get(InfrastructureResource, undefined, INFRASTRUCTURE_NAME),
  );
  await ctx.client.updateStatus(InfrastructureResource, { ...created, ...(status ? { status } : {}) });
}

async function installNodes(ctx: SimContext, profile: ClusterProfile): Promise<void> {
  const now = ctx.clock.now();
  for (const n of profile.nodes) {
    const created = await createOrGet(
      () => ctx.client.create(NodeResource, nodeObject(n)),
      () => ctx.client.get(NodeResource, undefined, n.name),
    );
    await ctx.client.updateStatus(NodeResource, { ...created, status: nodeStatus(n, now) });
  }
}

/** The namespaces of an OpenShift 4 cluster that hold what installs and operators refer to (pull-secret, monitoring, machines). */
const PLATFORM_NAMESPACES = ['openshift-config', 'openshift-monitoring', MACHINE_API_NAMESPACE];

async function installMachines(ctx: SimContext, profile: ClusterProfile): Promise<void> {
  if (profile.machineSets.length === 0) return;
  await createOrGet(
    () =>
      ctx.client.create(NamespaceResource, {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: MACHINE_API_NAMESPACE },
      }),
    () => ctx.client.get(NamespaceResource, undefined, MACHINE_API_NAMESPACE),
  );
  const now = formatTime(ctx.clock.now());
  for (const msProfile of profile.machineSets) {
    const ms = await createOrGet(
      () => ctx.client.create(MachineSetResource, machineSetObject(msProfile, profile)),
      () => ctx.client.get(MachineSetResource, MACHINE_API_NAMESPACE, msProfile.name),
    );
    for (const n of profile.nodes.filter((x) => x.machine?.machineSet === msProfile.name)) {
      const node = await ctx.client.get(NodeResource, undefined, n.name);
      const machine = machineObject(n, ms, msProfile, profile.region);
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
