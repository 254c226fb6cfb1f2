/**
 * The simulated operator's pod: in a simulation with the embedded API server, the operator runs
 * in this process, and the cluster shows it as the install manifests would run it — the
 * Deployment of `upgrade-operator manifests` (deploy/managed, or deploy/scheduled when
 * only the scheduled flow runs) in the operator namespace and one
 * Running pod it owns, carrying the Deployment's selector labels, so that
 * `kubectl logs -n openshift-managed-upgrade-operator deploy/upgrade-operator` finds it.
 *
 * Its `pods/log` serves the operator's real log lines (pino JSON, as the operator writes them):
 * every line the operator logs at info or above is kept (the last {@link MAX_LINES}), stamped with
 * the simulation's clock. A restart of the operator (a scenario's `restartOperator`) is a
 * restart of the container: its restartCount goes up, and `--previous` serves the lines of the
 * process before.
 *
 * Neither object is a workload: the simulated Deployment controller leaves Deployments with
 * {@link SIMULATED_PROCESS_ANNOTATION} alone, and the pod is bound to no Node (no drain moves it).
 */
import type { Deployment } from 'kubernetes-types/apps/v1.js';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { pino, type DestinationStream } from 'pino';
import { DeploymentResource, PodResource } from '../../api/builtin.js';
import { operatorDeployment } from '../../api/deploy/managed-operator-manifests.js';
import { scheduledDeployment } from '../../api/deploy/scheduled-operator-manifests.js';
import { OPERATOR_NAME } from '../../api/deploy/operator-objects.js';
import { MANAGED_UPGRADE_OPERATOR_NAMESPACE } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import type { PodLogLine, PodLogSource, PodLogs } from '../../apiserver/pod-logs.js';
import type { KubeClient } from '../../kube/client.js';
import { isNotFound } from '../../kube/status-error.js';
import { formatTime, type Clock } from '../../lib/clock.js';
import type { Logger } from '../../lib/log.js';
import { createLogger } from '../../lib/log.js';
import { SIMULATED_PROCESS_ANNOTATION } from '../../sim/workloads/deployment-controller.js';
import { templateHash } from '../../sim/workloads/names.js';
import { LEADER_ELECTION_ID, SCHEDULED_LEADER_ELECTION_ID } from '../commands/run.js';
import { version } from '../version.js';

/** Lines kept per container instance. */
export const MAX_LINES = 20_000;

/** The operator's pod in a simulation: its objects, its log, its restarts. */
export class OperatorPod implements PodLogSource {
  readonly namespace = MANAGED_UPGRADE_OPERATOR_NAMESPACE;
  readonly deploymentName = OPERATOR_NAME;
  readonly #clock: Clock;
  readonly #managed: boolean;
  #current: PodLogLine[] = [];
  #previous: PodLogLine[] | undefined;
  #starts = 0;
  #podName: string | undefined;
  #unregister: (() => void) | undefined;

  /** `managed`: the managed flow runs (its Deployment), else only the scheduled flow (that one's, in this namespace). */
  constructor(clock: Clock, managed: boolean) {
    this.#clock = clock;
    this.#managed = managed;
  }

  /** The container's name (the Deployment's only container). */
  get container(): string {
    return OPERATOR_NAME;
  }

  /** The pod's name, once published. */
  get podName(): string | undefined {
    return this.#podName;
  }

  lines(container: string, previous: boolean): readonly PodLogLine[] | undefined {
    if (container !== this.container) return [];
    return previous ? this.#previous : this.#current;
  }

  /**
   * The logger of one operator process: its lines go to this pod's log, and to `outer`'s
   * destination at `outer`'s level (the simulation's own log, as before).
   */
  processLogger(outer: Logger): Logger {
    if (this.#starts++ > 0) {
      this.#previous = this.#current;
      this.#current = [];
    }
    const current = this.#current;
    const sink: DestinationStream = {
      write: (chunk: string) => {
        for (const text of chunk.split('\n')) {
          if (text === '') continue;
          current.push({ at: this.#clock.now(), text });
          if (current.length > MAX_LINES) current.splice(0, current.length - MAX_LINES);
        }
      },
    };
    const outerStream = (outer as unknown as Record<symbol, DestinationStream | undefined>)[pino.symbols.streamSym];
    const streams: pino.StreamEntry[] = [{ level: 'info', stream: sink }];
    if (outerStream && outer.level !== 'silent')
      streams.push({ level: outer.level as pino.Level, stream: outerStream });
    const lowest = outer.level !== 'silent' && outer.levelVal < pino.levels.values['info']! ? outer.level : 'info';
    return createLogger({ level: lowest, destination: pino.multistream(streams) });
  }

  /** Creates (first start) or updates (restart) the Deployment and its pod, and serves the pod's log. */
  async publish(client: KubeClient, podLogs: PodLogs): Promise<void> {
    const deployment = await this.#deployment(client);
    const template = deployment.spec?.template;
    const hash = templateHash(template);
    const name = `${OPERATOR_NAME}-${hash}-sim01`;
    this.#podName = name;
    const now = formatTime(this.#clock.now());
    const restarts = Math.max(0, this.#starts - 1);
    let pod = await client.get(PodResource, this.namespace, name).catch((err: unknown) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
    if (!pod) {
      const fresh: Pod = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name,
          namespace: this.namespace,
          labels: { ...template?.metadata?.labels, 'pod-template-hash': hash },
          ...(template?.metadata?.annotations ? { annotations: { ...template.metadata.annotations } } : {}),
          ownerReferences: [
            {
              apiVersion: 'apps/v1',
              kind: 'Deployment',
              name: this.deploymentName,
              uid: deployment.metadata?.uid ?? '',
              controller: true,
              blockOwnerDeletion: true,
            },
          ],
        },
        spec: { ...template?.spec, containers: template?.spec?.containers ?? [] },
      };
      pod = await client.create(PodResource, fresh);
    }
    const container = pod.spec?.containers[0];
    await client.updateStatus(PodResource, {
      ...pod,
      status: {
        phase: 'Running',
        conditions: ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map((type) => ({
          type,
          status: 'True',
          lastTransitionTime: now,
        })),
        startTime: pod.metadata?.creationTimestamp ?? now,
        containerStatuses: [
          {
            name: this.container,
            image: container?.image ?? '',
            imageID: container?.image ?? '',
            ready: true,
            started: true,
            restartCount: restarts,
            state: { running: { startedAt: now } },
            lastState: restarts > 0 ? { terminated: { exitCode: 0, reason: 'Completed', finishedAt: now } } : {},
          },
        ],
      },
    });
    this.#unregister?.();
    this.#unregister = podLogs.register(this.namespace, name, this);
  }

  async #deployment(client: KubeClient): Promise<Deployment> {
    const existing = await client.get(DeploymentResource, this.namespace, this.deploymentName).catch((err: unknown) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
    if (existing) return existing;
    const built = this.#managed
      ? operatorDeployment({ version: version(), leaseName: LEADER_ELECTION_ID })
      : scheduledDeployment({ version: version(), leaseName: SCHEDULED_LEADER_ELECTION_ID, namespace: this.namespace });
    const created = await client.create(DeploymentResource, {
      ...built,
      metadata: {
        ...built.metadata,
        annotations: { ...built.metadata?.annotations, [SIMULATED_PROCESS_ANNOTATION]: 'operator' },
      },
    });
    return client.updateStatus(DeploymentResource, {
      ...created,
      status: {
        observedGeneration: created.metadata?.generation ?? 1,
        replicas: 1,
        updatedReplicas: 1,
        readyReplicas: 1,
        availableReplicas: 1,
        conditions: [
          {
            type: 'Available',
            status: 'True',
            reason: 'MinimumReplicasAvailable',
            message: 'Deployment has minimum availability.',
          },
        ],
      },
    });
  }
}
