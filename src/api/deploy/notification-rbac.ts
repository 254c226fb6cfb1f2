/**
 * The permissions of the notifications (docs/configuration.md#notification-rbac), the same for both flows, in
 * the operator namespace: read the configuration ConfigMap and its Secret by name, create the
 * state ConfigMap the first time and then read and merge-patch it by name. A Secret is never
 * listed or watched, and no other Secret is readable.
 */
import { ConfigMapResource, SecretResource } from '../builtin.js';
import { NOTIFICATIONS_CONFIG_NAME, NOTIFICATIONS_STATE_NAME } from '../notifications-contract.js';
import { policyRule, type GrantScope, type PermissionGrant } from './operator-objects.js';

const CODE = ['engine/notifications/notification-controller.ts'];

/** The notification grants in `scope` (the operator namespace). */
export function notificationPermissions(scope: GrantScope): PermissionGrant[] {
  return [
    {
      scope,
      rule: policyRule(
        [''],
        [ConfigMapResource.plural],
        ['get'],
        [NOTIFICATIONS_CONFIG_NAME, NOTIFICATIONS_STATE_NAME],
      ),
      reason: 'notifications: reads their configuration and the record of what was delivered, by name',
      code: CODE,
    },
    {
      scope,
      rule: policyRule([''], [ConfigMapResource.plural], ['patch'], [NOTIFICATIONS_STATE_NAME]),
      reason: 'notifications: records each delivery (merge patch of one key) and forgets deleted upgrades',
      code: CODE,
    },
    {
      scope,
      rule: policyRule([''], [ConfigMapResource.plural], ['create']),
      reason: `notifications: creates ${NOTIFICATIONS_STATE_NAME} at the first delivery (create cannot be limited by name)`,
      code: CODE,
    },
    {
      scope,
      rule: policyRule([''], [SecretResource.plural], ['get'], [NOTIFICATIONS_CONFIG_NAME]),
      reason: "notifications: reads the receivers' URLs, by name",
      code: CODE,
    },
  ];
}
