/**
 * The operator Deployment of each component of a release payload: the one the simulated CVO
 * applies and the one that component's ClusterOperator actor watches (both use these functions,
 * so they always agree): the payload's Deployment named after the component; for a component that
 * gates on ClusterOperators but carries no such Deployment, one named `<namespace>/<component>`
 * is synthesised so its operator can still react. Its container `operator` runs the component's
 * image from `image-references` with `RELEASE_VERSION`. Pure.
 */
import type { Deployment } from 'kubernetes-types/apps/v1.js';
import { taskGraph, type ComponentChain, type PayloadManifest, type ReleasePayload } from './payload.js';

/** Annotation carrying the release version on operator Deployments. */
export const RELEASE_VERSION_ANNOTATION = 'release.openshift.io/version';
/** The CVO's server-side-apply field manager. */
export const CVO_FIELD_MANAGER = 'cluster-version-operator';

/** Image-reference tags whose name differs from the component's. */
const IMAGE_ALIASES: Readonly<Record<string, string>> = {
  olm: 'operator-lifecycle-manager',
  'marketplace-operator': 'operator-marketplace',
  'etcd-operator': 'cluster-etcd-operator',
  'cloud-controller-manager-operator': 'cluster-cloud-controller-manager-operator',
  'control-plane-machine-set-operator': 'cluster-control-plane-machine-set-operator',
};

/** Where a component's operator Deployment lives. */
export interface ComponentDeploymentRef {
  namespace: string;
  name: string;
  /** Not in the payload: made up for a component that gates on ClusterOperators. */
  synthesized: boolean;
}

/** The operator Deployment of a component chain, if it has one. */
export function componentDeployment(chain: ComponentChain): ComponentDeploymentRef | undefined {
  const own = chain.tasks.find(
    (t) => t.kind === 'Deployment' && t.apiVersion === 'apps/v1' && t.name === chain.component && t.namespace,
  );
  if (own?.namespace) return { namespace: own.namespace, name: own.name, synthesized: false };
  if (!chain.tasks.some((t) => t.kind === 'ClusterOperator')) return undefined;
  const namespace =
    chain.tasks.find((t) => t.namespace)?.namespace ?? chain.tasks.find((t) => t.kind === 'Namespace')?.name;
  if (!namespace) return undefined;
  return { namespace, name: chain.component, synthesized: true };
}

/** The component's image: its image-references tag, or the release image (the CVO's own). */
export function componentImage(payload: ReleasePayload, component: string): string {
  const tags =
    (payload.imageReferences.spec as { tags?: Array<{ name: string; from: { name: string } }> } | undefined)?.tags ??
    [];
  const candidates = [IMAGE_ALIASES[component], component, `cluster-${component}`, component.replace(/-operator$/, '')];
  for (const c of candidates) {
    const tag = c ? tags.find((t) => t.name === c) : undefined;
    if (tag) return tag.from.name;
  }
  return payload.image;
}

/** The Deployment as the CVO applies it (server-side apply body). */
export function deploymentManifest(ref: ComponentDeploymentRef, version: string, image: string): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: ref.name, namespace: ref.namespace, annotations: { [RELEASE_VERSION_ANNOTATION]: version } },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: ref.name } },
      template: {
        metadata: { labels: { app: ref.name } },
        spec: { containers: [{ name: 'operator', image, env: [{ name: 'RELEASE_VERSION', value: version }] }] },
      },
    },
  };
}

/** The operator Deployment of the component that owns a ClusterOperator manifest of the payload. */
export function deploymentForClusterOperator(
  payload: ReleasePayload,
  co: PayloadManifest,
): ComponentDeploymentRef | undefined {
  for (const stage of taskGraph(payload)) {
    if (stage.kind !== 'runlevel') continue;
    for (const chain of stage.components) {
      if (
        chain.component === co.component &&
        chain.tasks.some((t) => t.kind === 'ClusterOperator' && t.name === co.name)
      )
        return componentDeployment(chain);
    }
  }
  return undefined;
}
