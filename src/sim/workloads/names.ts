/**
 * Generated names as Kubernetes controllers make them: the 5-character suffixes of
 * `generateName` (apimachinery `utilrand.String`, alphabet without vowels and look-alikes) and
 * the `pod-template-hash` of a pod template (FNV-32a of the template, SafeEncodeString'd).
 */
import type { Random } from '../../lib/random.js';
import { hashString } from '../../lib/random.js';

/** apimachinery's util/rand alphabet. */
export const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** A random suffix of `length` characters from the Kubernetes name alphabet. */
export function randomSuffix(random: Random, length = 5): string {
  let s = '';
  for (let i = 0; i < length; i++) s += NAME_ALPHABET[Math.floor(random.next() * NAME_ALPHABET.length)] ?? 'x';
  return s;
}

/** The `pod-template-hash` of a template: a stable hash of its JSON, encoded in the name alphabet (up to 10 characters). */
export function templateHash(template: unknown): string {
  const digits = String(hashString(stableJson(template)));
  let s = '';
  for (const d of digits) s += NAME_ALPHABET[Number(d) % NAME_ALPHABET.length] ?? 'x';
  return s;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${stableJson(x)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
