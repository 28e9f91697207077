import { DUPLICATE_REASONS, type DuplicateReason } from '../../../shared/duplicate-reasons.ts';

/** One row of a category's ranking, as far as finding duplicates needs it. */
export interface RankedNominee {
  fiscalId: string;
  resellerName: string;
  razonSocial: string;
  points: number;
  /** The registry's names when this fiscal id is in the programme's registry ("Padrón"). */
  registry?: RegistryNames | undefined;
  /** A registry entry without votes in the category: only ever the target of a registry link. */
  unranked?: boolean | undefined;
}

/** An entry's "Nombre del reseller" and "Razón social" as the registry holds them. */
export interface RegistryNames {
  resellerName: string;
  razonSocial: string;
}

/** Two fiscal ids that one or more rules tie together. */
export interface DuplicateLink {
  fiscalIds: [string, string];
  reasons: DuplicateReason[];
}

/** A group as the "Posibles duplicados" dialog shows it. */
export interface DuplicateGroupSummary<T extends RankedNominee = RankedNominee> {
  /** Most points first. */
  nominees: T[];
  /** Every rule behind the group, in the order of DUPLICATE_REASONS. */
  reasons: DuplicateReason[];
}

export interface DuplicateGroup<
  T extends RankedNominee = RankedNominee,
> extends DuplicateGroupSummary<T> {
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
  const tokens = fastNameTokens(name) ?? nameTokens(name);
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

/** The name's words folded (accents, case) with the dots dropped: the rule, for any text. */
function nameTokens(name: string): string[] {
  return name
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replaceAll('.', '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((token) => token !== '');
}

/** The accented letters of Spanish (and a few neighbours), folded by the rule itself. */
const FOLDED_LETTERS = new Map(
  [...'áéíóúüñàèìòùâêîôûäëïöçãõ']
    .flatMap((letter) => [letter, letter.toUpperCase()])
    .map((letter) => [letter, nameTokens(letter).join('')] as const),
);

/**
 * The same words as `nameTokens` without Unicode normalisation or regular expressions, for names
 * of ASCII and the letters of FOLDED_LETTERS; null for any other character (the rule then runs).
 * "Posibles duplicados" keys every registry entry's names (40,000 for 20,000 entries): the rule
 * alone took half a second. The two agree on every such name (name-key.test.ts).
 */
function fastNameTokens(name: string): string[] | null {
  const tokens: string[] = [];
  let token = '';
  for (const character of name) {
    const code = character.charCodeAt(0);
    if (code >= 128) {
      const folded = FOLDED_LETTERS.get(character);
      if (folded === undefined) return null;
      token += folded;
    } else if (code >= 65 && code <= 90) {
      token += String.fromCharCode(code + 32);
    } else if ((code >= 97 && code <= 122) || (code >= 48 && code <= 57)) {
      token += character;
    } else if (character !== '.' && character !== '^' && character !== '`') {
      // Dots are dropped; ^ and ` are diacritics, removed as the rule removes them.
      if (token !== '') tokens.push(token);
      token = '';
    }
  }
  if (token !== '') tokens.push(token);
  return tokens;
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

/** The name keys (resellerNameKey) of a pair of names, each once, without the empty one. */
export function nameKeys(names: RegistryNames): string[] {
  return [...new Set([names.resellerName, names.razonSocial].map(resellerNameKey))].filter(
    (key) => key !== '',
  );
}

/**
 * Groups of fiscal ids that are probably one reseller whose votes were split. Two ids are linked
 * when their digits without leading zeros are equal; when they differ only in the last digit
 * (a wrong or a missing check digit); when they are one digit apart (one digit changed, added or
 * dropped); or when a reseller name or razón social of one equals one of the other's once
 * normalised (resellerNameKey). A typed id (one not in the registry) is also linked to a registry
 * entry whose registry name or razón social equals one of its names the same way, whether or not
 * that entry has votes (`unranked`: then it is linked by this rule only). A group is everything
 * linked directly or through others.
 */
export function findDuplicateNominees<T extends RankedNominee>(
  nominees: readonly T[],
): DuplicateGroup<T>[] {
  // Each linked pair (a < b) is keyed a × size + b and holds its reasons as bits of REASON_BIT.
  const reasonsByPair = new Map<number, number>();
  const linked = linkNominees(nominees, reasonsByPair);
  const { unique, sets } = linked;
  const size = unique.length;
  const linksByRoot = new Map<number, DuplicateLink[]>();
  for (const [key, mask] of reasonsByPair) {
    const a = Math.floor(key / size);
    const b = key - a * size;
    const root = sets.find(a);
    const links = linksByRoot.get(root) ?? [];
    if (links.length === 0) linksByRoot.set(root, links);
    links.push({
      fiscalIds: [unique[a]?.fiscalId ?? '', unique[b]?.fiscalId ?? ''],
      reasons: [...(REASONS_OF_MASK[mask] ?? [])],
    });
  }
  return groupsOf(linked).map(({ root, nominees: members, reasons }) => ({
    nominees: members,
    reasons,
    links: linksByRoot.get(root) ?? [],
  }));
}

/**
 * The same groups without the pairs that joined them: what the dialog needs. On a ranking of
 * near-consecutive ids (the bench's 7,930 are linked by 134,000 pairs) recording every pair was
 * most of the time.
 */
export function duplicateNomineeGroups<T extends RankedNominee>(
  nominees: readonly T[],
): DuplicateGroupSummary<T>[] {
  return groupsOf(linkNominees(nominees, null)).map(({ nominees: members, reasons }) => ({
    nominees: members,
    reasons,
  }));
}

interface Linked<T> {
  unique: T[];
  sets: DisjointSets;
  /** Per nominee, the bits of the reasons of every link it is part of. */
  masks: Uint8Array;
}

/**
 * Links the nominees by the four rules; with `reasonsByPair`, also records each linked pair.
 *
 * The one-digit rules look ids up by their one-deletion variants instead of comparing all pairs:
 * two different strings are one edit apart exactly when they share a variant with the same digit
 * deleted (a change) or one is a variant of the other (an addition), so each id costs its length
 * in lookups.
 */
function linkNominees<T extends RankedNominee>(
  nominees: readonly T[],
  reasonsByPair: Map<number, number> | null,
): Linked<T> {
  const unique = [...new Map(nominees.map((nominee) => [nominee.fiscalId, nominee])).values()];
  const size = unique.length;
  const sets = new DisjointSets(size);
  const masks = new Uint8Array(size);
  const link = (a: number, b: number, reason: DuplicateReason) => {
    if (a === b || a < 0 || b < 0) return;
    const bit = REASON_BIT[reason];
    masks[a] = (masks[a] ?? 0) | bit;
    masks[b] = (masks[b] ?? 0) | bit;
    if (reasonsByPair) {
      const key = a < b ? a * size + b : b * size + a;
      reasonsByPair.set(key, (reasonsByPair.get(key) ?? 0) | bit);
    }
    sets.union(a, b);
  };

  // Equal digits: every id of a digit string links to the first one.
  const idsByDigits = new Map<string, number[]>();
  unique.forEach((nominee, index) => {
    // A registry entry without votes takes part in the registry's rule only.
    if (nominee.unranked) return;
    const digits = fiscalIdDigits(nominee.fiscalId);
    if (digits === '') return;
    const ids = idsByDigits.get(digits) ?? [];
    ids.push(index);
    idsByDigits.set(digits, ids);
  });
  for (const ids of idsByDigits.values()) {
    for (const other of ids.slice(1)) link(ids[0] ?? other, other, 'sameDigits');
  }

  // One digit apart, between different digit strings (each represented by its first id), one
  // deleted position at a time: the strings sharing a variant are chained through `next`.
  const longEnough = [...idsByDigits.keys()].filter((d) => d.length >= MIN_DIGITS_FOR_NEAR_MATCH);
  const representatives = longEnough.map((digits) => idsByDigits.get(digits)?.[0] ?? -1);
  const longest = Math.max(0, ...longEnough.map((digits) => digits.length));
  const next = new Int32Array(longEnough.length);
  for (let position = 0; position < longest; position += 1) {
    const firstWithVariant = new Map<string, number>();
    longEnough.forEach((digits, index) => {
      if (position >= digits.length) return;
      const variant = digits.slice(0, position) + digits.slice(position + 1);
      const reason = position === digits.length - 1 ? 'lastDigit' : 'oneDigitApart';
      const representative = representatives[index] ?? -1;
      const head = firstWithVariant.get(variant) ?? -1;
      for (let other = head; other !== -1; other = next[other] ?? -1) {
        link(representatives[other] ?? -1, representative, reason);
      }
      next[index] = head;
      firstWithVariant.set(variant, index);
      if (variant.length >= MIN_DIGITS_FOR_NEAR_MATCH && idsByDigits.has(variant)) {
        const added = variant === digits.slice(0, -1) ? 'lastDigit' : 'oneDigitApart';
        link(idsByDigits.get(variant)?.[0] ?? -1, representative, added);
      }
    });
  }

  // Same name: every nominee whose reseller name or razón social has a key links to the first.
  const firstByName = new Map<string, number>();
  unique.forEach((nominee, index) => {
    if (nominee.unranked) return;
    for (const name of nameKeys(nominee)) {
      const first = firstByName.get(name);
      if (first === undefined) firstByName.set(name, index);
      else link(first, index, 'sameName');
    }
  });

  // Same name as a registry entry: a typed id links to every entry whose registry names match one
  // of its own (usually one).
  const registryByName = new Map<string, number[]>();
  unique.forEach((nominee, index) => {
    if (!nominee.registry) return;
    for (const name of nameKeys(nominee.registry)) {
      const entries = registryByName.get(name) ?? [];
      entries.push(index);
      registryByName.set(name, entries);
    }
  });
  if (registryByName.size > 0) {
    unique.forEach((nominee, index) => {
      if (nominee.registry || nominee.unranked) return;
      for (const name of nameKeys(nominee)) {
        for (const entry of registryByName.get(name) ?? []) link(entry, index, 'registryName');
      }
    });
  }

  return { unique, sets, masks };
}

/** Each reason's bit in a pair's mask, and the reasons of every mask in DUPLICATE_REASONS order. */
const REASON_BIT = Object.fromEntries(
  DUPLICATE_REASONS.map((reason, i) => [reason, 1 << i]),
) as Record<DuplicateReason, number>;
const REASONS_OF_MASK: readonly DuplicateReason[][] = Array.from(
  { length: 1 << DUPLICATE_REASONS.length },
  (_, mask) => DUPLICATE_REASONS.filter((reason) => (mask & REASON_BIT[reason]) !== 0),
);

/** The groups of two or more nominees, best first, each with its members' reasons. */
function groupsOf<T extends RankedNominee>({
  unique,
  sets,
  masks,
}: Linked<T>): { root: number; nominees: T[]; reasons: DuplicateReason[] }[] {
  const byRoot = new Map<number, { members: T[]; mask: number }>();
  unique.forEach((nominee, index) => {
    const root = sets.find(index);
    const group = byRoot.get(root);
    if (group) {
      group.members.push(nominee);
      group.mask |= masks[index] ?? 0;
    } else byRoot.set(root, { members: [nominee], mask: masks[index] ?? 0 });
  });
  const byPoints = (a: T, b: T) =>
    b.points - a.points ||
    a.fiscalId.length - b.fiscalId.length ||
    (a.fiscalId < b.fiscalId ? -1 : 1);
  return [...byRoot]
    .filter(([, { members }]) => members.length > 1)
    .map(([root, { members, mask }]) => ({
      root,
      nominees: members.sort(byPoints),
      reasons: [...(REASONS_OF_MASK[mask] ?? [])],
    }))
    .sort((a, b) => byPoints(a.nominees[0] as T, b.nominees[0] as T));
}
