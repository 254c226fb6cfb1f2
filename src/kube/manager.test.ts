import { test } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger } from '../lib/log.js';
import { eventually, fakeApiFixture, testRandom } from './test-helpers.test-support.js';
import { Manager, type Runnable } from './manager.js';

/** A runnable that records its runs and holds until its signal aborts. */
function recorder(name: string, log: string[]): Runnable {
  return {
    name,
    start: (signal) =>
      new Promise<void>((resolve) => {
        log.push(`${name} started`);
        signal.addEventListener(
          'abort',
          () => {
            log.push(`${name} stopped`);
            resolve();
          },
          { once: true },
        );
      }),
  };
}

void test('a runnable runs only while its manager leads, and stops with it', async (t) => {
  const { clock, client } = await fakeApiFixture(t);
  const log: string[] = [];
  const make = (id: string): Manager =>
    new Manager({
      client,
      clock,
      logger: silentLogger(),
      random: testRandom(),
      leaderElection: { namespace: 'ns', name: 'runnable-lock', identity: id },
    }).add(recorder(`loop-${id}`, log));
  const a = make('a');
  const b = make('b');
  const runA = a.start();
  await eventually(() => log.includes('loop-a started'), { clock, stepMs: 200 });
  const runB = b.start();
  await clock.advance(20_000);
  assert.deepEqual(log, ['loop-a started'], 'the standby does not run its loop');
  a.stop();
  await runA;
  assert.ok(log.includes('loop-a stopped'));
  await eventually(() => log.includes('loop-b started'), { clock, stepMs: 200 });
  b.stop();
  await runB;
  assert.deepEqual(log, ['loop-a started', 'loop-a stopped', 'loop-b started', 'loop-b stopped']);
});

void test('without leader election a runnable runs at once; nothing can be added after start', async (t) => {
  const { clock, client } = await fakeApiFixture(t);
  const log: string[] = [];
  const m = new Manager({ client, clock, logger: silentLogger(), random: testRandom() }).add(recorder('loop', log));
  const run = m.start();
  await eventually(() => log.includes('loop started'));
  assert.throws(() => m.add(recorder('late', log)), /before start/);
  m.stop();
  await run;
  assert.deepEqual(log, ['loop started', 'loop stopped']);
});
