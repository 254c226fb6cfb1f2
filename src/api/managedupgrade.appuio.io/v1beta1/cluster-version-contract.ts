/**
 * Contract of APPUiO's ClusterVersion (managedupgrade.appuio.io/v1beta1): descriptor and the
 * default singleton names (docs/design/scheduled-flow.md#clusterversion,
 * docs/design/scheduled-flow.md#clusterversion-sync,
 * docs/design/scheduled-flow.md#runtime-flags-and-defaults). No TypeBox here.
 */
import { resource } from '../../resource.js';
import { APPUIO_GROUP, APPUIO_VERSION } from './group.js';
import type { ManagedClusterVersion } from './cluster-version.js';

/** Descriptor of APPUiO's ClusterVersion (namespaced; a singleton chosen by flags). */
export const ManagedClusterVersionResource = resource<ManagedClusterVersion>({
  group: APPUIO_GROUP,
  version: APPUIO_VERSION,
  kind: 'ClusterVersion',
  plural: 'clusterversions',
  namespaced: true,
});

/** Default name of the managed ClusterVersion (`--managed-cluster-version-name`). */
export const DEFAULT_MANAGED_CLUSTER_VERSION_NAME = 'version';
/** Default name of the upstream config.openshift.io ClusterVersion (`--managed-upstream-cluster-version-name`). */
export const DEFAULT_UPSTREAM_CLUSTER_VERSION_NAME = 'version';
