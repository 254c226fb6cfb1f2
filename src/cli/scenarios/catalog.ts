/**
 * The named scenarios of `upgrade-operator simulate` (and of the end-to-end tests, which run
 * the same scripts): each says what it shows, runs on a fresh simulated cluster, and ends with
 * a verdict read from the cluster — did the rehearsal end the way the scenario says it should.
 */
import { ClusterVersionResource, CLUSTER_VERSION_NAME } from '../../api/openshift/config-v1/cluster-version.js';
import { runManualMinorUpgrade } from '../../sim/scenarios/manual-minor-upgrade.js';
import { managedScenarios } from './managed-scenarios.js';
import { runManagedUpgrade, type ManagedProgress, type ManagedUpgradeRun } from './managed-upgrade.js';
import type { SimEnvironment } from './sim-environment.js';
import { formatElapsed, poolsText } from './progress-line.js';

/** One line of live progress. */
export interface ScenarioLine {
  elapsedMs: number;
  text: string;
}

/** How a scenario ended. */
export interface ScenarioOutcome {
  /** The rehearsal ended as the scenario says it should. */
  ok: boolean;
  /** One sentence for the end of the output. */
  summary: string;
  /** The JSON report's scenario-specific part. */
  report: Record<string, unknown>;
  /** The managed run, for tests to inspect (closed by the caller). */
  run?: ManagedUpgradeRun;
}

export interface NamedScenario {
  description: string;
  run(env: SimEnvironment, options: { seed: number; onLine?: (line: ScenarioLine) => void }): Promise<ScenarioOutcome>;
}

/** One progress line of a managed run. */
export function managedLine(p: ManagedProgress): string {
  const what = p.waiting || p.stepMessage || 'waiting for the operator';
  const cv = p.clusterVersion;
  const cvText = cv.state === 'Partial' && cv.progressing ? cv.progressing : `${cv.version} ${cv.state}`;
  return `[${formatElapsed(p.elapsedMs)}] ${(p.phase || '-').padEnd(9)} ${what}  |  ${poolsText(p.pools)}  |  ClusterVersion ${cvText}`;
}

const manual: NamedScenario = {
  description:
    'an ha-cloud cluster (3 masters, 3 workers) at 4.14 upgraded to the newest 4.15 on stable-4.15 by setting ClusterVersion.spec.desiredUpdate, as `oc adm upgrade` does, with no upgrade operator',
  async run(env, options) {
    const result = await runManualMinorUpgrade(env.ctx, env.clock, {
      signal: env.signal,
      onProgress: (p) => options.onLine?.({ elapsedMs: p.elapsedMs, text: `[${formatElapsed(p.elapsedMs)}] ${poolsText(p.pools)}  ${p.progressing}` }),
    });
    return {
      ok: result.completed,
      summary: `${result.from} → ${result.to} ${result.completed ? 'completed' : 'did not complete'}: ${result.upgradeMinutes.toFixed(1)} virtual minutes from desiredUpdate to every pool updated`,
      report: { ...result },
    };
  },
};

/** Every named scenario. */
export const SCENARIOS: Readonly<Record<string, NamedScenario>> = {
  'manual-minor-upgrade': manual,
  ...Object.fromEntries(
    Object.entries(managedScenarios).map(([name, s]) => [
      name,
      {
        description: s.description,
        async run(env: SimEnvironment, options: { seed: number; onLine?: (line: ScenarioLine) => void }): Promise<ScenarioOutcome> {
          const run = await runManagedUpgrade(env, s.spec, s.script, {
            seed: options.seed,
            onProgress: (p) => options.onLine?.({ elapsedMs: p.elapsedMs, text: managedLine(p) }),
          });
          const cv = await env.client.get(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME);
          const verdict = await s.verdict(run);
          const p = run.progress();
          return {
            ok: verdict.ok,
            summary: verdict.summary,
            report: {
              phase: p.phase,
              conditions: [...(run.upgradeConfig()?.status?.history?.[0]?.conditions ?? [])].reverse().map((c) => ({ type: c.type, status: c.status, message: c.message, startTime: c.startTime, completeTime: c.completeTime })),
              clusterVersion: cv.status?.history?.[0],
              actions: run.actionsRun,
              operatorStarts: run.operatorStarts,
              virtualMinutes: p.elapsedMs / 60_000,
            },
            run,
          };
        },
      } satisfies NamedScenario,
    ]),
  ),
};
