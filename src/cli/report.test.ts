import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reportCommand } from './commands/report.js';
import { drawReport } from './report.js';
import { sampleReport } from './upgrade-picture/report-fixture.test-support.js';

void test('report draws a saved report into one HTML file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'report-'));
  try {
    writeFileSync(join(dir, 'r.json'), JSON.stringify(sampleReport()));
    await drawReport(join(dir, 'r.json'), join(dir, 'r.html'));
    assert.match(readFileSync(join(dir, 'r.html'), 'utf8'), /^<!DOCTYPE html>[\s\S]*<svg id="timeline"/);
    assert.ok(!existsSync(join(dir, 'r.html.partial')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('report refuses what it cannot draw with one line naming the file and the problem, and writes nothing', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'report-'));
  const out = join(dir, 'x.html');
  try {
    await assert.rejects(drawReport(join(dir, 'nope.json'), out), /^Error: cannot read .*nope\.json: ENOENT/);
    writeFileSync(join(dir, 'text.json'), 'Scenario managed-osd-upgrade (seed 1)');
    await assert.rejects(drawReport(join(dir, 'text.json'), out), /text\.json is not JSON: /);
    writeFileSync(join(dir, 'list.json'), JSON.stringify({ scenarios: [] }));
    await assert.rejects(
      drawReport(join(dir, 'list.json'), out),
      /list\.json: not a report of `upgrade-operator simulate -o json`: it has no "transitions" array and "final" object/,
    );
    assert.ok(!existsSync(out));
    // --html is required.
    const command = reportCommand()
      .exitOverride()
      .configureOutput({ writeErr: () => undefined });
    await assert.rejects(
      command.parseAsync([join(dir, 'list.json')], { from: 'user' }),
      /required option '--html <file>'/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
