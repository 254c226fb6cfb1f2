/**
 * The crash campaign (docs/simulation.md#rehearsing-the-real-deployment): one upgrade rehearsed
 * through the pairing of `simulate --operator external` (here in this process, so that its
 * outcome can be judged by test/e2e/campaign.test-support.ts) and the installed `upgrade-operator
 * run --rehearsal` in a child process, which is SIGKILLed at seeded random points of the upgrade
 * and started again at once, against `upgrade-operator apiserver` in another child process.
 *
 * A kill is realistic: the killed process cannot release its Lease, so the Lease still names it
 * afterwards (checked). Restarts take turns (the first drawn): a container restarted in its pod
 * (the same POD_NAME, so the same identity, which takes the Lease back at once) and a new pod (a
 * new identity, which waits until the Lease expires: the short settings of {@link LEASE_FLAGS},
 * on the wall clock). Each kill waits until the running process holds the Lease, so that every
 * kill hits an operator that acts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LeaseResource } from '../../src/api/builtin.js';
import { ensureBuilt } from '../../src/cli/binary.test-support.js';
import { runCheckedScenario } from '../../src/api/deploy/operator-requests.test-support.js';
import { loadScenario, type ScenarioOutcome } from '../../src/cli/scenarios/catalog.js';
import { parseScenarioFile, type ScenarioFile } from '../../src/cli/scenarios/scenario-file.js';
import type { OperatorLease } from '../../src/cli/scenarios/scenario-runner.js';
import { startSimEnvironment, type SimEnvironment } from '../../src/cli/scenarios/sim-environment.js';
import { rehearsalWriter } from '../../src/cli/simulate.js';
import { SeededRandom } from '../../src/lib/random.js';
import { campaignVerdict, type CampaignVerdict } from './campaign.test-support.js';
import {
  SCHEDULED_REHEARSAL_SCENARIO,
  hasExited,
  startApiServerProcess,
  startBuilt,
  stopProc,
  type Proc,
} from './rehearsal.test-support.js';

/** Short Lease settings (wall time), so that a new pod takes over within about three seconds; as docs/simulation.md shows them. */
export const LEASE_FLAGS = [
  '--leader-elect-lease-duration',
  '2s',
  '--leader-elect-renew-deadline',
  '1500ms',
  '--leader-elect-retry-period',
  '500ms',
] as const;

/** The two flows' upgrades and the span of virtual time (from the manifests) in which kills are drawn. */
export const CRASH_FLOWS = {
  managed: { scenario: 'managed-osd-upgrade', killSpanMin: 150 },
  scheduled: { scenario: 'scheduled rehearsal', killSpanMin: 110 },
} as const;

export type CrashFlow = keyof typeof CRASH_FLOWS;

/** One upgrade of the campaign. */
export interface CrashRunOptions {
  flow: CrashFlow;
  seed: number;
  /** Kills drawn over the upgrade (those drawn after it ended are not made). */
  kills: number;
  /** Virtual ms per wall ms of the rehearsal. */
  timeScale: number;
  log?: (line: string) => void;
}

/** What one upgrade of the campaign measured. */
export interface CrashRunRecord {
  flow: CrashFlow;
  seed: number;
  /** Kills made (SIGKILL of a process that held the Lease). */
  kills: number;
  /** Restarts as the same identity (a container restarted in its pod) and as a new one (a new pod). */
  restarts: { sameIdentity: number; newIdentity: number };
  /** Kills after which the restarted process took the Lease and the operator acted again. */
  takeovers: number;
  /** Wall ms from a restart to holding the Lease, per restart. */
  takeoverMs: number[];
  /** Exits of `run` the campaign did not cause (e.g. leadership lost under load), each restarted like a crash. */
  unplannedExits: number;
  /** The upgrade's verdict (completed once, leftovers). */
  verdict: CampaignVerdict;
  /** Problems of the kills and restarts themselves (the Lease after a kill, a takeover that never came). */
  crashProblems: string[];
  /** The run passed: the verdict holds and every kill was taken over. */
  ok: boolean;
  virtualMinutes: number;
  wallMs: number;
}

/** The scenario of a flow. */
function scenarioOf(flow: CrashFlow): { name: string; file: ScenarioFile } {
  if (flow === 'managed') return loadScenario(CRASH_FLOWS.managed.scenario);
  const parsed = parseScenarioFile(SCHEDULED_REHEARSAL_SCENARIO);
  if (!parsed.ok) throw new Error(parsed.problems.join('; '));
  return { name: 'scheduled-rehearsal', file: parsed.scenario };
}

/**
 * Seeded kill points, in virtual ms after the manifests: [1 min, span] cut into one stretch per
 * kill and one point drawn in each, so that the kills spread over the whole upgrade (its early
 * steps included) whatever the seed.
 */
export function killPoints(random: SeededRandom, kills: number, spanMin: number): number[] {
  const stretch = (spanMin - 1) / kills;
  return Array.from({ length: kills }, (_, i) => Math.round((1 + (i + random.next()) * stretch) * 60_000));
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs one upgrade of the campaign; every process it starts is gone when it resolves. */
export async function runCrashUpgrade(options: CrashRunOptions): Promise<CrashRunRecord> {
  const log = options.log ?? (() => undefined);
  await ensureBuilt();
  const started = performance.now();
  const { name, file } = scenarioOf(options.flow);
  const random = new SeededRandom(options.seed).fork('crash-campaign');
  const points = killPoints(random.fork('points'), options.kills, CRASH_FLOWS[options.flow].killSpanMin);
  const firstRestart = random.next() < 0.5 ? 0 : 1;
  const dir = mkdtempSync(join(tmpdir(), `crash-${options.flow}-`));
  const server = await startApiServerProcess(['apiserver', '--kubeconfig-out', 'kubeconfig'], dir, 'kubeconfig');
  let env: SimEnvironment | undefined;
  let operator: Proc | undefined;
  let outcome: ScenarioOutcome | undefined;
  const record = {
    kills: 0,
    restarts: { sameIdentity: 0, newIdentity: 0 },
    takeovers: 0,
    takeoverMs: [] as number[],
    unplannedExits: 0,
    crashProblems: [] as string[],
  };
  let identity = '';
  let pods = 0;
  const start = (podName: string): Proc => {
    identity = podName;
    return startBuilt(['run', '--rehearsal', 'rehearsal.json', ...LEASE_FLAGS, '--log-level', 'warn'], dir, {
      POD_NAME: podName,
    });
  };
  try {
    env = await startSimEnvironment({
      seed: options.seed,
      external: { kubeconfig: join(dir, 'kubeconfig'), timeScale: options.timeScale },
    });
    const sim = env;
    let lease: OperatorLease | undefined;
    let scenarioStart: number | undefined;
    const holder = async (): Promise<string> => {
      if (!lease) return '';
      const l = await sim.client.getIfExists(LeaseResource, lease.namespace, lease.name);
      return l?.spec?.holderIdentity ?? '';
    };
    /** Waits (wall time) until `identity` holds the Lease; false after `limitMs`. */
    const held = async (limitMs: number): Promise<boolean> => {
      const until = performance.now() + limitMs;
      while (performance.now() < until) {
        if ((await holder().catch(() => '')) === identity) return true;
        await pause(25);
      }
      return false;
    };
    const writer = rehearsalWriter(
      join(dir, 'rehearsal.json'),
      { scenario: name, kubeconfig: join(dir, 'kubeconfig') },
      sim.clock,
      (line) => log(line),
    );
    let ended = false;
    // The kills' section (kill, check, restart): the watchdog below keeps out of it.
    let killing = false;
    // Checked as every test's scenario run is: no request of an operator in this process (there is none) escapes the shipped RBAC.
    const scenario = runCheckedScenario(sim, name, file, {
      seed: options.seed,
      externalOperator: {
        async ready(endpoints, operatorLease) {
          lease = operatorLease;
          await writer.ready(endpoints, operatorLease);
          operator = start(`upgrade-operator-${pods++}`);
        },
        arrived() {
          scenarioStart = sim.clock.now();
        },
      },
    }).finally(() => {
      ended = true;
    });
    // The kills, alongside the scenario.
    const crashes = (async (): Promise<void> => {
      for (const point of points) {
        while (!ended && (scenarioStart === undefined || sim.clock.now() - scenarioStart < point)) await pause(20);
        if (ended || !operator) return;
        // Only an operator that acts is killed: one that holds the Lease.
        if (!(await held(60_000))) {
          record.crashProblems.push(`${identity} never took the Lease before the kill at +${point / 60_000} min`);
          return;
        }
        if (ended) return;
        killing = true;
        const killed = identity;
        const exit = await stopProc(operator, 'SIGKILL');
        if (exit.signal !== 'SIGKILL') {
          // It had exited by itself: not a kill; restarted as its pod would restart it.
          record.unplannedExits++;
          operator = start(killed);
          killing = false;
          continue;
        }
        record.kills++;
        // What the killed process leaves: its Lease, still held.
        const left = await holder().catch((err: unknown) => `(unreadable: ${String(err)})`);
        if (left !== killed)
          record.crashProblems.push(`after SIGKILL of ${killed} the Lease names ${JSON.stringify(left)}`);
        // Container restarts and new pods take turns, from a seeded first one.
        const same = (record.kills + firstRestart) % 2 === 0;
        if (same) record.restarts.sameIdentity++;
        else record.restarts.newIdentity++;
        const restartedAt = performance.now();
        operator = start(same ? killed : `upgrade-operator-${pods++}`);
        log(
          `${options.flow} seed ${options.seed}: killed ${killed} at +${((sim.clock.now() - (scenarioStart ?? 0)) / 60_000).toFixed(1)} virtual min; restarted as ${same ? 'the same pod' : `a new pod ${identity}`}`,
        );
        killing = false;
        if (await held(30_000)) {
          record.takeovers++;
          record.takeoverMs.push(performance.now() - restartedAt);
        } else if (!ended) record.crashProblems.push(`${identity} did not take the Lease within 30 s of its start`);
      }
    })();
    // A process that exits on its own (leadership lost) is restarted as its pod would restart it.
    const watchdog = (async (): Promise<void> => {
      while (!ended) {
        const current = operator;
        if (!killing && current && hasExited(current)) {
          record.unplannedExits++;
          log(`${identity} exited by itself (${current.stderr().slice(-500)}); restarting it`);
          operator = start(identity);
        }
        await pause(100);
      }
    })();
    outcome = await scenario;
    await Promise.all([crashes, watchdog]);
    const verdict = await campaignVerdict(outcome, options.flow);
    // A clean stop at the end releases the Lease.
    if (operator) {
      const last = identity;
      const exit = await stopProc(operator, 'SIGTERM');
      if (exit.code !== 0)
        record.crashProblems.push(`${last} stopped with ${exit.code ?? exit.signal ?? '?'} on SIGTERM`);
      const after = await holder().catch(() => '?');
      if (after !== '') record.crashProblems.push(`the Lease still names ${JSON.stringify(after)} after a clean stop`);
    }
    const ok = verdict.ok && record.crashProblems.length === 0 && record.takeovers === record.kills;
    return {
      flow: options.flow,
      seed: options.seed,
      ...record,
      verdict,
      ok,
      virtualMinutes: outcome.run.progress().elapsedMs / 60_000,
      wallMs: performance.now() - started,
    };
  } finally {
    if (operator) await stopProc(operator, 'SIGKILL');
    await outcome?.run.close();
    await env?.close();
    await stopProc(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** For a test's message: one line per run. */
export function describeRun(record: CrashRunRecord): string {
  const l = record.verdict.leaks;
  return `${record.flow} seed ${record.seed}: ${record.ok ? 'passed' : 'FAILED'}; ${record.kills} kills (${record.restarts.sameIdentity} same pod, ${record.restarts.newIdentity} new pod), ${record.takeovers} taken over; completed ${record.verdict.completed}; leaks: silences ${l.silences}, capacity MachineSets ${l.capacityMachineSets}, paused pools ${l.pausedPools}, duplicate hook Jobs ${l.duplicateHookJobs}; ${record.virtualMinutes.toFixed(0)} virtual min in ${(record.wallMs / 1000).toFixed(1)} s${record.ok ? '' : ` — ${[...record.verdict.problems, ...record.crashProblems].join('; ')}`}`;
}
