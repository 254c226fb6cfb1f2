/**
 * The File Integrity Operator's FileIntegrity (fileintegrity.openshift.io/v1alpha1, namespaced):
 * the upgrade operator only re-initialises it after an upgrade, by annotation
 * (docs/design/managed-flow.md#post-upgrade-procedures). Plain JSON shapes.
 */
import type { Toleration } from 'kubernetes-types/core/v1.js';
import { resource, type KubeObjectLike } from '../../resource.js';

/** `spec.config`: the AIDE configuration and scan cadence. */
export interface FileIntegrityConfig {
  /** ConfigMap holding a custom AIDE configuration. */
  name?: string;
  namespace?: string;
  key?: string;
  /** Seconds between scans (default 900). */
  gracePeriod?: number;
  /** Database and log backups kept after a re-init (default 5). */
  maxBackups?: number;
  /** Seconds before the first scan. */
  initialDelay?: number;
}

/** `spec` of a FileIntegrity. */
export interface FileIntegritySpec {
  nodeSelector?: Record<string, string>;
  config?: FileIntegrityConfig;
  debug?: boolean;
  tolerations?: Toleration[];
}

/** Phases of a FileIntegrity. */
export type FileIntegrityPhase = 'Initializing' | 'Active' | 'Pending' | 'Error';

/** FileIntegrity object. */
export interface FileIntegrity extends KubeObjectLike {
  spec?: FileIntegritySpec;
  status?: { phase?: FileIntegrityPhase };
}

/** Descriptor of fileintegrity.openshift.io/v1alpha1 FileIntegrity. */
export const FileIntegrityResource = resource<FileIntegrity>({
  group: 'fileintegrity.openshift.io',
  version: 'v1alpha1',
  kind: 'FileIntegrity',
  plural: 'fileintegrities',
  namespaced: true,
});

/** Namespace the operator runs in. */
export const FILE_INTEGRITY_NAMESPACE = 'openshift-file-integrity';
/** Annotation that asks the operator to re-initialise the AIDE database (value ''). */
export const FILE_INTEGRITY_REINIT_ANNOTATION = 'file-integrity.openshift.io/re-init';
