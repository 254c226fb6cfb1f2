/**
 * `upgrade-operator snapshot`: reads a live cluster, with get and list only, and writes a scenario
 * file that reproduces it, so that `simulate --scenario FILE` rehearses its next upgrade
 * (docs/rehearsing-your-cluster.md). The heavy parts load only when the command runs.
 */
import { Command } from 'commander';

/** The flags. */
interface SnapshotFlags {
  kubeconfig?: string;
  context?: string;
  output: string;
  anonymize?: boolean;
  prometheusUrl?: string;
}

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
    .action(async (flags: SnapshotFlags) => {
      const { takeSnapshot } = await import('./snapshot/take-snapshot.js');
      const result = await takeSnapshot(flags);
      for (const note of result.notes) process.stderr.write(`note: ${note}\n`);
      if (flags.output !== '-') process.stdout.write(`${flags.output}: ${result.summary}\n`);
    });
}
