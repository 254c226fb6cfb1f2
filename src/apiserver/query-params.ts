/**
 * Typed query parameters, refused as kube-apiserver refuses them: integer parameters (`limit`,
 * `timeoutSeconds`) go through Go's `strconv.ParseInt`, and a list's or watch's `resourceVersion`
 * through `strconv.ParseUint`; a value they reject is a 400 with Go's words, never ignored.
 */
import { goQuote } from './field-errors.js';
import { apiErrors } from './status.js';

const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** An integer parameter as `strconv.ParseInt(text, 10, 64)` reads it; undefined when absent. */
export function int64Param(query: URLSearchParams, name: string): number | undefined {
  const text = query.get(name);
  if (text === null) return undefined;
  if (!/^[+-]?[0-9]+$/.test(text))
    throw apiErrors.badRequest(`strconv.ParseInt: parsing ${goQuote(text)}: invalid syntax`);
  const value = BigInt(text);
  if (value > INT64_MAX || value < -INT64_MAX - 1n)
    throw apiErrors.badRequest(`strconv.ParseInt: parsing ${goQuote(text)}: value out of range`);
  return Number(value);
}

/** Checks a list's or watch's `resourceVersion` as the storage layer parses it ('' and absent mean none). */
export function checkResourceVersionParam(query: URLSearchParams): void {
  const text = query.get('resourceVersion');
  if (text === null || text === '') return;
  const problem = !/^[0-9]+$/.test(text) ? 'invalid syntax' : BigInt(text) > UINT64_MAX ? 'value out of range' : '';
  if (problem !== '')
    throw apiErrors.badRequest(
      `resourceVersion: Invalid value: ${goQuote(text)}: strconv.ParseUint: parsing ${goQuote(text)}: ${problem}`,
    );
}
