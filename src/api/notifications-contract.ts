/**
 * The names of the notification configuration both flows read and of the state they write
 * (docs/configuration.md#notifications), in the operator namespace. Here so that the RBAC
 * builders and the operator use the same names.
 */

/** The ConfigMap (receivers and filters, key {@link NOTIFICATIONS_CONFIG_KEY}) and the Secret (one URL per receiver). */
export const NOTIFICATIONS_CONFIG_NAME = 'upgrade-operator-notifications';
/** The ConfigMap key holding the configuration. */
export const NOTIFICATIONS_CONFIG_KEY = 'config.yaml';
/** The ConfigMap in which the operator records what it delivered. */
export const NOTIFICATIONS_STATE_NAME = 'upgrade-operator-notifications-state';
