/** A logger whose JSON lines tests can read, as `kubectl logs` would show them. */
import { Writable } from 'node:stream';
import { createLogger, type Logger } from './log.js';

/** A pino logger at `level` writing into `lines` (one parsed object per line, of the shape the test expects). */
export function capturedLogger<T extends object = Record<string, unknown>>(
  level = 'info',
): { logger: Logger; lines: T[] } {
  const lines: T[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done): void {
      for (const line of String(chunk).split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line) as T);
      done();
    },
  });
  return { logger: createLogger({ level, destination }), lines };
}
