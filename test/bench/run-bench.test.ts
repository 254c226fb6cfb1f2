/**
 * The documented command of the side-by-side, `BENCH_KUBECONFIG=~/.kube/config npm run bench`,
 * run as written by a shell (with `--only writes --no-write`, the sizes cut by BENCH_SCALE, and the
 * children compiled into a folder of this test's own): HOME holds a kubeconfig for a second
 * embedded API server in a process of its own. Then the same with a server that is not there:
 * the side-by-side is one line, the embedded benchmark still reports.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startApiServerProcess, stopApiServerProcess, type ApiServerProcess } from '../../scripts/apiserver-process.js';
import { SIDE_BY_SIDE_COMMAND } from './side-by-side.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BUILD_DIR = join(ROOT, 'node_modules', '.cache', `bench-test-${process.pid}`);

let home: string;
let external: ApiServerProcess;

before(async () => {
  home = mkdtempSync(join(tmpdir(), 'bench-home-'));
  mkdirSync(join(home, '.kube'));
  external = await startApiServerProcess(home, 'external');
  copyFileSync(external.kubeconfig, join(home, '.kube', 'config'));
});

after(async () => {
  await stopApiServerProcess(external);
  rmSync(home, { recursive: true, force: true });
  rmSync(BUILD_DIR, { recursive: true, force: true });
});

/** Runs `<command> -- --only writes --no-write` in a shell with HOME set; resolves to its output. */
function bench(command: string, extraEnv: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', `${command} -- --only writes --no-write`], {
      cwd: ROOT,
      env: { ...process.env, HOME: home, BENCH_SCALE: '0.005', BENCH_BUILD_DIR: BUILD_DIR, ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => void (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => void (out += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

test('the documented command runs the write workload on both servers and deletes its namespace', async () => {
  assert.equal(SIDE_BY_SIDE_COMMAND, 'BENCH_KUBECONFIG=~/.kube/config npm run bench');
  const { out } = await bench(SIDE_BY_SIDE_COMMAND);
  const ns = /side by side with (\S+) \(([^)]+)\), namespace (upgrade-operator-bench-\w+)/.exec(out);
  assert.ok(ns, out);
  assert.equal(ns[1], external.url);
  assert.match(out, /^(PASS|FAIL) writes: /m);
  for (const label of ['Creates (median of the rounds)', 'Updates (median of the rounds)'])
    assert.match(
      out,
      new RegExp(
        `side by side: ${label.replace(/[()]/g, '\\$&')}: embedded [\\d,]+/s, external [\\d,]+/s \\(embedded `,
      ),
    );
  assert.match(out, new RegExp(`deleted the namespace ${ns[3]!} on ${external.url}`));
  assert.match(out, /docs not updated/);
});

test('a side-by-side server that is not there fails the side-by-side in one line; the embedded benchmark still reports', async () => {
  const kubeconfig = join(home, 'gone.kubeconfig');
  writeFileSync(
    kubeconfig,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters: [{name: c, cluster: {server: "http://127.0.0.1:1"}}]',
      'users: [{name: u, user: {token: t}}]',
      'contexts: [{name: x, context: {cluster: c, user: u}}]',
      'current-context: x',
    ].join('\n'),
  );
  const { out } = await bench(`BENCH_KUBECONFIG=${kubeconfig} npm run bench`);
  assert.match(out, /^bench: side by side not run: cannot reach http:\/\/127\.0\.0\.1:1: .*ECONNREFUSED.*$/m);
  assert.match(out, /^(PASS|FAIL) writes: /m);
  assert.doesNotMatch(out, /side by side: Creates/);
});
