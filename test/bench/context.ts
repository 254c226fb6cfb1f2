/** What every benchmark gets from the runner. */
import type { RpcChild } from './rpc.js';
import type { ProcessMemory } from './memory.js';

export interface BenchContext {
  /** Base URL of the API server (http://127.0.0.1:port). */
  url: string;
  /** The API-server process. */
  server: RpcChild;
  /** A kubeconfig for the server. */
  kubeconfigPath: string;
  /** Where the compiled child entry points are (…/test/bench/*.js). */
  compiledBenchDir: string;
  /** Node flags for child processes (--expose-gc, and --cpu-prof when asked). */
  childFlags: string[];
  /** Progress output. */
  log: (line: string) => void;
}

/** Memory of the API-server process (after a full GC when asked). */
export function serverMemory(ctx: BenchContext, gc = false): Promise<ProcessMemory> {
  return ctx.server.call<ProcessMemory>('memory', { gc });
}

/** CPU time of the API-server process so far (µs of user and system time). */
export function serverCpu(ctx: BenchContext): Promise<NodeJS.CpuUsage> {
  return ctx.server.call<NodeJS.CpuUsage>('cpu');
}

/** "user 1.2 s + system 0.4 s = 85 % of one core" for the CPU used between two readings over a wall-clock span. */
export function describeCpu(before: NodeJS.CpuUsage, after: NodeJS.CpuUsage, wallMs: number): string {
  const user = (after.user - before.user) / 1e6;
  const system = (after.system - before.system) / 1e6;
  return `user ${user.toFixed(1)} s + system ${system.toFixed(1)} s = ${Math.round(((user + system) * 1000 * 100) / wallMs)} % of one core`;
}
