/**
 * The processes of a rehearsal (docs/simulation.md#rehearsing-the-real-deployment), as the
 * end-to-end tests and the crash campaign start them: the installed `upgrade-operator` binary's
 * `apiserver`, `simulate` and `run`, each its own process. Also the scheduled flow's rehearsal
 * scenario: against an external API server virtual time starts at the wall time now, so a daily
 * window (scheduled-upgrade's 01:00 UTC) would be hours away or minutes away depending on the
 * hour; a hand-written UpgradeJob due ten minutes after the start is not.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BUILT_BINARY } from '../../src/cli/binary.test-support.js';

/**
 * The scheduled flow (APPUiO compatible) rehearsed: an UpgradeJob for the z-stream 4.14.45 due ten
 * minutes after the start, with a hook on every event of a good run, so that a hook Job run twice
 * shows.
 */
export const SCHEDULED_REHEARSAL_SCENARIO = `description: "the scheduled flow rehearsed: an UpgradeJob for 4.14.30 → 4.14.45 due in ten minutes, a hook Job on Create, Start, UpgradeComplete, Success and Finish"
cluster:
  profile: ha-cloud
  version: 4.14.30
  channel: stable-4.14
operator:
  flows: [scheduled]
  namespace: appuio-openshift-upgrade-controller
manifests:
  - apiVersion: v1
    kind: Namespace
    metadata: {name: appuio-openshift-upgrade-controller}
  - apiVersion: managedupgrade.appuio.io/v1beta1
    kind: UpgradeJobHook
    metadata: {name: notify, namespace: appuio-openshift-upgrade-controller}
    spec:
      events: [Create, Start, UpgradeComplete, Success, Finish]
      run: All
      failurePolicy: Abort
      selector: {matchLabels: {upgrade: rehearsal}}
      template:
        spec:
          activeDeadlineSeconds: 300
          template:
            spec:
              restartPolicy: Never
              containers:
                - {name: notify, image: "curlimages/curl:8.1.2", args: ["-s", "https://chat.example.com/hooks/maintenance"]}
  - apiVersion: managedupgrade.appuio.io/v1beta1
    kind: UpgradeJob
    metadata: {name: upgrade-4-14-45, namespace: appuio-openshift-upgrade-controller, labels: {upgrade: rehearsal}}
    spec:
      startAfter: "{{ +10m }}"
      startBefore: "{{ +2h }}"
      desiredVersion: {version: 4.14.45}
      config:
        upgradeTimeout: 6h
        preUpgradeHealthChecks: {timeout: 30m}
        postUpgradeHealthChecks: {timeout: 30m}
end:
  objectCondition: {apiVersion: managedupgrade.appuio.io/v1beta1, kind: UpgradeJob, namespace: appuio-openshift-upgrade-controller, type: Succeeded, status: "True"}
  timeout: 8h
expect:
  clusterVersionCompleted: true
  poolsUpdated: true
  objectConditions:
    - {apiVersion: managedupgrade.appuio.io/v1beta1, kind: UpgradeJob, namespace: appuio-openshift-upgrade-controller, type: Succeeded, status: "True", reason: Succeeded}
`;

/** A child process and what it wrote so far. */
export interface Proc {
  readonly child: ChildProcess;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** Resolves when it exits: its code, or the signal that ended it. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** The children still running: killed when this process exits, however it exits (a test timing out, Ctrl-C of the bench). */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Starts the installed `upgrade-operator <args>` in `cwd` (call ensureBuilt() first). */
export function startBuilt(args: readonly string[], cwd: string, env: Readonly<Record<string, string>> = {}): Proc {
  return startProc(process.execPath, [BUILT_BINARY, ...args], cwd, env);
}

/** Starts `command <args>` in `cwd`, killed when this process exits. */
export function startProc(
  command: string,
  args: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string>> = {},
): Proc {
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let out = '';
  let err = '';
  child.stdout?.on('data', (c: Buffer) => void (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => void (err += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Whether it has exited. */
export function hasExited(proc: Proc): boolean {
  return proc.child.exitCode !== null || proc.child.signalCode !== null;
}

/** Sends the signal (SIGTERM: a clean stop) and waits for the exit; nothing when it already exited. */
export async function stopProc(
  proc: Proc,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (!hasExited(proc)) proc.child.kill(signal);
  return proc.exited;
}

/** Waits until `ready` holds, polling every 50 ms; fails when `proc` exits first or after `timeoutMs`. */
export async function waitFor(what: string, ready: () => boolean, proc: Proc, timeoutMs = 60_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!ready()) {
    if (hasExited(proc))
      throw new Error(`${what}: the process exited first\nstdout: ${proc.stdout()}\nstderr: ${proc.stderr()}`);
    if (performance.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms\nstderr: ${proc.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** `upgrade-operator apiserver` with these arguments; resolves once its kubeconfig (in `cwd`) is written. */
export async function startApiServerProcess(
  args: readonly string[],
  cwd: string,
  kubeconfig: string,
): Promise<Proc & { url: string }> {
  const proc = startBuilt(args, cwd);
  await waitFor('the API server', () => proc.stdout().includes('kubeconfig written'), proc, 30_000);
  const url = /API server listening on (\S+)/.exec(proc.stdout())?.[1] ?? '';
  if (!existsSync(join(cwd, kubeconfig))) throw new Error(`no kubeconfig ${kubeconfig} in ${cwd}`);
  return { ...proc, url };
}

/**
 * The simulate side of a rehearsal ended as its scenario expects (exit 0, "as expected"); says so
 * in the test's diagnostics and returns simulate's output. On failure, both sides' output.
 */
export function assertRehearsalAsExpected(
  t: { diagnostic(message: string): void },
  sim: Proc,
  code: number | null,
  operator: Proc,
): string {
  const out = sim.stdout();
  assert.equal(code, 0, `simulate:\n${out}\n${sim.stderr()}\nrun:\n${operator.stderr().slice(-4000)}`);
  assert.match(out, /\nas expected: /);
  t.diagnostic(out.split('\n').find((l) => l.startsWith('as expected')) ?? '');
  return out;
}

/** The operator's log lines; each must be a JSON line (no Node warning, no stray text). */
export function operatorLogLines(operator: Proc): string[] {
  const lines = operator
    .stderr()
    .split('\n')
    .filter((l) => l !== '');
  assert.deepEqual(
    lines.filter((l) => !l.startsWith('{')),
    [],
  );
  return lines;
}
