/**
 * Prometheus' sample values, read without its HTTP client: the exposition-format check of
 * `validate` needs them and must not load the HTTP client (docs/benchmarks.md#start-up-and-footprint-issue-17).
 */

/**
 * A sample value as Prometheus writes it, in its HTTP API and in the exposition format: what
 * Go's strconv.ParseFloat accepts there (decimal, exponent, hex, `NaN`, `±Inf`).
 */
export function parsePromValue(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  switch (text) {
    case 'NaN':
      return NaN;
    case '+Inf':
    case 'Inf':
      return Infinity;
    case '-Inf':
      return -Infinity;
  }
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) && !/^[+-]?0[xX][0-9a-fA-F]+$/.test(text)) return undefined;
  return Number(text);
}
