/** The definition of `upgrade-operator snapshot`; its action is src/cli/snapshot.ts, loaded when it runs. */
import { Command } from '../commander-package.js';
import type { SnapshotFlags } from '../snapshot.js';

/** The subcommand. */
export function snapshotCommand(): Command {
  return new Command('snapshot')
    .description(
      'Read a live cluster (get and list only; never a Secret) and write a scenario file that reproduces it, for `simulate --scenario FILE`.',
    )
    .option('--kubeconfig <file>', 'kubeconfig file (default: $KUBECONFIG, ~/.kube/config, then in-cluster)')
    .option('--context <name>', 'a context other than the kubeconfig’s current-context')
    .requiredOption('-o, --output <file>', 'the scenario file to write (- for stdout)')
    .option('--anonymize', 'replace names by stable hashes (same name, same hash; references kept)')
    .option(
      '--prometheus-url <url>',
      'copy the alerts firing there (e.g. http://127.0.0.1:9090 through oc port-forward)',
    )
    .action(async (flags: SnapshotFlags) => (await import('../snapshot.js')).snapshotAction(flags));
}
