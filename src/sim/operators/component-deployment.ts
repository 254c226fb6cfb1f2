/**
 * The operator Deployments of a release payload (wave-2 contract item 1): which Deployment a
 * ClusterOperator's component runs as, the object the CVO applies for it, the version it
 * carries, and the status the Deployment controller reports for it while its single pod is
 * replaced (kube's RollingUpdate defaults: maxSurge 25 % rounded up, maxUnavailable 25 % rounded
 * down).
 */
import type { Deployment, DeploymentCondition, DeploymentStatus } from 'kubernetes-types/apps/v1.js';
import { formatTime } from '../../lib/clock.js';
import { hashString } from '../../lib/random.js';
import type { PayloadManifest, ReleasePayload } from '../releases/payload.js';
import {
  deploymentForClusterOperator,
  deploymentManifest,
  RELEASE_VERSION_ANNOTATION,
} from '../releases/operator-deployment.js';

/** The environment variable carrying the release version into the operator container. */
export const RELEASE_VERSION_ENV = 'RELEASE_VERSION';

/** Where a component's operator runs. */
export interface ComponentDeploymentRef {
  /** The payload component (`0000_<rl>_<component>_…`). */
  component: string;
  namespace: string;
  name: string;
}

/** The Deployment of the component that owns a ClusterOperator manifest: the same one the CVO applies. */
export function componentDeploymentFor(payload: ReleasePayload, co: PayloadManifest): ComponentDeploymentRef {
  const ref = deploymentForClusterOperator(payload, co);
  if (!ref) throw new Error(`the payload of ${payload.version} has no component chain for ClusterOperator ${co.name}`);
  return { component: co.component, namespace: ref.namespace, name: ref.name };
}

/** The Deployment the CVO applies for a component (contract item 1). */
export function operatorDeploymentManifest(ref: ComponentDeploymentRef, version: string, image: string): Deployment {
  return deploymentManifest({ namespace: ref.namespace, name: ref.name, synthesized: false }, version, image);
}

/** True for Deployments applied from a release payload (the operator actors run them). */
export function isOperatorDeployment(deployment: Deployment): boolean {
  return deployment.metadata?.annotations?.[RELEASE_VERSION_ANNOTATION] !== undefined;
}

/** The version the Deployment's operator container runs (`RELEASE_VERSION` of container 0). */
export function releaseVersionOf(deployment: Deployment | undefined): string | undefined {
  return deployment?.spec?.template.spec?.containers[0]?.env?.find((e) => e.name === RELEASE_VERSION_ENV)?.value;
}

/** True when the Deployment controller has rolled out the current generation. */
export function deploymentRolledOut(deployment: Deployment | undefined): boolean {
  const s = deployment?.status;
  if (!deployment || !s) return false;
  const want = deployment.spec?.replicas ?? 1;
  return (
    (s.observedGeneration ?? 0) >= (deployment.metadata?.generation ?? 1) &&
    s.updatedReplicas === want &&
    s.availableReplicas === want &&
    (s.replicas ?? 0) === want
  );
}

const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** The ReplicaSet of the current pod template: `<name>-<pod-template-hash>` (kube's safe alphabet). */
export function replicaSetName(deployment: Deployment): string {
  const template = JSON.stringify(deployment.spec?.template ?? {});
  let hash = '';
  for (let i = 0; i < 10; i++) hash += SAFE_ALPHABET.charAt(hashString(`${template}#${i}`) % SAFE_ALPHABET.length);
  return `${deployment.metadata?.name ?? ''}-${hash}`;
}

/** Where a Deployment's rollout is: the new pod starting, or every replica updated and ready. */
export type DeploymentPhase = 'rolling' | 'complete';

/** The status the Deployment controller reports in a phase (conditions keep their transition times while their status holds). */
export function deploymentStatus(deployment: Deployment, phase: DeploymentPhase, now: number): DeploymentStatus {
  const want = deployment.spec?.replicas ?? 1;
  const rs = replicaSetName(deployment);
  const hadReady = (deployment.status?.availableReplicas ?? 0) > 0;
  const generation = deployment.metadata?.generation ?? 1;
  if (phase === 'complete') {
    return {
      observedGeneration: generation,
      replicas: want,
      updatedReplicas: want,
      readyReplicas: want,
      availableReplicas: want,
      conditions: [
        condition(
          deployment,
          'Available',
          'True',
          'MinimumReplicasAvailable',
          'Deployment has minimum availability.',
          now,
        ),
        condition(
          deployment,
          'Progressing',
          'True',
          'NewReplicaSetAvailable',
          `ReplicaSet "${rs}" has successfully progressed.`,
          now,
        ),
      ],
    };
  }
  const surge = Math.max(1, Math.ceil(want / 4));
  const old = hadReady ? want : 0;
  const status: DeploymentStatus = {
    observedGeneration: generation,
    replicas: old + surge,
    updatedReplicas: surge,
    readyReplicas: old,
    availableReplicas: old,
    unavailableReplicas: surge + (hadReady ? 0 : want - surge),
    conditions: [
      hadReady
        ? condition(
            deployment,
            'Available',
            'True',
            'MinimumReplicasAvailable',
            'Deployment has minimum availability.',
            now,
          )
        : condition(
            deployment,
            'Available',
            'False',
            'MinimumReplicasUnavailable',
            'Deployment does not have minimum availability.',
            now,
          ),
      condition(deployment, 'Progressing', 'True', 'ReplicaSetUpdated', `ReplicaSet "${rs}" is progressing.`, now),
    ],
  };
  if (old === 0) {
    // kube omits zero counts (omitempty)
    delete status.readyReplicas;
    delete status.availableReplicas;
  }
  return status;
}

function condition(
  deployment: Deployment,
  type: string,
  status: string,
  reason: string,
  message: string,
  now: number,
): DeploymentCondition {
  const old = deployment.status?.conditions?.find((c) => c.type === type);
  const same = old && old.status === status;
  const unchanged = same && old.reason === reason && old.message === message;
  return {
    type,
    status,
    lastUpdateTime: unchanged && old.lastUpdateTime ? old.lastUpdateTime : formatTime(now),
    lastTransitionTime: same && old.lastTransitionTime ? old.lastTransitionTime : formatTime(now),
    reason,
    message,
  };
}
