/**
 * The hostile-input campaign, long (src/apiserver/hostile-input.test.ts runs 800 requests in the
 * suite): seeded random requests to the embedded API server, in this process — any method, path,
 * query, media type and body, then creates of objects of every served kind with random fields.
 * The target: every answer explains itself (a 2xx, a 4xx Status with a message, or Go's plain
 * 400), not one 5xx, no answer slower than a second (nothing a client sends pins the server),
 * and the server still answers at the end.
 */
import fc from 'fast-check';
import {
  hostileObject,
  hostileRequest,
  startHostileTarget,
  unexplained,
  type HostileRequest,
  type HostileTarget,
} from '../../src/apiserver/hostile-input.test-support.js';
import type { BenchResult } from './result.js';
import { summarize } from './stats.js';

const REQUESTS = 100_000;
const OBJECTS = 20_000;
const SEED = 15;
/** No answer may take longer than this: a slower one means some input makes the server spin. */
const SLOWEST_MS = 1000;

interface Tally {
  latencies: number[];
  byClass: Map<string, number>;
  problems: string[];
}

async function sendAll(target: HostileTarget, requests: readonly HostileRequest[], tally: Tally): Promise<void> {
  for (const request of requests) {
    const started = performance.now();
    const reply = await target.send(request);
    tally.latencies.push(performance.now() - started);
    const statusClass = `${Math.floor(reply.status / 100)}xx`;
    tally.byClass.set(statusClass, (tally.byClass.get(statusClass) ?? 0) + 1);
    const problem = unexplained(request, reply);
    if (problem !== undefined) tally.problems.push(problem);
  }
}

/** Sends the campaign's requests and judges the answers. */
export async function runHostileInputBench(log: (line: string) => void): Promise<BenchResult> {
  const target = await startHostileTarget();
  const tally: Tally = { latencies: [], byClass: new Map(), problems: [] };
  let stillAnswers: boolean;
  try {
    await sendAll(target, fc.sample(hostileRequest, { numRuns: REQUESTS, seed: SEED }), tally);
    log(`hostile input: ${REQUESTS} random requests sent`);
    await sendAll(target, fc.sample(hostileObject(target.collections), { numRuns: OBJECTS, seed: SEED }), tally);
    log(`hostile input: ${OBJECTS} random objects of ${target.collections.length} kinds sent`);
    stillAnswers = (await target.send({ method: 'GET', path: '/version', headers: {} })).status === 200;
  } finally {
    await target.server.close();
  }
  const latency = summarize(tally.latencies);
  const fiveHundreds = tally.byClass.get('5xx') ?? 0;
  const pass = tally.problems.length === 0 && fiveHundreds === 0 && latency.max <= SLOWEST_MS && stillAnswers;
  return {
    id: 'hostile-input',
    title: 'Hostile input: random requests and objects to the API server',
    method: `${REQUESTS.toLocaleString('en')} seeded random requests (any method; paths with percent-escapes, dots and NULs; any of the list and write parameters with bad values; ten media types; bodies of random JSON, random bytes or brackets nested up to 3,000 deep), then ${OBJECTS.toLocaleString('en')} creates of objects of every served kind (${target.collections.length}) with random top-level fields, one after another against the embedded API server in this process (seed ${SEED}; \`src/apiserver/hostile-input.test-support.ts\`).`,
    target: `every answer explains itself, no 5xx, none slower than ${SLOWEST_MS} ms, the server still answers`,
    result: `${tally.problems.length} unexplained, ${fiveHundreds} 5xx, slowest ${latency.max.toFixed(1)} ms${stillAnswers ? '' : ', the server no longer answers'}`,
    pass,
    measurements: [
      {
        label: 'answers by class',
        value: [...tally.byClass.entries()]
          .sort()
          .map(([statusClass, n]) => `${statusClass} ${n}`)
          .join(', '),
      },
      {
        label: 'answer time (median, p95, max)',
        value: `${latency.median.toFixed(2)} ms, ${latency.p95.toFixed(2)} ms, ${latency.max.toFixed(1)} ms`,
      },
    ],
    memory: [],
    notes: tally.problems.slice(0, 10),
  };
}
