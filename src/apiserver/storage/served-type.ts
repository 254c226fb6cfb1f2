/** A served resource type plus what the REST layer needs of a CRD: schemas, printer columns, scale. */
import type { JsonObject } from '../../lib/json.js';
import type { ResourceType } from '../types.js';

/** Where a kind keeps its replica counts, for the scale subresource (CRD `subresources.scale`). */
export interface ScaleSpec {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

/** A resource type as registered in the store. */
export interface ServedType extends ResourceType {
  /** openAPIV3Schema per served version (custom resources). */
  schemas?: Record<string, JsonObject>;
  /** additionalPrinterColumns per served version (custom resources). */
  printerColumns?: Record<string, JsonObject[]>;
  /** The scale subresource's paths, when served. */
  scale?: ScaleSpec;
  /** Field paths usable in field selectors (CRD `selectableFields`), beyond metadata.name/namespace. */
  selectableFields?: string[];
}

/** The storage bucket of a type: events.k8s.io Events live with core Events. */
export function storageKey(rt: Pick<ResourceType, 'group' | 'resource'>): string {
  if (rt.group === 'events.k8s.io' && rt.resource === 'events') return '/events';
  return `${rt.group}/${rt.resource}`;
}

/** True for the events.k8s.io/v1 view of core Events. */
export function isEventsV1(rt: Pick<ResourceType, 'group' | 'resource'>): boolean {
  return rt.group === 'events.k8s.io' && rt.resource === 'events';
}
