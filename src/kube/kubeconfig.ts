/**
 * kubeconfig loading with kubectl's rules: the KUBECONFIG list (first file to define a name or
 * the current-context wins; missing files are skipped), else ~/.kube/config, else in-cluster.
 * Relative file paths resolve against the file that names them. The result is a RestConfig.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, resolve } from 'node:path';
import type { Clock } from '../lib/clock.js';
import { isJsonObject, type JsonObject } from '../lib/json.js';
import { ExecCredentialAuth, type ExecClusterInfo, type ExecConfig } from './exec-credential.js';
import { isInCluster, loadInClusterConfig } from './in-cluster-config.js';
import { basicAuth, noAuth, staticBearer, TokenFileAuth, type RestConfig } from './rest-config.js';
import { yamlPackage } from '../lib/yaml-runtime.js';

/** One named entry, remembering the folder of the file it came from (for relative paths). */
interface Entry {
  body: JsonObject;
  dir: string;
}

/** A merged kubeconfig. */
export interface Kubeconfig {
  currentContext: string | undefined;
  clusters: Map<string, Entry>;
  users: Map<string, Entry>;
  contexts: Map<string, Entry>;
}

export interface KubeconfigSource {
  /** The YAML text. */
  text: string;
  /** The file's path (relative paths inside resolve against its folder). */
  path: string;
}

/** Merges kubeconfig documents in order, first definition winning (pure). */
export function mergeKubeconfigs(sources: KubeconfigSource[]): Kubeconfig {
  const merged: Kubeconfig = { currentContext: undefined, clusters: new Map(), users: new Map(), contexts: new Map() };
  for (const src of sources) {
    let doc: unknown;
    try {
      // A kubeconfig in JSON (JSON is YAML) needs no YAML parser.
      doc = /^\s*\{/.test(src.text) ? JSON.parse(src.text) : yamlPackage().parse(src.text);
    } catch (err) {
      throw new Error(`error loading config file "${src.path}": ${(err as Error).message}`, { cause: err });
    }
    if (doc === null || doc === undefined) continue;
    if (!isJsonObject(doc)) throw new Error(`error loading config file "${src.path}": not a kubeconfig mapping`);
    const dir = dirname(resolve(src.path));
    const cc = doc['current-context'];
    if (merged.currentContext === undefined && typeof cc === 'string' && cc !== '') merged.currentContext = cc;
    addNamed(merged.clusters, doc.clusters, 'cluster', dir);
    addNamed(merged.users, doc.users, 'user', dir);
    addNamed(merged.contexts, doc.contexts, 'context', dir);
  }
  return merged;
}

function addNamed(into: Map<string, Entry>, list: unknown, field: string, dir: string): void {
  if (!Array.isArray(list)) return;
  for (const item of list) {
    if (!isJsonObject(item) || typeof item.name !== 'string') continue;
    if (into.has(item.name)) continue;
    const body = item[field];
    into.set(item.name, { body: isJsonObject(body) ? body : {}, dir });
  }
}

export interface KubeconfigOptions {
  clock: Clock;
  /** A context other than current-context. */
  context?: string;
  /** Environment for exec plugins (default: process.env). */
  env?: NodeJS.ProcessEnv;
}

/** Builds the RestConfig of a context of a merged kubeconfig. */
export function restConfigFromKubeconfig(kc: Kubeconfig, options: KubeconfigOptions): RestConfig {
  const contextName = options.context ?? kc.currentContext;
  if (contextName === undefined || contextName === '')
    throw new Error('invalid configuration: no current context is set and no context was given');
  const ctx = kc.contexts.get(contextName);
  if (!ctx) throw new Error(`context "${contextName}" does not exist`);
  const clusterName = str(ctx.body.cluster);
  const cluster = clusterName === undefined ? undefined : kc.clusters.get(clusterName);
  if (!cluster) throw new Error(`cluster "${clusterName ?? ''}" of context "${contextName}" does not exist`);
  const userName = str(ctx.body.user);
  const user = userName === undefined ? { body: {}, dir: ctx.dir } : kc.users.get(userName);
  if (!user) throw new Error(`user "${userName ?? ''}" of context "${contextName}" does not exist`);

  const c = cluster.body;
  const server = str(c.server);
  if (server === undefined || server === '') throw new Error(`cluster "${clusterName}" has no server`);
  const config: RestConfig = {
    server: server.replace(/\/+$/, ''),
    insecureSkipTLSVerify: c['insecure-skip-tls-verify'] === true,
    auth: noAuth,
    namespace: str(ctx.body.namespace) || 'default',
  };
  const ca = dataOrFile(c, 'certificate-authority', cluster.dir);
  if (ca !== undefined) config.ca = ca;
  const servername = str(c['tls-server-name']);
  if (servername) config.servername = servername;
  const proxy = str(c['proxy-url']);
  if (proxy) config.proxyUrl = proxy;

  const u = user.body;
  const cert = dataOrFile(u, 'client-certificate', user.dir);
  const key = dataOrFile(u, 'client-key', user.dir);
  if ((cert === undefined) !== (key === undefined))
    throw new Error(`user "${userName ?? ''}": client-certificate and client-key must be given together`);
  if (cert !== undefined && key !== undefined) {
    config.cert = cert;
    config.key = key;
  }
  const token = str(u.token);
  const tokenFile = str(u.tokenFile);
  const username = str(u.username);
  const password = str(u.password);
  if (isJsonObject(u.exec)) {
    const execAuth = new ExecCredentialAuth(execConfig(u.exec, user.dir), {
      clock: options.clock,
      cluster: clusterInfo(c, config),
      ...(options.env ? { baseEnv: options.env } : {}),
    });
    config.auth = () => execAuth.header();
    config.invalidateAuth = () => execAuth.invalidate();
  } else if (tokenFile) {
    // client-go re-reads tokenFile and lets it win over a static token.
    const tokens = new TokenFileAuth(resolveFrom(user.dir, tokenFile), options.clock);
    config.auth = () => tokens.header();
    config.invalidateAuth = () => tokens.invalidate();
  } else if (token) {
    config.auth = staticBearer(token);
  } else if (username !== undefined && password !== undefined) {
    config.auth = basicAuth(username, password);
  } else if (isJsonObject(u['auth-provider'])) {
    throw new Error(`user "${userName ?? ''}": auth-provider plugins are not supported; use an exec credential plugin`);
  }
  return config;
}

function execConfig(exec: JsonObject, dir: string): ExecConfig {
  const command = str(exec.command);
  if (!command) throw new Error('exec plugin: command is required');
  const cfg: ExecConfig = {
    apiVersion: str(exec.apiVersion) ?? '',
    // Like client-go: a command with a path separator is relative to the kubeconfig's folder; a bare name is looked up on PATH.
    command: command.includes('/') && !isAbsolute(command) ? resolve(dir, command) : command,
    args: Array.isArray(exec.args) ? exec.args.filter((a): a is string => typeof a === 'string') : [],
    env: Array.isArray(exec.env)
      ? exec.env
          .filter(isJsonObject)
          .flatMap((v) =>
            typeof v.name === 'string' && typeof v.value === 'string' ? [{ name: v.name, value: v.value }] : [],
          )
      : [],
    provideClusterInfo: exec.provideClusterInfo === true,
  };
  const mode = str(exec.interactiveMode);
  if (mode) cfg.interactiveMode = mode;
  const hint = str(exec.installHint);
  if (hint) cfg.installHint = hint;
  return cfg;
}

function clusterInfo(value: JsonObject, config: RestConfig): ExecClusterInfo {
  const info: ExecClusterInfo = { server: config.server };
  if (config.servername) info['tls-server-name'] = config.servername;
  if (config.insecureSkipTLSVerify) info['insecure-skip-tls-verify'] = true;
  if (config.ca !== undefined) info['certificate-authority-data'] = Buffer.from(config.ca, 'utf8').toString('base64');
  const proxy = str(value['proxy-url']);
  if (proxy) info['proxy-url'] = proxy;
  return info;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function resolveFrom(dir: string, path: string): string {
  return isAbsolute(path) ? path : resolve(dir, path);
}

/** `<field>-data` (base64) wins over `<field>` (a file path). */
function dataOrFile(value: JsonObject, field: string, dir: string): string | undefined {
  const data = str(value[`${field}-data`]);
  if (data) return Buffer.from(data, 'base64').toString('utf8');
  const file = str(value[field]);
  if (!file) return undefined;
  const path = resolveFrom(dir, file);
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`unable to read ${field} ${path}: ${(err as Error).message}`, { cause: err });
  }
}

export interface LoadOptions extends KubeconfigOptions {
  /** An explicit kubeconfig file (--kubeconfig); it must exist. */
  kubeconfig?: string;
  /** Home folder (default: os.homedir()). */
  homeDir?: string;
  /** Service-account folder for in-cluster mode (tests). */
  serviceAccountDir?: string;
}

/** The kubeconfig files kubectl would read, in order (existing ones only, duplicates removed). */
export function kubeconfigPaths(options: Pick<LoadOptions, 'kubeconfig' | 'env' | 'homeDir'> = {}): string[] {
  if (options.kubeconfig !== undefined && options.kubeconfig !== '') return [options.kubeconfig];
  const env = options.env ?? process.env;
  const list = env.KUBECONFIG;
  if (list !== undefined && list !== '') {
    const seen = new Set<string>();
    return list.split(delimiter).filter((p) => p !== '' && !seen.has(p) && seen.add(p) !== undefined && existsSync(p));
  }
  const home = resolve(options.homeDir ?? env.HOME ?? homedir(), '.kube', 'config');
  return existsSync(home) ? [home] : [];
}

/**
 * The client configuration by kubectl's precedence: explicit file, KUBECONFIG, ~/.kube/config,
 * then in-cluster when none of those yields a file.
 */
export function loadRestConfig(options: LoadOptions): RestConfig {
  const paths = kubeconfigPaths(options);
  if (paths.length === 0) {
    const env = options.env ?? process.env;
    const inCluster = { env, ...(options.serviceAccountDir ? { serviceAccountDir: options.serviceAccountDir } : {}) };
    if (isInCluster(inCluster)) return loadInClusterConfig({ clock: options.clock, ...inCluster });
    throw new Error('no configuration: set KUBECONFIG, create ~/.kube/config, or run in a cluster');
  }
  const sources = paths.map((path) => {
    try {
      return { path, text: readFileSync(path, 'utf8') };
    } catch (err) {
      throw new Error(`error loading config file "${path}": ${(err as Error).message}`, { cause: err });
    }
  });
  return restConfigFromKubeconfig(mergeKubeconfigs(sources), options);
}
