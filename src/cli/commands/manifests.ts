/** The definition of `upgrade-operator manifests`; its action is src/cli/manifests.ts, loaded when it runs. */
import { Command } from '../commander-package.js';
import type { ManifestsFlags } from '../manifests.js';

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
    .action(async (opts: ManifestsFlags) => (await import('../manifests.js')).manifestsAction(opts));
}
