/** Rows per multi-row statement: far under both engines' limit of bound parameters. */
const CHUNK = 500;

/** `items` in slices of at most 500, one multi-row statement each. */
export function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
