/**
 * Proxy selection from `HTTP_PROXY` / `HTTPS_PROXY` / `NO_PROXY`, with the semantics of Go's
 * `net/http.ProxyFromEnvironment` (package `golang.org/x/net/http/httpproxy`), which MUO's
 * clients use. Written by hand because undici's `EnvHttpProxyAgent` differs (it falls back to
 * `http_proxy` for HTTPS targets, and has other NO_PROXY rules), and a drop-in replacement must
 * choose the same proxy as the Go operator:
 * - the upper-case variable wins over the lower-case one when both are non-empty;
 * - `https:` targets use only HTTPS_PROXY, `http:` targets only HTTP_PROXY;
 * - a proxy value without a scheme (`proxy:3128`) means `http://proxy:3128`;
 * - loopback targets (`localhost`, 127.0.0.0/8, ::1) are never proxied;
 * - NO_PROXY is a comma-separated list of `*` (everything), IP addresses and CIDRs (`10.0.0.0/8`),
 *   `host[:port]` (matches the host and its subdomains), `.suffix[:port]` and `*.suffix[:port]`
 *   (subdomains only); domain entries never match IP-address targets.
 * (Go's refusal of HTTP_PROXY in a CGI environment is not reproduced: the operator is no CGI.)
 */
import { isIPv4, isIPv6 } from 'node:net';
import { domainToASCII } from 'node:url';

/** One NO_PROXY entry, compiled. */
type NoProxyEntry =
  | { kind: 'all' }
  | { kind: 'cidr'; ip: Uint8Array; bits: number }
  | { kind: 'ip'; ip: Uint8Array; port: string }
  | { kind: 'domain'; suffix: string; port: string; matchHost: boolean };

/** The proxy settings of a process, parsed once. */
export interface ProxyConfig {
  /** Proxy for `http:` targets. */
  readonly httpProxy: URL | undefined;
  /** Proxy for `https:` targets. */
  readonly httpsProxy: URL | undefined;
  /** The compiled NO_PROXY list. */
  readonly noProxy: readonly NoProxyEntry[];
}

/** Settings that proxy nothing. */
export const NO_PROXY_CONFIG: ProxyConfig = { httpProxy: undefined, httpsProxy: undefined, noProxy: [] };

/** An environment: `process.env` or a test's plain object. */
export type ProxyEnv = Readonly<Record<string, string | undefined>>;

function envAny(env: ProxyEnv, ...names: string[]): string {
  for (const name of names) {
    const v = env[name];
    if (v !== undefined && v !== '') return v;
  }
  return '';
}

/** Parses a proxy value like Go's `parseProxy`; undefined for empty or unusable values. */
export function parseProxyUrl(value: string): URL | undefined {
  if (value === '') return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || url.host === '') {
    try {
      return new URL(`http://${value}`);
    } catch {
      return undefined;
    }
  }
  return url;
}

/** Reads `HTTP_PROXY`, `HTTPS_PROXY`, `NO_PROXY` (and their lower-case forms) from `env`. */
export function proxyConfigFromEnv(env: ProxyEnv): ProxyConfig {
  return {
    httpProxy: parseProxyUrl(envAny(env, 'HTTP_PROXY', 'http_proxy')),
    httpsProxy: parseProxyUrl(envAny(env, 'HTTPS_PROXY', 'https_proxy')),
    noProxy: parseNoProxy(envAny(env, 'NO_PROXY', 'no_proxy')),
  };
}

/** Compiles a NO_PROXY value (malformed entries are skipped, as Go does). */
export function parseNoProxy(value: string): NoProxyEntry[] {
  const entries: NoProxyEntry[] = [];
  for (const raw of value.split(',')) {
    const p = raw.trim().toLowerCase();
    if (p === '') continue;
    if (p === '*') return [{ kind: 'all' }];
    const cidr = parseCidr(p);
    if (cidr) {
      entries.push({ kind: 'cidr', ...cidr });
      continue;
    }
    let host = p;
    let port = '';
    const split = splitHostPort(p);
    if (split) {
      if (split.host === '') continue;
      host = split.host;
      port = split.port;
    }
    const ip = parseIp(host);
    if (ip) {
      entries.push({ kind: 'ip', ip, port });
      continue;
    }
    if (host.startsWith('*.')) host = host.slice(1);
    const matchHost = !host.startsWith('.');
    if (matchHost) host = `.${host}`;
    // eslint-disable-next-line no-control-regex
    if (/[^\x00-\x7f]/.test(host)) {
      const ascii = domainToASCII(host.slice(1));
      if (ascii !== '') host = `.${ascii}`;
    }
    entries.push({ kind: 'domain', suffix: host, port, matchHost });
  }
  return entries;
}

const DEFAULT_PORTS: Readonly<Record<string, string>> = {
  'http:': '80',
  'https:': '443',
  'socks5:': '1080',
  'socks5h:': '1080',
};

/** The proxy for a request to `target`, or undefined to connect directly. */
export function proxyForUrl(config: ProxyConfig, target: URL | string): URL | undefined {
  const url = typeof target === 'string' ? new URL(target) : target;
  const proxy = url.protocol === 'https:' ? config.httpsProxy : url.protocol === 'http:' ? config.httpProxy : undefined;
  if (proxy === undefined) return undefined;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  const port = url.port !== '' ? url.port : (DEFAULT_PORTS[url.protocol] ?? '');
  return useProxy(config.noProxy, host, port) ? proxy : undefined;
}

function useProxy(noProxy: readonly NoProxyEntry[], host: string, port: string): boolean {
  if (host === '') return true;
  if (host === 'localhost') return false;
  const ip = parseIp(host);
  if (ip && isLoopback(ip)) return false;
  for (const entry of noProxy) {
    switch (entry.kind) {
      case 'all':
        return false;
      case 'cidr':
        if (ip && inCidr(ip, entry.ip, entry.bits)) return false;
        break;
      case 'ip':
        if (ip && bytesEqual(ip, entry.ip) && (entry.port === '' || entry.port === port)) return false;
        break;
      case 'domain':
        if (ip) break;
        if (
          (host.endsWith(entry.suffix) || (entry.matchHost && host === entry.suffix.slice(1))) &&
          (entry.port === '' || entry.port === port)
        )
          return false;
        break;
    }
  }
  return true;
}

/** Go's `net.SplitHostPort`: undefined when there is no port part. */
function splitHostPort(text: string): { host: string; port: string } | undefined {
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    if (end < 0 || text[end + 1] !== ':') return undefined;
    const port = text.slice(end + 2);
    return port.includes(':') ? undefined : { host: text.slice(1, end), port };
  }
  const i = text.lastIndexOf(':');
  if (i < 0) return undefined;
  const host = text.slice(0, i);
  if (host.includes(':') || host.includes('[') || host.includes(']')) return undefined;
  return { host, port: text.slice(i + 1) };
}

/** An IP address as 16 bytes (IPv4 in its IPv4-mapped IPv6 form, as Go's net.IP holds it). */
export function parseIp(address: string): Uint8Array | undefined {
  if (isIPv4(address)) {
    const out = new Uint8Array(16);
    out[10] = 0xff;
    out[11] = 0xff;
    address.split('.').forEach((part, i) => (out[12 + i] = Number(part)));
    return out;
  }
  if (!isIPv6(address) || address.includes('%')) return undefined;
  let text = address;
  if (text.includes('.')) {
    // An embedded IPv4 tail (::ffff:1.2.3.4) becomes two hex groups.
    const lastColon = text.lastIndexOf(':');
    const v4 = parseIp(text.slice(lastColon + 1));
    if (!v4) return undefined;
    const hex = (hi: number, lo: number): string => ((hi << 8) | lo).toString(16);
    text = `${text.slice(0, lastColon + 1)}${hex(v4[12]!, v4[13]!)}:${hex(v4[14]!, v4[15]!)}`;
  }
  const [head = '', rest] = text.split('::');
  const groups = (part: string): number[] => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  let words: number[];
  if (rest === undefined) {
    words = groups(head);
  } else {
    const a = groups(head);
    const b = groups(rest);
    words = [...a, ...new Array<number>(8 - a.length - b.length).fill(0), ...b];
  }
  const out = new Uint8Array(16);
  words.forEach((width, index) => {
    out[2 * index] = width >> 8;
    out[2 * index + 1] = width & 0xff;
  });
  return out;
}

function parseCidr(text: string): { ip: Uint8Array; bits: number } | undefined {
  const slash = text.indexOf('/');
  if (slash < 0) return undefined;
  const addr = text.slice(0, slash);
  const prefix = text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefix)) return undefined;
  const ip = parseIp(addr);
  if (!ip) return undefined;
  const v4 = isIPv4(addr);
  const n = Number(prefix);
  if (n > (v4 ? 32 : 128)) return undefined;
  return { ip, bits: v4 ? n + 96 : n };
}

function inCidr(ip: Uint8Array, net: Uint8Array, bits: number): boolean {
  for (let i = 0; i < 16; i++) {
    const take = Math.min(8, Math.max(0, bits - 8 * i));
    if (take === 0) return true;
    const mask = (0xff << (8 - take)) & 0xff;
    if ((ip[i]! & mask) !== (net[i]! & mask)) return false;
  }
  return true;
}

function bytesEqual(left: Uint8Array, right: Uint8Array): boolean {
  for (let i = 0; i < 16; i++) if (left[i] !== right[i]) return false;
  return true;
}

function isV4Mapped(ip: Uint8Array): boolean {
  for (let i = 0; i < 10; i++) if (ip[i] !== 0) return false;
  return ip[10] === 0xff && ip[11] === 0xff;
}

/** Go's `net.IP.IsLoopback`: 127.0.0.0/8 or ::1. */
function isLoopback(ip: Uint8Array): boolean {
  if (isV4Mapped(ip)) return ip[12] === 127;
  for (let i = 0; i < 15; i++) if (ip[i] !== 0) return false;
  return ip[15] === 1;
}
