/**
 * The ClusterVersion sync of the scheduled flow (APPUiO's `ClusterVersionReconciler`,
 * docs/design/scheduled-flow.md#clusterversion, docs/design/scheduled-flow.md#clusterversion-sync):
 * it renders the managed ClusterVersion (managedupgrade.appuio.io/v1beta1, a singleton chosen by
 * name and namespace) — template plus the newest started overlay, `cluster-version-render.ts` —
 * writes its status when it changed, and keeps the upstream config.openshift.io ClusterVersion's
 * spec equal to the rendered one.
 *
 * - `desiredUpdate` of the upstream is never touched (UpgradeJobs own it), nor its metadata
 *   (the UpgradeJob lock annotation included): the update sends the object as just read, with
 *   its resourceVersion; a conflict reads it again.
 * - No managed object: nothing happens, the upstream is left alone.
 * - A spec that cannot be rendered (no template clusterID, an unparsable `from`): a Warning Event
 *   on the managed object and a log line, once per distinct problem; nothing is written.
 * - Wakes: a spec change of the managed object, a spec change of the upstream, and the next
 *   overlay's `from` (requeueAfter). Our own status writes and the CVO's status writes on the
 *   upstream do not wake it.
 */
import type { ManagedClusterVersion } from '../../api/managedupgrade.appuio.io/v1beta1/cluster-version.js';
import {
  DEFAULT_MANAGED_CLUSTER_VERSION_NAME,
  DEFAULT_UPSTREAM_CLUSTER_VERSION_NAME,
  ManagedClusterVersionResource,
} from '../../api/managedupgrade.appuio.io/v1beta1/cluster-version-contract.js';
import {
  ClusterVersionResource,
  type ClusterVersion,
  type ClusterVersionSpec,
} from '../../api/openshift/config-v1/cluster-version.js';
import { Controller } from '../../kube/controller.js';
import type { EventRecorder } from '../../kube/event-recorder.js';
import { isConflict, isNotFound } from '../../kube/status-error.js';
import { updateStatusWithRetry } from '../../kube/status-writer.js';
import { jsonEqual, type JsonValue } from '../../lib/json.js';
import {
  OWNED_FIELDS,
  clusterVersionStatusEqual,
  renderClusterVersion,
  upstreamSpecUpdate,
} from '../cluster-version/cluster-version-render.js';
import { runtimeOf, type ControllerDeps } from '../../engine/controller-deps.js';

/** The controller's name (log field `controller`, work-queue name). */
export const CLUSTER_VERSION_SYNC_CONTROLLER = 'clusterversion-sync';

/** Event reasons on the managed ClusterVersion (APPUiO records none). */
export const ClusterVersionSyncEventReason = {
  /** The managed spec cannot be rendered; nothing is written. */
  InvalidSpec: 'InvalidClusterVersionSpec',
  /** The upstream ClusterVersion does not exist (yet). */
  UpstreamNotFound: 'UpstreamClusterVersionNotFound',
  /** The upstream ClusterVersion's spec was updated. */
  Synced: 'ClusterVersionSynced',
} as const;

/** The message of the {@link ClusterVersionSyncEventReason.InvalidSpec} Event. */
export function unrenderableMessage(errors: readonly string[]): string {
  return `cannot render the ClusterVersion, nothing is synced: ${errors.join('; ')}`;
}

/** Upstream update attempts within one pass before the pass fails (and is retried with backoff). */
const UPSTREAM_ATTEMPTS = 5;

/** What the controller needs. */
export interface ClusterVersionSyncControllerOptions extends ControllerDeps {
  events: EventRecorder;
  /** Name of the managed ClusterVersion (`--managed-cluster-version-name`, default `version`). */
  managedName?: string;
  /** Namespace of the managed ClusterVersion (`--managed-cluster-version-namespace`). */
  managedNamespace: string;
  /** Name of the upstream config.openshift.io ClusterVersion (`--managed-upstream-cluster-version-name`, default `version`). */
  upstreamName?: string;
}

/** The controller and what the wiring (metrics) reads of it. */
export interface ClusterVersionSyncController {
  controller: Controller;
  /** The managed ClusterVersion in the cache: one object, or none. */
  managedClusterVersions(): ManagedClusterVersion[];
}

function specOf(obj: { spec?: unknown }): JsonValue {
  return (obj.spec ?? null) as JsonValue;
}

/** The owned fields whose value differs, for messages. */
function changedFields(before: ClusterVersionSpec | undefined, after: ClusterVersionSpec): string[] {
  const b = (before ?? {}) as unknown as Record<string, JsonValue | undefined>;
  const a = after as unknown as Record<string, JsonValue | undefined>;
  return OWNED_FIELDS.filter((f) => !jsonEqual(b[f], a[f]));
}

/** Builds the controller (start it with `controller.start(signal)` or through a Manager). */
export function createClusterVersionSyncController(
  options: ClusterVersionSyncControllerOptions,
): ClusterVersionSyncController {
  const ns = options.managedNamespace;
  const name = options.managedName ?? DEFAULT_MANAGED_CLUSTER_VERSION_NAME;
  const upstreamName = options.upstreamName ?? DEFAULT_UPSTREAM_CLUSTER_VERSION_NAME;
  const key = `${ns}/${name}`;
  const log = options.logger.child({ controller: CLUSTER_VERSION_SYNC_CONTROLLER, clusterversion: key });
  const managedInf = options.informers.informerFor(ManagedClusterVersionResource, { namespace: ns });
  const upstreamInf = options.informers.informerFor(ClusterVersionResource);
  /** The warning last reported (reported again only when it changes). */
  let warned: string | undefined;

  const warn = (managed: ManagedClusterVersion, reason: string, message: string): void => {
    const text = `${reason}\u0000${message}`;
    if (warned === text) return;
    warned = text;
    log.warn({ reason }, message);
    options.events.event(withKind(managed), 'Warning', reason, message);
  };

  /** Writes the upstream spec if it still differs; returns the fields changed, or undefined. */
  const syncUpstream = async (
    rendered: ClusterVersionSpec,
    signal: AbortSignal,
  ): Promise<string[] | 'missing' | undefined> => {
    for (let attempt = 1; ; attempt++) {
      const fresh = await options.client.getIfExists(ClusterVersionResource, undefined, upstreamName, { signal });
      if (!fresh) return 'missing';
      const spec = upstreamSpecUpdate(rendered, fresh.spec);
      if (spec === undefined) return undefined;
      try {
        await options.client.update<ClusterVersion>(ClusterVersionResource, { ...fresh, spec }, { signal });
        return changedFields(fresh.spec, spec);
      } catch (err) {
        if (!isConflict(err) || attempt >= UPSTREAM_ATTEMPTS) throw err;
      }
    }
  };

  const controller = new Controller({
    name: CLUSTER_VERSION_SYNC_CONTROLLER,
    ...runtimeOf(options),
    reconcile: async (_key, signal) => {
      const managed = managedInf.get(ns, name);
      if (!managed || managed.metadata?.deletionTimestamp) {
        warned = undefined;
        return;
      }
      const now = options.clock.now();
      const result = renderClusterVersion(managed.spec, now);
      if (!result.ok) {
        warn(managed, ClusterVersionSyncEventReason.InvalidSpec, unrenderableMessage(result.errors));
        return;
      }
      const { render } = result;

      if (!clusterVersionStatusEqual(managed.status, render.status)) {
        try {
          await updateStatusWithRetry(
            options.client,
            ManagedClusterVersionResource,
            key,
            (cr: ManagedClusterVersion) => {
              const r = renderClusterVersion(cr.spec, now);
              if (!r.ok || clusterVersionStatusEqual(cr.status, r.render.status)) return undefined;
              return { ...cr, status: r.render.status };
            },
            { clock: options.clock, signal },
          );
        } catch (err) {
          if (isNotFound(err)) return;
          throw err;
        }
      }

      const requeue = render.requeueAfterMs === undefined ? undefined : { requeueAfter: render.requeueAfterMs };
      const cached = upstreamInf.get(undefined, upstreamName);
      // The cache answers "in sync" without a request; a write reads the upstream fresh first.
      if (cached && upstreamSpecUpdate(render.current, cached.spec) === undefined) {
        warned = undefined;
        return requeue;
      }
      const changed = await syncUpstream(render.current, signal);
      if (changed === 'missing') {
        warn(
          managed,
          ClusterVersionSyncEventReason.UpstreamNotFound,
          `ClusterVersion ${upstreamName} (config.openshift.io/v1) not found; it is synced once it exists`,
        );
        return requeue;
      }
      warned = undefined;
      if (changed) {
        const overlay = render.applied ? `overlay from ${render.status.overlayApplied ?? ''}` : 'template';
        const message = `updated ClusterVersion ${upstreamName} (${changed.join(', ')}) from the ${overlay}`;
        log.info({ fields: changed, channel: render.current.channel }, message);
        options.events.event(withKind(managed), 'Normal', ClusterVersionSyncEventReason.Synced, message);
      }
      return requeue;
    },
  });
  // Spec changes only: our own status writes, and the CVO's on the upstream, are not worth a pass.
  controller.watches(ManagedClusterVersionResource, (cr) => (cr.metadata?.name === name ? [key] : []), {
    namespace: ns,
    predicates: [
      {
        update: (a, b) =>
          !jsonEqual(specOf(a), specOf(b)) || a.metadata?.deletionTimestamp !== b.metadata?.deletionTimestamp,
      },
    ],
  });
  controller.watches(ClusterVersionResource, (cv) => (cv.metadata?.name === upstreamName ? [key] : []), {
    predicates: [{ update: (a, b) => !jsonEqual(specOf(a), specOf(b)) }],
  });
  return { controller, managedClusterVersions: () => managedInf.list(ns).filter((cr) => cr.metadata?.name === name) };
}

function withKind(cr: ManagedClusterVersion): ManagedClusterVersion {
  return { apiVersion: 'managedupgrade.appuio.io/v1beta1', kind: 'ClusterVersion', ...cr };
}
