/** API group and version of the APPUiO upgrade controller's kinds (docs/design/scheduled-flow.md#the-kinds). */

/** API group of the scheduled-upgrade kinds. */
export const APPUIO_GROUP = 'managedupgrade.appuio.io';
/** The one version served. */
export const APPUIO_VERSION = 'v1beta1';
/** apiVersion as written in objects. */
export const APPUIO_API_VERSION = `${APPUIO_GROUP}/${APPUIO_VERSION}`;
/** Namespace the controller runs in (Commodore component default). */
export const APPUIO_CONTROLLER_NAMESPACE = 'appuio-openshift-upgrade-controller';
