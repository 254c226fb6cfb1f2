/**
 * Runs the named scenarios against an external API server, one fresh `upgrade-operator apiserver`
 * process per scenario (docs/simulation.md#every-scenario-on-an-external-server), and prints a
 * PASS/FAIL table:
 *
 *   node --import tsx scripts/rehearse-external.ts [--only REGEX] [--time-scale N] [--seed N]
 *        [--timeout DURATION] [--kubeconfig FILE] [-o json]
 *
 * `--only` keeps the scenarios whose name the (JavaScript) regular expression matches; with
 * `--kubeconfig` no server is started and exactly one scenario must be chosen (a scenario starts
 * from an empty cluster, so a second one would be refused). A scenario `simulate` refuses before
 * it runs anything against an external server (API faults are injected by the embedded server
 * only) is shown as `n/a` with the reason, not as a failure. Exit 1 when a scenario failed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadScenario, scenarioNames } from '../src/cli/scenarios/catalog.js';
import { asksForApiFaults } from '../src/cli/scenarios/scenario-actions.js';
import { startApiServerProcess, stopApiServerProcess } from './apiserver-process.js';
import { parseGoDurationMs } from '../src/lib/go-duration.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = ['--import', 'tsx', join(ROOT, 'src/main.ts')];

/** The child processes running now (an apiserver, a simulate). */
const running = new Set<ChildProcess>();

function track(child: ChildProcess): ChildProcess {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/** One scenario's result. */
interface Row {
  scenario: string;
  result: 'PASS' | 'FAIL' | 'n/a';
  virtualMinutes?: number;
  wallSeconds: number;
  detail: string;
}

/** Why a scenario cannot run against an external server at all (undefined: it can). */
function notApplicable(name: string): string | undefined {
  return asksForApiFaults(loadScenario(name).file)
    ? 'injects API faults, which only the embedded API server does'
    : undefined;
}

/** Runs `simulate --kubeconfig` for one scenario with `-o json`; its result from the report or the error. */
function simulate(
  name: string,
  kubeconfig: string,
  options: { timeScale: number; seed: number; timeoutMs: number },
): Promise<Row> {
  const started = performance.now();
  const child = track(
    spawn(
      process.execPath,
      [
        ...CLI,
        'simulate',
        '--kubeconfig',
        kubeconfig,
        '--scenario',
        name,
        '--time-scale',
        String(options.timeScale),
        '--seed',
        String(options.seed),
        '-o',
        'json',
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    ),
  );
  let out = '';
  let err = '';
  child.stdout?.on('data', (c: Buffer) => void (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => void (err += c.toString()));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGTERM');
  }, options.timeoutMs);
  return new Promise((resolve) => {
    child.once('exit', () => {
      clearTimeout(timer);
      const wallSeconds = (performance.now() - started) / 1000;
      const report = parseReport(out);
      if (report) {
        resolve({
          scenario: name,
          result: report.ok ? 'PASS' : 'FAIL',
          virtualMinutes: report.virtualMinutes,
          wallSeconds,
          detail: report.ok ? report.summary : report.unmet.join('; ') || report.summary,
        });
        return;
      }
      const last =
        err
          .trim()
          .split('\n')
          .filter((l) => l.trim() !== '' && !l.startsWith('{'))
          .at(-1) ?? '';
      resolve({
        scenario: name,
        result: 'FAIL',
        wallSeconds,
        detail: timedOut ? `no result after ${options.timeoutMs / 1000} s of wall time` : last || 'no report',
      });
    });
  });
}

function parseReport(
  text: string,
): { ok: boolean; summary: string; unmet: string[]; virtualMinutes: number } | undefined {
  try {
    const r = JSON.parse(text) as { ok?: unknown; summary?: unknown; unmet?: unknown; virtualMinutes?: unknown };
    if (typeof r.ok !== 'boolean') return undefined;
    return {
      ok: r.ok,
      summary: typeof r.summary === 'string' ? r.summary : '',
      unmet: Array.isArray(r.unmet) ? r.unmet.map(String) : [],
      virtualMinutes: typeof r.virtualMinutes === 'number' ? r.virtualMinutes : Number.NaN,
    };
  } catch {
    return undefined;
  }
}

function table(rows: readonly Row[]): string {
  const width = Math.max(8, ...rows.map((r) => r.scenario.length));
  const lines = [`${'scenario'.padEnd(width)}  result  virtual min  wall s  detail`];
  for (const r of rows) {
    const minutes = r.virtualMinutes === undefined || Number.isNaN(r.virtualMinutes) ? '' : r.virtualMinutes.toFixed(1);
    lines.push(
      `${r.scenario.padEnd(width)}  ${r.result.padEnd(6)}  ${minutes.padStart(11)}  ${r.wallSeconds.toFixed(1).padStart(6)}  ${r.detail}`,
    );
  }
  const count = (result: Row['result']): number => rows.filter((r) => r.result === result).length;
  lines.push('', `${count('PASS')} passed, ${count('FAIL')} failed, ${count('n/a')} not applicable`);
  return lines.join('\n');
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      'time-scale': { type: 'string', default: '600' },
      seed: { type: 'string', default: '1' },
      timeout: { type: 'string', default: '10m' },
      kubeconfig: { type: 'string' },
      output: { type: 'string', short: 'o', default: 'text' },
    },
  });
  const timeScale = Number(values['time-scale']);
  const seed = Number(values.seed);
  const timeout = parseGoDurationMs(values.timeout);
  if (!Number.isFinite(timeScale) || timeScale <= 0) throw new Error(`--time-scale must be a positive number`);
  if (!Number.isInteger(seed) || seed < 0) throw new Error('--seed must be a whole number');
  if (!timeout.ok || timeout.ms <= 0) throw new Error('--timeout must be a positive duration such as 10m');
  if (values.output !== 'text' && values.output !== 'json') throw new Error('-o must be text or json');
  const only = values.only === undefined ? undefined : new RegExp(values.only);
  const names = scenarioNames().filter((n) => !only || only.test(n));
  if (names.length === 0) throw new Error(`no named scenario matches --only ${values.only ?? ''}`);
  if (values.kubeconfig !== undefined && names.length !== 1)
    throw new Error(
      `--kubeconfig runs one scenario (a scenario starts from an empty cluster); --only chose ${names.length}`,
    );
  const dir = mkdtempSync(join(tmpdir(), 'rehearse-external-'));
  const rows: Row[] = [];
  try {
    for (const name of names) {
      const reason = notApplicable(name);
      if (reason) {
        rows.push({ scenario: name, result: 'n/a', wallSeconds: 0, detail: reason });
        continue;
      }
      const server = values.kubeconfig === undefined ? await startApiServerProcess(dir, name) : undefined;
      if (server) track(server.child);
      const kubeconfig = server?.kubeconfig ?? values.kubeconfig ?? '';
      try {
        const row = await simulate(name, kubeconfig, { timeScale, seed, timeoutMs: timeout.ms });
        rows.push(row);
        process.stderr.write(
          `${row.result} ${name} (${row.wallSeconds.toFixed(1)} s)${row.result === 'FAIL' ? `: ${row.detail}` : ''}\n`,
        );
      } finally {
        if (server) await stopApiServerProcess(server);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  process.stdout.write(
    values.output === 'json'
      ? `${JSON.stringify({ timeScale, seed, scenarios: rows }, null, 2)}\n`
      : `${table(rows)}\n`,
  );
  return rows.some((r) => r.result === 'FAIL') ? 1 : 0;
}

// Ctrl-C (or SIGTERM) stops the scenario and server of the moment with the script.
for (const sig of ['SIGINT', 'SIGTERM'] as const)
  process.once(sig, () => {
    for (const child of running) child.kill('SIGTERM');
    process.exit(130);
  });

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`rehearse-external: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);
