/**
 * The API client of the commands that read a cluster for a user (`status`, `must-gather`,
 * `snapshot`): the kubeconfig loaded as `run` loads it (explicit file, `$KUBECONFIG`,
 * `~/.kube/config`, in-cluster; a context other than the current one), named after the command
 * in its field manager and User-Agent, reads retried twice.
 */
import { defaultUserAgent, KubeClient } from '../kube/client.js';
import { loadRestConfig } from '../kube/kubeconfig.js';
import type { Clock } from '../lib/clock.js';
import { silentLogger } from '../lib/log.js';
import { version } from './version.js';

/** Options of {@link readingClient}. */
export interface ReadingClientOptions {
  /** The command, e.g. `status`: field manager and User-Agent `upgrade-operator-<command>`. */
  command: string;
  kubeconfig?: string | undefined;
  context?: string | undefined;
  /** Per-request limit (the client's default otherwise). */
  requestTimeoutMs?: number;
}

/** The client. */
export function readingClient(clock: Clock, options: ReadingClientOptions): KubeClient {
  const config = loadRestConfig({
    clock,
    ...(options.kubeconfig ? { kubeconfig: options.kubeconfig } : {}),
    ...(options.context ? { context: options.context } : {}),
  });
  const name = `upgrade-operator-${options.command}`;
  return new KubeClient({
    config,
    clock,
    logger: silentLogger(),
    fieldManager: name,
    userAgent: defaultUserAgent(name, `v${version()}`),
    maxReadRetries: 2,
    ...(options.requestTimeoutMs !== undefined ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
  });
}
