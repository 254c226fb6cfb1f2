/**
 * Which modules a run of the installed `upgrade-operator` loads: the built entry
 * (`bin/upgrade-operator.js` on `dist/`) started with an ESM loader hook (`--import`) that appends
 * every module URL the loader loads (and every CommonJS file compiled) to a file. The start-up
 * tests and benchmarks read it to check that a command loads only what it uses
 * (docs/design/command-line.md#lazy-commands).
 *
 * dist/ is a bundle (scripts/build.mjs): a loaded chunk stands for the source modules it holds,
 * which the bundle's metafile names. Each is reported as the URL it would have unbundled,
 * `dist/<path below src/>.js` (`dist/sim/cvo/cvo.js` for src/sim/cvo/cvo.ts).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BUILT_BINARY, ensureBuilt, ROOT } from './binary.test-support.js';

const HOOKS = `import { appendFileSync } from 'node:fs';
let out;
export function initialize(data) { out = data.out; }
export async function load(url, context, next) {
  appendFileSync(out, url + '\\n');
  return next(url, context);
}
`;

// The ESM hook does not see what `require()` loads (CEL is required on first use, see
// src/apiserver/crd/cel-runtime.ts), so CommonJS modules are recorded as they are compiled; nor
// the bundled packages, which src/lib/bundled-package.ts compiles with vm.Script (and its code
// cache), so the scripts compiled from a file are recorded too.
const REGISTER = (hooks: string): string => `import { appendFileSync } from 'node:fs';
import Module, { register, syncBuiltinESMExports } from 'node:module';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
const out = process.env.UPGRADE_OPERATOR_LOADED_MODULES;
register(${JSON.stringify(hooks)}, { data: { out } });
const compile = Module.prototype._compile;
Module.prototype._compile = function (content, filename) {
  appendFileSync(out, pathToFileURL(filename).href + '\\n');
  return compile.apply(this, arguments);
};
const Script = vm.Script;
vm.Script = class extends Script {
  constructor(code, options) {
    super(code, options);
    if (typeof options?.filename === 'string' && options.filename.startsWith('/'))
      appendFileSync(out, pathToFileURL(options.filename).href + '\\n');
  }
};
syncBuiltinESMExports();
`;

/** What a run printed and the URLs of the modules it loaded, in load order. */
export interface LoadedModules {
  status: number | null;
  stdout: string;
  stderr: string;
  urls: string[];
}

/** When to end a long-running command (`run`): `afterMs` after its stderr says this, with SIGTERM. */
export interface StopWhen {
  stderrIncludes: string;
  afterMs: number;
  /** SIGKILL when the line has not come by then. */
  timeoutMs: number;
}

/** Runs `upgrade-operator <args>` from `cwd` and records the modules it loads. */
export async function loadedModules(
  args: readonly string[],
  options: { cwd: string; env?: Readonly<Record<string, string>>; stopWhen?: StopWhen },
): Promise<LoadedModules> {
  await ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'loaded-modules-'));
  try {
    const hooks = join(dir, 'hooks.mjs');
    const register = join(dir, 'register.mjs');
    const out = join(dir, 'modules.txt');
    writeFileSync(hooks, HOOKS);
    writeFileSync(register, REGISTER(pathToFileURL(hooks).href));
    writeFileSync(out, '');
    const child = spawn(process.execPath, ['--import', pathToFileURL(register).href, BUILT_BINARY, ...args], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env, UPGRADE_OPERATOR_LOADED_MODULES: out },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const stop = options.stopWhen;
    let stopping = false;
    const timer = stop ? setTimeout(() => child.kill('SIGKILL'), stop.timeoutMs) : undefined;
    child.stdout.on('data', (c: Buffer) => void (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
      if (stop && !stopping && stderr.includes(stop.stderrIncludes)) {
        stopping = true;
        setTimeout(() => child.kill('SIGTERM'), stop.afterMs);
      }
    });
    const status = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code) => resolve(code));
    });
    clearTimeout(timer);
    return {
      status,
      stdout,
      stderr,
      urls: sourceModules(
        readFileSync(out, 'utf8')
          .split('\n')
          .filter((u) => u !== ''),
      ),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The part of esbuild's metafile read here: each output file's inputs and their bytes in it. */
interface BundleMeta {
  outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
}

/** The compiled modules (tsc's output, the bundle's inputs), below the repository. */
const TSC_OUT = '.build/tsc/';

/** Replaces each loaded chunk of the bundle by the URLs its source modules would have unbundled. */
function sourceModules(urls: readonly string[]): string[] {
  const meta = JSON.parse(readFileSync(join(ROOT, '.build', 'bundle-meta.json'), 'utf8')) as BundleMeta;
  return urls.flatMap((url) => {
    if (!url.startsWith('file:')) return [url];
    const output = meta.outputs[relative(ROOT, fileURLToPath(url))];
    if (output === undefined) return [url];
    return Object.entries(output.inputs)
      .filter(([input, { bytesInOutput }]) => bytesInOutput > 0 && input.startsWith(TSC_OUT))
      .map(([input]) => pathToFileURL(join(ROOT, 'dist', input.slice(TSC_OUT.length))).href);
  });
}

/** What the light commands must never load: the simulation, the API server and their dependencies. */
export const HEAVY_MODULES: ReadonlyArray<{ what: string; pattern: RegExp }> = [
  { what: 'the simulated cluster (src/sim/)', pattern: /\/dist\/sim\// },
  { what: 'the embedded API server (src/apiserver/)', pattern: /\/dist\/apiserver\// },
  { what: 'CEL (@bufbuild/cel)', pattern: /\/node_modules\/@bufbuild\/cel/ },
  { what: 'the PromQL parser (lezer)', pattern: /\/node_modules\/(@lezer|@prometheus-io\/lezer-promql)\// },
  { what: 'jq (jq-wasm)', pattern: /\/node_modules\/jq-wasm\// },
];

/** The heavy modules among `urls`, one line per kind with its first module. */
export function heavyModulesLoaded(urls: readonly string[], heavy = HEAVY_MODULES): string[] {
  return heavy.flatMap(({ what, pattern }) => {
    const first = urls.find((u) => pattern.test(u));
    return first === undefined ? [] : [`${what}: ${first}`];
  });
}

/** An UpgradeConfig of the scheduled flow, as a GitOps repository holds it. */
export const UPGRADE_CONFIG_YAML = `apiVersion: managedupgrade.appuio.io/v1beta1
kind: UpgradeConfig
metadata:
  name: cluster-upgrade
  namespace: appuio-openshift-upgrade-controller
spec:
  schedule:
    cron: "0 22 * * 2"
    isoWeek: "@odd"
    location: Europe/Zurich
  pinVersionWindow: 4h
  jobTemplate:
    metadata:
      labels: {upgrade-config: cluster-upgrade}
    spec:
      config:
        preUpgradeHealthChecks: {}
        postUpgradeHealthChecks: {timeout: 90m}
`;

/** An UpgradeJob as `kubectl get -o yaml` prints it. */
export const UPGRADE_JOB_YAML = `apiVersion: managedupgrade.appuio.io/v1beta1
kind: UpgradeJob
metadata:
  name: cluster-upgrade-4-15-3-1700000000
  namespace: appuio-openshift-upgrade-controller
  uid: 7b1c1d2e-0000-4000-8000-000000000001
  creationTimestamp: "2023-11-14T20:13:20Z"
  labels: {upgrade-config: cluster-upgrade}
spec:
  startAfter: "2023-11-14T23:13:20+01:00"
  startBefore: "2023-11-14T23:13:20Z"
  config:
    preUpgradeHealthChecks: {}
    postUpgradeHealthChecks: {timeout: 90m}
`;

/**
 * `run --flows <flows>` against the API server of `kubeconfig` on loopback: no leader election,
 * every server on a free port of 127.0.0.1, monitoring URLs that answer nothing.
 */
export function loopbackRunArgs(flows: string, kubeconfig: string): string[] {
  return [
    'run',
    '--flows',
    flows,
    '--kubeconfig',
    kubeconfig,
    '--no-leader-elect',
    '--metrics-bind-address',
    '127.0.0.1:0',
    '--collector-bind-address',
    '127.0.0.1:0',
    '--health-probe-bind-address',
    '127.0.0.1:0',
    '--prometheus-url',
    'http://127.0.0.1:9',
    '--alertmanager-url',
    'http://127.0.0.1:9',
  ];
}

/** One command of the start-up targets (issue 17): an id and its arguments. */
export interface StartUpCommand {
  readonly id: string;
  readonly args: readonly string[];
}

/**
 * The commands that must start in a blink (people run them in CI loops and pre-commit hooks),
 * with the input files they read written to `dir`.
 */
export function startUpCommands(dir: string): StartUpCommand[] {
  const config = join(dir, 'upgrade-config.yaml');
  const job = join(dir, 'upgrade-job.yaml');
  writeFileSync(config, UPGRADE_CONFIG_YAML);
  writeFileSync(job, UPGRADE_JOB_YAML);
  return [
    { id: '--version', args: ['--version'] },
    { id: '--help', args: ['--help'] },
    { id: 'preview', args: ['preview', '--cron', '0 22 * * 2', '--count', '3'] },
    { id: 'hook-env', args: ['hook-env', '--job', job, '--event', 'Start', '--time', '2023-11-15T01:00:05Z'] },
    { id: 'validate', args: ['validate', '-f', config] },
  ];
}
