import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { readRequestBody, RequestBodyTooLargeError } from './request-body.js';

/** POSTs `body` on a keep-alive agent-less connection and returns the status and answer. */
function post(port: number, body: Buffer | string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

void describe('readRequestBody', () => {
  let server: Server;
  let port = 0;
  before(async () => {
    server = createServer((req, res) => {
      readRequestBody(req, 1024).then(
        (text) => res.end(`ok:${text}`),
        (err: unknown) => {
          res.statusCode = err instanceof RequestBodyTooLargeError ? 413 : 500;
          res.end(err instanceof Error ? err.message : String(err));
        },
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  void it('reads a body sent in several chunks, multi-byte characters split across them', async () => {
    const text = 'grüezi '.repeat(100);
    const bytes = Buffer.from(text, 'utf8');
    const answer = await new Promise<string>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/' }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      });
      req.on('error', reject);
      // Split inside the two-byte "ü" of the first word.
      req.write(bytes.subarray(0, 3));
      setImmediate(() => req.end(bytes.subarray(3)));
    });
    assert.equal(answer.length, 'ok:'.length + text.length);
    assert.equal(answer, `ok:${text}`);
  });

  void it('reads an empty body', async () => {
    assert.deepEqual(await post(port, ''), { status: 200, text: 'ok:' });
  });

  void it('rejects a body over the limit and the server still answers it and the next request', async () => {
    const big = await post(port, Buffer.alloc(64 * 1024, 0x61));
    assert.equal(big.status, 413);
    assert.equal(big.text, 'request body larger than 1024 bytes');
    assert.deepEqual(await post(port, 'x'.repeat(1024)), { status: 200, text: `ok:${'x'.repeat(1024)}` });
  });
});
