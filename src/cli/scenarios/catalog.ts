/**
 * The named scenarios of `upgrade-operator simulate`: the YAML files of the repository's
 * `scenarios/` folder (users copy and change them, and pass their own with `--scenario FILE`).
 * The end-to-end tests run the same files. A run's verdict is the file's `expect` block, read
 * from the cluster.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { packageRoot } from '../../lib/package-root.js';
import { CLUSTER_VERSION_NAME, ClusterVersionResource } from '../../api/openshift/config-v1/cluster-version.js';
import type { UrlPlaceholder } from '../../sim/recorder/placeholders.js';
import { operatorStates, readMaintenanceWindows } from './operator-record.js';
import { unmetExpectations } from './scenario-expect.js';
import { parseScenarioFile, type ScenarioFile } from './scenario-file.js';
import { progressLine, type ScenarioFlow } from './scenario-progress.js';
import { runScenarioFile, type RunScenarioOptions, type ScenarioRun } from './scenario-runner.js';
import type { SimEnvironment, SimEnvironmentOptions } from './sim-environment.js';

/** The folder of the named scenarios (the package's `scenarios/`). */
export const SCENARIOS_DIR = join(packageRoot(), 'scenarios');

/** One line of live progress. */
export interface ScenarioLine {
  elapsedMs: number;
  text: string;
}

/** How a run ended. */
export interface ScenarioOutcome {
  /** The run ended as the file's `expect` block says (and broke no simulator invariant). */
  ok: boolean;
  /**
   * False when `--until` stopped the run before the scenario's end: the `expect` block describes
   * the end, so it was not checked (the invariants were).
   */
  expectationsChecked: boolean;
  /** One sentence for the end of the output. */
  summary: string;
  /** What did not go as expected. */
  unmet: string[];
  /** The JSON report's scenario part. */
  report: Record<string, unknown>;
  /** The run, for tests to inspect (closed by the caller). */
  run: ScenarioRun;
}

/** Names of the named scenarios, sorted. */
export function scenarioNames(dir = SCENARIOS_DIR): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => basename(f, '.yaml'))
    .sort();
}

/** Loads a named scenario or a file path; throws with every problem of an invalid file. */
export function loadScenario(nameOrPath: string, dir = SCENARIOS_DIR): { name: string; file: ScenarioFile } {
  const isPath = nameOrPath.includes('/') || nameOrPath.endsWith('.yaml') || nameOrPath.endsWith('.yml');
  const path = isPath ? nameOrPath : join(dir, `${nameOrPath}.yaml`);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if (!isPath)
      throw new Error(`no scenario named ${nameOrPath}; named scenarios: ${scenarioNames(dir).join(', ')}`, {
        cause: err,
      });
    throw new Error(`cannot read scenario file ${path}: ${(err as Error).message}`, { cause: err });
  }
  const parsed = parseScenarioFile(text);
  if (!parsed.ok) throw new Error(`invalid scenario ${path}:\n  ${parsed.problems.join('\n  ')}`);
  return { name: isPath ? basename(path).replace(/\.ya?ml$/, '') : nameOrPath, file: parsed.scenario };
}

/** The environment a file's run needs: its seed and, when the file says, its virtual start. */
export function environmentFor(file: ScenarioFile, seed: number): SimEnvironmentOptions {
  return file.start === undefined ? { seed } : { seed, start: Date.parse(file.start) };
}

/** The flow a run's progress lines follow: MUO's view when the managed flow runs, else the UpgradeJob's, else the cluster's. */
/** The operator whose state the progress shows: managed when it runs, else scheduled, else none. */
export function flowShown(file: ScenarioFile): ScenarioFlow {
  const flows = file.operator ? (file.operator.flows ?? ['managed']) : [];
  return flows.includes('managed') ? 'managed' : flows.includes('scheduled') ? 'scheduled' : 'none';
}

/** One sentence on how the run ended. */
function summarize(run: ScenarioRun, unmet: readonly string[]): string {
  const p = run.progress();
  const minutes = (p.elapsedMs / 60_000).toFixed(1);
  const h = run.upgradeConfig()?.status?.history?.[0];
  const flow = flowShown(run.file);
  const job = p.upgradeJob;
  const what =
    flow === 'managed'
      ? `${h?.precedingVersion ?? run.file.cluster.version} → ${h?.version ?? '?'} ${p.phase || 'not started'}: ${p.doneSteps.length} conditions True`
      : `${flow === 'scheduled' ? `UpgradeJob ${job.name ? `${job.name} ${job.state}${job.reason ? `/${job.reason}` : ''}` : 'none'}; ` : ''}${run.file.cluster.version} → ${p.clusterVersion.desired || '?'} ${p.clusterVersion.state || '?'}`;
  const stop = run.ended === 'end condition' ? '' : ` (stopped: ${run.ended})`;
  return `${what}, ${minutes} virtual minutes${stop}${unmet.length > 0 ? `; unmet: ${unmet.join('; ')}` : ''}`;
}

/** The simulation's servers, whose loopback ports change from run to run, by the name a report shows instead. */
function serverPlaceholders(run: ScenarioRun): UrlPlaceholder[] {
  const monitoring = run.sim.components.monitoring;
  const origin = (url: string | undefined): string => (url ? new URL(url).origin : '');
  return [
    { url: origin(run.sim.updateServiceUrl), placeholder: '{update-service}' },
    { url: origin(monitoring.prometheusUrl), placeholder: '{prometheus}' },
    { url: origin(monitoring.alertmanagerUrl), placeholder: '{alertmanager}' },
    { url: origin(run.ocm?.url), placeholder: '{ocm}' },
  ];
}

/** Runs a loaded scenario in `env` and checks its expectations. */
export async function runScenario(
  env: SimEnvironment,
  file: ScenarioFile,
  options: RunScenarioOptions & { onLine?: (line: ScenarioLine) => void },
): Promise<ScenarioOutcome> {
  let lastText = '';
  const run = await runScenarioFile(env, file, {
    ...options,
    onProgress: (progress) => {
      options.onProgress?.(progress);
      // One timeline line per distinct text (a snapshot may differ only in what the line omits).
      const text = progressLine(progress, flowShown(file));
      if (text !== lastText) options.onLine?.({ elapsedMs: progress.elapsedMs, text });
      lastText = text;
    },
  });
  const firstPolicy = run.ocm ? run.ocm.ocm.state.policies(run.ocm.clusterId)[0] : undefined;
  const ocmStates = firstPolicy ? run.ocm?.ocm.state.stateHistory(firstPolicy.id).map((c) => c.value) : undefined;
  const expectationsChecked = run.ended !== 'until';
  const unmet = !expectationsChecked
    ? []
    : await unmetExpectations(
        file.expect,
        {
          client: env.client,
          upgradeConfig: run.upgradeConfig(),
          timeline: run.timeline,
          actionsRun: run.actionsRun.length,
          ...(ocmStates ? { ocmStates } : {}),
        },
        env.signal,
      );
  // A simulator invariant (docs/design/cluster-model.md#invariants) that broke makes the run fail
  // whatever the file expects.
  const invariantViolations = run.invariants.violations().map((v) => ({
    kind: v.kind,
    message: v.message,
    count: v.count,
    firstElapsedMs: v.firstAt - run.startedAt,
    lastElapsedMs: v.lastAt - run.startedAt,
  }));
  for (const v of invariantViolations)
    unmet.push(
      `invariant violated (${v.kind}, at ${(v.firstElapsedMs / 60_000).toFixed(1)} min${v.count > 1 ? `, ${v.count} times` : ''}): ${v.message}`,
    );
  const h = run.upgradeConfig()?.status?.history?.[0];
  const p = run.progress();
  const flows = run.file.operator ? (run.file.operator.flows ?? ['managed']) : [];
  const windows = await readMaintenanceWindows(
    env.client,
    {
      managed: flows.includes('managed'),
      scheduled: flows.includes('scheduled'),
      namespace: run.namespace,
      upgradeConfig: run.upgradeConfig(),
    },
    env.signal,
  );
  const faults = env.server?.faults.counts();
  const faulted =
    faults !== undefined &&
    (Object.keys(faults.errors).length > 0 || faults.refused + faults.gone + faults.disconnects > 0);
  return {
    ok: unmet.length === 0,
    expectationsChecked,
    summary: summarize(run, unmet),
    unmet,
    report: {
      ended: run.ended,
      expectationsChecked,
      virtualMinutes: p.elapsedMs / 60_000,
      phase: p.phase || undefined,
      conditions: [...(h?.conditions ?? [])].reverse().map((c) => ({
        type: c.type,
        status: c.status,
        message: c.message,
        startTime: c.startTime,
        completeTime: c.completeTime,
      })),
      clusterVersion: (
        await env.client.get(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME, { signal: env.signal })
      ).status?.history?.[0],
      actions: run.actionsRun,
      operatorStarts: run.operatorStarts,
      ...(options.externalOperator ? { operator: 'external' } : {}),
      ...(ocmStates ? { ocmPolicyStates: ocmStates } : {}),
      ...(faulted ? { apiFaults: faults } : {}),
      unmet,
      invariantViolations,
      operatorStates: operatorStates(run.timeline, flowShown(run.file)),
      windows,
      // transitions, alerts, silences, final (docs/simulation.md, "The JSON report").
      ...run.recorder.report(run.startedAt, serverPlaceholders(run)),
    },
    run,
  };
}
