/**
 * Parsers of flags that several commands share. Like every module under `src/cli/commands/`, this
 * one loads only light modules: it is loaded by every start of the CLI.
 */
import { InvalidArgumentError } from '../commander-package.js';
import { parseGoDurationMs } from '../../lib/go-duration.js';
import { parseRfc3339 } from '../../lib/rfc3339.js';

/** The `--from`/`--time` flag: an RFC 3339 time (`2024-03-01T00:00:00Z`, `2024-03-01T01:00:00+01:00`) as epoch ms. */
export function parseTimeFlag(value: string): number {
  const ms = parseRfc3339(value);
  if (ms === undefined) throw new InvalidArgumentError('must be an RFC 3339 time such as 2024-03-01T00:00:00Z');
  return ms;
}

/** A repeatable flag: every value given, in order. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** A Go duration flag that may be 0, in ms. */
export function parseNonNegativeDuration(value: string): number {
  const r = parseGoDurationMs(value);
  if (!r.ok) throw new InvalidArgumentError(r.error);
  if (r.ms < 0) throw new InvalidArgumentError('must not be negative');
  return r.ms;
}
