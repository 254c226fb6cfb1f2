/**
 * A strict reader of the Prometheus text exposition format (0.0.4) for tests: families with their
 * HELP, TYPE and samples, label values unescaped. Throws on anything malformed, on a sample
 * without a TYPE line, and on a duplicated series, so a test that reads the output also checks it.
 */

/** One sample line. */
export interface ParsedSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** One metric family. */
export interface ParsedFamily {
  name: string;
  help: string;
  type: string;
  samples: ParsedSample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/;

function parseValue(text: string, line: number): number {
  if (text === '+Inf') return Number.POSITIVE_INFINITY;
  if (text === '-Inf') return Number.NEGATIVE_INFINITY;
  // Prometheus parses floats as Go does: NaN in any case (prom-client writes `Nan`).
  if (text.toLowerCase() === 'nan') return Number.NaN;
  const v = Number(text);
  if (text === '' || Number.isNaN(v)) throw new Error(`line ${line}: bad value ${JSON.stringify(text)}`);
  return v;
}

function parseSample(text: string, line: number): ParsedSample {
  const name = NAME.exec(text)?.[0];
  if (!name) throw new Error(`line ${line}: no metric name in ${JSON.stringify(text)}`);
  let i = name.length;
  const labels: Record<string, string> = {};
  if (text[i] === '{') {
    i++;
    while (text[i] !== '}') {
      const label = LABEL_NAME.exec(text.slice(i))?.[0];
      if (!label) throw new Error(`line ${line}: bad label name at ${i}`);
      i += label.length;
      if (text[i] !== '=' || text[i + 1] !== '"') throw new Error(`line ${line}: expected =" after ${label}`);
      i += 2;
      let value = '';
      for (;;) {
        const c = text[i];
        if (c === undefined) throw new Error(`line ${line}: unterminated label value`);
        i++;
        if (c === '"') break;
        if (c === '\\') {
          const e = text[i++];
          if (e === 'n') value += '\n';
          else if (e === '\\' || e === '"') value += e;
          else throw new Error(`line ${line}: bad escape \\${e ?? ''}`);
        } else {
          value += c;
        }
      }
      if (label in labels) throw new Error(`line ${line}: duplicate label ${label}`);
      labels[label] = value;
      if (text[i] === ',') i++;
      else if (text[i] !== '}') throw new Error(`line ${line}: expected , or } at ${i}`);
    }
    i++;
  }
  if (text[i] !== ' ') throw new Error(`line ${line}: expected a space before the value`);
  const [value, timestamp, ...rest] = text.slice(i + 1).split(' ');
  if (rest.length > 0 || (timestamp !== undefined && !/^-?\d+$/.test(timestamp)))
    throw new Error(`line ${line}: trailing text`);
  return { name, labels, value: parseValue(value ?? '', line) };
}

function unescapeHelp(text: string): string {
  return text.replace(/\\(\\|n)/g, (_, c: string) => (c === 'n' ? '\n' : '\\'));
}

/** Parses exposition text into families keyed by name. */
export function parseExposition(text: string): Map<string, ParsedFamily> {
  const families = new Map<string, ParsedFamily>();
  const seen = new Set<string>();
  const family = (name: string): ParsedFamily => {
    let f = families.get(name);
    if (!f) {
      f = { name, help: '', type: '', samples: [] };
      families.set(name, f);
    }
    return f;
  };
  text.split('\n').forEach((raw, index) => {
    const line = index + 1;
    if (raw === '') return;
    const meta = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) ?(.*)$/.exec(raw);
    if (meta) {
      const f = family(meta[2]!);
      if (meta[1] === 'HELP') f.help = unescapeHelp(meta[3] ?? '');
      else f.type = meta[3] ?? '';
      return;
    }
    if (raw.startsWith('#')) return;
    const sample = parseSample(raw, line);
    // A histogram's or summary's samples carry a suffix after the family's name.
    const base = /^(.*)_(bucket|sum|count)$/.exec(sample.name)?.[1];
    const ofBase = base === undefined ? undefined : families.get(base);
    const f = ofBase && ['histogram', 'summary'].includes(ofBase.type) ? ofBase : families.get(sample.name);
    if (!f?.type) throw new Error(`line ${line}: sample of ${sample.name} without a TYPE line`);
    const key = JSON.stringify([sample.name, Object.entries(sample.labels).sort()]);
    if (seen.has(key)) throw new Error(`line ${line}: duplicate series ${key}`);
    seen.add(key);
    f.samples.push(sample);
  });
  return families;
}

/** The samples of one family (empty when it has none), failing when the family is not exposed at all. */
export function samplesOf(families: Map<string, ParsedFamily>, name: string): ParsedSample[] {
  const f = families.get(name);
  if (!f) throw new Error(`family ${name} is not exposed`);
  return f.samples;
}

/** The value of the one sample of `name` whose labels equal `labels` exactly, or undefined. */
export function valueOf(
  families: Map<string, ParsedFamily>,
  name: string,
  labels: Record<string, string>,
): number | undefined {
  const want = JSON.stringify(Object.entries(labels).sort());
  return samplesOf(families, name).find((s) => JSON.stringify(Object.entries(s.labels).sort()) === want)?.value;
}
