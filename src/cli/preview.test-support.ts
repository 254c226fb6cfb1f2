/** An APPUiO UpgradeConfig for the preview tests: `0 22 * * 2`, `@odd`, Europe/Zurich. */
import type { ScheduledUpgradeConfig } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-config.js';

/** The namespace of the APPUiO objects in the preview tests. */
export const PREVIEW_NS = 'appuio-openshift-upgrade-controller';

/** What a test changes about the UpgradeConfig. */
export interface ConfigOverrides {
  name?: string;
  uid?: string;
  labels?: Record<string, string>;
  jobLabels?: Record<string, string>;
  pin?: string;
  suspend?: boolean;
  maxUpgradeStartDelay?: string;
  upgradeTimeout?: string;
}

/** Every other Tuesday 22:00 in Zurich; labels `team: ops` and, on its jobs, `upgrade-config: NAME`. */
export function scheduledConfig(overrides: ConfigOverrides = {}): ScheduledUpgradeConfig {
  const name = overrides.name ?? 'cluster-upgrade';
  return {
    apiVersion: 'managedupgrade.appuio.io/v1beta1',
    kind: 'UpgradeConfig',
    metadata: {
      name,
      namespace: PREVIEW_NS,
      labels: overrides.labels ?? { team: 'ops' },
      ...(overrides.uid !== undefined ? { uid: overrides.uid } : {}),
    },
    spec: {
      schedule: {
        cron: '0 22 * * 2',
        isoWeek: '@odd',
        location: 'Europe/Zurich',
        ...(overrides.suspend !== undefined ? { suspend: overrides.suspend } : {}),
      },
      ...(overrides.pin !== undefined ? { pinVersionWindow: overrides.pin } : {}),
      maxSchedulingDelay: '1h',
      maxUpgradeStartDelay: overrides.maxUpgradeStartDelay ?? '1h',
      jobTemplate: {
        metadata: { labels: overrides.jobLabels ?? { 'upgrade-config': name } },
        spec: {
          config: {
            upgradeTimeout: overrides.upgradeTimeout ?? '12h',
            preUpgradeHealthChecks: { timeout: '1h' },
            postUpgradeHealthChecks: { timeout: '1h' },
          },
        },
      },
    },
  };
}
