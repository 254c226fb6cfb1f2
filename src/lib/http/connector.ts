/**
 * Opening the connections of the HTTP clients (src/lib/http/connection-pool.ts): TCP with its own
 * connect limit, then (for https) the TLS handshake with its own, shorter one, as Go's dialer and
 * `TLSHandshakeTimeout` measure them (30 s and 10 s in client-go and in MUO's OCM client). TCP
 * keep-alive probes start after the configured idle time. Timers run on the given (wall) clock.
 * Node's own `net.connect` has no connect limit at all, and `tls.connect` one timer for both
 * phases, which is why this small module exists.
 */
import { connect as tcpConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import type { Clock } from '../clock.js';

/**
 * Go's dialer defaults, which client-go and MUO's OCM client keep: 30 s to connect, 10 s for the
 * TLS handshake, TCP keep-alive probes after 30 s idle.
 */
export const GO_DIALER_LIMITS = {
  connectTimeoutMs: 30_000,
  tlsHandshakeTimeoutMs: 10_000,
  keepAliveInitialDelayMs: 30_000,
} as const satisfies Pick<ConnectorOptions, 'connectTimeoutMs' | 'tlsHandshakeTimeoutMs' | 'keepAliveInitialDelayMs'>;

/** Where to connect. */
export interface ConnectTarget {
  /** Host name or IP address (an IPv6 address with or without brackets). */
  host: string;
  port: number;
  /** Speak TLS once connected. */
  tls: boolean;
}

/** The TLS material of a connection. */
export interface TlsSettings {
  /** Trust roots (PEM) replacing Node's; absent: Node's. */
  ca?: string | string[];
  /** Client certificate and key (PEM). */
  cert?: string;
  key?: string;
  /** The name to send (SNI) and verify instead of the host's. */
  servername?: string;
  rejectUnauthorized: boolean;
}

export interface ConnectorOptions {
  /** TCP connect limit (ms). */
  connectTimeoutMs: number;
  /** TLS handshake limit (ms), counted from the TCP connection. */
  tlsHandshakeTimeoutMs: number;
  keepAliveInitialDelayMs: number;
  tls: TlsSettings;
  clock: Clock;
}

/** Opens a connection and calls back once, with the socket or the error. */
export type Connector = (target: ConnectTarget, callback: (err: Error | null, socket: Socket | null) => void) => void;

/** The limits of an HTTP exchange: the two phases of a connection, the answer's headers and body. */
export type NetworkLimitCode = 'CONNECT_TIMEOUT' | 'TLS_HANDSHAKE_TIMEOUT' | 'HEADERS_TIMEOUT' | 'BODY_TIMEOUT';

/** A limit ran out; connection phases are named like Go's (`i/o timeout`, `TLS handshake timeout`). */
export class NetworkLimitError extends Error {
  readonly code: NetworkLimitCode;
  constructor(code: NetworkLimitCode, message: string) {
    super(message);
    this.name = 'NetworkLimitError';
    this.code = code;
  }
}

/** A host without the brackets of an IPv6 literal. */
export function bareHost(host: string): string {
  return host.replace(/^\[(.*)\]$/, '$1');
}

/** Calls `callback` at most once; an error destroys the socket it came with. */
function onceCallback(
  callback: (err: Error | null, socket: Socket | null) => void,
): (err: Error | null, socket: Socket | null) => void {
  let done = false;
  return (err, socket) => {
    if (done) return;
    done = true;
    if (err) {
      socket?.destroy();
      callback(err, null);
    } else callback(null, socket);
  };
}

/**
 * Starts TLS on a connected socket (also a proxy's CONNECT tunnel) and calls back once the
 * handshake is done, or with `TLS_HANDSHAKE_TIMEOUT` after `timeoutMs`.
 */
export function startTls(
  socket: Socket,
  host: string,
  options: Pick<ConnectorOptions, 'tlsHandshakeTimeoutMs' | 'tls' | 'clock'>,
  callback: (err: Error | null, socket: Socket | null) => void,
): void {
  const finish = onceCallback(callback);
  const { ca, cert, key, servername, rejectUnauthorized } = options.tls;
  // SNI carries names only; an IP address is verified against the certificate's IP SANs.
  const name = servername ?? (isIP(host) === 0 ? host : undefined);
  const tls: TLSSocket = tlsConnect({
    socket,
    ...(name !== undefined ? { servername: name } : {}),
    ...(ca !== undefined ? { ca } : {}),
    ...(cert !== undefined ? { cert } : {}),
    ...(key !== undefined ? { key } : {}),
    rejectUnauthorized,
    ALPNProtocols: ['http/1.1'],
  });
  const timer = options.clock.setTimer(options.tlsHandshakeTimeoutMs, () =>
    finish(
      new NetworkLimitError(
        'TLS_HANDSHAKE_TIMEOUT',
        `net/http: TLS handshake timeout (${options.tlsHandshakeTimeoutMs} ms)`,
      ),
      tls,
    ),
  );
  tls.once('secureConnect', () => {
    timer.cancel();
    finish(null, tls);
  });
  tls.once('error', (err: Error) => {
    timer.cancel();
    finish(err, tls);
  });
}

/** Opens a TCP connection with its own limit; no TLS. */
export function connectTcp(
  target: Pick<ConnectTarget, 'host' | 'port'>,
  options: Pick<ConnectorOptions, 'connectTimeoutMs' | 'keepAliveInitialDelayMs' | 'clock'>,
  callback: (err: Error | null, socket: Socket | null) => void,
): void {
  const finish = onceCallback(callback);
  const host = bareHost(target.host);
  const tcp = tcpConnect({ host, port: target.port });
  tcp.setNoDelay(true);
  tcp.setKeepAlive(true, options.keepAliveInitialDelayMs);
  const timer = options.clock.setTimer(options.connectTimeoutMs, () =>
    finish(
      new NetworkLimitError(
        'CONNECT_TIMEOUT',
        `dial tcp ${host}:${target.port}: i/o timeout (${options.connectTimeoutMs} ms)`,
      ),
      tcp,
    ),
  );
  tcp.once('error', (err: Error) => {
    timer.cancel();
    finish(err, tcp);
  });
  tcp.once('connect', () => {
    timer.cancel();
    finish(null, tcp);
  });
}

/** The connector of direct connections: TCP, then TLS for https targets. */
export function createConnector(options: ConnectorOptions): Connector {
  return (target, callback) => {
    connectTcp(target, options, (err, tcp) => {
      if (err || !tcp) return callback(err ?? new Error('no socket'), null);
      if (!target.tls) return callback(null, tcp);
      startTls(tcp, bareHost(target.host), options, callback);
    });
  };
}
