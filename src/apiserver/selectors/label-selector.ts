/**
 * Label selectors in their string form (`app=web,tier in (a,b),!legacy`), parsed with the
 * grammar and error messages of k8s.io/apimachinery/pkg/labels. Written by hand: no library
 * reproduces apimachinery's lexer and its error texts, which kubectl users see verbatim.
 */
import { fieldErrorMessage, fieldError } from '../field-errors.js';
import type { JsonValue } from '../../lib/json.js';

export type LabelOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'gt' | 'lt' | 'exists' | '!';

export interface LabelRequirement {
  key: string;
  operator: LabelOperator;
  values: string[];
}

/** A parsed selector: the requirements are ANDed; none matches everything. */
export interface LabelSelector {
  requirements: LabelRequirement[];
}

/** A selector that does not parse; the message is apimachinery's. */
export class LabelSelectorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LabelSelectorError';
  }
}

type Tok = 'id' | 'in' | 'notin' | '!' | '!=' | '=' | '==' | '>' | '<' | '(' | ')' | ',' | 'end' | 'error';

const symbols = new Set(['!', '!=', '=', '==', '>', '<', '(', ')', ',']);
const special = new Set(['=', '!', '(', ')', ',', '>', '<']);

function lex(text: string): Array<[Tok, string]> {
  const out: Array<[Tok, string]> = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n') {
      i++;
    } else if (special.has(c)) {
      let lit = c;
      i++;
      while (i < text.length && special.has(text[i]!) && symbols.has(lit + text[i]!)) lit += text[i++]!;
      out.push([symbols.has(lit) ? (lit as Tok) : 'error', lit]);
    } else {
      let lit = '';
      while (i < text.length && !special.has(text[i]!) && !' \t\r\n'.includes(text[i]!)) lit += text[i++]!;
      out.push([lit === 'in' ? 'in' : lit === 'notin' ? 'notin' : 'id', lit]);
    }
  }
  out.push(['end', '']);
  return out;
}

const qualifiedNameFmt = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const qualifiedNameRe = new RegExp(`^${qualifiedNameFmt}$`);
const labelValueFmt = `(${qualifiedNameFmt})?`;
const labelValueRe = new RegExp(`^${labelValueFmt}$`);
const subdomainFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*';
const subdomainRe = new RegExp(`^${subdomainFmt}$`);

function regexError(msg: string, fmt: string, ...examples: string[]): string {
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;
}

const qualifiedNameMsg =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/** validation.IsQualifiedName: problems of a label key (empty when valid). */
export function qualifiedNameProblems(value: string): string[] {
  const parts = value.split('/');
  let name: string;
  const errs: string[] = [];
  if (parts.length === 1) {
    name = parts[0]!;
  } else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else {
      if (prefix.length > 253) errs.push('prefix part must be no more than 253 characters');
      if (!subdomainRe.test(prefix)) {
        errs.push(
          `prefix part ${regexError("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character", subdomainFmt, 'example.com')}`,
        );
      }
    }
  } else {
    return [
      `a qualified name ${regexError(qualifiedNameMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push('name part must be no more than 63 characters');
  if (name.length > 0 && !qualifiedNameRe.test(name))
    errs.push(`name part ${regexError(qualifiedNameMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

/** validation.IsValidLabelValue: problems of a label value (empty when valid). */
export function labelValueProblems(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!labelValueRe.test(value)) {
    errs.push(
      regexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        labelValueFmt,
        'MyValue',
        'my_value',
        '12345',
      ),
    );
  }
  return errs;
}

function invalid(field: string, value: JsonValue, detail: string): LabelSelectorError {
  return new LabelSelectorError(fieldErrorMessage(fieldError.invalid(field, value, detail)));
}

class Parser {
  #toks: Array<[Tok, string]>;
  #pos = 0;
  constructor(text: string) {
    this.#toks = lex(text);
  }

  /** In the Values context, `in` and `notin` are plain identifiers. */
  #read(values: boolean, advance: boolean): [Tok, string] {
    const t = this.#toks[Math.min(this.#pos, this.#toks.length - 1)]!;
    if (advance) this.#pos++;
    if (values && (t[0] === 'in' || t[0] === 'notin')) return ['id', t[1]];
    return t;
  }
  peek(values = true): [Tok, string] {
    return this.#read(values, false);
  }
  next(values = true): [Tok, string] {
    return this.#read(values, true);
  }

  parse(): LabelRequirement[] {
    const reqs: LabelRequirement[] = [];
    for (;;) {
      const [tok, lit] = this.peek();
      if (tok === 'id' || tok === '!') {
        let r: LabelRequirement;
        try {
          r = this.requirement();
        } catch (err) {
          throw new LabelSelectorError(`unable to parse requirement: ${(err as Error).message}`);
        }
        reqs.push(r);
        const [t, l] = this.next();
        if (t === 'end') return reqs;
        if (t === ',') {
          const [t2, l2] = this.peek();
          if (t2 !== 'id' && t2 !== '!') throw new LabelSelectorError(`found '${l2}', expected: identifier after ','`);
        } else {
          throw new LabelSelectorError(`found '${l}', expected: ',' or 'end of string'`);
        }
      } else if (tok === 'end') {
        return reqs;
      } else {
        throw new LabelSelectorError(`found '${lit}', expected: !, identifier, or 'end of string'`);
      }
    }
  }

  requirement(): LabelRequirement {
    let [tok, lit] = this.next();
    let op: LabelOperator | undefined;
    if (tok === '!') {
      op = '!';
      [tok, lit] = this.next();
    }
    if (tok !== 'id') throw new Error(`found '${lit}', expected: identifier`);
    const key = lit;
    const keyErrs = qualifiedNameProblems(key);
    if (keyErrs.length > 0) throw new Error(fieldErrorMessage(fieldError.invalid('key', key, keyErrs.join('; '))));
    if (op === '!') return { key, operator: op, values: [] };
    const [la] = this.peek();
    if (la === 'end' || la === ',') return { key, operator: 'exists', values: [] };
    const [ot, ol] = this.next(false);
    const opMap: Partial<Record<Tok, LabelOperator>> = {
      in: 'in',
      notin: 'notin',
      '=': '=',
      '==': '==',
      '!=': '!=',
      '>': 'gt',
      '<': 'lt',
    };
    const operator = opMap[ot];
    if (!operator) throw new Error(`found '${ol}', expected: in, notin, =, ==, !=, gt, lt`);
    const values = operator === 'in' || operator === 'notin' ? this.values() : this.exactValue();
    if (operator === 'gt' || operator === 'lt') {
      if (values.length !== 1)
        throw new Error(
          fieldErrorMessage(
            fieldError.invalid('values', values, "for 'Gt', 'Lt' operators, exactly one value is required"),
          ),
        );
      if (!/^-?\d+$/.test(values[0]!))
        throw new Error(
          fieldErrorMessage(
            fieldError.invalid('values[0]', values[0], "for 'Gt', 'Lt' operators, the value must be an integer"),
          ),
        );
    } else {
      values.forEach((value, index) => {
        const errs = labelValueProblems(value);
        if (errs.length > 0) throw invalid(`values[${index}][${key}]`, value, errs.join('; '));
      });
    }
    return { key, operator, values };
  }

  values(): string[] {
    const [tok, lit] = this.next();
    if (tok !== '(') throw new Error(`found '${lit}' expected: '('`);
    const [t2, l2] = this.peek();
    if (t2 === ')') {
      this.next();
      return [''];
    }
    if (t2 !== 'id' && t2 !== ',') throw new Error(`found '${l2}', expected: ',', ')' or identifier`);
    const set = new Set<string>();
    for (;;) {
      const [t, l] = this.next();
      if (t === 'id') {
        set.add(l);
        const [n, nl] = this.peek();
        if (n === ',') continue;
        if (n === ')') break;
        throw new Error(`found '${nl}', expected: ',' or ')'`);
      } else if (t === ',') {
        if (set.size === 0) set.add('');
        const [n] = this.peek();
        if (n === ')') {
          set.add('');
          break;
        }
        if (n === ',') {
          this.next();
          set.add('');
        }
      } else {
        throw new Error(`found '${l}', expected: ',', or identifier`);
      }
    }
    const [close] = this.next();
    if (close !== ')') throw new Error(`found '${l2}', expected: ')'`);
    return [...set].sort();
  }

  exactValue(): string[] {
    const [la] = this.peek();
    if (la === 'end' || la === ',') return [''];
    const [t, l] = this.next();
    if (t === 'id') return [l];
    throw new Error(`found '${l}', expected: identifier`);
  }
}

/** Parses a label selector string; throws LabelSelectorError with apimachinery's message. */
export function parseLabelSelector(selector: string): LabelSelector {
  return { requirements: new Parser(selector).parse() };
}

/** True when the labels satisfy every requirement. */
export function matchesLabels(selector: LabelSelector, labels: Readonly<Record<string, string>>): boolean {
  for (const r of selector.requirements) {
    const has = Object.hasOwn(labels, r.key);
    const v = has ? labels[r.key]! : undefined;
    switch (r.operator) {
      case 'in':
      case '=':
      case '==':
        if (v === undefined || !r.values.includes(v)) return false;
        break;
      case 'notin':
      case '!=':
        if (v !== undefined && r.values.includes(v)) return false;
        break;
      case 'exists':
        if (!has) return false;
        break;
      case '!':
        if (has) return false;
        break;
      case 'gt':
      case 'lt': {
        if (v === undefined || !/^-?\d+$/.test(v)) return false;
        const n = Number(v);
        const bound = Number(r.values[0]);
        if (r.operator === 'gt' ? !(n > bound) : !(n < bound)) return false;
        break;
      }
    }
  }
  return true;
}

/** The labels of an object's metadata as a string map. */
export function labelsOf(metadata: Readonly<Record<string, JsonValue>>): Record<string, string> {
  const l = metadata.labels;
  const out: Record<string, string> = {};
  if (l && typeof l === 'object' && !Array.isArray(l))
    for (const [k, v] of Object.entries(l)) if (typeof v === 'string') out[k] = v;
  return out;
}
