/**
 * `npm run demo`: first an OSD managed upgrade by this operator on a simulated OpenShift
 * cluster, end to end with live progress (`upgrade-operator simulate --scenario
 * managed-osd-upgrade`: 4.14 → 4.15 on an ha-cloud cluster, virtual time), and what kubectl
 * shows of that cluster afterwards; then the embedded API server with the project's CRDs and
 * sample objects, shown with the real kubectl.
 * Every line of kubectl output shown here is kubectl's own, cut (with an ellipsis) to the
 * terminal's width, or to 160 characters in a log. Live progress as `simulate` shows it: a live
 * view with progress bars on a terminal, one line per change of state elsewhere
 * (`--progress=tty|plain|none` forces a mode). Pass --keep-running to keep the server up for your
 * own kubectl.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { startApiServer } from '../src/apiserver/server.js';
import { writeCrdFiles } from '../src/api/manifests.js';
import { fitLine, paint } from '../src/cli/live-view.js';
import { lineWidth, progressMode, progressOutput, useColor } from '../src/cli/progress-output.js';
import { PROGRESS_MODES, type ProgressFlag } from '../src/cli/commands/simulate.js';
import { flowShown, loadScenario, runScenario } from '../src/cli/scenarios/catalog.js';
import { scenarioPresenter } from '../src/cli/scenarios/scenario-view.js';
import { startSimEnvironment } from '../src/cli/scenarios/sim-environment.js';
import { RealClock } from '../src/lib/clock.js';
import { silentLogger } from '../src/lib/log.js';

const keepRunning = process.argv.includes('--keep-running');
const progressArg = process.argv.find((a) => a.startsWith('--progress='))?.slice('--progress='.length) ?? 'auto';
if (!(PROGRESS_MODES as readonly string[]).includes(progressArg))
  throw new Error(`--progress must be one of ${PROGRESS_MODES.join(', ')}`);
const mode = progressMode(progressArg as ProgressFlag, process.stdout.isTTY === true);
const color = useColor(mode, process.env);
/** The width every line of the demo fits: the terminal's, else the plain log's. */
const width = (): number => lineWidth(process.stdout);
/** Writes text, each line cut to the width. */
function show(text: string): void {
  const lines = text.split('\n');
  const last = lines.pop();
  for (const line of lines) process.stdout.write(`${fitLine(line, width())}\n`);
  if (last) process.stdout.write(fitLine(last, width()));
}
const root = new URL('..', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'upgrade-operator-demo-'));
const kubeconfig = join(work, 'kubeconfig');

function step(title: string): void {
  show(`\n${paint(`▶ ${title}`, 'bold', color)}\n`);
}

/** Runs the real kubectl against the embedded server (asynchronously: the server is in this process). */
async function kubectl(args: string[], options: { expectFailure?: boolean } = {}): Promise<string> {
  show(`${paint(`$ kubectl ${args.join(' ')}`, 'dim', color)}\n`);
  const child = spawn('kubectl', ['--kubeconfig', kubeconfig, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGTERM'), 60_000);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(timer);
  show(stdout + stderr);
  const failed = code !== 0;
  if (failed !== Boolean(options.expectFailure)) {
    throw new Error(
      `kubectl ${args.join(' ')} ${failed ? `failed (exit ${code})` : 'succeeded but was expected to fail'}`,
    );
  }
  return stdout;
}

const SCENARIO = 'managed-osd-upgrade';
step(
  `This operator upgrades a simulated OpenShift cluster, on virtual time (upgrade-operator simulate --scenario ${SCENARIO})`,
);
const scenario = loadScenario(SCENARIO).file;
show(`${scenario.description} (the file scenarios/${SCENARIO}.yaml)\n`);
const env = await startSimEnvironment({ seed: 1 });
try {
  const output = progressOutput({
    mode,
    stream: process.stdout,
    color,
    wallNow: () => performance.now(),
    tickMs: 1000,
  });
  const presenter = scenarioPresenter(output, {
    title: `Scenario ${SCENARIO}`,
    flow: flowShown(scenario),
    wallNow: () => performance.now(),
  });
  const outcome = await runScenario(env, scenario, { seed: 1, onProgress: (p) => presenter.update(p) });
  presenter.flush();
  output.finish();
  try {
    output.result([
      '',
      `${outcome.ok ? paint('as expected', 'green', color) : paint('NOT as expected', 'red', color)}: ${outcome.summary}`,
    ]);
    if (!outcome.ok) throw new Error('the simulated upgrade did not end as expected');
    await env.server.writeKubeconfig(kubeconfig);
    step('What kubectl shows of the simulated cluster afterwards');
    await kubectl(['get', 'upgradeconfigs.upgrade.managed.openshift.io', '-A']);
    await kubectl([
      'get',
      'upgradeconfigs.upgrade.managed.openshift.io',
      '-n',
      'openshift-managed-upgrade-operator',
      'managed-upgrade-config',
      '-o',
      'jsonpath={range .status.history[0].conditions[*]}{.type}{"\\t"}{.status}{"\\t"}{.completeTime}{"\\n"}{end}',
    ]);
    await kubectl(['get', 'clusterversion,machineconfigpools']);
    await kubectl(['get', 'events', '-n', 'openshift-managed-upgrade-operator', '--sort-by=.lastTimestamp']);
  } finally {
    await outcome.run.close();
  }
} finally {
  await env.close();
}

const server = await startApiServer({ port: 0, clock: new RealClock(), logger: silentLogger() });
try {
  await server.writeKubeconfig(kubeconfig);
  step(`Embedded Kubernetes API server listening on ${server.url}`);
  await kubectl(['version', '-o', 'yaml']);

  step('Install the CustomResourceDefinitions (generated from src/api/ by `npm run manifests`)');
  const crdDir = join(work, 'crds');
  await writeCrdFiles(crdDir);
  // A kustomize base, as deploy/crds is.
  await kubectl(['apply', '-k', crdDir]);
  await kubectl(['wait', '--for', 'condition=Established', '--timeout=30s', '--all', 'crd']);
  await kubectl(['api-resources', '--api-group=upgrade.managed.openshift.io']);
  await kubectl(['api-resources', '--api-group=managedupgrade.appuio.io']);

  step('Create the sample objects of deploy/samples/');
  const samplesDir = join(root, 'deploy/samples');
  const namespaces = new Set<string>();
  for (const file of readdirSync(samplesDir).filter((f) => f.endsWith('.yaml'))) {
    for (const doc of parseAllDocuments(readFileSync(join(samplesDir, file), 'utf8'))) {
      const ns = (doc.toJS() as { metadata?: { namespace?: string } } | null)?.metadata?.namespace;
      if (ns) namespaces.add(ns);
    }
  }
  for (const ns of namespaces) await kubectl(['create', 'namespace', ns]);
  await kubectl(['apply', '-f', samplesDir]);

  step('What kubectl shows (printer columns come from the CRDs)');
  await kubectl(['get', 'upgradeconfigs.upgrade.managed.openshift.io', '-A']);
  await kubectl([
    'get',
    'upgradeconfigs.managedupgrade.appuio.io,upgradejobs,upgradejobhooks,upgradesuspensionwindows,nodeforcedrains',
    '-A',
  ]);
  await kubectl(['explain', 'upgradeconfigs.upgrade.managed.openshift.io.spec']);

  step("Bad input is refused with the API server's validation message");
  const bad = `apiVersion: upgrade.managed.openshift.io/v1alpha1
kind: UpgradeConfig
metadata:
  name: broken
  namespace: openshift-managed-upgrade-operator
spec:
  type: XYZ
  upgradeAt: "2026-12-01T02:00:00Z"
  desired:
    version: 4.15.3
`;
  writeFileSync(join(work, 'bad.yaml'), bad);
  await kubectl(['apply', '-f', join(work, 'bad.yaml')], { expectFailure: true });

  step('Done');
  show('The embedded API server served real kubectl for every step above.\n');
  if (keepRunning) {
    show(`\nStill running. Try: kubectl --kubeconfig ${kubeconfig} get upgradeconfigs -A\nPress Ctrl-C to stop.\n`);
    await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
  }
} finally {
  await server.close();
  rmSync(work, { recursive: true, force: true });
}
