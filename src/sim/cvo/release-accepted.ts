/**
 * The ReleaseAccepted condition at each step of loading a payload (`syncPayload`,
 * docs/design/cluster-model.md#release-acceptance-and-preconditions): Unknown while retrieving,
 * False with the step that failed, True once loaded. Pure.
 */
import type { ConditionInput } from './conditions.js';
import type { Target } from './desired.js';

const q = (s: string): string => JSON.stringify(s);

/** Step `RetrievePayload`, under way. */
export function retrievingCondition(target: Target): ConditionInput {
  return {
    type: 'ReleaseAccepted',
    status: 'Unknown',
    reason: 'RetrievePayload',
    message: `Retrieving and verifying payload version=${q(target.specVersion)} image=${q(target.image)}`,
  };
}

/**
 * The failure of retrieval (an image the catalogue does not know: the release-image Job never
 * finishes) or of the version check (image and version disagree); undefined when both pass.
 */
export function loadFailure(target: Target): ConditionInput | undefined {
  if (!target.release) {
    return {
      type: 'ReleaseAccepted',
      status: 'False',
      reason: 'RetrievePayload',
      message: `Retrieving payload failed version=${q(target.specVersion)} image=${q(target.image)} failure=Unable to download and prepare the update: deadline exceeded, reason: "DeadlineExceeded", message: "Job was active longer than specified deadline"`,
    };
  }
  if (target.specVersion !== '' && target.specVersion !== target.release.version) {
    return {
      type: 'ReleaseAccepted',
      status: 'False',
      reason: 'VerifyPayloadVersion',
      message: `Verifying payload failed version=${q(target.specVersion)} image=${q(target.image)} failure=release image version ${target.release.version} does not match the expected upstream version ${target.specVersion}`,
    };
  }
  return undefined;
}

/** Step `PreconditionChecks` failed. */
export function preconditionsFailedCondition(version: string, image: string, text: string): ConditionInput {
  return {
    type: 'ReleaseAccepted',
    status: 'False',
    reason: 'PreconditionChecks',
    message: `Preconditions failed for payload loaded version=${q(version)} image=${q(image)}: ${text}`,
  };
}

/** `PayloadLoaded`. */
export function payloadLoadedCondition(version: string, image: string): ConditionInput {
  return {
    type: 'ReleaseAccepted',
    status: 'True',
    reason: 'PayloadLoaded',
    message: `Payload loaded version=${q(version)} image=${q(image)} architecture="amd64"`,
  };
}
