/**
 * NodeForceDrain's `podJQSelector` (docs/design/scheduled-flow.md#force-drain): runs a jq program
 * on a pod and says whether the pod is a candidate. The pod is a candidate iff the program emits a
 * boolean `true`; other outputs are ignored; an error or `halt` ends the program, and a `true`
 * emitted before that still counts. A compile error is reported as such (the controller then treats
 * the whole NodeForceDrain as invalid).
 *
 * Why jq-wasm: it is the real jq (1.7.1) compiled to WebAssembly, kept by one of jq's
 * maintainers, so programs behave as jq's documentation says. APPUiO used gojq; the differences
 * that matter for a selector are listed in the report for docs/compatibility.md (key order of
 * objects, arbitrary-precision integers, regex engine, a few builtins each side lacks).
 *
 * jq-wasm runs synchronously in the calling thread, and a program may never end (`repeat(1)`,
 * `def f: f; f`). So the programs run in a `worker_threads` Worker (`jq-selector-worker.ts`); a
 * program still running after the timeout (5 s, as APPUiO's) has its worker terminated and the
 * next call starts a new one. The timeout is measured in real time on purpose: it protects the
 * process (its event loop and CPU), not the virtual schedule, so it never uses the injected Clock.
 *
 * How the pod gets in: as `--argjson` with `-n` (jq-wasm feeds stdin byte by byte, quadratic in
 * the input size: 26 ms for an 8 KiB pod against 3 ms this way), the program wrapped (see
 * {@link selectorFilter}) with the program text still starting on line 1, so jq's line numbers
 * in errors are the user's. jq-wasm has no separate compile step, so "compile once" is a compile
 * check cached per program text: the wrapped program inside `if false then … else empty end`,
 * which jq compiles fully and never runs. What the wrapper shows a program: a variable
 * `$__upgrade_operator_pod`, `input_filename` null, and a program with an unbalanced `)` may
 * compile where plain jq would not; none of this changes what a sane selector means.
 *
 * Memory: jq-wasm's heap is wasm memory, outside V8's limits; a program that allocates without
 * bound (`[range(1e9)]`) grows it to a few hundred MiB until jq-wasm aborts or the timeout ends it.
 */
import { extname } from 'node:path';
import { Worker } from 'node:worker_threads';
import { RealClock } from '../lib/clock.js';
import { errorMessage } from '../lib/errors.js';
import { formatGoDurationMs } from '../lib/go-duration.js';
import type { JsonValue } from '../lib/json.js';
import type { JqWorkerRequest, JqWorkerResponse } from './jq-selector-worker.js';

/** APPUiO's timeout for one evaluation. */
export const JQ_SELECTOR_TIMEOUT_MS = 5_000;
/** The variable that holds the pod inside the wrapped program. */
export const POD_VARIABLE = '__upgrade_operator_pod';
/** Compile outcomes remembered (per program text). */
const COMPILE_CACHE_SIZE = 64;

/** Outcome of one evaluation; `error` is set when jq failed before emitting `true`, or timed out. */
export interface JqMatch {
  matched: boolean;
  error?: string;
}

/** Outcome of a compile check; `compileError` false means jq could not be run (timeout, worker failure). */
export type JqCompileResult = { ok: true } | { ok: false; error: string; compileError: boolean };

/** What the NodeForceDrain controller needs of a jq evaluator. */
export interface PodJqSelector {
  /** Checks that a program compiles (cached per program text). */
  compile(program: string): Promise<JqCompileResult>;
  /** Runs a program on one input. */
  matches(program: string, input: JsonValue): Promise<JqMatch>;
}

export interface JqSelectorOptions {
  /** Real-time limit of one evaluation, default {@link JQ_SELECTOR_TIMEOUT_MS}. */
  timeoutMs?: number;
}

/** Label that ends the wrapped program at the first `true`. */
const FIRST_TRUE_LABEL = '__upgrade_operator_first_true';

/**
 * The program as run on a pod: stops at the first `true` (so a `true` counts even when the
 * program would go on forever or fail later, as in APPUiO, which stops reading at the first
 * `true`) and prints nothing else.
 */
export function selectorFilter(program: string): string {
  // The blank line ends a trailing comment even when it ends in a backslash (jq 1.7.1 continues those).
  return `$${POD_VARIABLE} | label $${FIRST_TRUE_LABEL} | (${program}\n\n) | select(. == true) | ., break $${FIRST_TRUE_LABEL}`;
}

/** The program as compiled but never run. */
export function compileCheckFilter(program: string): string {
  return `if false then (${selectorFilter(program)}) else empty end`;
}

/** True when one of jq's outputs (compact, one per line) is the boolean `true`. */
export function emitsTrue(stdout: string): boolean {
  return stdout.split('\n').some((line) => line.trim() === 'true');
}

/**
 * jq's error text made readable: for compile errors the `jq: error: ` lines without the echoed
 * source (which shows our wrapper) and without the shell-quoting hint; for runtime errors the
 * message without the `jq: error (at <unknown>): ` prefix. `halt_error` texts stay as they are.
 */
export function describeJqError(text: string): { message: string; compileError: boolean } {
  const lines = text.split('\n');
  const compileError = lines.some((l) => /^jq: \d+ compile errors?$/.test(l.trim()));
  if (compileError) {
    const errors = lines
      .filter((l) => l.startsWith('jq: error: '))
      .map((l) => l.slice('jq: error: '.length).replace(' (Unix shell quoting issues?)', '').replace(/:$/, '').trim());
    return { message: errors.length > 0 ? errors.join('; ') : text.trim(), compileError };
  }
  const runtime = /^jq: error \(at [^)]*\)(?: \(not a string\))?: ?/.exec(text);
  return { message: runtime ? text.slice(runtime[0].length).trim() || text.trim() : text.trim(), compileError };
}

type RunResult = { ok: true; stdout: string } | { ok: false; error: string; ran: boolean };

interface RunningWorker {
  worker: Worker;
  ready: Promise<void>;
}

/** Node 20 does not run the parent's `--import tsx` in workers: from sources, load the TS entry through tsx's API. */
const TSX_BOOTSTRAP = `const { workerData } = require('node:worker_threads');
import(workerData.tsx).then((m) => m.tsImport(workerData.entry, workerData.entry));`;

function spawnWorker(): Worker {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    // Running from TypeScript sources (tests, `simulate` under tsx); tsx is there by definition.
    const entry = new URL('./jq-selector-worker.ts', here).href;
    return new Worker(TSX_BOOTSTRAP, { eval: true, workerData: { tsx: import.meta.resolve('tsx/esm/api'), entry } });
  }
  // Next to this module, with its extension: `.js` in tsc's output, `.mjs` in the bundle (dist/).
  return new Worker(new URL(`./jq-selector-worker${extname(new URL(here).pathname)}`, here));
}

function isResponse(message: unknown): message is JqWorkerResponse {
  return (
    typeof message === 'object' &&
    message !== null &&
    typeof (message as { id?: unknown }).id === 'number' &&
    typeof (message as { ok?: unknown }).ok === 'boolean'
  );
}

function isReady(message: unknown): boolean {
  return typeof message === 'object' && message !== null && (message as { ready?: unknown }).ready === true;
}

/** Evaluates jq programs in a worker thread, one at a time, each with a real-time limit. */
export class JqSelector implements PodJqSelector {
  readonly #timeoutMs: number;
  /** Real time, on purpose (see the module comment). */
  readonly #clock = new RealClock();
  readonly #compiled = new Map<string, JqCompileResult>();
  #current: RunningWorker | undefined;
  #tail: Promise<unknown> = Promise.resolve();
  #nextId = 1;
  #closed = false;

  constructor(options: JqSelectorOptions = {}) {
    this.#timeoutMs = options.timeoutMs ?? JQ_SELECTOR_TIMEOUT_MS;
  }

  /** Checks that a program compiles; compile errors (not failures to run jq) are cached per program text. */
  async compile(program: string): Promise<JqCompileResult> {
    const cached = this.#compiled.get(program);
    if (cached) return cached;
    const r = await this.#run(compileCheckFilter(program), ['-n', '-c', '--argjson', POD_VARIABLE, 'null']);
    if (!r.ok && !r.ran) return { ok: false, error: r.error, compileError: false };
    const d = r.ok ? undefined : describeJqError(r.error);
    if (d && !d.compileError) return { ok: false, error: d.message, compileError: false };
    const result: JqCompileResult = d
      ? { ok: false, error: await this.#syntaxErrorOfRawProgram(program, d.message), compileError: true }
      : { ok: true };
    this.#remember(program, result);
    return result;
  }

  /**
   * A syntax error at the end of a program shows up at the wrapper's closing parenthesis. The
   * program alone then gives jq's own message: it fails to compile too (unless only the wrapper
   * made it invalid, e.g. a program of definitions only; then it runs once on null, bounded by the
   * timeout, and the wrapped message stays).
   */
  async #syntaxErrorOfRawProgram(program: string, wrappedMessage: string): Promise<string> {
    if (!wrappedMessage.includes('syntax error')) return wrappedMessage;
    const raw = await this.#run(program, ['-n', '-c']);
    if (raw.ok || !raw.ran) return wrappedMessage;
    const d = describeJqError(raw.error);
    return d.compileError ? d.message : wrappedMessage;
  }

  /** Runs `program` on `input`: matched iff it emitted `true` before it ended, failed or timed out. */
  async matches(program: string, input: JsonValue): Promise<JqMatch> {
    const cached = this.#compiled.get(program);
    if (cached && !cached.ok) return { matched: false, error: cached.error };
    const r = await this.#run(selectorFilter(program), ['-n', '-c', '--argjson', POD_VARIABLE, JSON.stringify(input)]);
    if (r.ok) return { matched: emitsTrue(r.stdout) };
    if (!r.ran) return { matched: false, error: r.error };
    const d = describeJqError(r.error);
    if (!d.compileError) return { matched: false, error: d.message };
    const compiled = await this.compile(program);
    return { matched: false, error: compiled.ok ? d.message : compiled.error };
  }

  /** Stops the worker; calls in flight and later calls answer with an error. */
  async close(): Promise<void> {
    this.#closed = true;
    const current = this.#current;
    this.#current = undefined;
    if (current) await current.worker.terminate();
    await this.#tail;
  }

  #remember(program: string, result: JqCompileResult): void {
    this.#compiled.delete(program);
    this.#compiled.set(program, result);
    if (this.#compiled.size > COMPILE_CACHE_SIZE) {
      const oldest = this.#compiled.keys().next();
      if (!oldest.done) this.#compiled.delete(oldest.value);
    }
  }

  /** Runs one request after the ones before it. */
  #run(filter: string, flags: string[]): Promise<RunResult> {
    const result = this.#tail.then(() => this.#runNow(filter, flags));
    this.#tail = result.catch(() => undefined);
    return result;
  }

  async #runNow(filter: string, flags: string[]): Promise<RunResult> {
    if (this.#closed) return { ok: false, error: 'the jq selector is closed', ran: false };
    let running: RunningWorker;
    try {
      running = this.#ensureWorker();
      await running.ready;
    } catch (err) {
      return { ok: false, error: `the jq worker did not start: ${errorMessage(err)}`, ran: false };
    }
    const id = this.#nextId++;
    const { worker } = running;
    return new Promise<RunResult>((resolve) => {
      const finish = (runResult: RunResult): void => {
        timer.cancel();
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        worker.unref();
        resolve(runResult);
      };
      const onMessage = (match: unknown): void => {
        if (isResponse(match) && match.id === id)
          finish(match.ok ? { ok: true, stdout: match.stdout } : { ok: false, error: match.error, ran: true });
      };
      const onError = (err: Error): void =>
        finish({ ok: false, error: `the jq worker failed: ${err.message}`, ran: false });
      const onExit = (code: number): void =>
        finish({ ok: false, error: `the jq worker stopped (exit code ${code})`, ran: false });
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.ref();
      // finish() runs only from worker events or this timer, all after this line.
      const timer = this.#clock.setTimer(this.#timeoutMs, () => {
        this.#discard(running);
        finish({
          ok: false,
          error: `the jq program did not finish within ${formatGoDurationMs(this.#timeoutMs)}`,
          ran: false,
        });
      });
      worker.postMessage({ id, filter, flags } satisfies JqWorkerRequest);
    });
  }

  #ensureWorker(): RunningWorker {
    if (this.#current) return this.#current;
    const worker = spawnWorker();
    const ready = new Promise<void>((resolve, reject) => {
      const cleanup = (): void => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      const onMessage = (match: unknown): void => {
        if (!isReady(match)) return;
        cleanup();
        // Idle workers do not keep the process alive; a request in flight does (ref/unref in #runNow).
        worker.unref();
        resolve();
      };
      const onError = (err: Error): void => {
        cleanup();
        reject(err);
      };
      const onExit = (code: number): void => {
        cleanup();
        reject(new Error(`exit code ${code}`));
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
    });
    const running: RunningWorker = { worker, ready };
    // A worker that fails or stops is never used again; these listeners also keep an 'error' from being unhandled.
    worker.on('error', () => this.#discard(running));
    worker.on('exit', () => this.#discard(running));
    ready.catch(() => this.#discard(running));
    this.#current = running;
    return running;
  }

  #discard(running: RunningWorker): void {
    if (this.#current === running) this.#current = undefined;
    void running.worker.terminate();
  }
}
