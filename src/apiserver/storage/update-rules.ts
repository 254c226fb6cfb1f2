/**
 * What an update keeps of the incoming object and of the stored one, per subresource, as
 * kube-apiserver's PrepareForUpdate strategies do: a status write changes only status (and the
 * managedFields the server computed); a Namespace finalize write changes only spec.finalizers;
 * a main write keeps the system metadata, the stored status (kinds with a status subresource)
 * and a Namespace's spec.finalizers, then applies the kind's defaults.
 */
import { cloneJson, isJsonObject, type JsonObject } from '../../lib/json.js';
import { strategyFor } from '../builtin/kinds.js';
import type { KubeObject, ResourceType, WriteOptions } from '../types.js';
import { isNamespaceType, specFinalizers } from './deletion.js';

/** Metadata the server owns: an update cannot change it. */
const SYSTEM_FIELDS = [
  'uid',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'generation',
  'namespace',
];

/**
 * The object an update stores before resourceVersion, generation and managedFields are settled.
 * `incoming` is a private copy the result may reuse.
 */
export function updatedObject(
  rt: ResourceType,
  old: KubeObject,
  incoming: KubeObject,
  subresource: WriteOptions['subresource'],
): KubeObject {
  const om = old.metadata;
  const im = incoming.metadata;
  const hasStatus = rt.subresources.includes('status');
  let next: KubeObject;
  if (subresource === 'status') {
    next = cloneJson(old);
    if (incoming.status === undefined) delete next.status;
    else next.status = incoming.status;
    if (im.managedFields !== undefined) next.metadata.managedFields = im.managedFields;
  } else if (subresource === 'finalize') {
    next = cloneJson(old);
    const spec: JsonObject = isJsonObject(next.spec) ? next.spec : {};
    spec.finalizers = specFinalizers(incoming);
    next.spec = spec;
  } else {
    next = incoming;
    const nm = next.metadata;
    for (const k of SYSTEM_FIELDS) {
      if (om[k] === undefined) delete nm[k];
      else nm[k] = om[k]!;
    }
    if (!rt.namespaced) delete nm.namespace;
    delete nm.selfLink;
    if (nm.managedFields === undefined && om.managedFields !== undefined) nm.managedFields = om.managedFields;
    if (hasStatus) {
      if (old.status === undefined) delete next.status;
      else next.status = old.status;
    }
    if (isNamespaceType(rt)) {
      const spec: JsonObject = isJsonObject(next.spec) ? next.spec : {};
      if (isJsonObject(old.spec) && old.spec.finalizers !== undefined) spec.finalizers = old.spec.finalizers;
      next.spec = spec;
    }
    strategyFor(rt).defaults?.(next);
  }
  return next;
}
