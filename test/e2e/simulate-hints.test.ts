/**
 * What `simulate` tells a user to do works as printed: `--list -o json` is JSON, and the kubectl
 * command `--keep-running` suggests runs against the cluster it leaves up, where `kubectl logs`
 * of the operator's Deployment shows the operator's own log (docs/must-gather.md).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBinary } from '../../src/cli/binary.test-support.js';
import { scenarioNames } from '../../src/cli/scenarios/catalog.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

void test('simulate --list -o json lists every named scenario with its description, as the text form does', async () => {
  const json = await runBinary(['simulate', '--list', '-o', 'json']);
  assert.equal(json.status, 0, json.stderr);
  const { scenarios } = JSON.parse(json.stdout) as { scenarios: Array<{ name: string; description: string }> };
  assert.deepEqual(
    scenarios.map((s) => s.name),
    scenarioNames(),
  );
  assert.ok(scenarios.every((s) => s.description.length > 0));
  const text = await runBinary(['simulate', '--list']);
  for (const s of scenarios) assert.ok(text.stdout.includes(`${s.name}\n    ${s.description}\n`), s.name);
});

void test('the kubectl command simulate --keep-running prints works as printed; kubectl logs deploy/upgrade-operator too', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'simulate-hint-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const kubeconfig = join(dir, 'kubeconfig');
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/main.ts',
      'simulate',
      '--scenario',
      'managed-osd-upgrade',
      '--until',
      '5m',
      '--kubeconfig-out',
      kubeconfig,
      '--keep-running',
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  t.after(() => child.kill('SIGKILL'));
  let out = '';
  const hint = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = /; (kubectl [^\n]*)\. Ctrl-C to stop\./.exec(out);
      if (line?.[1]) resolve(line[1]);
    });
    child.on('close', (code) => reject(new Error(`simulate ended (${code}) before printing the hint:\n${out}`)));
  });
  const run = spawnSync('sh', ['-c', hint], { encoding: 'utf8' });
  assert.equal(run.status, 0, `${hint}\n${run.stderr}`);
  for (const kind of ['clusterversion.config.openshift.io/version', 'machineconfigpool', 'node/'])
    assert.match(run.stdout, new RegExp(kind.replace(/[.]/g, '\\.')), `${kind} in:\n${run.stdout}`);
  const logs = spawnSync(
    'kubectl',
    ['--kubeconfig', kubeconfig, 'logs', '-n', 'openshift-managed-upgrade-operator', 'deploy/upgrade-operator'],
    { encoding: 'utf8' },
  );
  assert.equal(logs.status, 0, logs.stderr);
  assert.match(logs.stdout, /^\{"level":"info","time":"[^"]+",.*"msg":"caches synced; starting workers"\}$/m);
  child.kill('SIGINT');
});
