/**
 * The subset of Prometheus' alert templating used by the simulated rules: `{{ $labels.name }}`,
 * `{{ $value }}`, `{{ $externalLabels.name }}`, with the pipes `humanize` and
 * `humanizePercentage`. Go's text/template is not available in JavaScript and the rules are
 * ours, so only these forms are understood; anything else expands to Prometheus' error text.
 */

/** What a template can refer to. */
export interface TemplateData {
  labels: Readonly<Record<string, string>>;
  externalLabels: Readonly<Record<string, string>>;
  value: number;
}

/** Go's `%v` for a float64 (shortest representation, exponent for very large/small). */
export function goFloat(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  const abs = Math.abs(value);
  if (abs !== 0 && (abs < 1e-4 || abs >= 1e21)) {
    return value.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
  }
  return String(value);
}

function humanize(value: number): string {
  if (value === 0 || Number.isNaN(value) || !Number.isFinite(value)) return goFloat(value);
  const abs = Math.abs(value);
  const big = ['', 'k', 'M', 'G', 'T', 'P', 'E', 'Z', 'Y'];
  const small = ['', 'm', 'u', 'n', 'p', 'f', 'a', 'z', 'y'];
  let x = value;
  let prefix = '';
  if (abs >= 1) {
    for (const p of big) {
      prefix = p;
      if (Math.abs(x) < 1000 || p === 'Y') break;
      x /= 1000;
    }
  } else {
    for (const p of small) {
      prefix = p;
      if (Math.abs(x) >= 1 || p === 'y') break;
      x *= 1000;
    }
  }
  return `${Number(x.toPrecision(4))}${prefix}`;
}

/** Expands a template; a form it does not know yields `<error expanding template: …>`. */
export function expandTemplate(text: string, data: TemplateData): string {
  try {
    return text.replace(/\{\{-?\s*(.*?)\s*-?\}\}/g, (_m, body: string) => expandAction(body, data));
  } catch (err) {
    return `<error expanding template: ${err instanceof Error ? err.message : String(err)}>`;
  }
}

function expandAction(body: string, data: TemplateData): string {
  const [head = '', ...pipes] = body.split('|').map((s) => s.trim());
  let value: string | number;
  let m: RegExpExecArray | null;
  if (head === '$value') value = data.value;
  else if ((m = /^\$labels\.([a-zA-Z_][a-zA-Z0-9_]*)$/.exec(head))) value = data.labels[m[1] ?? ''] ?? '<no value>';
  else if ((m = /^\$externalLabels\.([a-zA-Z_][a-zA-Z0-9_]*)$/.exec(head)))
    value = data.externalLabels[m[1] ?? ''] ?? '<no value>';
  else if ((m = /^"((?:[^"\\]|\\.)*)"$/.exec(head))) value = m[1] ?? '';
  else throw new Error(`unsupported template action {{ ${body} }}`);
  for (const p of pipes) {
    const n = typeof value === 'number' ? value : Number(value);
    if (p === 'humanize') value = humanize(n);
    else if (p === 'humanizePercentage') value = `${humanize(n * 100)}%`;
    else throw new Error(`unsupported template function ${JSON.stringify(p)}`);
  }
  return typeof value === 'number' ? goFloat(value) : value;
}
