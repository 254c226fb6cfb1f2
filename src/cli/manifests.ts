/**
 * `upgrade-operator manifests`: writes the install manifests to a folder: the CRDs to
 * `<dir>/crds/`, and what runs `upgrade-operator run` on OpenShift (Namespace, RBAC, ConfigMap,
 * Deployment, Services, ServiceMonitors) to `<dir>/operator/`.
 */
import { Command } from 'commander';
import { writeCrdFiles, writeOperatorFiles } from '../api/manifests.js';
import type { ManagedOperatorManifestOptions } from '../api/deploy/managed-operator-manifests.js';
import { LEADER_ELECTION_ID } from './run.js';
import { version } from './version.js';

/** The options the committed `deploy/operator/` files are generated with: this build's version and `run`'s Lease. */
export function operatorManifestOptions(): ManagedOperatorManifestOptions {
  return { version: version(), leaseName: LEADER_ELECTION_ID };
}

/** The subcommand. */
export function manifestsCommand(): Command {
  return new Command('manifests')
    .description('Write the install manifests: CustomResourceDefinitions, and the managed-upgrade operator\'s Namespace, RBAC, ConfigMap, Deployment, Services and ServiceMonitors.')
    .option('--out <dir>', 'output folder; CRDs go to <dir>/crds, the operator to <dir>/operator', 'deploy')
    .action(async (opts: { out: string }) => {
      const files = [...(await writeCrdFiles(`${opts.out}/crds`)), ...(await writeOperatorFiles(`${opts.out}/operator`, operatorManifestOptions()))];
      for (const f of files) process.stdout.write(`${f}\n`);
    });
}
