/**
 * Field selectors (`metadata.name=x,status.phase!=Running`), parsed like
 * k8s.io/apimachinery/pkg/fields and checked against the field labels a kind supports.
 */

export interface FieldRequirement {
  field: string;
  operator: '=' | '!=';
  value: string;
}

export interface FieldSelector {
  requirements: FieldRequirement[];
}

/** A selector that does not parse or names an unsupported field; the message is apimachinery's. */
export class FieldSelectorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FieldSelectorError';
  }
}

/** Splits on commas not escaped with a backslash. */
function splitTerms(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  let escaped = false;
  for (const c of text) {
    if (escaped) {
      cur += c;
      escaped = false;
    } else if (c === '\\') {
      cur += c;
      escaped = true;
    } else if (c === ',') {
      out.push(cur);
      cur = '';
    } else {
      cur += c;
    }
  }
  out.push(cur);
  return out;
}

function splitTerm(term: string): [string, '=' | '!=', string] | undefined {
  let escaped = false;
  for (let i = 0; i < term.length; i++) {
    if (escaped) {
      escaped = false;
      continue;
    }
    if (term[i] === '\\') {
      escaped = true;
      continue;
    }
    for (const [op, norm] of [
      ['!=', '!='],
      ['==', '='],
      ['=', '='],
    ] as const) {
      if (term.startsWith(op, i)) return [term.slice(0, i), norm, term.slice(i + op.length)];
    }
  }
  return undefined;
}

function unescape(value: string): string {
  let out = '';
  let escaped = false;
  for (const c of value) {
    if (escaped) {
      if (c !== '\\' && c !== ',' && c !== '=')
        throw new FieldSelectorError(`invalid field selector: unrecognized escape sequence \\${c}`);
      out += c;
      escaped = false;
    } else if (c === '\\') {
      escaped = true;
    } else if (c === ',' || c === '=') {
      throw new FieldSelectorError(`invalid field selector: unescaped character ${c}`);
    } else {
      out += c;
    }
  }
  if (escaped) throw new FieldSelectorError('invalid field selector: unterminated escape sequence');
  return out;
}

/** Parses a field selector; throws FieldSelectorError on syntax errors. */
export function parseFieldSelector(selector: string): FieldSelector {
  const requirements: FieldRequirement[] = [];
  for (const part of splitTerms(selector).sort()) {
    if (part === '') continue;
    const t = splitTerm(part);
    if (!t) throw new FieldSelectorError(`invalid selector: '${selector}'; can't understand '${part}'`);
    requirements.push({ field: t[0], operator: t[1], value: unescape(t[2]) });
  }
  return { requirements };
}

/** Throws `field label not supported: x` for a field the kind has no label for. */
export function checkFieldsSupported(selector: FieldSelector, supported: ReadonlySet<string>): void {
  for (const r of selector.requirements)
    if (!supported.has(r.field)) throw new FieldSelectorError(`field label not supported: ${r.field}`);
}

/** True when the field labels satisfy every requirement. */
export function matchesFields(selector: FieldSelector, fields: Readonly<Record<string, string>>): boolean {
  for (const r of selector.requirements) {
    const v = fields[r.field] ?? '';
    if (r.operator === '=' ? v !== r.value : v === r.value) return false;
  }
  return true;
}
