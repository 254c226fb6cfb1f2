/**
 * How to reach one API server: where, which TLS material, and how to authenticate. Produced by
 * kubeconfig.ts or in-cluster-config.ts, consumed by transport.ts and client.ts.
 */
import { readFile } from 'node:fs/promises';
import type { Clock } from '../lib/clock.js';

export interface RestConfig {
  /** Base URL: https://host:6443 (a path prefix is kept). */
  server: string;
  /** PEM CA bundle that replaces the system roots. */
  ca?: string;
  /** PEM client certificate and key. */
  cert?: string;
  key?: string;
  /** TLS server name to verify (tls-server-name). */
  servername?: string;
  insecureSkipTLSVerify: boolean;
  /** http(s):// proxy for every request. */
  proxyUrl?: string;
  /** The Authorization header value, or undefined for none. Never logged. */
  auth: () => Promise<string | undefined>;
  /** Forgets any cached credential (called after a 401, so the next auth() fetches a fresh one). */
  invalidateAuth?: () => void;
  /** Default namespace (the context's namespace, or the service account's). */
  namespace: string;
}

/** No credentials. */
export function noAuth(): Promise<string | undefined> {
  return Promise.resolve(undefined);
}

/** A fixed bearer token. */
export function staticBearer(token: string): () => Promise<string | undefined> {
  const value = `Bearer ${token}`;
  return () => Promise.resolve(value);
}

/** HTTP basic authentication (kubeconfig username/password). */
export function basicAuth(username: string, password: string): () => Promise<string | undefined> {
  const value = `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
  return () => Promise.resolve(value);
}

/** How often a token file is re-read (client-go's cachingTokenSource uses one minute). */
export const TOKEN_FILE_REREAD_MS = 60_000;

/**
 * A bearer token read from a file and re-read at most every 60 s, so that rotated
 * (bound service-account) tokens are picked up. If a re-read fails, the last good token stays.
 */
export class TokenFileAuth {
  readonly #path: string;
  readonly #clock: Clock;
  #token: string | undefined;
  #readAt = Number.NEGATIVE_INFINITY;

  constructor(path: string, clock: Clock) {
    this.#path = path;
    this.#clock = clock;
  }

  /** The Authorization header value. */
  async header(): Promise<string | undefined> {
    const now = this.#clock.now();
    if (this.#token === undefined || now - this.#readAt >= TOKEN_FILE_REREAD_MS) {
      try {
        const token = (await readFile(this.#path, 'utf8')).trim();
        this.#token = token;
        this.#readAt = now;
      } catch (err) {
        if (this.#token === undefined) throw new Error(`cannot read token file ${this.#path}`, { cause: err });
        this.#readAt = now;
      }
    }
    return this.#token === '' ? undefined : `Bearer ${this.#token}`;
  }

  /** Forces a re-read on next use. */
  invalidate(): void {
    this.#readAt = Number.NEGATIVE_INFINITY;
  }
}
