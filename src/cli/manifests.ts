/**
 * `upgrade-operator manifests`: writes the install manifests to a folder, as kustomize bases
 * (docs/install.md): the CRDs to `<dir>/crds/`, what runs `upgrade-operator run` for the managed
 * flow on OpenShift (Namespace, RBAC, ConfigMap, Deployment, Services, ServiceMonitors,
 * PrometheusRule) to `<dir>/managed/`, and what runs `upgrade-operator run --flows scheduled`
 * (APPUiO compatible) to `<dir>/scheduled/`; and the alerting rules as plain rules files to
 * `<dir>/prometheus/`; with `--bundle DIR`, the managed flow's OLM bundle (docs/install.md).
 */
import {
  writeCrdFiles,
  writeOlmBundle,
  writeOperatorFiles,
  writeRuleFiles,
  writeScheduledOperatorFiles,
  writeSnapshotFiles,
} from '../api/manifests.js';
import type { ManagedOperatorManifestOptions } from '../api/deploy/managed-operator-manifests.js';
import type { ScheduledOperatorManifestOptions } from '../api/deploy/scheduled-operator-manifests.js';
import { LEADER_ELECTION_ID, SCHEDULED_LEADER_ELECTION_ID } from './commands/run.js';
import { version } from './version.js';

/** The options the committed `deploy/managed/` files are generated with: this build's version and `run`'s Lease. */
export function operatorManifestOptions(): ManagedOperatorManifestOptions {
  return { version: version(), leaseName: LEADER_ELECTION_ID };
}

/** The options the committed `deploy/scheduled/` files are generated with: this build's version and the scheduled flow's Lease. */
export function scheduledOperatorManifestOptions(): ScheduledOperatorManifestOptions {
  return { version: version(), leaseName: SCHEDULED_LEADER_ELECTION_ID };
}

/** The flags of `manifests`. */
export interface ManifestsFlags {
  out: string;
  bundle?: string;
}

/** The action of `manifests` (src/cli/commands/manifests.ts defines its flags). */
export async function manifestsAction(opts: ManifestsFlags): Promise<void> {
  const files = [
    ...(await writeCrdFiles(`${opts.out}/crds`)),
    ...(await writeOperatorFiles(`${opts.out}/managed`, operatorManifestOptions())),
    ...(await writeScheduledOperatorFiles(`${opts.out}/scheduled`, scheduledOperatorManifestOptions())),
    ...(await writeRuleFiles(`${opts.out}/prometheus`)),
    ...(await writeSnapshotFiles(`${opts.out}/snapshot`)),
    ...(opts.bundle !== undefined ? await writeOlmBundle(opts.bundle, operatorManifestOptions()) : []),
  ];
  for (const f of files) process.stdout.write(`${f}\n`);
}
