/**
 * In-cluster configuration, as client-go's rest.InClusterConfig: the API server from
 * KUBERNETES_SERVICE_HOST/_PORT, the service account's CA, rotating token and namespace from
 * /var/run/secrets/kubernetes.io/serviceaccount (injectable for tests).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../lib/clock.js';
import { TokenFileAuth, type RestConfig } from './rest-config.js';

export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

export interface InClusterOptions {
  clock: Clock;
  env?: NodeJS.ProcessEnv;
  /** The service-account folder (token, ca.crt, namespace). */
  serviceAccountDir?: string;
}

/** True when the environment looks like a pod's (both service variables and the token file exist). */
export function isInCluster(options: Omit<InClusterOptions, 'clock'> = {}): boolean {
  const env = options.env ?? process.env;
  return (
    Boolean(env.KUBERNETES_SERVICE_HOST) &&
    Boolean(env.KUBERNETES_SERVICE_PORT) &&
    existsSync(join(options.serviceAccountDir ?? SERVICE_ACCOUNT_DIR, 'token'))
  );
}

/** The RestConfig of the pod's service account. Throws when not running in a cluster. */
export function loadInClusterConfig(options: InClusterOptions): RestConfig {
  const env = options.env ?? process.env;
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT;
  if (!host || !port)
    throw new Error(
      'unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined',
    );
  const dir = options.serviceAccountDir ?? SERVICE_ACCOUNT_DIR;
  const tokenPath = join(dir, 'token');
  if (!existsSync(tokenPath)) throw new Error(`unable to load in-cluster configuration: ${tokenPath} does not exist`);
  const hostPart = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const config: RestConfig = {
    server: `https://${hostPart}:${port}`,
    insecureSkipTLSVerify: false,
    auth: noop,
    namespace: readOptional(join(dir, 'namespace'))?.trim() || 'default',
  };
  const ca = readOptional(join(dir, 'ca.crt'));
  if (ca !== undefined) config.ca = ca;
  const tokens = new TokenFileAuth(tokenPath, options.clock);
  config.auth = () => tokens.header();
  config.invalidateAuth = () => tokens.invalidate();
  return config;
}

function noop(): Promise<string | undefined> {
  return Promise.resolve(undefined);
}

function readOptional(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
