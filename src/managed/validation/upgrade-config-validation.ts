/**
 * Validation of a Pending UpgradeConfig before it is scheduled
 * (docs/design/managed-flow.md#validation, MUO `pkg/validation`). Pure decisions over the CR, the
 * ClusterVersion and two injected look-ups (the update graph and the version of a release image);
 * it writes nothing: in image mode it returns the image's version and the controller writes it into
 * the CR.
 *
 * Messages are MUO's exact text where MUO has one. Differences from MUO, on purpose:
 * - a spec with a version but no channel (or a channel but no version) is `MissingTarget`
 *   (MUO went on and could clear the cluster's channel);
 * - image mode also rejects downgrades and same-version upgrades, and an image without a
 *   semantic version in its `io.openshift.release` label (MUO wrote an empty version);
 * - the pull spec is checked before the registry is asked;
 * - conditional updates count in the update-graph check too (MUO used only unconditional ones);
 * - failures of the update service or registry are results with a reason, not thrown errors.
 */
import type { ManagedUpgradeConfig } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import { DEFAULT_UPSTREAM, type ClusterVersion } from '../../api/openshift/config-v1/cluster-version.js';
import { isIntegrationError } from '../../integrations/integration-error.js';
import { parseImageReference } from './image-reference.js';
import { parseRfc3339 } from '../../lib/rfc3339.js';
import { compareStrictSemver, parseStrictSemver, STRICT_SEMVER_EXPECTATION } from './strict-semver.js';
import { errorMessage } from '../../lib/errors.js';
import { isHttpUrl } from '../../lib/url.js';

/** Stable reasons of a validation result, for conditions and metrics. */
export const ValidationReason = {
  Valid: 'Valid',
  InvalidUpgradeAt: 'InvalidUpgradeAt',
  MissingTarget: 'MissingTarget',
  InvalidImage: 'InvalidImage',
  ImageUnresolvable: 'ImageUnresolvable',
  InvalidVersion: 'InvalidVersion',
  UnknownCurrentVersion: 'UnknownCurrentVersion',
  InvalidCurrentVersion: 'InvalidCurrentVersion',
  Downgrade: 'Downgrade',
  SameVersion: 'SameVersion',
  NotInAvailableUpdates: 'NotInAvailableUpdates',
  InvalidClusterId: 'InvalidClusterId',
  InvalidUpstream: 'InvalidUpstream',
  UpdateServiceUnavailable: 'UpdateServiceUnavailable',
  NotInUpdateGraph: 'NotInUpdateGraph',
} as const;
/** A validation reason. */
export type ValidationReasonName = (typeof ValidationReason)[keyof typeof ValidationReason];

/** The verdict on an UpgradeConfig. */
export interface ValidationResult {
  /**
   * The spec makes sense (MUO's IsValid). Whether the validation-failed metric is 1 is
   * {@link isValidationFailure}: a valid downgrade counts too.
   */
  valid: boolean;
  /** The upgrade should go ahead (MUO's IsAvailableUpdate). */
  availableUpdate: boolean;
  reason: ValidationReasonName;
  /** MUO's text where MUO has one. */
  message: string;
  /** The underlying error of an outside call, for logs and Events. */
  detail?: string;
  /**
   * The answer may change without a spec change (an outside service failed, CVO has not yet
   * listed the version, the cluster has no completed update yet): validate again with backoff.
   */
  transient: boolean;
  /** Image mode: the version the release image carries; the controller writes it into `spec.desired.version` if it differs. */
  resolvedVersion?: string;
}

/** What to ask the update service (Cincinnati). */
export interface GraphQuery {
  upstream: string;
  channel: string;
  /** Go architecture name, `amd64`. */
  arch: string;
  clusterId: string;
  fromVersion: string;
}

/** The versions the update service offers from `fromVersion` in `channel`. */
export interface GraphUpdates {
  updates: string[];
  conditionalUpdates: string[];
}

/** Outside look-ups; both reject with an IntegrationError on failure. */
export interface ValidationDeps {
  fetchGraph(query: GraphQuery, signal?: AbortSignal): Promise<GraphUpdates>;
  /** The `io.openshift.release` label of the release image's config ('' when absent). */
  releaseVersionOfImage(image: string, signal?: AbortSignal): Promise<string>;
}

/** What is validated. */
export interface ValidationInput {
  config: ManagedUpgradeConfig;
  clusterVersion: ClusterVersion;
  /** `validation.cincinnati` of the operator ConfigMap. */
  cincinnatiEnabled: boolean;
  /** Accepted for symmetry with the scheduler; no validation rule depends on the time. */
  now?: number;
  signal?: AbortSignal;
}

/**
 * Whether the UpgradeConfig counts as failing validation (`upgradeoperator_upgradeconfig_validation_failed`
 * is 1, and `validate` calls it an error): every result that stops the upgrade. MUO sets the metric
 * when its validator answers not valid or with an error, and a downgrade or a same-version target
 * is "valid" with an error; every other refusal here is not valid.
 */
export function isValidationFailure(result: ValidationResult): boolean {
  return !result.valid || !result.availableUpdate;
}

/** The architecture MUO asks the update service for (its own GOARCH). */
export const GRAPH_ARCH = 'amd64';

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** Validates an UpgradeConfig against the cluster (MUO `IsValidUpgradeConfig`). */
export async function validateUpgradeConfig(input: ValidationInput, deps: ValidationDeps): Promise<ValidationResult> {
  const spec = input.config.spec;
  const upgradeAt = spec?.upgradeAt ?? '';
  if (parseRfc3339(upgradeAt) === undefined) {
    return invalid('InvalidUpgradeAt', `Failed to parse upgradeAt:${upgradeAt} during validation`);
  }
  const desired = spec?.desired ?? {};
  const image = desired.image ?? '';
  if (image !== '') return validateImage(image, input, deps);

  const version = desired.version ?? '';
  const channel = desired.channel ?? '';
  if (version === '' || channel === '') {
    return invalid(
      'MissingTarget',
      'Not able to validate the upgrade config, either image or (channel + version) needs to be provided',
    );
  }
  const cmp = compareWithCurrent(version, input.clusterVersion);
  if (cmp.result !== undefined) return cmp.result;

  const cv = input.clusterVersion;
  if (channel !== (cv.spec.channel ?? '')) {
    if (!input.cincinnatiEnabled) return passed();
    return checkUpdateGraph(version, channel, cmp.current, input, deps);
  }
  const available =
    (cv.status?.availableUpdates ?? []).some((u) => u.version === version) ||
    (cv.status?.conditionalUpdates ?? []).some((u) => u.release.version === version);
  if (!available) {
    return {
      ...invalid(
        'NotInAvailableUpdates',
        `version ${version} not found in clusterversion available or conditional updates`,
      ),
      transient: true,
    };
  }
  return passed();
}

/**
 * The version the cluster runs: that of the most recently completed update in the
 * ClusterVersion history (by completion time); undefined when none has completed.
 */
export function currentClusterVersion(cv: ClusterVersion): string | undefined {
  let best: { version: string; at: number } | undefined;
  for (const h of cv.status?.history ?? []) {
    if (h.state !== 'Completed' || h.completionTime === null || h.version === '') continue;
    const at = parseRfc3339(h.completionTime) ?? Date.parse(h.completionTime);
    if (Number.isNaN(at)) continue;
    if (best === undefined || at > best.at) best = { version: h.version, at };
  }
  return best?.version;
}

async function validateImage(image: string, input: ValidationInput, deps: ValidationDeps): Promise<ValidationResult> {
  const parsed = parseImageReference(image);
  if (!parsed.ok)
    return invalid('InvalidImage', `failed to parse image ${image}: must be a valid image pull spec:${parsed.error}`);
  const ref = parsed.ref;
  const missing =
    ref.registry === ''
      ? 'no registry specified'
      : ref.namespace === ''
        ? 'no repository specified'
        : ref.name === ''
          ? 'no image name specified'
          : ref.id === ''
            ? 'no image digest specified'
            : undefined;
  if (missing !== undefined)
    return invalid('InvalidImage', `failed to parse image:${image} must be a valid image pull spec: ${missing}`);

  let version: string;
  try {
    version = await deps.releaseVersionOfImage(image, input.signal);
  } catch (err) {
    rethrowIfAborted(err, input.signal);
    return {
      ...invalid(
        'ImageUnresolvable',
        `failed to fetch image manifest digest: ${image} needs to be a valid release image`,
      ),
      detail: errorMessage(err),
      transient: true,
    };
  }
  if (version === '') {
    return invalid(
      'ImageUnresolvable',
      `release image ${image} has no io.openshift.release label, so its version is unknown`,
    );
  }
  if (parseStrictSemver(version) === undefined) {
    return invalid(
      'InvalidVersion',
      `release image ${image} carries version ${version}, which is not a semantic version (${STRICT_SEMVER_EXPECTATION})`,
    );
  }
  const cmp = compareWithCurrent(version, input.clusterVersion);
  if (cmp.result !== undefined) return { ...cmp.result, resolvedVersion: version };
  return { ...passed(), resolvedVersion: version };
}

/** Refuses unparsable, equal and lower versions; else gives the current version. */
function compareWithCurrent(
  version: string,
  cv: ClusterVersion,
): { result: ValidationResult; current?: never } | { result?: never; current: string } {
  const desired = parseStrictSemver(version);
  if (desired === undefined) {
    return {
      result: invalid(
        'InvalidVersion',
        `failed to parse upgrade config desired version ${version} as semver: ${STRICT_SEMVER_EXPECTATION}`,
      ),
    };
  }
  const current = currentClusterVersion(cv);
  if (current === undefined) {
    return {
      result: {
        ...invalid(
          'UnknownCurrentVersion',
          'failed to get current cluster version during validation: no completed update in the clusterversion history',
        ),
        transient: true,
      },
    };
  }
  const parsedCurrent = parseStrictSemver(current);
  if (parsedCurrent === undefined) {
    return {
      result: invalid(
        'InvalidCurrentVersion',
        `failed to parse current cluster version ${current} as semver: ${STRICT_SEMVER_EXPECTATION}`,
      ),
    };
  }
  switch (compareStrictSemver(desired, parsedCurrent)) {
    case -1:
      return {
        result: refused('Downgrade', `downgrades to desired version ${version} from ${current} are unsupported`),
      };
    case 0:
      return { result: refused('SameVersion', `desired version ${version} matches the current version ${current}`) };
    case 1:
      return { current };
  }
}

async function checkUpdateGraph(
  version: string,
  channel: string,
  current: string,
  input: ValidationInput,
  deps: ValidationDeps,
): Promise<ValidationResult> {
  const cv = input.clusterVersion;
  const clusterId = cv.spec.clusterID;
  if (!UUID.test(clusterId)) {
    return invalid(
      'InvalidClusterId',
      `clusterversion spec.clusterID ${JSON.stringify(clusterId)} is not a UUID, so the update service cannot be asked about channel ${channel}`,
    );
  }
  const upstream = cv.spec.upstream !== undefined && cv.spec.upstream !== '' ? cv.spec.upstream : DEFAULT_UPSTREAM;
  if (!isHttpUrl(upstream)) {
    return invalid(
      'InvalidUpstream',
      `clusterversion spec.upstream ${JSON.stringify(upstream)} is not an http or https URL`,
    );
  }
  let graph: GraphUpdates;
  try {
    graph = await deps.fetchGraph(
      { upstream, channel, arch: GRAPH_ARCH, clusterId, fromVersion: current },
      input.signal,
    );
  } catch (err) {
    rethrowIfAborted(err, input.signal);
    return { ...invalid('UpdateServiceUnavailable', errorMessage(err)), transient: true };
  }
  if (graph.updates.length === 0 && graph.conditionalUpdates.length === 0) {
    return {
      ...invalid('NotInUpdateGraph', `no available upgrade for the given clusterversion ${current}`),
      transient: true,
    };
  }
  if (!graph.updates.includes(version) && !graph.conditionalUpdates.includes(version)) {
    return { ...invalid('NotInUpdateGraph', `cannot find version ${version} in available updates`), transient: true };
  }
  return passed();
}

function passed(): ValidationResult {
  return { valid: true, availableUpdate: true, reason: 'Valid', message: 'Upgrade config is valid', transient: false };
}

function invalid(reason: ValidationReasonName, message: string): ValidationResult {
  return { valid: false, availableUpdate: false, reason, message, transient: false };
}

/** Valid but not to be acted on (downgrade, same version). */
function refused(reason: ValidationReasonName, message: string): ValidationResult {
  return { valid: true, availableUpdate: false, reason, message, transient: false };
}

function rethrowIfAborted(err: unknown, signal: AbortSignal | undefined): void {
  if (signal?.aborted === true || (isIntegrationError(err) && err.reason === 'Aborted')) throw err;
}
