// The container image, with the commands of docs/install.md as written: `sh scripts/build-image.sh`
// builds it from the Containerfile (installing podman and mmdebstrap when missing); its
// configuration is checked (size, non-root user, OCI labels, entrypoint), and the operator runs
// from it with `sh scripts/run-image.sh` (the image's root filesystem read-only, its user, its
// Node.js 24): `--version`, then `run --rehearsal` against a simulated cluster started from this
// repository (the pairing of test/e2e/rehearsal.test.ts), which it must upgrade.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { BUNDLED_PACKAGES, codeCachePath } from '../../src/lib/bundled-package.js';
import { ensureBuilt } from '../../src/cli/binary.test-support.js';
import {
  assertRehearsalAsExpected,
  operatorLogLines,
  startApiServerProcess,
  startBuilt,
  startProc,
  stopProc,
  waitFor,
} from '../e2e/rehearsal.test-support.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; license: string };
const IMAGE = `localhost/upgrade-operator:${PACKAGE.version}`;
/** The bound on the image's size: the base (Debian and Node.js, about 250 MB) and the operator (about 30 MB). */
const MAX_SIZE = 350_000_000;

const DOC = join(ROOT, 'docs', 'install.md');

/** The command lines of each `sh` block in the section of docs/install.md under `heading` (comments dropped). */
function documentedBlocks(heading: string): string[][][] {
  const text = readFileSync(DOC, 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `${heading} in docs/install.md`);
  const section = text.slice(start + heading.length + 2).split(/\n#{1,3} /)[0] ?? '';
  return [...section.matchAll(/```sh\n([^]*?)```/g)].map((m) =>
    (m[1] ?? '')
      .split('\n')
      .map((line) => line.replace(/\s+#.*$/, '').trim())
      .filter((line) => line !== '')
      .map((line) => line.split(/\s+/)),
  );
}

interface ImageConfig {
  User?: string;
  Entrypoint?: string[];
  Env?: string[];
  Labels?: Record<string, string>;
}

let built = { image: '', size: 0 };

/** `podman <args>` on the storage scripts/build-image.sh builds into. */
async function podman(args: readonly string[]): Promise<string> {
  return (await run('podman', ['--storage-driver', 'vfs', ...args], { maxBuffer: 16 << 20 })).stdout;
}

/** The image's configuration (user, entrypoint, environment, labels). */
async function imageConfig(): Promise<ImageConfig> {
  return JSON.parse(await podman(['image', 'inspect', '--format', '{{json .Config}}', IMAGE])) as ImageConfig;
}

before(async () => {
  await ensureBuilt();
  const started = performance.now();
  const [[build = []] = []] = documentedBlocks('### Building the image without a registry');
  assert.deepEqual(build, ['sh', 'scripts/build-image.sh']);
  const { stdout } = await run('sh', build.slice(1), { cwd: ROOT, maxBuffer: 64 << 20 }).catch(
    (e: { stderr?: string; message: string }) => {
      throw new Error(`sh scripts/build-image.sh failed: ${e.message}\n${(e.stderr ?? '').slice(-8000)}`);
    },
  );
  const [image = '', size = ''] = stdout.trim().split('\n').at(-1)?.split(' ') ?? [];
  built = { image, size: Number(size) };
  console.log(`# build-image: ${image}, ${size} bytes, ${Math.round(performance.now() - started)} ms`);
});

void test('scripts/build-image.sh builds the image: its size, a non-root user, OCI labels, the entrypoint', async (t) => {
  assert.equal(built.image, IMAGE);
  t.diagnostic(`image size: ${(built.size / 1e6).toFixed(1)} MB`);
  assert.ok(built.size > 100_000_000 && built.size < MAX_SIZE, `size ${built.size} bytes`);
  const config = await imageConfig();
  assert.match(config.User ?? '', /^[1-9]\d*:\d+$/, 'a numeric non-root uid:gid');
  assert.deepEqual(config.Entrypoint, ['upgrade-operator']);
  const labels = config.Labels ?? {};
  assert.equal(labels['org.opencontainers.image.version'], PACKAGE.version);
  assert.equal(labels['org.opencontainers.image.licenses'], PACKAGE.license);
  assert.match(labels['org.opencontainers.image.source'] ?? '', /^https:\/\//);
  const head = (await run('git', ['rev-parse', 'HEAD'], { cwd: ROOT })).stdout.trim();
  assert.match(labels['org.opencontainers.image.revision'] ?? '', new RegExp(`^${head}(-dirty)?$`));
  // The Containerfile's defaults: a public Node.js 24 base, the package's version.
  const containerfile = readFileSync(join(ROOT, 'Containerfile'), 'utf8');
  assert.match(containerfile, /^ARG BASE_IMAGE=docker\.io\/library\/node:24-/m);
  assert.match(containerfile, new RegExp(`^ARG VERSION=${PACKAGE.version.replaceAll('.', '\\.')}$`, 'm'));
  // The documented build with a registry tags the image the Deployments name.
  const [[podmanBuild = []] = []] = documentedBlocks('### Building the image');
  const tag = podmanBuild[podmanBuild.indexOf('-t') + 1] ?? '';
  for (const flow of ['managed', 'scheduled']) {
    const deployment = readFileSync(join(ROOT, 'deploy', flow, '06-deployment.yaml'), 'utf8');
    assert.match(deployment, new RegExp(`\\n\\s+image: ${tag.replaceAll('.', '\\.')}\\n`), `${flow}: ${tag}`);
  }
  assert.deepEqual(podmanBuild, ['podman', 'build', '-t', tag, '.']);
  // The zone files the scheduled flow reads a schedule's zone from (docs/configuration.md), and
  // the code caches of the bundled packages, made by the image's own Node.js at its build.
  const root = (await podman(['image', 'mount', IMAGE])).trim();
  try {
    for (const file of [
      'usr/share/zoneinfo/Europe/Zurich',
      ...Object.values(BUNDLED_PACKAGES).map(({ file }) => codeCachePath(`opt/upgrade-operator/dist/${file}`)),
    ])
      assert.ok(existsSync(join(root, file)), file);
  } finally {
    await podman(['image', 'unmount', IMAGE]);
  }
});

/** The size of the image's root filesystem now, as scripts/build-image.sh measures it. */
async function sizeNow(): Promise<number> {
  const root = (await podman(['image', 'mount', IMAGE])).trim();
  try {
    return Number((await run('du', ['-sb', root])).stdout.split('\t')[0]);
  } finally {
    await podman(['image', 'unmount', IMAGE]);
  }
}

const RUNNING = '### Running the image without a container runtime';

/** A documented `sh scripts/run-image.sh …` line as the command and arguments that run it from `cwd`. */
function runImageCommand(line: readonly string[]): [string, string[]] {
  assert.deepEqual(line.slice(0, 3), ['sh', 'scripts/run-image.sh', IMAGE]);
  return ['sh', [join(ROOT, 'scripts', 'run-image.sh'), ...line.slice(2)]];
}

void test('the image runs `upgrade-operator --version` (its entrypoint, as its user, read-only)', async () => {
  const [[version = []] = []] = documentedBlocks(RUNNING);
  assert.deepEqual(version.slice(3), ['--version']);
  const { stdout } = await run(...runImageCommand(version), { cwd: ROOT });
  assert.equal(stdout.trim(), PACKAGE.version);
  assert.equal(await sizeNow(), built.size, 'running it leaves the image as built');
});

void test(
  'the operator in the image upgrades a simulated cluster: run --rehearsal, paired with simulate --operator external',
  { timeout: 240_000 },
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'image-rehearsal-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    // A folder of the user's own is readable by others; mkdtemp makes it 0700.
    chmodSync(dir, 0o755);
    // The documented commands: apiserver and simulate from this repository, `run` from the image.
    const [apiserver = [], simulate = [], chmod = [], runImage = []] = documentedBlocks(RUNNING)[1] ?? [];
    assert.deepEqual(
      [apiserver, simulate].map((c) => c.slice(0, 2)),
      [
        ['upgrade-operator', 'apiserver'],
        ['upgrade-operator', 'simulate'],
      ],
    );
    const server = await startApiServerProcess(apiserver.slice(1), dir, 'lab.kubeconfig');
    t.after(() => stopProc(server));
    const sim = startBuilt(simulate.slice(1), dir);
    t.after(() => stopProc(sim));
    await waitFor('the rehearsal file', () => existsSync(join(dir, 'rehearsal.json')), sim);
    assert.equal(chmod[0], 'chmod');
    await run('chmod', chmod.slice(1), { cwd: dir });
    assert.deepEqual(runImage.slice(3), ['run', '--rehearsal', 'rehearsal.json']);
    const operator = startProc(...runImageCommand(runImage), dir);
    t.after(() => stopProc(operator));

    const ended = await Promise.race([
      sim.exited,
      operator.exited.then(({ code, signal }) => {
        throw new Error(`run-image.sh exited first (${code ?? signal}):\n${operator.stderr().slice(-4000)}`);
      }),
    ]);
    const out = assertRehearsalAsExpected(t, sim, ended.code, operator);
    const lines = operatorLogLines(operator);
    const starting = lines
      .map((l) => JSON.parse(l) as { msg: string; flows?: string[] })
      .find((l) => l.msg === 'upgrade-operator starting');
    assert.deepEqual(starting?.flows, ['managed']);
    // The process that acted (identity <host>_<pid>) is the image's Node.js 24, as the image's
    // user, on a read-only root filesystem.
    const pid = /"identity":"\S+?_(\d+)"/.exec(operator.stderr())?.[1] ?? '';
    assert.match(out, new RegExp(`Operator \\S+_${pid} holds the Lease`));
    const node = (await run(`/proc/${pid}/exe`, ['--version'])).stdout.trim();
    t.diagnostic(`the operator runs on Node.js ${node} from the image`);
    assert.match(node, /^v24\./);
    const uid = (await imageConfig()).User?.split(':')[0] ?? '';
    assert.match(readFileSync(`/proc/${pid}/status`, 'utf8'), new RegExp(`^Uid:\\s+${uid}\\s+${uid}\\s`, 'm'));
    const rootMount = readFileSync(`/proc/${pid}/mountinfo`, 'utf8')
      .split('\n')
      .map((l) => l.split(' '))
      .filter((f) => f[4] === '/')
      .at(-1);
    assert.match(rootMount?.[5] ?? '', /^ro(,|$)/, `the root mount: ${rootMount?.join(' ')}`);
    // A clean stop (Ctrl-C, which run-image.sh's shell passes on as the terminal would) releases the Lease.
    assert.equal((await stopProc(operator, 'SIGINT')).code, 0);
    assert.match(operator.stderr(), /"msg":"released the lease"/);
    assert.equal(await sizeNow(), built.size, 'running it leaves the image as built');
  },
);
