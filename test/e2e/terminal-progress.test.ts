/**
 * Live progress as a person sees it: `simulate` under a real pseudo-terminal (tmux, at 80 and
 * 200 columns) draws a live view with progress bars that fits the terminal, and `npm run demo`
 * in a log (stdout a pipe) writes a short log: one line per change of state, none over 160
 * characters, no warning, no colour.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import stringWidth from 'string-width';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** A tmux server of this test's own (its socket name), so that no user session is touched. */
const socket = `upgrade-operator-test-${process.pid}`;

function tmux(...args: string[]): string {
  const r = spawnSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`tmux ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** Whether the screen's lines wrapped: tmux joins wrapped lines with -J. */
function history(session: string, options: { joined?: boolean; escapes?: boolean } = {}): string[] {
  const flags = ['capture-pane', '-p', '-S', '-', '-E', '-', '-t', session];
  if (options.joined) flags.push('-J');
  if (options.escapes) flags.push('-e');
  return tmux(...flags)
    .replace(/\n+$/, '')
    .split('\n');
}

async function waitFor(what: string, check: () => boolean, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const BAR = /^(control plane|master|worker) +[█░]{24} +\d+% {2}\d+\/\d+/;

/** Starts `upgrade-operator simulate ARGS` in a tmux session of `columns` × 50; returns the session name. */
function startSimulate(t: TestContext, columns: number, env: string, args = ''): string {
  const session = `simulate-${columns}${args ? '-plain' : ''}`;
  const command = `cd ${root} && ${env} node --import tsx src/main.ts simulate ${args}; echo "EXIT $?"; sleep 600`;
  tmux('new-session', '-d', '-s', session, '-x', String(columns), '-y', '50', command);
  t.after(() => {
    try {
      tmux('kill-session', '-t', session);
    } catch {
      // already gone
    }
  });
  return session;
}

void test('simulate under a pseudo-terminal at 80 and 200 columns: a live view with bars, nothing wrapped, colour unless NO_COLOR; --progress=plain: the log only', async (t) => {
  t.after(() => spawnSync('tmux', ['-L', socket, 'kill-server']));
  const runs = [
    { columns: 80, env: 'env -u NO_COLOR', color: true },
    { columns: 200, env: 'NO_COLOR=1', color: false },
  ].map((r) => ({ ...r, session: startSimulate(t, r.columns, r.env), sawLiveBars: false }));
  // As documented: the log of changes forced on a terminal.
  const plain = startSimulate(t, 80, 'env -u NO_COLOR', '--progress=plain');

  await Promise.all(
    runs.map(async (run) => {
      // While the upgrade runs: the live view with a bar for the control plane and each pool.
      await waitFor(`a live view at ${run.columns} columns`, () => {
        const screen = history(run.session);
        const bars = screen.filter((l) => BAR.test(l));
        const moving = screen.some((l) => /^Scenario managed-osd-upgrade {2}virtual \+0[01]:/.test(l));
        run.sawLiveBars ||= moving && bars.length === 3;
        return run.sawLiveBars;
      });
      await waitFor(`the end at ${run.columns} columns`, () => history(run.session).some((l) => l.startsWith('EXIT ')));
    }),
  );

  for (const run of runs) {
    const screen = history(run.session);
    const at = `at ${run.columns} columns:\n${screen.join('\n')}`;
    assert.ok(screen.includes('EXIT 0'), at);
    assert.deepEqual(
      screen.filter((l) => stringWidth(l) >= run.columns),
      [],
      `no line fills the terminal's width ${at}`,
    );
    assert.equal(history(run.session, { joined: true }).length, screen.length, `nothing wrapped ${at}`);
    // The last view stays: every bar full, then the verdict.
    const verdict = screen.findIndex((l) => l.startsWith('as expected: 4.14.30 → 4.15.38 Upgraded'));
    assert.ok(verdict > 0, at);
    const finalView = screen.slice(0, verdict).reverse();
    const lastTitle = finalView.findIndex((l) => l.startsWith('Scenario managed-osd-upgrade  virtual +02:'));
    assert.ok(lastTitle >= 0, at);
    const bars = finalView.slice(0, lastTitle).filter((l) => BAR.test(l));
    assert.equal(bars.length, 3, at);
    assert.ok(
      bars.every((l) => l.includes('100%')),
      at,
    );
    assert.ok(screen.includes('silences       none active'), at);
    // Colour: SGR sequences on the terminal, none with NO_COLOR.
    const escapes = history(run.session, { escapes: true }).join('\n');
    assert.equal(stripVTControlCharacters(escapes) !== escapes, run.color, `colour ${run.color ? 'on' : 'off'} ${at}`);
  }
  // At 80 columns the long lines are cut with an ellipsis.
  const narrow = history(runs[0]!.session);
  assert.ok(narrow.some((l) => l.startsWith('[+00:10:00] Upgrading · ComputeCapacityReserved') && l.endsWith('…')));

  // --progress=plain on a terminal: the log of changes only, fitted to it, no bars, no colour.
  await waitFor('the end of --progress=plain', () => history(plain).some((l) => l.startsWith('EXIT ')));
  const log = history(plain);
  assert.ok(log.includes('EXIT 0'), log.join('\n'));
  assert.deepEqual(
    log.filter((l) => BAR.test(l) || stringWidth(l) >= 80),
    [],
    log.join('\n'),
  );
  assert.ok(
    log.some((l) => /^\[\+\d\d:\d\d:\d\d\] .*pool worker 3\/6/.test(l)),
    log.join('\n'),
  );
  const logEscapes = history(plain, { escapes: true }).join('\n');
  assert.equal(stripVTControlCharacters(logEscapes), logEscapes, 'no colour in plain mode');
});

void test('npm run demo in a log: fewer than 40 lines for the upgrade, none over 160 characters, no warning, no colour', async () => {
  const child = spawn('npm', ['run', 'demo'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => void (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => void (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 0, out);
  const lines = out.replace(/\n$/, '').split('\n');
  assert.deepEqual(
    lines.filter((l) => stringWidth(l) > 160),
    [],
    'no line over 160 characters',
  );
  assert.deepEqual(
    lines.filter((l) => /warning/i.test(l)),
    [],
    'no warning line',
  );
  assert.ok(!out.includes('\x1b['), 'no escape sequence in a log');
  const first = lines.findIndex((l) => l.startsWith('▶ This operator upgrades a simulated OpenShift cluster'));
  const verdict = lines.findIndex((l) => l.startsWith('as expected: 4.14.30 → 4.15.38 Upgraded'));
  assert.ok(first >= 0 && verdict > first, out);
  const upgrade = lines.slice(first, verdict + 1);
  assert.ok(upgrade.length < 40, `${upgrade.length} lines for the upgrade:\n${upgrade.join('\n')}`);
  assert.ok(
    upgrade.some((l) => /^\[\+\d\d:\d\d:\d\d\] .*pool worker 3\/6/.test(l)),
    'one line per change of a pool',
  );
  assert.ok(!upgrade.some((l) => /\d+ of \d+ done/.test(l)), 'no line per percentage tick');
});
