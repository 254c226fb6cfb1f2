/**
 * The simulation's servers listen on loopback ports the kernel picks, so their URLs differ from
 * run to run (an alert's `upstream` label, ClusterVersion's `spec.upstream`, a "Get
 * http://127.0.0.1:41733/…: connection refused" message). A report replaces each with a named
 * placeholder (`{update-service}`), so that one seed gives byte-identical reports.
 */

/** One replacement: every occurrence of `url` (an origin, no trailing slash) becomes `placeholder`. */
export interface UrlPlaceholder {
  url: string;
  placeholder: string;
}

/** `text` with every placeholder's URL replaced where no further port digit follows (`:80` is not `:8080`). */
export function replaceUrls(text: string, placeholders: readonly UrlPlaceholder[]): string {
  let out = text;
  for (const p of placeholders) {
    if (p.url === '' || !out.includes(p.url)) continue;
    out = out.replace(
      new RegExp(`${p.url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?![0-9])`, 'g'),
      () => p.placeholder,
    );
  }
  return out;
}

/** A copy of a JSON-like value with every string (keys included) passed through {@link replaceUrls}. */
export function withPlaceholders<T>(value: T, placeholders: readonly UrlPlaceholder[]): T {
  if (placeholders.every((p) => p.url === '')) return value;
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return replaceUrls(value, placeholders);
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, x]) => [replaceUrls(k, placeholders), walk(x)]));
    return value;
  };
  return walk(value) as T;
}
