// The install rehearsed (docs/install.md#installing-with-kustomize): `kubectl apply -k` of each
// flow's folder against the API server of a simulated cluster (`upgrade-operator apiserver`,
// `simulate --operator external`), then the operator that install describes, run as its
// Deployment would run it (its args and environment, the downward API resolved, the installed
// ConfigMap), upgrades the cluster. The managed flow runs the documented commands as written;
// the scheduled flow the same with deploy/scheduled and its rehearsal scenario.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { JsonObject } from '../../src/lib/json.js';
import { ensureBuilt } from '../../src/cli/binary.test-support.js';
import {
  assertRehearsalAsExpected,
  SCHEDULED_REHEARSAL_SCENARIO,
  startApiServerProcess,
  startBuilt,
  stopProc,
  waitFor,
} from './rehearsal.test-support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DOC = join(ROOT, 'docs/install.md');

/** The lines of the first `sh` block after "**Rehearsing it.**" in docs/install.md (comments dropped). */
function documentedCommands(): string[] {
  const text = readFileSync(DOC, 'utf8');
  const section = text.slice(text.indexOf('**Rehearsing it.**'));
  const block = /```sh\n([^]*?)```/.exec(section)?.[1] ?? '';
  return block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '');
}

function kubectl(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('/usr/bin/kubectl', args, { cwd, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

interface Container {
  args: string[];
  env: Array<{ name: string; value?: string; valueFrom?: { fieldRef?: { fieldPath: string } } }>;
}

/** The operator container's args and environment as the kubelet would give them (downward API resolved). */
function podView(deployment: {
  metadata: { name: string; namespace: string };
  spec: { template: { spec: { containers: Container[] } } };
}): { args: string[]; env: Record<string, string> } {
  const container = deployment.spec.template.spec.containers[0];
  assert.ok(container);
  const podName = `${deployment.metadata.name}-6d5f7c9b8-x2k4q`;
  const env: Record<string, string> = {};
  for (const e of container.env) {
    const path = e.valueFrom?.fieldRef?.fieldPath;
    env[e.name] =
      e.value ??
      (path === 'metadata.namespace' ? deployment.metadata.namespace : path === 'metadata.name' ? podName : '');
    assert.ok(env[e.name] !== '', `${e.name} resolved`);
  }
  return { args: container.args, env };
}

const FLOWS = {
  managed: {
    folder: 'deploy/managed',
    namespace: 'openshift-managed-upgrade-operator',
    configMap: 'managed-upgrade-operator-config',
    rule: 'upgrade-operator',
    /** The documented scenario (the install's ConfigMap replaces the one it writes). */
    scenario: undefined,
  },
  scheduled: {
    folder: 'deploy/scheduled',
    namespace: 'appuio-openshift-upgrade-controller',
    configMap: undefined,
    rule: 'upgrade-operator-scheduled',
    scenario: SCHEDULED_REHEARSAL_SCENARIO,
  },
} as const;

before(async () => {
  await ensureBuilt();
});

void test('the documented install rehearsal: apiserver, simulate --operator external, kubectl apply -k, run', () => {
  const commands = documentedCommands();
  assert.equal(commands.length, 4, commands.join('\n'));
  assert.match(commands[0] ?? '', /^upgrade-operator apiserver --kubeconfig-out lab\.kubeconfig$/);
  assert.match(
    commands[1] ?? '',
    /^upgrade-operator simulate --kubeconfig lab\.kubeconfig --scenario managed-osd-upgrade .*--operator external --rehearsal-out rehearsal\.json$/,
  );
  assert.equal(commands[2], 'kubectl --kubeconfig lab.kubeconfig apply -k deploy/managed');
  assert.match(commands[3] ?? '', /^(\w+=\S+ )+upgrade-operator run --rehearsal rehearsal\.json$/);
});

for (const flow of ['managed', 'scheduled'] as const) {
  void test(
    `install rehearsal, ${flow} flow: kubectl apply -k ${FLOWS[flow].folder} installs it and the operator it describes upgrades the simulated cluster`,
    { timeout: 240_000 },
    async (t) => {
      const f = FLOWS[flow];
      const dir = mkdtempSync(join(tmpdir(), `install-${flow}-`));
      t.after(() => rmSync(dir, { recursive: true, force: true }));
      // The commands run from a checkout's root: deploy/ as in the repository.
      cpSync(join(ROOT, 'deploy'), join(dir, 'deploy'), { recursive: true });
      if (f.scenario !== undefined) writeFileSync(join(dir, 'scheduled-rehearsal.yaml'), f.scenario);
      const [apiserverLine = '', simulateLine = '', kubectlLine = '', runLine = ''] = documentedCommands();
      const words = (line: string): string[] => line.split(/\s+/);

      const apiserver = words(apiserverLine).slice(1);
      const server = await startApiServerProcess(apiserver, dir, 'lab.kubeconfig');
      t.after(() => stopProc(server));
      const sim = startBuilt(
        words(simulateLine)
          .slice(1)
          .map((w) => (w === 'managed-osd-upgrade' && f.scenario !== undefined ? 'scheduled-rehearsal.yaml' : w)),
        dir,
      );
      t.after(() => stopProc(sim));
      await waitFor('the rehearsal file', () => existsSync(join(dir, 'rehearsal.json')), sim);

      const apply = await kubectl(
        words(kubectlLine)
          .slice(1)
          .map((w) => (w === 'deploy/managed' ? f.folder : w)),
        dir,
      );
      assert.equal(apply.code, 0, apply.stderr);
      for (const created of [
        `deployment.apps/upgrade-operator`,
        `serviceaccount/upgrade-operator`,
        `prometheusrule.monitoring.coreos.com/${f.rule}`,
      ])
        assert.match(apply.stdout, new RegExp(`^${created.replaceAll('.', '\\.')} created$`, 'm'), apply.stdout);
      assert.match(apply.stdout, /^clusterrolebinding\.rbac\.authorization\.k8s\.io\/\S+ created$/m);
      assert.match(apply.stdout, /^servicemonitor\.monitoring\.coreos\.com\/\S+ created$/m);

      const got = await kubectl(
        ['--kubeconfig', 'lab.kubeconfig', '-n', f.namespace, 'get', 'deployment/upgrade-operator', '-o', 'json'],
        dir,
      );
      assert.equal(got.code, 0, got.stderr);
      const pod = podView(JSON.parse(got.stdout) as Parameters<typeof podView>[0]);
      if (f.configMap !== undefined) {
        // The scenario wrote its ConfigMap before the install: the install's replaced it.
        const cm = await kubectl(
          ['--kubeconfig', 'lab.kubeconfig', '-n', f.namespace, 'get', `configmap/${f.configMap}`, '-o', 'json'],
          dir,
        );
        assert.equal(cm.code, 0, cm.stderr);
        const installed = parse(readFileSync(join(ROOT, f.folder, '05-config-map.yaml'), 'utf8')) as JsonObject;
        assert.deepEqual((JSON.parse(cm.stdout) as JsonObject)['data'], installed['data']);
      }
      // The documented `run` line's environment is the Deployment's.
      const runWords = words(runLine);
      const documentedEnv = Object.fromEntries(
        runWords.filter((w) => /^\w+=/.test(w)).map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]),
      );
      if (flow === 'managed')
        for (const [k, v] of Object.entries(documentedEnv))
          assert.equal(pod.env[k], v, `${k} as the Deployment sets it`);
      const rehearsalArgs = runWords.slice(runWords.indexOf('run') + 1);
      const operator = startBuilt([...pod.args, ...rehearsalArgs], dir, pod.env);
      t.after(() => stopProc(operator));

      const ended = await sim.exited;
      const out = assertRehearsalAsExpected(t, sim, ended.code, operator);
      // The operator that acted is the run process, with the pod's name as its identity.
      assert.match(out, new RegExp(`Operator ${pod.env['POD_NAME'] ?? ''} holds the Lease; the scenario starts\\.`));
      assert.deepEqual(await stopProc(operator, 'SIGINT'), { code: 0, signal: null });
    },
  );
}
