/**
 * Decoding of a watch stream: newline-delimited JSON watch events (metav1.WatchEvent). A line
 * that is not a watch event is an error, never silently skipped (client-node's watch drops
 * such lines, which hides protocol problems).
 */
import { isJsonObject, type JsonObject } from '../lib/json.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** One watch event. For ERROR the object is a metav1.Status. */
export interface WatchEvent<T = JsonObject> {
  type: WatchEventType;
  object: T;
}

const TYPES: ReadonlySet<string> = new Set(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']);

/** Splits chunks into complete lines, keeping the partial tail for the next chunk. */
export class LineSplitter {
  #tail = '';
  readonly #decoder = new TextDecoder();

  /** Complete, non-blank lines found so far. */
  push(chunk: Uint8Array | string): string[] {
    this.#tail += typeof chunk === 'string' ? chunk : this.#decoder.decode(chunk, { stream: true });
    const parts = this.#tail.split('\n');
    this.#tail = parts.pop() ?? '';
    return parts.filter((l) => l.trim() !== '');
  }

  /** What is left when the stream ends (a last line without a newline). */
  end(): string[] {
    const rest = this.#tail + this.#decoder.decode();
    this.#tail = '';
    return rest.trim() === '' ? [] : [rest];
  }
}

/** Parses one line into a watch event; throws on anything else. */
export function parseWatchLine(line: string): WatchEvent {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch (err) {
    throw new Error(`watch: undecodable line: ${line.slice(0, 200)}`, { cause: err });
  }
  if (
    !isJsonObject(parsed) ||
    typeof parsed.type !== 'string' ||
    !TYPES.has(parsed.type) ||
    !isJsonObject(parsed.object)
  ) {
    throw new Error(`watch: not a watch event: ${line.slice(0, 200)}`);
  }
  return { type: parsed.type as WatchEventType, object: parsed.object };
}
