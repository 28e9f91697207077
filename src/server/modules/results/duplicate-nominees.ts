import { DUPLICATE_REASONS, type DuplicateReason } from '../../../shared/duplicate-reasons.ts';

/** One row of a category's ranking, as far as finding duplicates needs it. */
export interface RankedNominee {
  fiscalId: string;
  resellerName: string;
  razonSocial: string;
  points: number;
}

/** Two fiscal ids that one or more rules tie together. */
export interface DuplicateLink {
  fiscalIds: [string, string];
  reasons: DuplicateReason[];
}

export interface DuplicateGroup<T extends RankedNominee = RankedNominee> {
  /** Most points first. */
  nominees: T[];
  /** Every rule behind the group, in the order of DUPLICATE_REASONS. */
  reasons: DuplicateReason[];
  /** The pairs that joined the group; together they connect all of it. */
  links: DuplicateLink[];
}

/**
 * Shorter digit strings are not compared by the one-digit rules: among short ids almost any two
 * are one digit apart, which says nothing about being the same reseller. Real fiscal ids (CUIT,
 * RUT, NIF) have 8 to 11 digits.
 */
export const MIN_DIGITS_FOR_NEAR_MATCH = 6;

/** The digits of a fiscal id without leading zeros: what a spreadsheet or a typist keeps of it. */
export function fiscalIdDigits(fiscalId: string): string {
  return fiscalId.replace(/\D/g, '').replace(/^0+/, '');
}

/** Legal forms written after a company's name, as tokens once the dots are gone. */
const LEGAL_SUFFIXES = [['sa'], ['srl'], ['sas'], ['s', 'a'], ['s', 'r', 'l'], ['s', 'a', 's']];

/**
 * A reseller name as compared: no accents, case, punctuation, spacing or trailing legal form, so
 * "Distribuidora Peña S.R.L." and "DISTRIBUIDORA PENA SRL" agree. Empty when nothing is left (a
 * name that is only "S.A." says nothing about who it is).
 */
export function resellerNameKey(name: string): string {
  const tokens = name
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replaceAll('.', '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((token) => token !== '');
  let stripped = true;
  while (stripped && tokens.length > 0) {
    stripped = false;
    for (const suffix of LEGAL_SUFFIXES) {
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

class DisjointSets {
  private readonly parent: number[];
  constructor(size: number) {
    this.parent = Array.from({ length: size }, (_, i) => i);
  }
  find(item: number): number {
    let root = item;
    while (this.parent[root] !== root) root = this.parent[root] ?? root;
    let next = item;
    while (next !== root) {
      const up = this.parent[next] ?? root;
      this.parent[next] = root;
      next = up;
    }
    return root;
  }
  union(a: number, b: number): void {
    const rootA = this.find(a);
    const rootB = this.find(b);
    if (rootA !== rootB) this.parent[Math.max(rootA, rootB)] = Math.min(rootA, rootB);
  }
}

/**
 * Groups of fiscal ids that are probably one reseller whose votes were split. Two ids are linked
 * when their digits without leading zeros are equal; when they differ only in the last digit
 * (a wrong or a missing check digit); when they are one digit apart (one digit changed, added or
 * dropped); or when a reseller name or razón social of one equals one of the other's once
 * normalised (resellerNameKey). A group is everything linked directly or through others.
 *
 * The one-digit rules look ids up by their one-deletion variants instead of comparing all pairs:
 * two different strings are one edit apart exactly when they share a variant with the same digit
 * deleted (a change) or one is a variant of the other (an addition), so each id costs its length
 * in lookups.
 */
export function findDuplicateNominees<T extends RankedNominee>(
  nominees: readonly T[],
): DuplicateGroup<T>[] {
  const unique = [...new Map(nominees.map((nominee) => [nominee.fiscalId, nominee])).values()];
  const sets = new DisjointSets(unique.length);
  const reasonsByPair = new Map<
    string,
    { pair: [number, number]; reasons: Set<DuplicateReason> }
  >();
  const link = (a: number, b: number, reason: DuplicateReason) => {
    if (a === b) return;
    const pair: [number, number] = a < b ? [a, b] : [b, a];
    const key = `${pair[0]}:${pair[1]}`;
    const entry = reasonsByPair.get(key) ?? { pair, reasons: new Set<DuplicateReason>() };
    entry.reasons.add(reason);
    reasonsByPair.set(key, entry);
    sets.union(a, b);
  };

  // Equal digits: every id of a digit string links to the first one.
  const idsByDigits = new Map<string, number[]>();
  unique.forEach((nominee, index) => {
    const digits = fiscalIdDigits(nominee.fiscalId);
    if (digits === '') return;
    const ids = idsByDigits.get(digits) ?? [];
    ids.push(index);
    idsByDigits.set(digits, ids);
  });
  for (const ids of idsByDigits.values()) {
    for (const other of ids.slice(1)) link(ids[0] ?? other, other, 'sameDigits');
  }

  // One digit apart, between different digit strings (each represented by its first id).
  const longEnough = [...idsByDigits.keys()].filter((d) => d.length >= MIN_DIGITS_FOR_NEAR_MATCH);
  const representative = (digits: string) => idsByDigits.get(digits)?.[0] ?? -1;
  const byDeletion = new Map<string, string[]>();
  for (const digits of longEnough) {
    for (let position = 0; position < digits.length; position += 1) {
      const variant = digits.slice(0, position) + digits.slice(position + 1);
      const changed = `${position}:${variant}`;
      for (const other of byDeletion.get(changed) ?? []) {
        if (other === digits) continue;
        const lastDigit = position === digits.length - 1;
        link(
          representative(other),
          representative(digits),
          lastDigit ? 'lastDigit' : 'oneDigitApart',
        );
      }
      const bucket = byDeletion.get(changed);
      if (bucket) bucket.push(digits);
      else byDeletion.set(changed, [digits]);
      if (variant.length >= MIN_DIGITS_FOR_NEAR_MATCH && idsByDigits.has(variant)) {
        const lastDigit = variant === digits.slice(0, -1);
        link(
          representative(variant),
          representative(digits),
          lastDigit ? 'lastDigit' : 'oneDigitApart',
        );
      }
    }
  }

  // Same name: every nominee whose reseller name or razón social has a key links to the first.
  const firstByName = new Map<string, number>();
  unique.forEach((nominee, index) => {
    for (const name of new Set([nominee.resellerName, nominee.razonSocial].map(resellerNameKey))) {
      if (name === '') continue;
      const first = firstByName.get(name);
      if (first === undefined) firstByName.set(name, index);
      else link(first, index, 'sameName');
    }
  });

  return groupsOf(unique, sets, [...reasonsByPair.values()]);
}

function groupsOf<T extends RankedNominee>(
  unique: T[],
  sets: DisjointSets,
  pairs: { pair: [number, number]; reasons: Set<DuplicateReason> }[],
): DuplicateGroup<T>[] {
  const byRoot = new Map<number, { members: number[]; links: DuplicateLink[] }>();
  const groupOf = (root: number) => {
    const group = byRoot.get(root) ?? { members: [], links: [] };
    byRoot.set(root, group);
    return group;
  };
  for (const { pair, reasons } of pairs) {
    const [a, b] = pair.map((index) => unique[index]?.fiscalId ?? '') as [string, string];
    groupOf(sets.find(pair[0])).links.push({
      fiscalIds: [a, b],
      reasons: DUPLICATE_REASONS.filter((reason) => reasons.has(reason)),
    });
  }
  unique.forEach((_, index) => {
    const group = byRoot.get(sets.find(index));
    group?.members.push(index);
  });
  const byPoints = (a: T, b: T) =>
    b.points - a.points ||
    a.fiscalId.length - b.fiscalId.length ||
    (a.fiscalId < b.fiscalId ? -1 : 1);
  return [...byRoot.values()]
    .map(({ members, links }) => {
      const reasons = new Set(links.flatMap((l) => l.reasons));
      return {
        nominees: members.map((index) => unique[index] as T).sort(byPoints),
        reasons: DUPLICATE_REASONS.filter((reason) => reasons.has(reason)),
        links,
      };
    })
    .sort((a, b) => byPoints(a.nominees[0] as T, b.nominees[0] as T));
}
