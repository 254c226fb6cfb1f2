/** UpgradeJobs, UpgradeJobHooks and hook Jobs for the hook tests. */
import type { Job } from 'kubernetes-types/batch/v1.js';
import type { UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import type {
  UpgradeJobHook,
  UpgradeJobHookSpec,
} from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook.js';
import {
  HOOK_JOB_TRACKER_FINALIZER,
  HookJobLabel,
  type UpgradeEvent,
} from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook-contract.js';

/** The UpgradeJob of the weekly schedule: 4.15.3, labelled by its config. */
export function upgradeJob(
  overrides: {
    name?: string;
    labels?: Record<string, string>;
    noop?: boolean;
    conditions?: {
      type: string;
      status: 'True' | 'False';
      reason?: string;
      message?: string;
      lastTransitionTime?: string;
    }[];
  } = {},
): UpgradeJob {
  const job: UpgradeJob = {
    apiVersion: 'managedupgrade.appuio.io/v1beta1',
    kind: 'UpgradeJob',
    metadata: {
      name: overrides.name ?? 'cluster-upgrade-4-15-3-1700000000',
      namespace: 'appuio-openshift-upgrade-controller',
      uid: 'uid-1',
      creationTimestamp: '2023-11-14T20:13:20Z',
      labels: overrides.labels ?? { 'upgrade-config': 'cluster-upgrade', 'app.kubernetes.io/name': 'upgrade' },
      managedFields: [{ manager: 'openshift-upgrade-controller', operation: 'Update', time: '2023-11-14T20:13:20Z' }],
    },
    spec: {
      startAfter: '2023-11-14T22:13:20Z',
      startBefore: '2023-11-14T23:13:20Z',
      config: {
        upgradeTimeout: '12h',
        preUpgradeHealthChecks: { timeout: '1h' },
        postUpgradeHealthChecks: { timeout: '1h' },
      },
    },
  };
  if (overrides.noop !== true && job.spec)
    job.spec.desiredVersion = { version: '4.15.3', image: 'quay.io/openshift-release-dev/ocp-release@sha256:abc' };
  if (overrides.conditions) {
    job.status = {
      conditions: overrides.conditions.map((c) => ({
        type: c.type,
        status: c.status,
        reason: c.reason ?? c.type,
        message: c.message ?? '',
        lastTransitionTime: c.lastTransitionTime ?? '2023-11-15T01:00:00Z',
      })),
    };
  }
  return job;
}

/** An UpgradeJobHook in the UpgradeJob's namespace. */
export function hook(
  name: string,
  spec: Partial<UpgradeJobHookSpec> = {},
  extra: {
    namespace?: string;
    creationTimestamp?: string;
    claimedBy?: { apiVersion: string; kind: string; name: string; uid: string };
  } = {},
): UpgradeJobHook {
  return {
    apiVersion: 'managedupgrade.appuio.io/v1beta1',
    kind: 'UpgradeJobHook',
    metadata: {
      name,
      namespace: extra.namespace ?? 'appuio-openshift-upgrade-controller',
      creationTimestamp: extra.creationTimestamp ?? '2023-01-01T00:00:00Z',
    },
    spec: {
      events: ['Create', 'Start', 'Finish'],
      template: {
        spec: {
          template: {
            spec: { containers: [{ name: 'notify', image: 'curlimages/curl:8.1.2' }], restartPolicy: 'Never' },
          },
        },
      },
      ...spec,
    },
    ...(extra.claimedBy ? { status: { claimedBy: extra.claimedBy } } : {}),
  };
}

/** A hook Job as the API returns it: labels, finalizer, and the given Job conditions. */
export function hookJob(
  name: string,
  run: { upgradeJob?: string; hook: string; event: UpgradeEvent; trackingKey?: string },
  conditions: { type: string; status: string; message?: string }[] = [],
  finalizer = true,
): Job {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name,
      namespace: 'appuio-openshift-upgrade-controller',
      labels: {
        [HookJobLabel.UpgradeJob]: run.upgradeJob ?? 'cluster-upgrade-4-15-3-1700000000',
        [HookJobLabel.UpgradeJobHook]: run.hook,
        [HookJobLabel.Event]: run.event,
        [HookJobLabel.TrackingKey]: run.trackingKey ?? '',
      },
      ...(finalizer ? { finalizers: [HOOK_JOB_TRACKER_FINALIZER] } : {}),
    },
    spec: { template: {} },
    status: { conditions: conditions.map((c) => ({ ...c })) },
  };
}
