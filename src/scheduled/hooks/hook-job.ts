/**
 * The batch/v1 Job an UpgradeJobHook runs for one (UpgradeJob, event, tracking key), as APPUiO's
 * controller creates it (docs/design/scheduled-flow.md#the-hook-job): deterministic name, the four
 * tracking labels (the `upgradejobk` typo included), the template's labels and annotations, the
 * tracker finalizer, a controller owner reference to the UpgradeJob, and the template's spec with
 * the hook environment appended to every container and init container. Pure.
 *
 * The name is the idempotency key: a restarted controller that does not yet see the Job in its
 * cache gets AlreadyExists for the same (job, hook, event, key), never a second Job.
 *
 * Deliberate differences from the shipped controller (for docs/compatibility.md):
 * - a non-empty tracking key (the pool of MachineConfigPoolUnpause) is part of the name
 *   (`<job>-<hook>-<event>-<key>-hook`), so two pools unpausing in one upgrade get two Jobs instead
 *   of an AlreadyExists loop
 *   (docs/design/scheduled-flow.md#4-hook-job-names-lack-the-tracking-key); with an empty key the
 *   name is unchanged;
 * - a tracking label value longer than 63 characters (an UpgradeJob, hook or pool name) is
 *   shortened like the Job name (first 52 characters, `-`, 10 hex of SHA-256), and the full value
 *   is kept in an annotation of the same key, instead of making the Job invalid
 *   (docs/design/scheduled-flow.md#5-long-upgradejob-names-break-hook-jobs).
 */
import { createHash } from 'node:crypto';
import type { Job, JobSpec } from 'kubernetes-types/batch/v1.js';
import type { Container, EnvVar } from 'kubernetes-types/core/v1.js';
import type { OwnerReference } from 'kubernetes-types/meta/v1.js';
import type { UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import type { UpgradeJobHook } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook.js';
import {
  HOOK_JOB_TRACKER_FINALIZER,
  HookJobLabel,
  type UpgradeEvent,
} from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook-contract.js';
import { APPUIO_GROUP, APPUIO_VERSION } from '../../api/managedupgrade.appuio.io/v1beta1/group.js';

/** Longest Job name and label value Kubernetes accepts here. */
const MAX_NAME = 63;

/** `s` itself if at most 63 characters, else its first 52, `-`, and 10 hex digits of its SHA-256. */
export function shortenTo63(text: string): string {
  if (text.length <= MAX_NAME) return text;
  const digest = createHash('sha256').update(text, 'utf8').digest('hex');
  return `${text.slice(0, 52)}-${digest.slice(0, 10)}`;
}

/**
 * The hook Job's name: lowercase `<upgradejob>-<hook>-<event>[-<trackingKey>]-hook`, shortened
 * past 63 characters (the shortened part may end in `-`, giving `--`, as upstream).
 */
export function hookJobName(upgradeJob: string, hook: string, event: UpgradeEvent, trackingKey = ''): string {
  const parts = trackingKey === '' ? [upgradeJob, hook, event, 'hook'] : [upgradeJob, hook, event, trackingKey, 'hook'];
  return shortenTo63(parts.join('-').toLowerCase());
}

/** Identity of a hook run: which UpgradeJob, hook, event and tracking key. */
export interface HookRunKey {
  upgradeJob: string;
  hook: string;
  event: UpgradeEvent;
  /** `""` except for MachineConfigPoolUnpause, where it is the pool. */
  trackingKey: string;
}

/** The four tracking labels (values shortened to 63 characters where needed). */
export function hookJobLabels(key: HookRunKey): Record<string, string> {
  return {
    [HookJobLabel.UpgradeJobHook]: shortenTo63(key.hook),
    [HookJobLabel.UpgradeJob]: shortenTo63(key.upgradeJob),
    [HookJobLabel.Event]: key.event,
    [HookJobLabel.TrackingKey]: shortenTo63(key.trackingKey),
  };
}

/** Annotations keeping the full value of every tracking label that had to be shortened. */
export function hookJobFullNameAnnotations(key: HookRunKey): Record<string, string> {
  const out: Record<string, string> = {};
  const full: Record<string, string> = {
    [HookJobLabel.UpgradeJobHook]: key.hook,
    [HookJobLabel.UpgradeJob]: key.upgradeJob,
    [HookJobLabel.TrackingKey]: key.trackingKey,
  };
  for (const [k, v] of Object.entries(full)) if (v.length > MAX_NAME) out[k] = v;
  return out;
}

/** The label selector (`?labelSelector=`) of every hook Job of one UpgradeJob. */
export function hookJobsSelector(upgradeJob: string): string {
  return `${HookJobLabel.UpgradeJob}=${shortenTo63(upgradeJob)}`;
}

/**
 * The run a hook Job belongs to, read from its annotations (full values) or labels; undefined when
 * it lacks the UpgradeJob, hook or event label. A missing tracking-key label (Jobs made before
 * upstream added it) reads as `""`.
 */
export function hookRunKeyOf(job: Job): HookRunKey | undefined {
  const labels = job.metadata?.labels ?? {};
  const annotations = job.metadata?.annotations ?? {};
  const read = (k: string): string | undefined => annotations[k] ?? labels[k];
  const upgradeJob = read(HookJobLabel.UpgradeJob);
  const hook = read(HookJobLabel.UpgradeJobHook);
  const event = labels[HookJobLabel.Event] as UpgradeEvent | undefined;
  if (upgradeJob === undefined || hook === undefined || event === undefined) return undefined;
  return { upgradeJob, hook, event, trackingKey: read(HookJobLabel.TrackingKey) ?? '' };
}

/** What to build a hook Job from. */
export interface HookJobInput {
  upgradeJob: UpgradeJob;
  hook: UpgradeJobHook;
  event: UpgradeEvent;
  /** `""` except for MachineConfigPoolUnpause (the pool). */
  trackingKey?: string;
  /** From `hookEnvironment` (hook-env.ts). */
  env: readonly EnvVar[];
}

function withEnv(containers: readonly Container[] | undefined, env: readonly EnvVar[]): Container[] | undefined {
  return containers?.map((c) => ({ ...c, env: [...(c.env ?? []), ...env] }));
}

/** The controller owner reference to an UpgradeJob (controller and blockOwnerDeletion set). */
export function upgradeJobOwnerReference(upgradeJob: UpgradeJob): OwnerReference {
  return {
    apiVersion: `${APPUIO_GROUP}/${APPUIO_VERSION}`,
    kind: 'UpgradeJob',
    name: upgradeJob.metadata?.name ?? '',
    uid: upgradeJob.metadata?.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** The batch/v1 Job to create for one hook run. */
export function buildHookJob(input: HookJobInput): Job {
  const ujName = input.upgradeJob.metadata?.name ?? '';
  const hookName = input.hook.metadata?.name ?? '';
  const key: HookRunKey = {
    upgradeJob: ujName,
    hook: hookName,
    event: input.event,
    trackingKey: input.trackingKey ?? '',
  };
  const template = structuredClone(input.hook.spec?.template ?? {});
  const spec: JobSpec = template.spec ?? { template: {} };
  const podSpec = spec.template.spec;
  const pod =
    podSpec === undefined
      ? spec.template
      : {
          ...spec.template,
          spec: {
            ...podSpec,
            containers: withEnv(podSpec.containers, input.env) ?? [],
            ...(podSpec.initContainers === undefined
              ? {}
              : { initContainers: withEnv(podSpec.initContainers, input.env) ?? [] }),
          },
        };
  const annotations = { ...(template.metadata?.annotations ?? {}), ...hookJobFullNameAnnotations(key) };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: hookJobName(ujName, hookName, input.event, key.trackingKey),
      namespace: input.upgradeJob.metadata?.namespace ?? '',
      labels: { ...(template.metadata?.labels ?? {}), ...hookJobLabels(key) },
      ...(Object.keys(annotations).length === 0 ? {} : { annotations }),
      finalizers: [HOOK_JOB_TRACKER_FINALIZER],
      ownerReferences: [upgradeJobOwnerReference(input.upgradeJob)],
    },
    spec: { ...spec, template: pod },
  };
}
