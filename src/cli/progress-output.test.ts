import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stripVTControlCharacters } from 'node:util';
import type { LiveView } from './live-view.js';
import { PLAIN_LINE_WIDTH, progressMode, progressOutput, useColor, type ProgressStream } from './progress-output.js';

function stream(isTTY: boolean, columns?: number): ProgressStream & { text(): string } {
  const writes: string[] = [];
  return {
    isTTY,
    ...(columns !== undefined ? { columns } : {}),
    write: (chunk: string) => writes.push(chunk) > 0,
    text: () => writes.join(''),
  };
}

const VIEW: LiveView = {
  title: 'Scenario s',
  clock: 'virtual +00:00:01 · wall 0.1 s',
  operator: 'Upgrading · step',
  attention: false,
  controlPlane: { label: 'control plane', done: 1, total: 2, detail: '', eta: '', complete: false },
  pools: [],
  warning: '',
};

void test('--progress auto: a live view on a terminal, a log elsewhere; colour only on a terminal without NO_COLOR', () => {
  assert.equal(progressMode('auto', true), 'tty');
  assert.equal(progressMode('auto', false), 'plain');
  assert.equal(progressMode('plain', true), 'plain');
  assert.equal(progressMode('none', true), 'none');
  assert.equal(useColor('tty', {}), true);
  assert.equal(useColor('tty', { NO_COLOR: '1' }), false);
  assert.equal(useColor('plain', {}), false);
});

void test('plain: the log lines only, cut to 160 characters (to the terminal when forced on one); the view is not drawn', () => {
  const out = stream(false);
  const output = progressOutput({ mode: 'plain', stream: out, color: false, wallNow: () => 0 });
  output.view(() => VIEW);
  output.log(['a', 'x'.repeat(300)]);
  output.finish();
  output.result(['done']);
  const lines = out.text().split('\n');
  assert.deepEqual(
    lines.map((l) => l.length),
    [1, PLAIN_LINE_WIDTH, 4, 0],
  );
  const narrow = stream(true, 40);
  progressOutput({ mode: 'plain', stream: narrow, color: false, wallNow: () => 0 }).log(['y'.repeat(100)]);
  assert.equal(narrow.text(), `${'y'.repeat(38)}…\n`);
});

void test('none: nothing but the result', () => {
  const out = stream(true, 80);
  const output = progressOutput({ mode: 'none', stream: out, color: false, wallNow: () => 0 });
  output.log(['a']);
  output.view(() => VIEW);
  output.finish();
  output.result(['as expected']);
  assert.equal(out.text(), 'as expected\n');
});

void test('tty: log lines above the view, which is redrawn in place; after finish the view stays, is not redrawn, and lines go below it', async () => {
  const out = stream(true, 60);
  const output = progressOutput({ mode: 'tty', stream: out, color: false, wallNow: () => performance.now() });
  output.view(() => VIEW);
  await new Promise((resolve) => setTimeout(resolve, 150));
  output.log(['[+00:00:01] started']);
  output.finish();
  const finished = out.text();
  output.view(() => ({ ...VIEW, operator: 'later' }));
  output.log(['late']);
  await new Promise((resolve) => setTimeout(resolve, 150));
  assert.equal(out.text(), `${finished}late\n`, 'no redraw after finish; a line goes below');
  const shown = stripVTControlCharacters(finished);
  assert.ok(shown.includes('[+00:00:01] started\n'), shown);
  assert.ok(shown.includes('control plane  ████████████░░░░░░░░░░░░  50%  1/2'), shown);
  // log-update erases the lines it drew before drawing again.
  assert.ok(finished.includes('\x1b[2K'), JSON.stringify(finished));
  output.result(['as expected: fine']);
  assert.ok(out.text().endsWith('as expected: fine\n'));
});
