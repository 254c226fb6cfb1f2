/**
 * Starts the real Prometheus and Alertmanager binaries (Debian packages, installed by
 * scripts/ensure-test-tools.sh) on loopback for tests, in a temporary directory that close()
 * removes. Readiness is awaited by polling `/-/ready` with a deadline: real time is used only
 * here, during start-up, never for assertions.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { request } from 'undici';

/** A real server process on loopback. */
export interface RealServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** The temporary directory holding its config and data. */
  readonly dir: string;
  /** The tail of its output, for failure messages. */
  log(): string;
  /** Stops the process and removes the directory. */
  close(): Promise<void>;
}

/** The first of `names` found on PATH; throws with an installation hint otherwise. */
export function findBinary(names: readonly string[], hint: string): string {
  for (const name of names) {
    for (const d of (process.env['PATH'] ?? '').split(delimiter)) {
      if (d && existsSync(join(d, name))) return join(d, name);
    }
  }
  throw new Error(`${names[0] ?? 'binary'} is not installed: ${hint}`);
}

/** A free TCP port on 127.0.0.1 (listen on 0, read it, close). */
export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve, reject) => {
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', resolve);
  });
  const { port } = srv.address() as AddressInfo;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

/** Polls `check` (real time, start-up only) until it returns true; throws after `deadlineMs`. */
export async function waitUntil(
  what: string,
  check: () => Promise<boolean>,
  deadlineMs = 20_000,
  intervalMs = 100,
): Promise<void> {
  const start = performance.now();
  let last = '';
  for (;;) {
    try {
      if (await check()) return;
    } catch (err) {
      last = err instanceof Error ? err.message : String(err);
    }
    if (performance.now() - start > deadlineMs)
      throw new Error(`${what} not reached within ${deadlineMs} ms${last ? `: ${last}` : ''}`);
    await delay(intervalMs);
  }
}

interface Launch {
  name: string;
  binary: string;
  /** Files written into the directory before start. */
  files: Record<string, string>;
  args: (dir: string, port: number) => string[];
  /** An existing directory to use (not removed on close). */
  dir?: string;
}

async function launch(spec: Launch): Promise<RealServer> {
  const ownDir = spec.dir === undefined;
  const dir = spec.dir ?? (await mkdtemp(join(tmpdir(), `${spec.name}-`)));
  for (const [file, text] of Object.entries(spec.files)) await writeFile(join(dir, file), text);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const proc: ChildProcess = spawn(spec.binary, spec.args(dir, port), { stdio: ['ignore', 'pipe', 'pipe'] });
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-4000);
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const close = async (): Promise<void> => {
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGTERM');
      await exited;
    }
    if (ownDir) await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitUntil(`${spec.name} ready at ${url}`, async () => {
      if (proc.exitCode !== null) throw new Error(`${spec.name} exited with ${proc.exitCode}: ${output}`);
      const res = await request(`${url}/-/ready`);
      await res.body.text();
      return res.statusCode === 200;
    });
  } catch (err) {
    await close();
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n${output}`, { cause: err });
  }
  return { url, dir, log: () => output, close };
}

/** Options of {@link startRealPrometheus}. */
export interface RealPrometheusOptions {
  /** A rules file (YAML); loaded as `rules.yml`. */
  rules?: string;
  /** `global.evaluation_interval` (default `1s`). */
  evaluationInterval?: string;
  /** An existing TSDB directory (e.g. made by `promtool tsdb create-blocks-from`); default: a fresh one. */
  storagePath?: string;
  /** Extra command-line flags. */
  args?: readonly string[];
}

/** Starts `prometheus` on loopback with no scrape targets. */
export async function startRealPrometheus(options: RealPrometheusOptions = {}): Promise<RealServer> {
  const ruleFiles = options.rules !== undefined ? 'rule_files:\n  - rules.yml\n' : '';
  const config = `global:\n  evaluation_interval: ${options.evaluationInterval ?? '1s'}\n${ruleFiles}scrape_configs: []\n`;
  return launch({
    name: 'prometheus',
    binary: findBinary(['prometheus'], 'run scripts/ensure-test-tools.sh (Debian package prometheus)'),
    files: { 'prometheus.yml': config, ...(options.rules !== undefined ? { 'rules.yml': options.rules } : {}) },
    args: (dir, port) => [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${options.storagePath ?? join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=error',
      ...(options.args ?? []),
    ],
  });
}

/** Options of {@link startRealAlertmanager}. */
export interface RealAlertmanagerOptions {
  /** The configuration (default: one `null` receiver). */
  config?: string;
  args?: readonly string[];
}

/** Starts Alertmanager on loopback, clustering off. */
export async function startRealAlertmanager(options: RealAlertmanagerOptions = {}): Promise<RealServer> {
  return launch({
    name: 'alertmanager',
    binary: findBinary(
      ['prometheus-alertmanager', 'alertmanager'],
      'run scripts/ensure-test-tools.sh (Debian package prometheus-alertmanager)',
    ),
    files: { 'am.yml': options.config ?? 'route:\n  receiver: "null"\nreceivers:\n  - name: "null"\n' },
    args: (dir, port) => [
      `--config.file=${join(dir, 'am.yml')}`,
      `--storage.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--cluster.listen-address=',
      '--log.level=error',
      ...(options.args ?? []),
    ],
  });
}
