/**
 * What `spec.desiredUpdate` asks for, checked as the CVO checks it
 * (docs/design/cluster-model.md#spec-and-desiredupdate): the CVO-side validation that sets
 * `Invalid` (it never rejects the write), the lookup of a version-only target in
 * `status.availableUpdates` (or history, for a rollback) and of an image in the release catalogue
 * by its digest. Pure.
 */
import type { ClusterVersion, Update } from '../../api/openshift/config-v1/cluster-version.js';
import { findReleaseByDigest, type Catalogue, type Release as CatalogueRelease } from '../releases/catalogue.js';

/** A release the CVO was asked to move to. */
export interface Target {
  /** The version the spec names ('' for an image-only request). */
  specVersion: string;
  image: string;
  force: boolean;
  /** The catalogue release the image is, when the image is known. */
  release: CatalogueRelease | undefined;
}

export type DesiredResult =
  /** No desiredUpdate, or one naming the payload already loaded. */
  { kind: 'none' } | { kind: 'invalid'; message: string } | { kind: 'target'; target: Target };

const SEMVER_RE =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

/** The `Invalid` condition message for a field error. */
export function invalidMessage(fieldError: string): string {
  return `The cluster version is invalid: ${fieldError}`;
}

/** The digest part (`sha256:…`) of a pull spec, if it is by digest. */
export function imageDigest(image: string): string | undefined {
  const at = image.lastIndexOf('@');
  return at < 0 ? undefined : image.slice(at + 1);
}

/** Resolves `spec.desiredUpdate` against the status and the catalogue. */
export function resolveDesired(cv: ClusterVersion, catalogue: Catalogue): DesiredResult {
  const du: Update | undefined = cv.spec.desiredUpdate;
  if (!du) return { kind: 'none' };
  const version = du.version ?? '';
  const image = du.image ?? '';
  const force = du.force === true;
  if (version === '' && image === '' && (du.architecture ?? '') === '') {
    return {
      kind: 'invalid',
      message: invalidMessage('spec.desiredUpdate: Required value: must specify architecture, version, or image'),
    };
  }
  if (version !== '' && !SEMVER_RE.test(version)) {
    return {
      kind: 'invalid',
      message: invalidMessage(
        `spec.desiredUpdate.version: Invalid value: ${JSON.stringify(version)}: must be a semantic version (1.2.3[-...])`,
      ),
    };
  }
  if (image !== '') {
    const digest = imageDigest(image);
    const release = digest ? findReleaseByDigest(catalogue, digest) : undefined;
    return { kind: 'target', target: { specVersion: version, image, force, release } };
  }
  // Version only: an available update, or a version in history (a rollback).
  const available = (cv.status?.availableUpdates ?? []).filter((r) => r.version === version);
  const images = new Set(available.map((r) => r.image));
  if (images.size === 0) for (const h of cv.status?.history ?? []) if (h.version === version) images.add(h.image);
  if (images.size === 0 && cv.status?.desired.version === version) images.add(cv.status.desired.image);
  if (images.size === 0) {
    return {
      kind: 'invalid',
      message: invalidMessage(
        `spec.desiredUpdate.version: Invalid value: ${JSON.stringify(version)}: when image is empty the update must be an available update`,
      ),
    };
  }
  if (images.size > 1) {
    return {
      kind: 'invalid',
      message: invalidMessage(
        `spec.desiredUpdate.version: Invalid value: ${JSON.stringify(version)}: there are multiple possible payloads for this version, specify the exact image`,
      ),
    };
  }
  const resolved = [...images][0]!;
  const digest = imageDigest(resolved);
  return {
    kind: 'target',
    target: {
      specVersion: version,
      image: resolved,
      force,
      release: digest ? findReleaseByDigest(catalogue, digest) : undefined,
    },
  };
}
