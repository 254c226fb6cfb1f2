/**
 * The connector of the shared HTTP client's direct connections: TCP with its own connect
 * timeout, then (for https) the TLS handshake with its own, shorter one, as Go's dialer and
 * `TLSHandshakeTimeout` measure them (30 s and 10 s in MUO's OCM client). undici's built-in
 * connector has one timer for both phases, which is why this small one exists. TCP keep-alive
 * probes start after the configured idle time. Timers run on the given (wall) clock.
 */
import { connect as tcpConnect, type Socket } from 'node:net';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import type { buildConnector } from 'undici';
import type { Clock } from '../../lib/clock.js';

export interface ConnectorOptions {
  /** TCP connect limit (ms). */
  connectTimeoutMs: number;
  /** TLS handshake limit (ms), counted from the TCP connection. */
  tlsHandshakeTimeoutMs: number;
  keepAliveInitialDelayMs: number;
  /** Trust roots (PEM) replacing Node's; absent: Node's. */
  ca?: string[];
  rejectUnauthorized: boolean;
  clock: Clock;
}

/** An error of one phase, named like Go's (`i/o timeout` for connect, `TLS handshake timeout`). */
export class ConnectPhaseError extends Error {
  readonly code: 'UND_ERR_CONNECT_TIMEOUT' | 'TLS_HANDSHAKE_TIMEOUT';
  constructor(code: ConnectPhaseError['code'], message: string) {
    super(message);
    this.name = 'ConnectPhaseError';
    this.code = code;
  }
}

/** Builds the connector for an undici Agent's `connect` option. */
export function createConnector(options: ConnectorOptions): buildConnector.connector {
  return (opts, callback) => {
    const https = opts.protocol === 'https:';
    const port = Number(opts.port) || (https ? 443 : 80);
    const host = opts.hostname.replace(/^\[(.*)\]$/, '$1');
    let done = false;
    const finish = (err: Error | null, socket: Socket | TLSSocket | null): void => {
      if (done) return;
      done = true;
      if (err) {
        socket?.destroy();
        callback(err, null);
      } else if (socket) callback(null, socket);
    };
    const tcp = tcpConnect({ host, port, ...(opts.localAddress ? { localAddress: opts.localAddress } : {}) });
    tcp.setNoDelay(true);
    tcp.setKeepAlive(true, options.keepAliveInitialDelayMs);
    const connectTimer = options.clock.setTimer(options.connectTimeoutMs, () =>
      finish(
        new ConnectPhaseError(
          'UND_ERR_CONNECT_TIMEOUT',
          `dial tcp ${host}:${port}: i/o timeout (${options.connectTimeoutMs} ms)`,
        ),
        tcp,
      ),
    );
    tcp.once('error', (err: Error) => {
      connectTimer.cancel();
      finish(err, tcp);
    });
    tcp.once('connect', () => {
      connectTimer.cancel();
      if (!https) return finish(null, tcp);
      const servername = opts.servername ?? (/^[\d.:]+$/.test(host) ? undefined : host);
      const tls = tlsConnect({
        socket: tcp,
        ...(servername ? { servername } : {}),
        ...(options.ca ? { ca: options.ca } : {}),
        rejectUnauthorized: options.rejectUnauthorized,
        ALPNProtocols: ['http/1.1'],
      });
      const handshakeTimer = options.clock.setTimer(options.tlsHandshakeTimeoutMs, () =>
        finish(
          new ConnectPhaseError(
            'TLS_HANDSHAKE_TIMEOUT',
            `net/http: TLS handshake timeout (${options.tlsHandshakeTimeoutMs} ms)`,
          ),
          tls,
        ),
      );
      tls.once('secureConnect', () => {
        handshakeTimer.cancel();
        finish(null, tls);
      });
      tls.once('error', (err: Error) => {
        handshakeTimer.cancel();
        finish(err, tls);
      });
    });
  };
}
