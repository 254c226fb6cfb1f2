/**
 * The side-by-side against an external API server, run for real with small sizes: the external
 * server is the project's own embedded server in a process of its own (no kube-apiserver is
 * available to the tests), reached through its kubeconfig; the embedded one is the benchmark's
 * server process. Checks that every workload pairs its figures and that the run's namespace goes.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startApiServerProcess, stopApiServerProcess, type ApiServerProcess } from '../../scripts/apiserver-process.js';
import { RealClock } from '../../src/lib/clock.js';
import { listFigures, measureList } from './bench-list.js';
import { measureWrites, writeFigures, WRITES_NAMESPACE } from './bench-writes.js';
import type { BenchContext } from './context.js';
import { runSideBySide, type SideBySideSizes } from './external-runs.js';
import { connectExternal, deleteExternalNamespace, type ExternalServer } from './external-server.js';
import type { BenchResult, SideBySide } from './result.js';
import { RpcChild } from './rpc.js';
import type { StartResult } from './server-child.js';
import { embeddedTarget } from './target.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const SIZES: SideBySideSizes = { writes: 40, watchers: 3, events: 60 };
const TSX = ['--import', 'tsx', '--no-warnings'];

let dir: string;
let external: ApiServerProcess;
let embedded: RpcChild;
let ctx: BenchContext;
let ext: ExternalServer;
const spawned: RpcChild[] = [];

function spawnWriter(): RpcChild {
  const child = new RpcChild(join(HERE, 'writer-child.ts'), { execArgv: TSX });
  spawned.push(child);
  return child;
}

function stub(id: string, figures: BenchResult['figures'] = []): BenchResult {
  return {
    id,
    title: id,
    method: '',
    target: '',
    result: '',
    pass: true,
    measurements: [],
    memory: [],
    notes: [],
    figures,
  };
}

function assertPaired(s: SideBySide | undefined, labels: string[]): void {
  assert.ok(s);
  assert.equal(s.error, undefined);
  assert.deepEqual(
    s.rows.map((r) => r.label),
    labels,
  );
  for (const r of s.rows) assert.ok(r.embedded > 0 && r.external > 0 && Number.isFinite(r.external), JSON.stringify(r));
  assert.match(s.notes.join(' '), /RSS are not measured/);
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bench-side-by-side-'));
  embedded = new RpcChild(join(HERE, 'server-child.ts'), { execArgv: TSX });
  const [proc, started] = await Promise.all([
    startApiServerProcess(dir, 'external'),
    embedded.call<StartResult>('start', { kubeconfigPath: join(dir, 'embedded.kubeconfig') }),
  ]);
  external = proc;
  ctx = {
    url: started.url,
    server: embedded,
    kubeconfigPath: join(dir, 'embedded.kubeconfig'),
    compiledBenchDir: HERE,
    childFlags: [],
    log: () => {},
  };
  ext = await connectExternal(external.kubeconfig, new RealClock());
});

after(async () => {
  await Promise.all([...spawned, embedded].map((c) => c.close()));
  await stopApiServerProcess(external);
  rmSync(dir, { recursive: true, force: true });
});

test('writes, list and watch run on the external server too, figure for figure, and the namespace goes', async () => {
  await embedded.call('namespace', { name: WRITES_NAMESPACE });
  const writes = await measureWrites(embeddedTarget(ctx.url), WRITES_NAMESPACE, { count: SIZES.writes, log: () => {} });
  assert.equal(writes.failed, undefined);
  assertPaired(await runSideBySide(stub('writes', writeFigures(writes)), ext, ctx, spawnWriter, SIZES), [
    'Creates (median of the rounds)',
    'Updates (median of the rounds)',
    'Create latency (median)',
    'Update latency (median)',
  ]);

  const list = await measureList(embeddedTarget(ctx.url), WRITES_NAMESPACE, SIZES.writes);
  assertPaired(await runSideBySide(stub('list', listFigures(list)), ext, ctx, spawnWriter, SIZES), [
    'HTTP list, full body (median)',
    'HTTP list, full body (p95)',
    'Client JSON.parse of the body (median)',
  ]);

  // What a user sees on the external server: the write workload's objects in the run's namespace.
  const kubectl = (...args: string[]): string =>
    execFileSync('kubectl', ['--kubeconfig', external.kubeconfig, ...args], { encoding: 'utf8' });
  const benchObjects = (): string[] =>
    kubectl('get', 'configmaps', '-n', ext.namespace, '-l', 'app=bench', '-o', 'name')
      .split('\n')
      .filter((l) => l !== '');
  assert.equal(benchObjects().length, SIZES.writes);

  const watch = await runSideBySide(stub('watch'), ext, ctx, spawnWriter, SIZES);
  assertPaired(watch, [
    'Total time (first create → last watcher has every event)',
    'Per-watcher completion time (median)',
    "Creating process's time for its creates",
    'Delivery rate, all watchers together',
  ]);
  assert.equal(await runSideBySide(stub('informer'), ext, ctx, spawnWriter, SIZES), undefined);
  // The watch workload clears the namespace before it starts and after it ends.
  assert.deepEqual(benchObjects(), []);

  assert.equal(await deleteExternalNamespace(ext), undefined);
  const phase = kubectl('get', 'namespace', ext.namespace, '--ignore-not-found', '-o', 'jsonpath={.status.phase}');
  assert.ok(phase === '' || phase === 'Terminating', `namespace phase ${phase}`);
});

test('a workload that fails on the external server is one line in the side-by-side, not an exception', async () => {
  const gone: ExternalServer = { ...ext, namespace: 'no-such-namespace' };
  const s = await runSideBySide(stub('list', []), gone, ctx, spawnWriter, SIZES);
  assert.ok(s?.error);
  assert.match(s.error, /^GET \/api\/v1\/namespaces\/no-such-namespace\/configmaps: 0 items, expected 40$/);
});
