/**
 * A small request/response protocol over a forked child's IPC channel, so that the benchmark
 * runner can drive the API-server process and the informer process. The child answers each
 * request by id; the parent bounds every call with a timeout and kills the child on close.
 */
import { fork, type ChildProcess } from 'node:child_process';

interface RpcRequest {
  id: number;
  method: string;
  params: unknown;
}

interface RpcResponse {
  id: number;
  ok: boolean;
  result?: unknown;
  error?: string;
}

/** Handlers a child serves: method name → async function of the params. */
export type RpcHandlers = Record<string, (params: unknown) => Promise<unknown>>;

/** Child side: answers requests from the parent; exits when the parent goes away. */
export function serveRpc(handlers: RpcHandlers): void {
  const send = process.send?.bind(process);
  if (!send) throw new Error('serveRpc: this process was not started with an IPC channel');
  process.on('message', (raw: RpcRequest) => {
    const handler = handlers[raw.method];
    const reply = (r: RpcResponse): void => {
      send(r);
    };
    if (!handler) {
      reply({ id: raw.id, ok: false, error: `unknown method ${raw.method}` });
      return;
    }
    handler(raw.params).then(
      (result) => reply({ id: raw.id, ok: true, result }),
      (err: unknown) =>
        reply({ id: raw.id, ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
    );
  });
  process.on('disconnect', () => process.exit(0));
}

export interface SpawnOptions {
  /** Node flags, e.g. ['--expose-gc']. */
  execArgv?: string[];
  args?: string[];
  /** Default timeout of a call (default 60 s). */
  timeoutMs?: number;
}

/** Parent side: one forked child and its calls. */
export class RpcChild {
  readonly #child: ChildProcess;
  readonly #pending = new Map<
    number,
    { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }
  >();
  readonly #timeoutMs: number;
  #nextId = 1;
  #exited: Promise<void>;
  #exitError: Error | undefined;

  constructor(modulePath: string, options: SpawnOptions = {}) {
    this.#timeoutMs = options.timeoutMs ?? 60_000;
    this.#child = fork(modulePath, options.args ?? [], {
      execArgv: options.execArgv ?? [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.#child.on('message', (m: RpcResponse) => {
      const p = this.#pending.get(m.id);
      if (!p) return;
      this.#pending.delete(m.id);
      clearTimeout(p.timer);
      if (m.ok) p.resolve(m.result);
      else p.reject(new Error(`child ${modulePath}: ${m.error ?? 'failed'}`));
    });
    this.#exited = new Promise((resolve) => {
      this.#child.once('exit', (code, signal) => {
        this.#exitError = new Error(`child ${modulePath} exited (code ${code ?? 'none'}, signal ${signal ?? 'none'})`);
        for (const p of this.#pending.values()) {
          clearTimeout(p.timer);
          p.reject(this.#exitError);
        }
        this.#pending.clear();
        resolve();
      });
    });
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** Calls a method of the child; rejects on error, exit or timeout. */
  call<T>(method: string, params: unknown = {}, timeoutMs = this.#timeoutMs): Promise<T> {
    if (this.#exitError) return Promise.reject(this.#exitError);
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`${method}: no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      this.#child.send({ id, method, params } satisfies RpcRequest);
    });
  }

  /** Ends the child (SIGTERM, then SIGKILL after 5 s) and waits for it. */
  async close(): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return;
    this.#child.kill('SIGTERM');
    const killer = setTimeout(() => this.#child.kill('SIGKILL'), 5_000);
    await this.#exited;
    clearTimeout(killer);
  }

  /** Kills the child at once (process exit path; synchronous). */
  killNow(): void {
    if (this.#child.exitCode === null && this.#child.signalCode === null) this.#child.kill('SIGKILL');
  }
}
