/**
 * The picture of an upgrade (docs/simulation.md#the-picture---html), end to end: the real binary
 * writes it (`simulate --html`, `report --html` of the saved `-o json` report) and a real browser,
 * headless Chromium, loads it with the network off: the page renders (a screenshot of the right
 * size with something on it), the SVG has one lane per node of the run, and the page writes
 * nothing to its console. With UPDATE_DOCS_SCREENSHOT=1 the test also stores the screenshot of
 * the named OSD scenario as docs/upgrade-timeline.png, which the README shows.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt, spawnBuilt, type BinaryResult } from '../../src/cli/binary.test-support.js';
import type { Transition, FinalObjects } from '../../src/sim/recorder/cluster-recorder.js';
import { colourStats, decodePng, viewInChromium } from './chromium.test-support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WIDTH = 1440;
const HEIGHT = 1200;

/** Runs the installed `upgrade-operator <args>` (built first when stale), which starts much faster than through tsx. */
async function upgradeOperator(args: readonly string[], cwd: string): Promise<BinaryResult> {
  await ensureBuilt();
  const child = spawnBuilt(args, { cwd });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => void (stdout += c.toString()));
  child.stderr?.on('data', (c: Buffer) => void (stderr += c.toString()));
  const status = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  return { status, stdout, stderr };
}

/** The Node names of a report: those at the end and those created or deleted during the run. */
function nodesOf(report: { transitions: Transition[]; final: FinalObjects }): string[] {
  const names = new Set(report.final.nodes.map((n) => n.metadata?.name ?? ''));
  for (const t of report.transitions) if (t.kind === 'Node') names.add(t.name);
  return [...names].sort();
}

/** The node lanes of a page's DOM, by name. */
function nodeLanes(dom: string): string[] {
  return [...dom.matchAll(/<g class="lane" data-group="Nodes" data-id="node\/([^"]+)"/g)].map((m) => m[1] ?? '').sort();
}

void test('simulate --html and report --html draw the managed OSD upgrade; Chromium renders it: one lane per node, no console message', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'upgrade-picture-'));
  try {
    // The forms docs/simulation.md and the README show, as written, in a directory of their own.
    // `upgrade-operator simulate --scenario managed-osd-upgrade -o json --html upgrade.html > report.json`
    const sim = await upgradeOperator(
      ['simulate', '--scenario', 'managed-osd-upgrade', '-o', 'json', '--html', 'upgrade.html'],
      dir,
    );
    assert.equal(sim.status, 0, sim.stderr);
    assert.match(sim.stderr, /Timeline picture written to upgrade\.html\./);
    writeFileSync(join(dir, 'report.json'), sim.stdout);
    const rep = await upgradeOperator(['report', '--html', 'again.html', 'report.json'], dir);
    assert.equal(rep.status, 0, rep.stderr);
    assert.equal(rep.stdout, 'Timeline of report.json written to again.html.\n');
    const page = readFileSync(join(dir, 'upgrade.html'), 'utf8');
    // The page of a saved report is the page the run wrote.
    assert.equal(readFileSync(join(dir, 'again.html'), 'utf8'), page);

    const report = JSON.parse(sim.stdout) as { transitions: Transition[]; final: FinalObjects; windows: unknown[] };
    const nodes = nodesOf(report);
    // Three masters, three workers and the three capacity clones the operator created and removed.
    assert.equal(nodes.length, 9, nodes.join(', '));
    assert.equal(report.windows.length, 1);

    const view = await viewInChromium(join(dir, 'upgrade.html'), WIDTH, HEIGHT);
    assert.deepEqual(view.console, [], 'the page writes nothing to the console (no error, no blocked load)');
    assert.deepEqual(nodeLanes(view.dom), nodes);
    assert.match(view.dom, /<svg id="timeline"/);
    // What the hover shows, exact times included, is in the page.
    assert.match(view.dom, /<title>ip-10-0-20-200\.ec2\.internal: reboot \(NotReady\)\n2026-03-02T01:35:58\.058Z/);
    assert.match(view.dom, /<title>waiting: WaitingForControlPlane\n/);
    const picture = decodePng(view.png);
    assert.deepEqual([picture.width, picture.height], [WIDTH, HEIGHT]);
    const stats = colourStats(picture);
    assert.ok(stats.colours > 20, `only ${stats.colours} colours`);
    assert.ok(stats.inked > 0.1, `only ${(stats.inked * 100).toFixed(1)} % of the screenshot is not white`);
    if (process.env['UPDATE_DOCS_SCREENSHOT'] === '1') {
      writeFileSync(join(dir, 'shot.png'), view.png);
      copyFileSync(join(dir, 'shot.png'), join(ROOT, 'docs', 'upgrade-timeline.png'));
    }
    // The screenshot in docs/ is one of this page at this size.
    const shipped = decodePng(readFileSync(join(ROOT, 'docs', 'upgrade-timeline.png')));
    assert.deepEqual([shipped.width, shipped.height], [WIDTH, HEIGHT]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('a run stopped by --until is drawn too; the browser check sees a page that errs', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'upgrade-picture-'));
  try {
    const sim = await upgradeOperator(
      ['simulate', '--scenario', 'managed-osd-upgrade', '--until', '20m', '--html', 'upgrade.html'],
      dir,
    );
    assert.equal(sim.status, 0, sim.stderr);
    assert.match(sim.stdout, /Timeline picture written to upgrade\.html\.\n/);
    const view = await viewInChromium(join(dir, 'upgrade.html'), 1024, 700);
    assert.deepEqual(view.console, []);
    // Six nodes at the start, the clones as they were created in the first 20 minutes.
    assert.ok(nodeLanes(view.dom).length >= 6, nodeLanes(view.dom).join(', '));
    assert.deepEqual([decodePng(view.png).width, decodePng(view.png).height], [1024, 700]);

    // The console check is no formality: a script error and a blocked load are both caught.
    const bad = join(dir, 'bad.html');
    writeFileSync(
      bad,
      `<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'"></head><body><img src="http://127.0.0.1:9/x.png"><script>missing();</script></body></html>`,
    );
    const erring = await viewInChromium(bad, 400, 300);
    assert.equal(erring.console.length, 2, erring.console.join('\n'));
    assert.ok(erring.console.some((l) => l.includes('missing is not defined')));
    assert.ok(erring.console.some((l) => l.includes('Content Security Policy')));
    // And a blank page (a broken image's icon at most) is told from a drawn one.
    assert.ok(colourStats(decodePng(erring.png)).inked < 0.01);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('report refuses a file that is no simulate report with one line', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'upgrade-picture-'));
  try {
    writeFileSync(join(dir, 'list.json'), JSON.stringify({ scenarios: [] }));
    const list = await upgradeOperator(['report', '--html', 'x.html', 'list.json'], dir);
    assert.equal(list.status, 1);
    assert.match(
      list.stderr,
      /^upgrade-operator: .*list\.json: not a report of `upgrade-operator simulate -o json`[^\n]*\n$/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
