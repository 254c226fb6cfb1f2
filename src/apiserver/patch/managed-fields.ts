/**
 * metadata.managedFields after a create, update or non-apply patch, as kube-apiserver's
 * fieldmanager computes it: the fields this write added or changed move to the writer's Update
 * entry and are taken from every other entry, removed fields are dropped from every entry,
 * empty entries disappear, and the writer's entry is stamped with the write's time.
 */
import { splitApiVersion } from '../../api/resource.js';
import type { JsonObject, JsonValue } from '../../lib/json.js';
import type { KubeObject } from '../types.js';
import { patchMetaFor } from './builtin-patch-meta.js';
import { compareObjects } from './field-walk.js';
import { difference, isEmptySet, union } from './field-set.js';
import {
  decodeManagedFields,
  defaultIgnoredFields,
  encodeManagedFields,
  isResetManagedFields,
  managerId,
  pathsToSet,
  trackable,
  type ManagerEntry,
} from './managers.js';
import type { PatchMeta } from './patch-meta.js';

/** Arguments of updateManagedFields. */
export interface UpdateManagedFieldsArgs {
  /** The object before the write; undefined for a create. */
  old: KubeObject | undefined;
  /** The object as it will be stored (its metadata.managedFields as the client sent them). */
  updated: KubeObject;
  /** The field manager (the request's fieldManager, or kube's default from the user agent). */
  manager: string;
  operation: 'Update';
  /** The subresource written ('status', …); undefined for the main resource. */
  subresource?: string;
  /** metav1.Time of the write. */
  time: string;
  /** Patch metadata of the kind; defaults to patchMetaFor(group, kind) (lists atomic for other kinds). */
  meta?: PatchMeta;
  /** Field-name paths whose changes are not tracked; default: `status` for the main resource, all but `status` for /status. */
  ignoredFields?: readonly (readonly string[])[];
}

function withoutManagedFields(kubeObject: KubeObject | undefined): JsonObject {
  if (!kubeObject) return {};
  const metadata = { ...kubeObject.metadata };
  delete metadata.managedFields;
  return { ...kubeObject, metadata };
}

/** The entries a write starts from (fieldmanager's decodeLiveOrNew). */
function baseEntries(
  old: KubeObject | undefined,
  updated: KubeObject,
  subresource: string | undefined,
): ManagerEntry[] {
  const live = decodeManagedFields(old?.metadata.managedFields) ?? [];
  if (subresource) return live;
  const sent = updated.metadata.managedFields;
  if (isResetManagedFields(sent)) return [];
  const mine = decodeManagedFields(sent);
  return mine && mine.length > 0 ? mine : live;
}

/**
 * The new metadata.managedFields after a create/update/patch by `manager` (operation Update).
 * Pure: neither object is changed.
 */
export function updateManagedFields(args: UpdateManagedFieldsArgs): JsonValue[] {
  const { old, updated, manager, subresource, time } = args;
  const meta = args.meta ?? patchMetaFor(splitApiVersion(updated.apiVersion).group, updated.kind);
  const lhs = withoutManagedFields(old);
  const rhs = withoutManagedFields(updated);
  const ignored = pathsToSet(args.ignoredFields ?? defaultIgnoredFields(subresource, [lhs, rhs]));
  const c = compareObjects(lhs, rhs, meta);
  const changed = trackable(union(c.added, c.modified), ignored);
  const removed = trackable(c.removed, ignored);

  const entries = baseEntries(old, updated, subresource).map((e) => ({
    ...e,
    set: difference(difference(e.set, changed), removed),
  }));
  if (!isEmptySet(changed)) {
    const mine: ManagerEntry = {
      manager,
      operation: 'Update',
      apiVersion: updated.apiVersion,
      time,
      subresource,
      set: changed,
    };
    const id = managerId(mine);
    const previous = entries.find((e) => managerId(e) === id);
    if (previous) {
      previous.set = union(previous.set, changed);
      previous.time = time;
    } else {
      entries.push(mine);
    }
  }
  return encodeManagedFields(entries);
}
