import { searchKey } from '../../shared/search.ts';

/**
 * The `search_text` of a registry entry (resellers, migration 0022): its name and company name
 * folded as searches compare them (lower case, accents removed), split into words on anything
 * that is not a letter or digit, each word preceded by one space. So ` word` found in it means a
 * word starting with `word`, and any part of a word is found by `word`. Written on every write of
 * an entry (form, import); the registry's searches fold what is typed with `searchKey`.
 */
export function registrySearchText(name: string, registeredName: string): string {
  const words = searchKey(`${name} ${registeredName}`)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
  return words.map((word) => ` ${word}`).join('');
}
