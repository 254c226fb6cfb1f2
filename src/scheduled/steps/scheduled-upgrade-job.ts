/**
 * The UpgradeJob an UpgradeConfig creates for one maintenance window
 * (docs/design/scheduled-flow.md#creating-the-next-job step 8,
 * docs/design/scheduled-flow.md#noop-jobs): its deterministic name, owner reference, template
 * labels and annotations, `startAfter`/`startBefore`, and the pinned release, or none for a "noop"
 * job. Pure.
 */
import type { OwnerReference } from 'kubernetes-types/meta/v1.js';
import type { Release } from '../../api/openshift/config-v1/cluster-version.js';
import { apiVersion } from '../../api/resource.js';
import { ScheduledUpgradeConfigResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-config-contract.js';
import type { ScheduledUpgradeConfig } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-config.js';
import { UpgradeJobResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import type { UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import { formatTime } from '../../lib/clock.js';

/** The `<ver>` of a job created when no update is available. */
export const NOOP_VERSION_PART = 'noop';

/**
 * `<config>-<x-y-z>-<unix seconds>`, or `<config>-noop-<unix seconds>` without a release.
 * APPUiO only replaces dots; we also lower-case and turn any other character a Kubernetes name
 * refuses (`+` of build metadata, upper-case pre-release tags) into `-`, so every version gives
 * a valid name. For the versions OpenShift publishes the two agree.
 */
export function upgradeJobName(configName: string, version: string | undefined, startAfterMs: number): string {
  const part = version === undefined ? NOOP_VERSION_PART : version.toLowerCase().replace(/[^a-z0-9-]/g, '-');
  return `${configName}-${part}-${Math.floor(startAfterMs / 1000)}`;
}

/** What is needed besides the config to build the job of one window. */
export interface ScheduledJobInput {
  startAfterMs: number;
  startBeforeMs: number;
  /** The release to pin; absent for a noop job. */
  release?: Release | undefined;
}

/** A controller reference to the UpgradeConfig, as controller-runtime's `SetControllerReference` writes it. */
export function controllerReference(config: ScheduledUpgradeConfig): OwnerReference {
  return {
    apiVersion: apiVersion(ScheduledUpgradeConfigResource),
    kind: ScheduledUpgradeConfigResource.kind,
    name: config.metadata?.name ?? '',
    uid: config.metadata?.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/**
 * The UpgradeJob for one window: in the config's namespace, labels and annotations (only
 * those) from `spec.jobTemplate.metadata`, `spec.config` copied from the template, and
 * `desiredVersion` `{version, image}` of the release when there is one.
 */
export function buildScheduledUpgradeJob(config: ScheduledUpgradeConfig, input: ScheduledJobInput): UpgradeJob {
  const name = config.metadata?.name ?? '';
  const template = config.spec.jobTemplate;
  const labels = template.metadata?.labels;
  const annotations = template.metadata?.annotations;
  const release = input.release;
  return {
    apiVersion: apiVersion(UpgradeJobResource),
    kind: UpgradeJobResource.kind,
    metadata: {
      name: upgradeJobName(name, release?.version, input.startAfterMs),
      namespace: config.metadata?.namespace ?? '',
      ...(labels ? { labels: { ...labels } } : {}),
      ...(annotations ? { annotations: { ...annotations } } : {}),
      ownerReferences: [controllerReference(config)],
    },
    spec: {
      startAfter: formatTime(input.startAfterMs),
      startBefore: formatTime(input.startBeforeMs),
      ...(release ? { desiredVersion: { version: release.version, image: release.image } } : {}),
      config: structuredClone(template.spec.config),
    },
  };
}
