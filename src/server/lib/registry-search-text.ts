import { searchKey } from '../../shared/search.ts';

/**
 * A registry entry's `search_text` (resellers.search_text): its name and company name folded as
 * searches compare them (lower case, no accents), split into words at anything but letters and
 * digits, each word preceded by one space. A word's prefix `p` is then found by
 * `search_text like '% p%'` on both engines, without a full-text index.
 */
export function registrySearchText(name: string, registeredName: string): string {
  const words = searchKey(`${name} ${registeredName}`)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
  return words.map((word) => ` ${word}`).join('');
}
