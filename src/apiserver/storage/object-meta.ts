/**
 * ObjectMeta rules kube-apiserver applies to every object: name formats (with apimachinery's
 * exact messages), generated names and uids.
 */
import type { Random } from '../../lib/random.js';
import { fieldError, type FieldError } from '../field-errors.js';
import type { NameRule } from '../builtin/kinds.js';

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const labelRe = new RegExp(`^${dns1123LabelFmt}$`);
const subdomainRe = new RegExp(`^${dns1123SubdomainFmt}$`);

/** apimachinery's validation.RegexError. */
function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  let out = `${msg} (e.g. `;
  examples.forEach((text, index) => {
    if (index > 0) out += ' or ';
    out += `'${text}', `;
  });
  return `${out}regex used for validation is '${fmt}')`;
}

/** Problems with a name under a rule, as apimachinery words them (empty when valid). */
export function nameProblems(name: string, rule: NameRule): string[] {
  const out: string[] = [];
  if (rule === 'path') {
    if (name === '.' || name === '..') out.push(`may not be '${name}'`);
    for (const bad of ['/', '%']) if (name.includes(bad)) out.push(`may not contain '${bad}'`);
    return out;
  }
  if (rule === 'label') {
    if (name.length > 63) out.push('must be no more than 63 characters');
    if (!labelRe.test(name)) {
      out.push(
        regexError(
          "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
          dns1123LabelFmt,
          'my-name',
          '123-abc',
        ),
      );
    }
    return out;
  }
  if (name.length > 253) out.push('must be no more than 253 characters');
  if (!subdomainRe.test(name)) {
    out.push(
      regexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
        dns1123SubdomainFmt,
        'example.com',
      ),
    );
  }
  return out;
}

/** Validates metadata.name / generateName / namespace on create. */
export function validateObjectName(
  meta: { name?: unknown; generateName?: unknown; namespace?: unknown },
  rule: NameRule,
  namespaced: boolean,
): FieldError[] {
  const errs: FieldError[] = [];
  const name = typeof meta.name === 'string' ? meta.name : '';
  const generateName = typeof meta.generateName === 'string' ? meta.generateName : '';
  if (name === '' && generateName === '') {
    errs.push(fieldError.required('metadata.name', 'name or generateName is required'));
  } else if (name !== '') {
    for (const p of nameProblems(name, rule)) errs.push(fieldError.invalid('metadata.name', name, p));
  } else {
    // generateName is checked with a placeholder suffix, as apimachinery's maskTrailingDash does.
    const masked =
      generateName.endsWith('-') && generateName.length > 1 ? `${generateName.slice(0, -1)}a` : generateName;
    for (const p of nameProblems(masked, rule)) errs.push(fieldError.invalid('metadata.generateName', generateName, p));
  }
  const ns = typeof meta.namespace === 'string' ? meta.namespace : '';
  if (namespaced) {
    if (ns === '') errs.push(fieldError.required('metadata.namespace'));
    else for (const p of nameProblems(ns, 'label')) errs.push(fieldError.invalid('metadata.namespace', ns, p));
  }
  return errs;
}

/** Characters kube's utilrand.String draws from (no vowels, no confusable digits). */
const generateAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

/** generateName + 5 random characters, as the real server does (names capped at 63 + 5). */
export function generatedName(prefix: string, random: Random): string {
  const base = prefix.length > 58 ? prefix.slice(0, 58) : prefix;
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += generateAlphabet[Math.floor(random.next() * generateAlphabet.length)] ?? 'x';
  return base + suffix;
}

/** A random (version 4) UUID drawn from the given source. */
export function randomUuid(random: Random): string {
  const bytes: number[] = [];
  for (let i = 0; i < 16; i++) bytes.push(Math.floor(random.next() * 256) & 0xff);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
