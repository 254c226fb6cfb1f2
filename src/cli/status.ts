/**
 * `upgrade-operator status`: an `oc adm upgrade status`-like view of an upgrade in progress
 * (docs/configuration.md#upgrade-operator-status), for a real OpenShift cluster or the simulated
 * one alike. Reads only — GET and LIST, in parallel — into an {@link UpgradeStatusSnapshot},
 * assesses it ({@link assessUpgradeStatus}, pure) and prints text or JSON. A part that cannot be
 * read is reported as unknown with the reason; the exit code is 1 only when nothing at all could be
 * read. `--watch` redraws in place on a TTY (a live view with progress bars above the report, every line cut to the terminal width), else prints snapshots separated by a blank line, every
 * `--interval` until SIGINT, which ends it with exit code 0.
 */
import { JobResource, NodeResource, PodDisruptionBudgetResource, PodResource } from '../api/builtin.js';
import type { ResourceDescriptor, KubeObjectLike } from '../api/resource.js';
import { ScheduledUpgradeConfigResource } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-config-contract.js';
import { UpgradeJobResource } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import { HookJobLabel } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook-contract.js';
import { ClusterOperatorResource } from '../api/openshift/config-v1/cluster-operator.js';
import { CLUSTER_VERSION_NAME, ClusterVersionResource } from '../api/openshift/config-v1/cluster-version.js';
import {
  MachineConfigNodeAnnotation as A,
  MachineConfigPoolResource,
} from '../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { MachineConfigResource, type MachineConfig } from '../api/openshift/machineconfiguration-v1/machine-config.js';
import { ManagedUpgradeConfigResource } from '../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import type { KubeClient } from '../kube/client.js';
import { isNotFound } from '../kube/status-error.js';
import { RealClock, type Clock } from '../lib/clock.js';
import { errorMessage } from '../lib/errors.js';
import { assessUpgradeStatus, nothingRead, unreachableServer } from './upgrade-status.js';
import { partValue, type SnapshotPart, type UpgradeStatusSnapshot } from './upgrade-status-model.js';
import { drainingNodeNames } from './upgrade-status-nodes.js';
import { renderStatusJson, renderStatusText } from './upgrade-status-render.js';
import type { Details } from './commands/status.js';
import { readingClient } from './reading-client.js';
import { createLogUpdate } from 'log-update';
import { drawableColumns, fitLine, renderLiveView } from './live-view.js';
import { statusLiveView } from './upgrade-status-live.js';

/** The command's flags. */
export interface StatusOptions {
  kubeconfig?: string;
  context?: string;
  watch?: boolean;
  /** ms between snapshots with `--watch`. */
  interval: number;
  details?: Details[];
  output: 'text' | 'json';
  /** ms one request may take (0: no limit), as kubectl's `--request-timeout`. */
  requestTimeout: number;
}

/** What {@link runStatus} writes to and waits with. */
export interface StatusIo {
  clock: Clock;
  /** Where the view goes; `isTTY` decides colours and redraws, `columns` the width of a redraw. */
  out: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  /** The environment (NO_COLOR). */
  env: Readonly<Record<string, string | undefined>>;
  /** Ends `--watch` (SIGINT). */
  signal: AbortSignal;
}

/** Reads a list; a 404 (the kind is not served: its CRD is not installed) is `absent`. */
async function listPart<T extends KubeObjectLike>(
  client: KubeClient,
  resourceDescriptor: ResourceDescriptor<T>,
  options: { labelSelector?: string; fieldSelector?: string; signal?: AbortSignal | undefined } = {},
): Promise<SnapshotPart<T[]>> {
  try {
    return { state: 'ok', value: (await client.list(resourceDescriptor, options)).items };
  } catch (err) {
    if (isNotFound(err))
      return {
        state: 'absent',
        reason: `${resourceDescriptor.plural}.${resourceDescriptor.group || 'core'} is not served by this cluster`,
      };
    return { state: 'error', error: errorMessage(err) };
  }
}

/**
 * The rendered configs nodes and pools name, read one by one (rendered configs are large; listing
 * them all would fetch megabytes). A rendered config's name is the hash of its content, so one
 * read is good for good: `known` keeps them across the snapshots of a `--watch`.
 */
async function renderedConfigs(
  client: KubeClient,
  names: readonly string[],
  signal: AbortSignal | undefined,
  known: Map<string, MachineConfig>,
): Promise<SnapshotPart<MachineConfig[]>> {
  const results = await Promise.allSettled(
    names.map(
      async (n) =>
        known.get(n) ?? (await client.getIfExists(MachineConfigResource, undefined, n, signal ? { signal } : {})),
    ),
  );
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) return { state: 'error', error: errorMessage(failed.reason) };
  const found = results.flatMap((r) => (r.status === 'fulfilled' && r.value ? [r.value] : []));
  for (const mc of found) known.set(mc.metadata?.name ?? '', mc);
  return { state: 'ok', value: found };
}

/**
 * Reads the snapshot: every list in parallel, then the rendered configs named (those in
 * `renderedKnown`, from an earlier snapshot, are not read again) and the pods of draining nodes.
 * The signal aborts the reads.
 */
export async function readStatusSnapshot(
  client: KubeClient,
  signal?: AbortSignal,
  renderedKnown = new Map<string, MachineConfig>(),
): Promise<UpgradeStatusSnapshot> {
  const all = { signal };
  const cvPart = client.get(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME, signal ? { signal } : {}).then(
    (value): SnapshotPart<typeof value> => ({ state: 'ok', value }),
    (err: unknown): SnapshotPart<never> =>
      isNotFound(err)
        ? { state: 'absent', reason: 'ClusterVersion "version" not found: not an OpenShift cluster?' }
        : { state: 'error', error: errorMessage(err) },
  );
  const [
    clusterVersion,
    clusterOperators,
    machineConfigPools,
    nodes,
    podDisruptionBudgets,
    managedUpgradeConfigs,
    scheduledUpgradeConfigs,
    upgradeJobs,
    hookJobs,
  ] = await Promise.all([
    cvPart,
    listPart(client, ClusterOperatorResource, all),
    listPart(client, MachineConfigPoolResource, all),
    listPart(client, NodeResource, all),
    listPart(client, PodDisruptionBudgetResource, all),
    listPart(client, ManagedUpgradeConfigResource, all),
    listPart(client, ScheduledUpgradeConfigResource, all),
    listPart(client, UpgradeJobResource, all),
    listPart(client, JobResource, { labelSelector: HookJobLabel.UpgradeJob, signal }),
  ]);
  const names = new Set<string>();
  for (const p of partValue(machineConfigPools) ?? [])
    if (p.spec.configuration?.name) names.add(p.spec.configuration.name);
  for (const n of partValue(nodes) ?? [])
    for (const k of [A.CurrentConfig, A.DesiredConfig])
      if (n.metadata?.annotations?.[k]) names.add(n.metadata.annotations[k]);
  const base: UpgradeStatusSnapshot = {
    clusterVersion,
    clusterOperators,
    machineConfigPools,
    nodes,
    podDisruptionBudgets,
    managedUpgradeConfigs,
    scheduledUpgradeConfigs,
    upgradeJobs,
    hookJobs,
    renderedMachineConfigs:
      machineConfigPools.state === 'error' && nodes.state === 'error'
        ? { state: 'error', error: 'neither pools nor nodes could be read' }
        : await renderedConfigs(client, [...names].sort(), signal, renderedKnown),
    pods: { state: 'ok', value: [] },
  };
  const draining = drainingNodeNames(base);
  if (draining.length === 0) return base;
  const lists = await Promise.all(
    draining.map((n) => listPart(client, PodResource, { fieldSelector: `spec.nodeName=${n}`, signal })),
  );
  const failed = lists.find((l) => l.state !== 'ok');
  return { ...base, pods: failed ?? { state: 'ok', value: lists.flatMap((l) => partValue(l) ?? []) } };
}

/**
 * Prints one view (or, with `--watch`, one per interval until the signal aborts). Returns the
 * exit code: 1 when the last snapshot could read nothing at all, else 0 (a watch ended by the
 * signal is 0).
 */
export async function runStatus(client: KubeClient, options: StatusOptions, io: StatusIo): Promise<number> {
  const tty = io.out.isTTY === true;
  const color = tty && (io.env['NO_COLOR'] ?? '') === '';
  let first = true;
  // A redraw in place on a terminal (log-update erases exactly what it drew last).
  let draw: ReturnType<typeof createLogUpdate> | undefined;
  const rendered = new Map<string, MachineConfig>();
  for (;;) {
    const snapshot = await readStatusSnapshot(client, options.watch ? io.signal : undefined, rendered);
    if (options.watch && io.signal.aborted) return 0;
    if (!options.watch) {
      const unreachable = unreachableServer(snapshot, client.config.server, options.requestTimeout);
      // An error, not process.exitCode (the entry sets the exit code from runCli's result): exit 1.
      if (unreachable) throw new Error(unreachable);
    }
    // Ages are the cluster's: its timestamps are on its clock (a rehearsal's is virtual), which the
    // server's answers carry; this machine's clock only when the server sent no time.
    const report = assessUpgradeStatus(snapshot, client.serverTime() ?? io.clock.now());
    const body =
      options.output === 'json'
        ? renderStatusJson(report, options.watch === true)
        : renderStatusText(report, { color, ...(options.details ? { details: options.details } : {}) });
    if (!options.watch) {
      io.out.write(body);
      return nothingRead(snapshot) ? 1 : 0;
    }
    if (options.output === 'json') io.out.write(body);
    else if (tty) {
      draw ??= createLogUpdate(io.out as NodeJS.WriteStream, { showCursor: false });
      const columns = drawableColumns(io.out.columns);
      const view = statusLiveView(report, {
        title: `Every ${options.interval / 1000}s: upgrade-operator status`,
        clock: report.generatedAt,
      });
      // The view's lines are cut already; the report's are cut here.
      const bodyLines = body
        .replace(/\n$/, '')
        .split('\n')
        .map((line) => fitLine(line, columns));
      draw([...renderLiveView(view, { columns, color }), '', ...bodyLines].join('\n'));
    } else io.out.write(`${first ? '' : '\n'}${report.generatedAt}\n${body}`);
    first = false;
    try {
      await io.clock.sleep(options.interval, io.signal);
    } catch {
      draw?.done();
      return 0;
    }
  }
}

/** The action of `status` (src/cli/commands/status.ts defines its flags). */
export async function statusAction(options: StatusOptions): Promise<void> {
  const clock = new RealClock();
  const client = readingClient(clock, {
    command: 'status',
    kubeconfig: options.kubeconfig,
    context: options.context,
    requestTimeoutMs: options.requestTimeout,
  });
  const abort = new AbortController();
  const onSigint = (): void => abort.abort();
  // Only a watch ends on Ctrl-C with 0; a single view keeps Node's default (the process ends).
  if (options.watch) process.once('SIGINT', onSigint);
  try {
    const code = await runStatus(client, options, {
      clock,
      out: process.stdout,
      env: process.env,
      signal: abort.signal,
    });
    // An error, not process.exitCode (the entry sets the exit code from runCli's result): exit 1.
    if (code !== 0) throw new Error('nothing could be read from the cluster');
  } finally {
    process.removeListener('SIGINT', onSigint);
    await client.close();
  }
}
