import { describe, expect, it } from 'vitest';
import { resellerNameKey } from './duplicate-nominees.ts';

/** The rule as first written (Unicode normalisation and regular expressions), for comparison. */
function ruleKey(name: string): string {
  const tokens = name
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replaceAll('.', '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((token) => token !== '');
  const suffixes = [['sa'], ['srl'], ['sas'], ['s', 'a'], ['s', 'r', 'l'], ['s', 'a', 's']];
  let stripped = true;
  while (stripped && tokens.length > 0) {
    stripped = false;
    for (const suffix of suffixes) {
      const tail = tokens.slice(-suffix.length);
      if (tail.length === suffix.length && suffix.every((token, i) => tail[i] === token)) {
        tokens.splice(-suffix.length);
        stripped = true;
        break;
      }
    }
  }
  return tokens.join('');
}

describe('resellerNameKey without Unicode normalisation', () => {
  it('agrees with the rule on 20,000 generated names of ASCII, Spanish accents and others', () => {
    const alphabet = [
      ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
      ...' .,-&/()^`~!"\'_*+',
      ...'áéíóúüñÁÉÍÓÚÜÑàèçÇãõ',
      ...'ßøÆ\u00a0\u0301ĳİ',
      ' SA',
      ' S.A.',
      ' SRL',
      ' S.R.L.',
      ' s a s',
    ];
    let seed = 27;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 20_000; i++) {
      const length = 1 + Math.floor(random() * 14);
      const name = Array.from(
        { length },
        () => alphabet[Math.floor(random() * alphabet.length)] ?? '',
      ).join('');
      expect(resellerNameKey(name), name).toBe(ruleKey(name));
    }
  });
});
