/**
 * The action of `upgrade-operator snapshot`: connect as `run` does (kubeconfig, context), read the
 * cluster, map it to a scenario, anonymise it when asked, and write it. The only I/O edge of the
 * snapshot; the mapping and the anonymisation are pure.
 */
import { writeFile } from 'node:fs/promises';
import { stringify } from '../../lib/yaml-package.js';
import { formatTime, RealClock } from '../../lib/clock.js';
import { PrometheusClient } from '../../integrations/prometheus-client.js';
import { platformRuleGroups } from '../../sim/monitoring/platform-rules.js';
import { buildCatalogue, findRelease } from '../../sim/releases/catalogue.js';
import { readingClient } from '../reading-client.js';
import { anonymizeSnapshot } from './anonymize.js';
import { readCluster } from './read-cluster.js';
import { snapshotScenario } from './snapshot-scenario.js';

/** What was written: the notes of what the file does not reproduce, and a one-line summary. */
export interface SnapshotResult {
  notes: string[];
  summary: string;
}

/** Reads the cluster and writes the scenario file (`-`: stdout). */
export async function takeSnapshot(flags: {
  kubeconfig?: string;
  context?: string;
  output: string;
  anonymize?: boolean;
  prometheusUrl?: string;
}): Promise<SnapshotResult> {
  const clock = new RealClock();
  const client = readingClient(clock, { command: 'snapshot', kubeconfig: flags.kubeconfig, context: flags.context });
  const prometheus = flags.prometheusUrl ? new PrometheusClient({ url: flags.prometheusUrl, clock }) : undefined;
  try {
    const read = await readCluster(client, { takenAt: formatTime(clock.now()), prometheus });
    const snap = flags.anonymize ? anonymizeSnapshot(read) : read;
    const derivedAlerts = new Set(platformRuleGroups().flatMap((g) => g.rules.map((r) => r.name)));
    const catalogue = buildCatalogue();
    const file = snapshotScenario(snap, {
      derivedAlerts,
      knownVersion: (v) => findRelease(catalogue, v) !== undefined,
    });
    if (flags.anonymize) file.snapshot = { ...file.snapshot, takenAt: snap.takenAt, anonymized: true };
    const text = `# Written by upgrade-operator snapshot (docs/rehearsing-your-cluster.md); rehearse with\n# upgrade-operator simulate --scenario ${flags.output === '-' ? 'FILE' : flags.output}\n${stringify(file, { lineWidth: 0, aliasDuplicateObjects: false })}`;
    if (flags.output === '-') process.stdout.write(text);
    else await writeFile(flags.output, text);
    const manifests = file.manifests?.length ?? 0;
    return {
      notes: file.snapshot?.notes ?? [],
      summary: `${file.cluster.version} on ${file.cluster.channel}, ${file.cluster.nodes?.length ?? 0} nodes, ${manifests} manifests${file.operator ? `, operator flows ${(file.operator.flows ?? []).join(', ')}` : ', no UpgradeConfig'}`,
    };
  } finally {
    await client.close();
    await prometheus?.close();
  }
}
