/**
 * Index functions of the shared Pod informer, defined once so that every simulated controller
 * adding them registers the same function (the informer rejects one name with two functions).
 */
import type { Pod } from 'kubernetes-types/core/v1.js';
import type { IndexFunc } from '../../kube/indexer.js';
import { controllerOf } from './scheduling.js';

/** Pods by `spec.nodeName`. */
export const POD_BY_NODE = 'sim.pod.nodeName';
/** Pods by the uid of their controlling owner. */
export const POD_BY_CONTROLLER_UID = 'sim.pod.controllerUid';

/** The indexers to pass to `informers.informerFor(PodResource, { indexers })`. */
export const POD_INDEXERS: Record<string, IndexFunc<Pod>> = {
  [POD_BY_NODE]: (p) => (p.spec?.nodeName ? [p.spec.nodeName] : []),
  [POD_BY_CONTROLLER_UID]: (pod) => {
    const uid = controllerOf(pod)?.uid;
    return uid ? [uid] : [];
  },
};
