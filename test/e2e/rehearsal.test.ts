// The rehearsal of the real deployment (docs/simulation.md#rehearsing-the-real-deployment), run as
// the docs show it, command for command: `upgrade-operator apiserver`, `simulate --kubeconfig …
// --operator external --rehearsal-out …` and `run --rehearsal …`, each its own process of the
// installed binary. The managed flow runs the documented scenario; the scheduled flow the same
// commands with its rehearsal scenario (test/e2e/rehearsal.test-support.ts).
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from '../../src/cli/binary.test-support.js';
import {
  assertRehearsalAsExpected,
  operatorLogLines,
  SCHEDULED_REHEARSAL_SCENARIO,
  startApiServerProcess,
  startBuilt,
  stopProc,
  waitFor,
} from './rehearsal.test-support.js';

const DOC = fileURLToPath(new URL('../../docs/simulation.md', import.meta.url));
const HEADING = '### Rehearsing the real deployment';

/** The commands of the section's first `sh` block, as argument lists after `upgrade-operator` (comments dropped). */
function documentedCommands(): string[][] {
  const text = readFileSync(DOC, 'utf8');
  const section = text.slice(text.indexOf(HEADING));
  const block = /```sh\n([^]*?)```/.exec(section)?.[1] ?? '';
  return block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line.startsWith('upgrade-operator '))
    .map((line) => line.split(/\s+/).slice(1));
}

/** The value after `flag` in an argument list. */
function flagValue(args: readonly string[], flag: string): string {
  const i = args.indexOf(flag);
  assert.ok(i >= 0 && args[i + 1] !== undefined, `${flag} in ${args.join(' ')}`);
  return args[i + 1] ?? '';
}

before(async () => {
  await ensureBuilt();
});

void test('the documented rehearsal is three commands: apiserver, simulate --operator external, run --rehearsal', () => {
  const commands = documentedCommands();
  assert.deepEqual(
    commands.map((c) => c[0]),
    ['apiserver', 'simulate', 'run'],
  );
  assert.equal(flagValue(commands[1] ?? [], '--operator'), 'external');
  assert.equal(flagValue(commands[1] ?? [], '--rehearsal-out'), flagValue(commands[2] ?? [], '--rehearsal'));
  assert.equal(flagValue(commands[1] ?? [], '--kubeconfig'), flagValue(commands[0] ?? [], '--kubeconfig-out'));
});

for (const flow of ['managed', 'scheduled'] as const) {
  void test(
    `rehearsal, ${flow} flow: run --rehearsal upgrades the cluster simulate runs, on its time; simulate reports it as expected`,
    { timeout: 240_000 },
    async (t) => {
      const dir = mkdtempSync(join(tmpdir(), `rehearsal-${flow}-`));
      t.after(() => rmSync(dir, { recursive: true, force: true }));
      const [apiserver = [], simulate = [], run = []] = documentedCommands();
      const server = await startApiServerProcess(apiserver, dir, flagValue(apiserver, '--kubeconfig-out'));
      t.after(() => stopProc(server));
      let simulateArgs = simulate;
      if (flow === 'scheduled') {
        writeFileSync(join(dir, 'scheduled-rehearsal.yaml'), SCHEDULED_REHEARSAL_SCENARIO);
        const documented = flagValue(simulate, '--scenario');
        simulateArgs = simulate.map((a) => (a === documented ? 'scheduled-rehearsal.yaml' : a));
      }
      const sim = startBuilt(simulateArgs, dir);
      t.after(() => stopProc(sim));
      const rehearsalFile = join(dir, flagValue(simulate, '--rehearsal-out'));
      await waitFor('the rehearsal file', () => existsSync(rehearsalFile), sim);
      const operator = startBuilt(run, dir);
      t.after(() => stopProc(operator));

      const ended = await sim.exited;
      const out = assertRehearsalAsExpected(t, sim, ended.code, operator);
      // The operator that acted is the run process: its identity is <host>_<pid>.
      assert.match(out, new RegExp(`Operator \\S+_${operator.child.pid} holds the Lease; the scenario starts\\.`));
      // Nothing but JSON lines in the log stream (no Node warning, no stray text).
      const lines = operatorLogLines(operator);
      const log = lines.map(
        (l) => JSON.parse(l) as { msg: string; flows?: string[]; metrics?: string; rehearsal?: { timeScale: number } },
      );
      const starting = log.find((l) => l.msg === 'upgrade-operator starting');
      assert.deepEqual(starting?.flows, [flow]);
      assert.equal(starting?.rehearsal?.timeScale, Number(flagValue(simulate, '--time-scale')));
      assert.match(starting?.metrics ?? '', /^http:\/\/127\.0\.0\.1:\d+$/);
      // A clean stop (Ctrl-C) releases the Lease.
      assert.deepEqual(await stopProc(operator, 'SIGINT'), { code: 0, signal: null });
      assert.match(operator.stderr(), /"msg":"released the lease"/);
    },
  );
}
