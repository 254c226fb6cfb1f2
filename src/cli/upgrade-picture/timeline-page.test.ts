import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cut, escapeHtml, upgradePage } from './timeline-page.js';
import { readUpgradeReport, type UpgradeReport } from './upgrade-report.js';
import { sampleReport } from './report-fixture.test-support.js';

function report(changes: Record<string, unknown> = {}): UpgradeReport {
  const read = readUpgradeReport({ ...sampleReport(), ...changes });
  assert.ok(read.ok);
  return read.report;
}

void test('escapeHtml makes text safe in content and in quoted attributes', () => {
  assert.equal(escapeHtml(`<b a="1" b='2'>&</b>`), '&#60;b a=&#34;1&#34; b=&#39;2&#39;&#62;&#38;&#60;/b&#62;');
  assert.equal(cut('ComputeCapacityReserved', 8), 'Compute…');
  assert.equal(cut('short', 8), 'short');
  assert.equal(cut('x', 0), '');
});

void test('the page is self-contained: a CSP that loads nothing, no URL but the SVG namespace, inline style and script', () => {
  const page = upgradePage(report());
  assert.ok(page.startsWith('<!DOCTYPE html>'));
  assert.ok(page.includes(`content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'"`));
  assert.deepEqual(page.match(/https?:\/\/[^"' )]*/g), ['http://www.w3.org/2000/svg']);
  assert.doesNotMatch(page, /<(link|img|iframe)\b|\bsrc=|@import|url\(/);
  assert.equal(page.match(/<script>/g)?.length, 1);
});

void test('one lane per node, each with hover texts; the same report gives the same page', () => {
  const page = upgradePage(report());
  const lanes = [...page.matchAll(/<g class="lane" data-group="Nodes" data-id="node\/([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(lanes, ['master-0', 'worker-clone-1']);
  assert.ok(page.includes('<title>master-0: reboot (NotReady)\n'));
  assert.ok(page.includes('Upgrade timeline: sample (seed 3)'));
  // The window reaches past the run: what lies after the run is shaded and named.
  assert.ok(page.includes('<text class="afterlabel"') && page.includes('run ended +1h00m00s'));
  assert.ok(page.includes('<span class="ok">as expected</span>'));
  assert.equal(upgradePage(report()), page);
});

void test('text from the report is escaped everywhere: names, messages, summaries', () => {
  const evil = '<script>alert(1)</script>';
  const sample = sampleReport();
  const transitions = (sample['transitions'] as Array<Record<string, unknown>>).map((t) =>
    t['name'] === 'master-0' ? { ...t, name: `m"${evil}`, message: evil } : t,
  );
  const page = upgradePage(report({ transitions, summary: evil, scenario: evil }));
  // The page's own script is the only one.
  assert.equal(page.match(/<script>/g)?.length, 1);
  assert.ok(page.includes('&#60;script&#62;alert(1)&#60;/script&#62;'));
  assert.ok(page.includes('data-name="m&#34;&#60;script&#62;'));
  // The Warning Event's markup is text too.
  assert.ok(page.includes('NodeDrainTimeout: &#60;b&#62;pdb&#60;/b&#62;'));
});

void test('a failed run says FAILED; the operator states are listed in a table', () => {
  const page = upgradePage(report({ ok: false }));
  assert.ok(page.includes('<span class="notok">FAILED</span>'));
  assert.ok(page.includes('<summary>Operator states (4)</summary>'));
  assert.ok(page.includes('<td>WaitingForControlPlane: control plane 50%</td>'));
});
