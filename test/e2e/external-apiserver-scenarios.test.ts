// Named scenarios against an external API server (an `upgrade-operator apiserver` process on the
// wall clock), one per flow and config source, the scheduled one with a PDB-blocked drain: each
// must end as expected with times meaning what they mean on the embedded server (virtual time
// starts at the scenario's start; the server's stamps are read on it), and each operator run is
// checked against the shipped RBAC. Also the documented script that runs every named scenario
// this way, with a filter.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCheckedScenario } from '../../src/api/deploy/operator-requests.test-support.js';
import { environmentFor, loadScenario } from '../../src/cli/scenarios/catalog.js';
import type { ScenarioFile } from '../../src/cli/scenarios/scenario-file.js';
import { startSimEnvironment, VIRTUAL_START } from '../../src/cli/scenarios/sim-environment.js';
import { startApiServerProcess, stopApiServerProcess, type ApiServerProcess } from '../../scripts/apiserver-process.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/**
 * What each run stands for, the named scenario it runs (a variant of it, when `vary` says how) and
 * its time scale: ×600 where nothing the scenario checks is minutes apart, lower where it is (a
 * loaded machine's second of wall time is ten virtual minutes at ×600).
 */
const CASES: ReadonlyArray<{
  what: string;
  name: string;
  timeScale: number;
  vary?: (file: ScenarioFile) => ScenarioFile;
}> = [
  { what: 'managed flow, LOCAL config source', name: 'managed-aro-upgrade', timeScale: 600 },
  {
    what: 'managed flow, OCM config source (UpgradeConfig created, updated, removed)',
    name: 'ocm-policy-withdrawn',
    timeScale: 120,
  },
  {
    what: 'managed flow, OCM agent config source; the z-stream 4.14.45 without capacity, to keep it short',
    name: 'ocm-agent-policy-upgrade',
    timeScale: 600,
    vary: (file) => ({
      ...file,
      ocm: {
        ...file.ocm,
        agent: true,
        policies: [{ version: '4.14.45', nextRunIn: '30m', capacityReservation: false }],
      },
    }),
  },
  {
    what: 'scheduled flow (a 01:00 UTC window) with a PDB-blocked drain',
    name: 'scheduled-force-drain',
    // The MCO marks a node Degraded after an hour of failed drains: six wall seconds at ×600.
    timeScale: 300,
  },
];

let dir: string;
const servers = new Map<string, ApiServerProcess>();

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'external-scenarios-'));
  // One fresh server per scenario, started together (a scenario starts from an empty cluster).
  const started = await Promise.all(CASES.map((c) => startApiServerProcess(dir, c.name)));
  CASES.forEach((c, i) => {
    const s = started[i];
    if (s) servers.set(c.name, s);
  });
});

after(async () => {
  await Promise.all([...servers.values()].map(stopApiServerProcess));
  rmSync(dir, { recursive: true, force: true });
});

for (const { what, name, timeScale, vary } of CASES) {
  void test(`${name} on an external API server (${what}) ends as expected`, { timeout: 180_000 }, async (t) => {
    const server = servers.get(name);
    assert.ok(server);
    const named = loadScenario(name).file;
    const file = vary ? vary(named) : named;
    const env = await startSimEnvironment({
      ...environmentFor(file, 1),
      external: { kubeconfig: server.kubeconfig, timeScale },
    });
    t.after(() => env.close());
    // Virtual time starts where the embedded run's does, whatever the wall time.
    assert.equal(env.clock.scaling?.start, file.start === undefined ? VIRTUAL_START : Date.parse(file.start));
    const outcome = await runCheckedScenario(env, name, file, { seed: 1 });
    t.after(() => outcome.run.close());
    assert.ok(outcome.ok, `${name}: ${outcome.summary}`);
    assert.ok(outcome.expectationsChecked, outcome.summary);
  });
}

void test(
  'scripts/rehearse-external.ts runs the chosen named scenarios, each on a fresh apiserver, and prints a PASS/FAIL table',
  { timeout: 180_000 },
  async () => {
    // As docs/simulation.md shows it, with a filter to one short scenario and one refused one.
    const r = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [
          '--import',
          'tsx',
          'scripts/rehearse-external.ts',
          '--only',
          '^(sno-manual-upgrade|managed-api-faults)$',
          '--time-scale',
          '600',
        ],
        { cwd: ROOT, timeout: 170_000 },
        (error, stdout, stderr) =>
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
      );
    });
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    const lines = r.stdout.trim().split('\n');
    assert.match(lines[0] ?? '', /^scenario +result +virtual min +wall s +detail$/);
    assert.match(
      lines.find((l) => l.startsWith('managed-api-faults')) ?? '',
      /^managed-api-faults +n\/a .*injects API faults, which only the embedded API server does$/,
    );
    assert.match(lines.find((l) => l.startsWith('sno-manual-upgrade')) ?? '', /^sno-manual-upgrade +PASS +\d+\.\d /);
    assert.equal(lines.at(-1), '1 passed, 0 failed, 1 not applicable');
  },
);
