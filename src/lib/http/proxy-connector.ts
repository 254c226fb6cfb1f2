/**
 * Connections through an HTTP(S) proxy, as Go's `http.Transport` makes them: an https target is
 * reached through a `CONNECT host:port` tunnel and TLS with the target inside it; an http target
 * gets the proxy connection itself, and its requests are sent to the proxy in absolute form
 * (connection-pool.ts). The proxy's credentials (`http://user:password@proxy:3128`) go in
 * `Proxy-Authorization: Basic …`. The proxy connection has the same limits as a direct one; the
 * proxy's answer to CONNECT must come within the connect limit.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import {
  NetworkLimitError,
  bareHost,
  createConnector,
  startTls,
  type Connector,
  type ConnectorOptions,
} from './connector.js';

/** The `Proxy-Authorization` value of a proxy URL with credentials, else undefined. */
export function proxyAuthorization(proxy: URL): string | undefined {
  if (proxy.username === '' && proxy.password === '') return undefined;
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;
}

/** `host:port` of a CONNECT request (IPv6 literals in brackets). */
export function connectAuthority(host: string, port: number): string {
  const bare = bareHost(host);
  return `${bare.includes(':') ? `[${bare}]` : bare}:${port}`;
}

/**
 * The connector of connections through `proxy`. The proxy itself is reached with `proxyTls`
 * (an https proxy), the target inside the tunnel with `options.tls`.
 */
export function createProxyConnector(
  proxy: URL,
  options: ConnectorOptions,
  proxyTls: ConnectorOptions['tls'] = options.tls,
): Connector {
  // The proxy is verified by its own name, never the target's tls-server-name.
  const { servername: _targetName, ...towardsProxy } = proxyTls;
  const toProxy = createConnector({ ...options, tls: towardsProxy });
  const proxyTarget = {
    host: proxy.hostname,
    port: Number(proxy.port) || (proxy.protocol === 'https:' ? 443 : 80),
    tls: proxy.protocol === 'https:',
  };
  const authorization = proxyAuthorization(proxy);
  return (target, callback) => {
    toProxy(proxyTarget, (err, socket) => {
      if (err || !socket) return callback(err ?? new Error('no socket'), null);
      if (!target.tls) return callback(null, socket);
      tunnel(socket, connectAuthority(target.host, target.port), authorization, options, (tunnelErr, tunnelled) => {
        if (tunnelErr || !tunnelled) return callback(tunnelErr ?? new Error('no socket'), null);
        startTls(tunnelled, bareHost(target.host), options, callback);
      });
    });
  };
}

/** Asks the proxy on `socket` for a tunnel to `authority`; calls back with the tunnel's socket. */
function tunnel(
  socket: Socket,
  authority: string,
  authorization: string | undefined,
  options: Pick<ConnectorOptions, 'connectTimeoutMs' | 'clock'>,
  callback: (err: Error | null, socket: Socket | null) => void,
): void {
  let done = false;
  const finish = (err: Error | null, tunnelled: Socket | null): void => {
    if (done) return;
    done = true;
    timer.cancel();
    if (err) socket.destroy();
    callback(err, err ? null : tunnelled);
  };
  const req = httpRequest({
    method: 'CONNECT',
    path: authority,
    headers: { host: authority, ...(authorization !== undefined ? { 'proxy-authorization': authorization } : {}) },
    createConnection: () => socket,
  });
  const timer = options.clock.setTimer(options.connectTimeoutMs, () =>
    finish(
      new NetworkLimitError(
        'CONNECT_TIMEOUT',
        `proxyconnect tcp: no answer to CONNECT ${authority} (${options.connectTimeoutMs} ms)`,
      ),
      null,
    ),
  );
  req.once('connect', (res: IncomingMessage, tunnelled: Socket, head: Buffer) => {
    if (res.statusCode !== 200) {
      finish(
        new Error(`proxy refused CONNECT ${authority}: ${res.statusCode ?? 0} ${res.statusMessage ?? ''}`.trim()),
        null,
      );
      return;
    }
    if (head.length > 0) tunnelled.unshift(head);
    finish(null, tunnelled);
  });
  req.once('error', (err: Error) => finish(err, null));
  req.end();
}
