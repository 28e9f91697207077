/** Text as searches compare it: lower case and without accents ("Peña" is found by "pena"). */
export function searchKey(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}
