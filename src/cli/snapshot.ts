/**
 * The action of `upgrade-operator snapshot` (src/cli/commands/snapshot.ts defines its flags): reads
 * a live cluster, with get and list only, and writes a scenario file that reproduces it, so that
 * `simulate --scenario FILE` rehearses its next upgrade (docs/rehearsing-your-cluster.md).
 */
import { takeSnapshot } from './snapshot/take-snapshot.js';

/** The flags. */
export interface SnapshotFlags {
  kubeconfig?: string;
  context?: string;
  output: string;
  anonymize?: boolean;
  prometheusUrl?: string;
}

/** Takes the snapshot; notes on stderr, a summary on stdout unless the file is stdout. */
export async function snapshotAction(flags: SnapshotFlags): Promise<void> {
  const result = await takeSnapshot(flags);
  for (const note of result.notes) process.stderr.write(`note: ${note}\n`);
  if (flags.output !== '-') process.stdout.write(`${flags.output}: ${result.summary}\n`);
}
