/**
 * `upgrade-operator manifests`: writes the install manifests to a folder, as kustomize bases
 * (docs/install.md): the CRDs to `<dir>/crds/`, what runs `upgrade-operator run` for the managed
 * flow on OpenShift (Namespace, RBAC, ConfigMap, Deployment, Services, ServiceMonitors,
 * PrometheusRule) to `<dir>/managed/`, and what runs `upgrade-operator run --flows scheduled`
 * (APPUiO compatible) to `<dir>/scheduled/`; and the alerting rules as plain rules files to
 * `<dir>/prometheus/`; with `--bundle DIR`, the managed flow's OLM bundle (docs/install.md).
 */
import { Command } from 'commander';
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
import { LEADER_ELECTION_ID, SCHEDULED_LEADER_ELECTION_ID } from './run.js';
import { version } from './version.js';

/** The options the committed `deploy/managed/` files are generated with: this build's version and `run`'s Lease. */
export function operatorManifestOptions(): ManagedOperatorManifestOptions {
  return { version: version(), leaseName: LEADER_ELECTION_ID };
}

/** The options the committed `deploy/scheduled/` files are generated with: this build's version and the scheduled flow's Lease. */
export function scheduledOperatorManifestOptions(): ScheduledOperatorManifestOptions {
  return { version: version(), leaseName: SCHEDULED_LEADER_ELECTION_ID };
}

/** The subcommand. */
export function manifestsCommand(): Command {
  return new Command('manifests')
    .description(
      'Write the install manifests: CustomResourceDefinitions, and the Namespace, RBAC, Deployment, Services and ServiceMonitors of the managed-upgrade operator and of the scheduled-flow operator.',
    )
    .option(
      '--out <dir>',
      'output folder; CRDs go to <dir>/crds, the managed flow to <dir>/managed, the scheduled flow to <dir>/scheduled (kustomize bases), the rules files to <dir>/prometheus, the snapshot ClusterRole to <dir>/snapshot',
      'deploy',
    )
    .option('--bundle <dir>', "also write the managed flow's OLM bundle (manifests/, metadata/) to <dir>")
    .action(async (opts: { out: string; bundle?: string }) => {
      const files = [
        ...(await writeCrdFiles(`${opts.out}/crds`)),
        ...(await writeOperatorFiles(`${opts.out}/managed`, operatorManifestOptions())),
        ...(await writeScheduledOperatorFiles(`${opts.out}/scheduled`, scheduledOperatorManifestOptions())),
        ...(await writeRuleFiles(`${opts.out}/prometheus`)),
        ...(await writeSnapshotFiles(`${opts.out}/snapshot`)),
        ...(opts.bundle !== undefined ? await writeOlmBundle(opts.bundle, operatorManifestOptions()) : []),
      ];
      for (const f of files) process.stdout.write(`${f}\n`);
    });
}
