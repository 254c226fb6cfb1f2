/**
 * Reading an HTTP request's whole body, for the loopback servers the project runs (the embedded
 * API server and the simulated Prometheus, Alertmanager and OCM).
 */
import type { IncomingMessage } from 'node:http';

/** The body was larger than the reader's limit. */
export class RequestBodyTooLargeError extends Error {
  readonly limit: number;

  constructor(limit: number) {
    super(`request body larger than ${limit} bytes`);
    this.name = 'RequestBodyTooLargeError';
    this.limit = limit;
  }
}

/**
 * The body as UTF-8 text. With stream events rather than `for await`: the async iterator a
 * `for await` builds per request was a measurable share of the API server's small writes. Past
 * `maxBytes` it rejects with {@link RequestBodyTooLargeError} and discards the rest of the body,
 * so the connection stays usable for the error answer and the requests after it.
 */
export function readRequestBody(req: IncomingMessage, maxBytes = Number.POSITIVE_INFINITY): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        req.off('data', onData);
        req.resume();
        reject(new RequestBodyTooLargeError(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('error', reject);
    // A small body arrives in one chunk: decode it without concatenating a copy first.
    req.once('end', () =>
      resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')),
    );
  });
}
