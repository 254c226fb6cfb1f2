/**
 * kubeconfig exec credential plugins (client.authentication.k8s.io/v1 and v1beta1
 * ExecCredential): run the command, read the token from its stdout, cache it until
 * `status.expirationTimestamp` (judged on the injected Clock), run it again after a 401.
 */
import { execFile } from 'node:child_process';
import type { Clock } from '../lib/clock.js';
import { isJsonObject, type JsonObject } from '../lib/json.js';

export const EXEC_API_VERSIONS = ['client.authentication.k8s.io/v1', 'client.authentication.k8s.io/v1beta1'] as const;

/** The `user.exec` stanza of a kubeconfig. */
export interface ExecConfig {
  apiVersion: string;
  /** Resolved: a relative path with a slash is made absolute against the kubeconfig's folder. */
  command: string;
  args: string[];
  env: Array<{ name: string; value: string }>;
  provideClusterInfo: boolean;
  interactiveMode?: string;
  installHint?: string;
}

/** What the plugin may learn about the cluster (spec.cluster), when provideClusterInfo is set. */
export interface ExecClusterInfo {
  server: string;
  'tls-server-name'?: string;
  'insecure-skip-tls-verify'?: boolean;
  'certificate-authority-data'?: string;
  'proxy-url'?: string;
}

export interface ExecCredentialOptions {
  clock: Clock;
  cluster?: ExecClusterInfo;
  /** Base environment for the plugin (default: this process's). */
  baseEnv?: NodeJS.ProcessEnv;
  /** Longest a plugin may run (default 60 s). */
  timeoutMs?: number;
}

/** Runs an exec plugin on demand and caches its token. */
export class ExecCredentialAuth {
  readonly #config: ExecConfig;
  readonly #options: ExecCredentialOptions;
  #token: string | undefined;
  #expiresAt: number | undefined;
  #inflight: Promise<string> | undefined;

  constructor(config: ExecConfig, options: ExecCredentialOptions) {
    if (!(EXEC_API_VERSIONS as readonly string[]).includes(config.apiVersion)) {
      throw new Error(
        `exec plugin: unsupported apiVersion ${JSON.stringify(config.apiVersion)} (supported: ${EXEC_API_VERSIONS.join(', ')})`,
      );
    }
    if (config.interactiveMode === 'Always')
      throw new Error('exec plugin: interactiveMode Always needs a terminal, and the operator has none');
    this.#config = config;
    this.#options = options;
  }

  /** The Authorization header value, running the plugin when there is no valid cached token. */
  async header(): Promise<string> {
    if (this.#token !== undefined && (this.#expiresAt === undefined || this.#options.clock.now() < this.#expiresAt)) {
      return `Bearer ${this.#token}`;
    }
    this.#inflight ??= this.#run().finally(() => {
      this.#inflight = undefined;
    });
    return `Bearer ${await this.#inflight}`;
  }

  /** Drops the cached token (after a 401). */
  invalidate(): void {
    this.#token = undefined;
    this.#expiresAt = undefined;
  }

  async #run(): Promise<string> {
    const c = this.#config;
    const spec: JsonObject = { interactive: false };
    if (c.provideClusterInfo && this.#options.cluster) spec.cluster = { ...this.#options.cluster };
    const execInfo = JSON.stringify({ apiVersion: c.apiVersion, kind: 'ExecCredential', spec });
    const env: NodeJS.ProcessEnv = { ...(this.#options.baseEnv ?? process.env) };
    for (const e of c.env) env[e.name] = e.value;
    env.KUBERNETES_EXEC_INFO = execInfo;
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(
        c.command,
        c.args,
        { env, timeout: this.#options.timeoutMs ?? 60_000, maxBuffer: 4 * 1024 * 1024, windowsHide: true },
        (err, out, errOut) => {
          if (err) {
            const hint =
              c.installHint !== undefined && (err as NodeJS.ErrnoException).code === 'ENOENT'
                ? `\n${c.installHint}`
                : '';
            const detail = errOut.trim() === '' ? err.message : `${err.message}: ${errOut.trim().slice(0, 500)}`;
            reject(new Error(`exec plugin ${c.command} failed: ${detail}${hint}`, { cause: err }));
          } else {
            resolve(out);
          }
        },
      );
    });
    const cred = parseExecCredential(stdout, c.apiVersion);
    this.#token = cred.token;
    this.#expiresAt = cred.expiresAt;
    return cred.token;
  }
}

/** Parses an ExecCredential printed by a plugin. Pure; throws a descriptive error on bad output. */
export function parseExecCredential(
  stdout: string,
  expectedApiVersion: string,
): { token: string; expiresAt: number | undefined } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch (err) {
    throw new Error('exec plugin: output is not an ExecCredential (not JSON)', { cause: err });
  }
  if (!isJsonObject(parsed) || parsed.kind !== 'ExecCredential')
    throw new Error('exec plugin: output is not an ExecCredential');
  if (parsed.apiVersion !== expectedApiVersion) {
    throw new Error(
      `exec plugin: output apiVersion ${JSON.stringify(parsed.apiVersion)} does not match ${expectedApiVersion}`,
    );
  }
  const status = parsed.status;
  if (!isJsonObject(status)) throw new Error('exec plugin: output has no status');
  if (typeof status.token !== 'string' || status.token === '') {
    if (typeof status.clientCertificateData === 'string') {
      throw new Error(
        'exec plugin: client certificates from exec plugins are not supported; the plugin must return a token',
      );
    }
    throw new Error('exec plugin: status.token is missing');
  }
  let expiresAt: number | undefined;
  if (typeof status.expirationTimestamp === 'string' && status.expirationTimestamp !== '') {
    expiresAt = Date.parse(status.expirationTimestamp);
    if (Number.isNaN(expiresAt))
      throw new Error(`exec plugin: invalid expirationTimestamp ${JSON.stringify(status.expirationTimestamp)}`);
  }
  return { token: status.token, expiresAt };
}
