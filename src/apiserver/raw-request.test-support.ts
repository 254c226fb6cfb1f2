/** Requests sent as written, for tests of how the API server takes malformed ones. */
import { request } from 'node:http';

/** What came back. */
export interface RawReply {
  status: number;
  contentType: string;
  text: string;
}

/**
 * One request to `baseUrl` with the path byte for byte (node:http does not normalise it, unlike
 * fetch). A body always has its Content-Length: Node's client sends a GET's or DELETE's body
 * unframed otherwise, which no real client does (the server would read it as the next request).
 */
export function sendRaw(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: Buffer | string,
): Promise<RawReply> {
  const framed = body === undefined ? headers : { ...headers, 'Content-Length': String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}${path}`, { method, headers: framed }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers['content-type'] ?? ''),
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}
