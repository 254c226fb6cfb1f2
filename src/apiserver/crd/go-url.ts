/**
 * Go's net/url parsing as Kubernetes' CEL URL library relies on it: `url.ParseRequestURI`
 * (what `isURL` accepts) and `url.Parse`, with the accessors Host, Hostname, Port,
 * EscapedPath and Query. Written by hand because WHATWG `URL` differs from Go on what it
 * accepts (relative references, opaque URIs, ports, escapes) and on how it normalises.
 * Strings are handled as UTF-8 bytes, like Go's.
 */

/** The parts of a parsed URL (Go's url.URL, without user info). */
export interface GoUrl {
  scheme: string;
  opaque: string;
  host: string;
  /** Decoded path. */
  path: string;
  /** The path as written, when it differs from the default encoding of `path`. */
  rawPath: string;
  rawQuery: string;
  fragment: string;
}

/** A parse failure, worded like Go's *url.Error: `parse "<url>": <reason>`. */
export class GoUrlError extends Error {
  constructor(raw: string, reason: string) {
    super(`parse ${JSON.stringify(raw)}: ${reason}`);
    this.name = 'GoUrlError';
  }
}

type Mode = 'path' | 'host' | 'query';

const UNRESERVED = /^[A-Za-z0-9\-_.~]$/;

/** Go's shouldEscape for one byte. */
function shouldEscape(byte: number, mode: Mode): boolean {
  const ch = String.fromCharCode(byte);
  if (byte < 0x80 && UNRESERVED.test(ch)) return false;
  if (mode === 'host' && `!$&'()*+,;=:[]<>"`.includes(ch)) return false;
  if ('$&+,/:;=?@'.includes(ch)) {
    if (mode === 'path') return ch === '?';
    return true;
  }
  return true;
}

function isHex(byte: number | undefined): boolean {
  return byte !== undefined && /^[0-9a-fA-F]$/.test(String.fromCharCode(byte));
}

/** Go's unescape: %XX sequences decoded; throws the reason text on a bad escape or host character. */
function unescape(text: string, mode: Mode): string {
  const bytes = Buffer.from(text, 'utf8');
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (c === 0x25) {
      if (!isHex(bytes[i + 1]) || !isHex(bytes[i + 2])) {
        throw new Error(`invalid URL escape ${JSON.stringify(bytes.subarray(i, i + 3).toString('latin1'))}`);
      }
      const v = parseInt(bytes.subarray(i + 1, i + 3).toString('latin1'), 16);
      if (mode === 'host' && v < 0x80 && bytes.subarray(i, i + 3).toString('latin1') !== '%25') {
        throw new Error(`invalid URL escape ${JSON.stringify(bytes.subarray(i, i + 3).toString('latin1'))}`);
      }
      out.push(v);
      i += 2;
    } else if (mode === 'query' && c === 0x2b) {
      out.push(0x20);
    } else {
      if (mode === 'host' && c < 0x80 && shouldEscape(c, 'host'))
        throw new Error(`invalid character ${JSON.stringify(String.fromCharCode(c))} in host name`);
      out.push(c);
    }
  }
  return Buffer.from(out).toString('utf8');
}

/** Go's escape in path mode. */
function escapePath(text: string): string {
  let out = '';
  for (const c of Buffer.from(text, 'utf8'))
    out += shouldEscape(c, 'path') ? `%${c.toString(16).toUpperCase().padStart(2, '0')}` : String.fromCharCode(c);
  return out;
}

function validEncodedPath(text: string): boolean {
  for (const c of Buffer.from(text, 'utf8')) {
    if (`!$&'()*+,;=:@[]%`.includes(String.fromCharCode(c)) && c < 0x80) continue;
    if (shouldEscape(c, 'path')) return false;
  }
  return true;
}

function validOptionalPort(port: string): boolean {
  return port === '' || /^:[0-9]*$/.test(port);
}

function parseHost(host: string): string {
  if (host.startsWith('[')) {
    const i = host.lastIndexOf(']');
    if (i < 0) throw new Error("missing ']' in host");
    const colonPort = host.slice(i + 1);
    if (!validOptionalPort(colonPort)) throw new Error(`invalid port ${JSON.stringify(colonPort)} after host`);
  } else {
    const i = host.lastIndexOf(':');
    if (i >= 0 && !validOptionalPort(host.slice(i)))
      throw new Error(`invalid port ${JSON.stringify(host.slice(i))} after host`);
  }
  return unescape(host, 'host');
}

function getScheme(raw: string): [string, string] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (/[A-Za-z]/.test(c)) continue;
    if (/[0-9+\-.]/.test(c)) {
      if (i === 0) return ['', raw];
      continue;
    }
    if (c === ':') {
      if (i === 0) throw new Error('missing protocol scheme');
      return [raw.slice(0, i), raw.slice(i + 1)];
    }
    return ['', raw];
  }
  return ['', raw];
}

function parse(raw: string, viaRequest: boolean): GoUrl {
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(raw)) throw new Error('net/url: invalid control character in URL');
  if (raw === '' && viaRequest) throw new Error('empty url');
  const u: GoUrl = { scheme: '', opaque: '', host: '', path: '', rawPath: '', rawQuery: '', fragment: '' };
  if (raw === '*') return { ...u, path: '*' };
  const [scheme, afterScheme] = getScheme(raw);
  u.scheme = scheme.toLowerCase();
  let rest = afterScheme;
  if (rest.endsWith('?') && rest.indexOf('?') === rest.length - 1) rest = rest.slice(0, -1);
  else {
    const q = rest.indexOf('?');
    if (q >= 0) {
      u.rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  if (!rest.startsWith('/')) {
    if (u.scheme !== '') return { ...u, opaque: rest };
    if (viaRequest) throw new Error('invalid URI for request');
    if ((rest.split('/')[0] ?? '').includes(':')) throw new Error('first path segment in URL cannot contain colon');
  }
  if ((u.scheme !== '' || (!viaRequest && !rest.startsWith('///'))) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const i = authority.indexOf('/');
    if (i >= 0) {
      rest = authority.slice(i);
      authority = authority.slice(0, i);
    }
    const at = authority.lastIndexOf('@');
    u.host = parseHost(at < 0 ? authority : authority.slice(at + 1));
  }
  u.path = unescape(rest, 'path');
  u.rawPath = escapePath(u.path) === rest ? '' : rest;
  return u;
}

function wrap(raw: string, fn: () => GoUrl): GoUrl {
  try {
    return fn();
  } catch (e) {
    throw new GoUrlError(raw, e instanceof Error ? e.message : String(e));
  }
}

/** Go's url.ParseRequestURI: an absolute URI or an absolute path; no fragment handling. */
export function parseRequestUri(raw: string): GoUrl {
  return wrap(raw, () => parse(raw, true));
}

/** Go's url.Parse: any URL reference; the fragment is split off first. */
export function parseUrl(raw: string): GoUrl {
  const hash = raw.indexOf('#');
  const head = hash < 0 ? raw : raw.slice(0, hash);
  const u = wrap(raw, () => parse(head, false));
  if (hash >= 0) u.fragment = wrap(raw, () => ({ ...u, fragment: unescape(raw.slice(hash + 1), 'path') })).fragment;
  return u;
}

function splitHostPort(hostPort: string): { host: string; port: string } {
  let host = hostPort;
  let port = '';
  const colon = host.lastIndexOf(':');
  if (colon >= 0 && validOptionalPort(host.slice(colon))) {
    port = host.slice(colon + 1);
    host = host.slice(0, colon);
  }
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return { host, port };
}

/** url.Hostname(): the host without port and IPv6 brackets. */
export function hostnameOf(goUrl: GoUrl): string {
  return splitHostPort(goUrl.host).host;
}

/** url.Port(): the port, or ''. */
export function portOf(goUrl: GoUrl): string {
  return splitHostPort(goUrl.host).port;
}

/** url.EscapedPath(): the path as written when that is a valid encoding, else Go's encoding of it. */
export function escapedPathOf(goUrl: GoUrl): string {
  if (goUrl.rawPath !== '' && validEncodedPath(goUrl.rawPath)) {
    try {
      if (unescape(goUrl.rawPath, 'path') === goUrl.path) return goUrl.rawPath;
    } catch {
      // fall through to the default encoding
    }
  }
  if (goUrl.path === '*') return '*';
  return escapePath(goUrl.path);
}

/** url.Query(): values by key, in order; malformed pairs (bad escapes, semicolons) are skipped. */
export function queryOf(goUrl: GoUrl): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const pair of goUrl.rawQuery.split('&')) {
    if (pair === '' || pair.includes(';')) continue;
    const eq = pair.indexOf('=');
    try {
      const key = unescape(eq < 0 ? pair : pair.slice(0, eq), 'query');
      const value = unescape(eq < 0 ? '' : pair.slice(eq + 1), 'query');
      out.set(key, [...(out.get(key) ?? []), value]);
    } catch {
      // Go's ParseQuery skips pairs that do not unescape.
    }
  }
  return out;
}
