/**
 * The worker thread behind {@link JqSelector} (`jq-selector.ts`): runs jq programs with jq-wasm,
 * one at a time, and answers with jq's standard output or its error text. The main thread
 * terminates this thread when a program runs too long and starts another.
 *
 * jq-wasm 1.0.1 runs each query through Emscripten's `callMain` and never gives the wasm stack
 * back: every call keeps about 3.4 KiB plus its argument strings on the instance's 1 MiB stack,
 * so one instance traps ("memory access out of bounds", then jq assertion failures) after about
 * 300 queries — the package's own singleton does too. This worker therefore makes its own
 * instances from jq-wasm's Emscripten factory (`dist/build/jq.js`; the package has no `exports`
 * map, so the deep import is allowed), counts what each call leaks, and builds a fresh instance
 * (about 40 ms) before the budget runs out and after any trap. Running jq here also keeps
 * jq-wasm's `process.exitCode` writes (it sets the exit code of every query it runs) out of the
 * main thread.
 */
import { Buffer } from 'node:buffer';
import { parentPort, type MessagePort } from 'node:worker_threads';
import createJq from 'jq-wasm/dist/build/jq.js';

/** A request: jq's filter text and command-line flags (the input is given through the flags). */
export interface JqWorkerRequest {
  id: number;
  filter: string;
  flags: string[];
}

/** The answer to one request. */
export type JqWorkerResponse = { id: number; ok: true; stdout: string } | { id: number; ok: false; error: string };

/** Posted once, when the first jq instance is ready. */
export interface JqWorkerReady {
  ready: true;
}

/** The part of jq-wasm's Emscripten module this worker uses. */
interface JqModule {
  raw(input: string, filter: string, flags: string[]): Promise<string>;
}

/** Bytes of argument strings and call overhead one instance may leak before it is replaced (its stack is 1 MiB). */
export const STACK_BUDGET_BYTES = 640 * 1024;
/** What one call leaks besides its arguments (jq's main frame and friends, measured at ~3.3 KiB). */
const CALL_OVERHEAD_BYTES = 4 * 1024;
/** argv[0], as callMain passes it (set through the factory so that it is short and known). */
const PROGRAM_NAME = 'jq';

const factory = createJq as unknown as (moduleArg: { thisProgram: string }) => Promise<JqModule>;

/** Bytes one call with these arguments leaks: each string UTF-8 + NUL, 16-byte aligned, plus its pointer. */
export function stackCost(flags: readonly string[], filter: string): number {
  let bytes = CALL_OVERHEAD_BYTES;
  // jq-wasm adds `-M` when absent and the file name `/dev/stdin`; callMain adds argv[0].
  for (const arg of [PROGRAM_NAME, '-M', ...flags, filter, '/dev/stdin'])
    bytes += Math.ceil((Buffer.byteLength(arg, 'utf8') + 1) / 16) * 16 + 4;
  return bytes;
}

/** True for a wasm trap or an Emscripten abort: the instance is unusable afterwards. */
function isTrap(err: unknown): boolean {
  return err instanceof Error && (err.name === 'RuntimeError' || err.message.startsWith('Aborted('));
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

let instance: JqModule | undefined;
let leaked = 0;

async function freshInstance(): Promise<JqModule> {
  instance = undefined;
  leaked = 0;
  const created = await factory({ thisProgram: PROGRAM_NAME });
  instance = created;
  return created;
}

async function run(req: JqWorkerRequest): Promise<JqWorkerResponse> {
  const cost = stackCost(req.flags, req.filter);
  if (cost > STACK_BUDGET_BYTES) {
    return {
      id: req.id,
      ok: false,
      error: `the input is too large for jq-wasm (${cost} bytes of arguments; at most ${STACK_BUDGET_BYTES})`,
    };
  }
  for (;;) {
    const jq = instance !== undefined && leaked + cost <= STACK_BUDGET_BYTES ? instance : await freshInstance();
    const firstCall = leaked === 0;
    leaked += cost;
    try {
      return { id: req.id, ok: true, stdout: await jq.raw('', req.filter, req.flags) };
    } catch (err) {
      if (!isTrap(err)) return { id: req.id, ok: false, error: messageOf(err) };
      instance = undefined;
      // A trap on a used instance may be its stack, worn down by earlier calls: retry on a fresh
      // one. On a fresh instance it is the program's own doing (e.g. memory exhausted).
      if (firstCall) return { id: req.id, ok: false, error: `jq-wasm failed: ${messageOf(err)}` };
    }
  }
}

function isRequest(message: unknown): message is JqWorkerRequest {
  if (typeof message !== 'object' || message === null) return false;
  const r = message as Partial<JqWorkerRequest>;
  return typeof r.id === 'number' && typeof r.filter === 'string' && Array.isArray(r.flags);
}

/** Serves requests on the port until the thread is terminated. */
async function serve(port: MessagePort): Promise<void> {
  // Emscripten prints aborts through console.error; the error travels back in the response instead.
  console.error = (): void => undefined;
  let chain: Promise<void> = Promise.resolve();
  port.on('message', (message: unknown) => {
    if (!isRequest(message)) return;
    chain = chain
      .then(async () => run(message))
      .catch((err: unknown): JqWorkerResponse => ({
        id: message.id,
        ok: false,
        error: `jq-wasm failed: ${messageOf(err)}`,
      }))
      .then((response) => port.postMessage(response));
  });
  await freshInstance();
  port.postMessage({ ready: true } satisfies JqWorkerReady);
}

// Imported outside a worker (tests of stackCost), the module only defines things.
if (parentPort !== null) await serve(parentPort);
