/**
 * A parser of the Prometheus text exposition format (version 0.0.4, and the sample lines of
 * OpenMetrics 1.0): what a `/metrics` endpoint answers. Written here because no installed
 * package parses it (prom-client only produces it) and the health check needs just the
 * samples: names, labels and values. Comments (`# HELP`, `# TYPE`, `# EOF`) are skipped; the
 * timestamp and an OpenMetrics exemplar after the value are accepted and ignored.
 */
import { parsePromValue } from '../../integrations/prom-value.js';

/** One sample line. */
export interface ExpositionSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** A line that is not valid exposition text. */
export class ExpositionParseError extends Error {
  readonly line: number;
  constructor(line: number, message: string) {
    super(`line ${line}: ${message}`);
    this.name = 'ExpositionParseError';
    this.line = line;
  }
}

const NAME_START = /[a-zA-Z_:]/;
const NAME_CHAR = /[a-zA-Z0-9_:]/;
const LABEL_START = /[a-zA-Z_]/;
const LABEL_CHAR = /[a-zA-Z0-9_]/;

class LineReader {
  pos = 0;
  readonly text: string;
  readonly lineNo: number;
  constructor(text: string, lineNo: number) {
    this.text = text;
    this.lineNo = lineNo;
  }
  peek(): string {
    return this.text[this.pos] ?? '';
  }
  fail(message: string): never {
    throw new ExpositionParseError(this.lineNo, `${message} at column ${this.pos + 1}`);
  }
  skipSpaces(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.pos++;
  }
  identifier(start: RegExp, rest: RegExp, what: string): string {
    const from = this.pos;
    if (!start.test(this.peek())) this.fail(`expected ${what}`);
    this.pos++;
    while (rest.test(this.peek())) this.pos++;
    return this.text.slice(from, this.pos);
  }
  quoted(): string {
    if (this.peek() !== '"') this.fail('expected "');
    this.pos++;
    let out = '';
    for (;;) {
      const c = this.peek();
      if (c === '') this.fail('unterminated label value');
      this.pos++;
      if (c === '"') return out;
      if (c === '\\') {
        const e = this.peek();
        this.pos++;
        if (e === 'n') out += '\n';
        else if (e === '\\' || e === '"') out += e;
        else this.fail(`invalid escape \\${e}`);
      } else {
        out += c;
      }
    }
  }
  token(): string {
    const from = this.pos;
    while (this.pos < this.text.length && this.peek() !== ' ' && this.peek() !== '\t') this.pos++;
    return this.text.slice(from, this.pos);
  }
}

function parseLabels(lineReader: LineReader): Record<string, string> {
  const labels: Record<string, string> = {};
  lineReader.pos++; // '{'
  for (;;) {
    lineReader.skipSpaces();
    if (lineReader.peek() === '}') {
      lineReader.pos++;
      return labels;
    }
    const name = lineReader.identifier(LABEL_START, LABEL_CHAR, 'label name');
    lineReader.skipSpaces();
    if (lineReader.peek() !== '=') lineReader.fail('expected =');
    lineReader.pos++;
    lineReader.skipSpaces();
    if (Object.hasOwn(labels, name)) lineReader.fail(`duplicate label ${name}`);
    labels[name] = lineReader.quoted();
    lineReader.skipSpaces();
    if (lineReader.peek() === ',') lineReader.pos++;
    else if (lineReader.peek() !== '}') lineReader.fail('expected , or }');
  }
}

function parseLine(text: string, lineNo: number): ExpositionSample {
  const r: LineReader = new LineReader(text, lineNo);
  r.skipSpaces();
  const name = r.identifier(NAME_START, NAME_CHAR, 'metric name');
  r.skipSpaces();
  const labels = r.peek() === '{' ? parseLabels(r) : {};
  r.skipSpaces();
  const valueText = r.token();
  const value = parsePromValue(valueText);
  if (value === undefined) r.fail(`invalid value ${JSON.stringify(valueText)}`);
  r.skipSpaces();
  if (r.pos < text.length && r.peek() !== '#') {
    const ts = r.token();
    if (!/^-?\d+(\.\d+)?$/.test(ts)) r.fail(`invalid timestamp ${JSON.stringify(ts)}`);
    r.skipSpaces();
    if (r.pos < text.length && r.peek() !== '#') r.fail('unexpected text after the timestamp');
  }
  return { name, labels, value };
}

/** Parses exposition text; throws {@link ExpositionParseError} on the first bad line. */
export function parseExposition(text: string): ExpositionSample[] {
  const samples: ExpositionSample[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? '').replace(/\r$/, '');
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    samples.push(parseLine(line, i + 1));
  }
  return samples;
}
