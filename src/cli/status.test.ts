/**
 * `upgrade-operator status` against the embedded API server: what it reads (and that it writes
 * nothing), an unreachable server (exit code 1, the report still printed), `--watch` redraws on
 * a manual clock, and the flag parsers.
 */
import { stripVTControlCharacters } from 'node:util';
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
import { readStatusSnapshot, runStatus, type StatusOptions } from './status.js';
import {
  DEFAULT_INTERVAL_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  parseDetails,
  parseInterval,
  parseRequestTimeout,
} from './commands/status.js';
import type { UpgradeStatusReport, UpgradeStatusSnapshot } from './upgrade-status-model.js';
import { unreachableServer } from './upgrade-status.js';
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
async function cluster(
  t: TestContext,
  clock = new ManualClock(NOW),
): Promise<{ server: ApiServer; client: KubeClient }> {
  const server = await startApiServer({ port: 0, clock, logger: silentLogger() });
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

function output(isTTY = false): {
  out: { write(s: string): void; isTTY: boolean; columns: number };
  writes: string[];
} {
  const writes: string[] = [];
  return { out: { write: (s: string) => void writes.push(s), isTTY, columns: 72 }, writes };
}

/** The snapshots written: on a TTY, the redraws (log-update also writes cursor controls on their own). */
function snapshots(writes: readonly string[], tty: boolean): string[] {
  return tty ? writes.filter((w) => w.includes('upgrade-operator status')) : [...writes];
}

/** Text without ANSI escape sequences. */
function plain(text: string): string {
  return stripVTControlCharacters(text);
}

const ONCE: StatusOptions = {
  interval: DEFAULT_INTERVAL_MS,
  output: 'json',
  requestTimeout: DEFAULT_REQUEST_TIMEOUT_MS,
};

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

void test('an unreachable API server: one line, as kubectl says it, and exit code 1; a partial read still shows the report', async () => {
  const server = await startApiServer({ port: 0, logger: silentLogger() });
  const url = server.url;
  await server.close();
  const client = clientFor(url);
  try {
    const { out, writes } = output(false);
    await assert.rejects(
      runStatus(
        client,
        { interval: DEFAULT_INTERVAL_MS, output: 'text', requestTimeout: DEFAULT_REQUEST_TIMEOUT_MS },
        { clock: new ManualClock(NOW), out, env: {}, signal: new AbortController().signal },
      ),
      {
        message: `The connection to the server ${new URL(url).host} was refused - did you specify the right host or port?`,
      },
    );
    assert.deepEqual(writes, [], 'no report of unknowns');
  } finally {
    await client.close();
  }
});

void test('unreachableServer: refused, timed out or not found in every read is one line; anything read is a report', () => {
  const error = (message: string): { state: 'error'; error: string } => ({ state: 'error', error: message });
  const parts = (message: string): UpgradeStatusSnapshot =>
    Object.fromEntries(
      [
        'clusterVersion',
        'clusterOperators',
        'machineConfigPools',
        'renderedMachineConfigs',
        'nodes',
        'pods',
        'podDisruptionBudgets',
        'managedUpgradeConfigs',
        'scheduledUpgradeConfigs',
        'upgradeJobs',
        'hookJobs',
      ].map((name) => [name, error(message)]),
    ) as unknown as UpgradeStatusSnapshot;
  assert.equal(
    unreachableServer(parts('connect ECONNREFUSED 10.0.0.1:6443'), 'https://10.0.0.1:6443', 30_000),
    'The connection to the server 10.0.0.1:6443 was refused - did you specify the right host or port?',
  );
  assert.equal(
    unreachableServer(parts('Headers Timeout Error'), 'https://api.lab:6443', 30_000),
    'Unable to connect to the server api.lab:6443: no answer within 30s (--request-timeout)',
  );
  assert.equal(
    unreachableServer(parts('getaddrinfo ENOTFOUND api.nowhere'), 'https://api.nowhere:6443', 30_000),
    'Unable to connect to the server api.nowhere:6443: getaddrinfo ENOTFOUND api.nowhere',
  );
  const partly = { ...parts('connect ECONNREFUSED 10.0.0.1:6443'), nodes: { state: 'ok', value: [] } };
  assert.equal(unreachableServer(partly as UpgradeStatusSnapshot, 'https://10.0.0.1:6443', 30_000), undefined);
  assert.equal(unreachableServer(parts('Forbidden'), 'https://10.0.0.1:6443', 30_000), undefined);
});

void test('--request-timeout: a Go duration or seconds, 0 for no limit', () => {
  assert.equal(parseRequestTimeout('30s'), 30_000);
  assert.equal(parseRequestTimeout('2m'), 120_000);
  assert.equal(parseRequestTimeout('5'), 5_000);
  assert.equal(parseRequestTimeout('0'), 0);
  assert.throws(() => parseRequestTimeout('soon'), /./);
});

void test('--watch: a snapshot per interval on the clock, appended with a blank line off a TTY, redrawn in place on one with the live view; the signal ends it with 0', async (t) => {
  for (const tty of [false, true]) {
    // The cluster's clock: the view's times are the server's (its answers' Date).
    const clock = new ManualClock(NOW);
    const { client } = await cluster(t, clock);
    const abort = new AbortController();
    const { out, writes } = output(tty);
    const running = runStatus(
      client,
      { watch: true, interval: 10_000, output: 'text', requestTimeout: DEFAULT_REQUEST_TIMEOUT_MS },
      { clock, out, env: {}, signal: abort.signal },
    );
    await until('the first snapshot', () => snapshots(writes, tty).length === 1 && clock.pending === 1);
    await clock.advance(9_999);
    assert.equal(snapshots(writes, tty).length, 1, 'nothing before the interval');
    await clock.advance(1);
    await until('the second snapshot', () => snapshots(writes, tty).length === 2 && clock.pending === 1);
    abort.abort();
    assert.equal(await running, 0);
    const [first, second] = snapshots(writes, tty);
    if (tty) {
      // The second redraw erases the lines of the first (log-update's erase sequence), then draws.
      assert.ok(second?.includes('\x1b[2K'), JSON.stringify(second));
      const lines = plain(first ?? '').split('\n');
      assert.equal(lines[0], 'Every 10s: upgrade-operator status  2024-03-20T09:02:09Z');
      assert.match(lines[1] ?? '', /^control plane +█+ 100% {2}1\/1 {2}4\.15\.3 completed$/);
      assert.ok(
        lines.some((l) => /^worker +[█░]+ +\d+% {2}\d\/\d/.test(l)),
        lines.join('\n'),
      );
      assert.ok(lines.includes('The cluster is not updating.'), lines.join('\n'));
      const wide = lines.filter((l) => [...l].length > out.columns - 1);
      assert.deepEqual(wide, [], 'every line fits the terminal');
      assert.ok(plain(second ?? '').includes('2024-03-20T09:02:19Z'));
    } else {
      assert.ok(first?.startsWith('2024-03-20T09:02:09Z\nThe cluster is not updating.\n'), first);
      assert.ok(second?.startsWith('\n2024-03-20T09:02:19Z\nThe cluster is not updating.\n'), second);
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
