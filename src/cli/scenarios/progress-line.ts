/** Pieces of the live progress lines of `simulate`. */

/** `+hh:mm:ss` of virtual time. */
export function formatElapsed(ms: number): string {
  const s = Math.floor(ms / 1000);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `+${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/** Pools in name order as `name updated/total`. */
export function poolsText(pools: Readonly<Record<string, readonly [number, number]>>): string {
  return Object.entries(pools)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, [updated, total]]) => `${name} ${updated}/${total}`)
    .join('  ');
}
