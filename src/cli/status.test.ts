/**
 * `upgrade-operator status` against the embedded API server: what it reads (and that it writes
 * nothing), an unreachable server (exit code 1, the report still printed), `--watch` redraws on
 * a manual clock, and the flag parsers.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { NodeResource } from '../api/builtin.js';
import { openshiftCustomResourceDefinitions } from '../api/openshift/crds.js';
import { ClusterVersionResource } from '../api/openshift/config-v1/cluster-version.js';
import { MachineConfigPoolResource } from '../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { MachineConfigResource, type MachineConfig } from '../api/openshift/machineconfiguration-v1/machine-config.js';
import { startApiServer, type ApiServer } from '../apiserver/server.js';
import { KubeClient } from '../kube/client.js';
import { ManualClock, RealClock } from '../lib/clock.js';
import { silentLogger } from '../lib/log.js';
import { installCustomResourceDefinitions } from '../sim/install-crds.js';
import {
  CLEAR_SCREEN,
  DEFAULT_INTERVAL_MS,
  parseDetails,
  parseInterval,
  readStatusSnapshot,
  runStatus,
  type StatusOptions,
} from './status.js';
import type { UpgradeStatusReport } from './upgrade-status-model.js';
import { CFG, clusterVersion, DONE, node, NOW, pool, rendered, NEW, OLD } from './upgrade-status.test-support.js';

function clientFor(url: string): KubeClient {
  return new KubeClient({
    config: { server: url, insecureSkipTLSVerify: false, auth: () => Promise.resolve(undefined), namespace: 'default' },
    clock: new RealClock(),
    logger: silentLogger(),
    maxReadRetries: 0,
  });
}

/** An API server holding a cluster whose last update (to 4.15.3) completed. */
async function cluster(t: TestContext): Promise<{ server: ApiServer; client: KubeClient }> {
  const server = await startApiServer({ port: 0, clock: new ManualClock(NOW), logger: silentLogger() });
  const client = clientFor(server.url);
  t.after(async () => {
    await client.close();
    await server.close();
  });
  await installCustomResourceDefinitions(client, openshiftCustomResourceDefinitions());
  const cv = clusterVersion({ head: DONE });
  const { status, ...withoutStatus } = cv;
  const created = await client.create(ClusterVersionResource, withoutStatus);
  await client.updateStatus(ClusterVersionResource, { ...created, ...(status ? { status } : {}) });
  await client.create(MachineConfigPoolResource, pool('worker', CFG.workerNew));
  await client.create(MachineConfigResource, rendered(CFG.workerNew, NEW));
  await client.create(MachineConfigResource, rendered(CFG.workerOld, OLD));
  await client.create(NodeResource, {
    apiVersion: 'v1',
    kind: 'Node',
    ...node('w0', 'worker', { current: CFG.workerNew }),
  });
  return { server, client };
}

function output(isTTY = false): { out: { write(s: string): void; isTTY: boolean }; writes: string[] } {
  const writes: string[] = [];
  return { out: { write: (s: string) => void writes.push(s), isTTY }, writes };
}

const ONCE: StatusOptions = { interval: DEFAULT_INTERVAL_MS, output: 'json' };

async function until(what: string, f: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !f(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(f(), `timed out waiting for ${what}`);
}

void test('reads the cluster with GET and LIST only; the upgrade operator’s kinds not installed is no problem', async (t) => {
  const { server, client } = await cluster(t);
  const before = server.store.currentResourceVersion();
  const { out, writes } = output();
  const code = await runStatus(client, ONCE, {
    clock: new ManualClock(NOW),
    out,
    env: {},
    signal: new AbortController().signal,
  });
  assert.equal(code, 0);
  assert.equal(server.store.currentResourceVersion(), before, 'nothing was written');
  const report = JSON.parse(writes.join('')) as UpgradeStatusReport;
  assert.deepEqual(report.unknown, []);
  assert.equal(report.updating, false);
  assert.equal(report.controlPlane.assessment, 'Completed');
  assert.deepEqual(
    report.pools.map((p) => [p.name, p.assessment, p.nodes.map((n) => [n.name, n.phase, n.version])]),
    [['worker', 'Completed', [['w0', 'Updated', NEW]]]],
  );
  assert.equal(report.upgradeOperator.managed.state, 'absent');
  assert.equal(report.upgradeOperator.scheduled.state, 'absent');
});

void test('an unreachable API server: every part unknown with the reason, the report still printed, exit code 1', async () => {
  const server = await startApiServer({ port: 0, logger: silentLogger() });
  const url = server.url;
  await server.close();
  const client = clientFor(url);
  try {
    const view = async (isTTY: boolean, env: Record<string, string>): Promise<{ code: number; text: string }> => {
      const { out, writes } = output(isTTY);
      const code = await runStatus(
        client,
        { interval: DEFAULT_INTERVAL_MS, output: 'text' },
        { clock: new ManualClock(NOW), out, env, signal: new AbortController().signal },
      );
      return { code, text: writes.join('') };
    };
    const { code, text } = await view(false, {});
    assert.equal(code, 1);
    assert.match(text, /^Warning: could not read clusterVersion: /);
    assert.match(text, /Assessment: +Unknown/);
    assert.match(text, /Managed upgrades \(upgrade\.managed\.openshift\.io UpgradeConfig\): unknown: /);
    assert.ok(!text.includes('\u001b['), 'no colour off a TTY');
    assert.ok(
      (await view(true, {})).text.startsWith('\u001b[33mWarning: could not read clusterVersion'),
      'colour on a TTY',
    );
    assert.ok(!(await view(true, { NO_COLOR: '1' })).text.includes('\u001b['), 'no colour with NO_COLOR');
  } finally {
    await client.close();
  }
});

void test('--watch: a snapshot per interval on the clock, appended with a blank line off a TTY, redrawn on one; the signal ends it with 0', async (t) => {
  const { client } = await cluster(t);
  for (const tty of [false, true]) {
    const clock = new ManualClock(NOW);
    const abort = new AbortController();
    const { out, writes } = output(tty);
    const running = runStatus(
      client,
      { watch: true, interval: 10_000, output: 'text' },
      { clock, out, env: {}, signal: abort.signal },
    );
    await until('the first snapshot', () => writes.length === 1 && clock.pending === 1);
    await clock.advance(9_999);
    assert.equal(writes.length, 1, 'nothing before the interval');
    await clock.advance(1);
    await until('the second snapshot', () => writes.length === 2 && clock.pending === 1);
    abort.abort();
    assert.equal(await running, 0);
    if (tty) {
      assert.ok(
        writes[0]?.startsWith(
          `${CLEAR_SCREEN}Every 10s: upgrade-operator status   2024-03-20T09:02:09Z\n\nThe cluster is not updating.\n`,
        ),
        writes[0],
      );
      assert.ok(
        writes[1]?.startsWith(`${CLEAR_SCREEN}Every 10s: upgrade-operator status   2024-03-20T09:02:19Z\n\n`),
        writes[1],
      );
    } else {
      assert.ok(writes[0]?.startsWith('2024-03-20T09:02:09Z\nThe cluster is not updating.\n'), writes[0]);
      assert.ok(writes[1]?.startsWith('\n2024-03-20T09:02:19Z\nThe cluster is not updating.\n'), writes[1]);
    }
  }
});

void test('flags: --interval is a Go duration of at least 1s; --details a comma-separated list', () => {
  assert.equal(parseInterval('5s'), 5000);
  assert.equal(parseInterval('1m30s'), 90_000);
  assert.throws(() => parseInterval('500ms'), /at least 1s/);
  assert.throws(() => parseInterval('5'), /./);
  assert.deepEqual(parseDetails('nodes,health'), ['nodes', 'health']);
  assert.deepEqual(parseDetails('all', ['nodes']), ['nodes', 'all']);
  assert.throws(() => parseDetails('pods'), /must be nodes, operators, health, all/);
});

void test('a rendered config read once is not read again: its name is the hash of its content', async (t) => {
  const { server, client } = await cluster(t);
  const known = new Map<string, MachineConfig>();
  const first = await readStatusSnapshot(client, undefined, known);
  assert.deepEqual(
    first.renderedMachineConfigs.state === 'ok'
      ? first.renderedMachineConfigs.value.map((mc) => mc.metadata?.name)
      : first.renderedMachineConfigs,
    [CFG.workerNew],
  );
  assert.deepEqual([...known.keys()], [CFG.workerNew]);
  // Gone from the server (which never happens to a rendered config in use), still in the snapshot.
  server.store.delete(
    server.store.resourceType('machineconfiguration.openshift.io', 'machineconfigs')!,
    '',
    CFG.workerNew,
    {},
  );
  const second = await readStatusSnapshot(client, undefined, known);
  assert.deepEqual(
    second.renderedMachineConfigs.state === 'ok'
      ? second.renderedMachineConfigs.value.map((mc) => mc.metadata?.name)
      : second.renderedMachineConfigs,
    [CFG.workerNew],
  );
  // Without the map it is read (and now missing).
  const fresh = await readStatusSnapshot(client);
  assert.deepEqual(
    fresh.renderedMachineConfigs.state === 'ok' ? fresh.renderedMachineConfigs.value : fresh.renderedMachineConfigs,
    [],
  );
});
