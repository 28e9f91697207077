import { describe, expect, it } from 'vitest';
import {
  duplicateNomineeGroups,
  findDuplicateNominees,
  fiscalIdDigits,
  resellerNameKey,
  type RankedNominee,
} from './duplicate-nominees.ts';

let serial = 0;
/** A nominee whose names are unique unless given. */
function nominee(
  fiscalId: string,
  points: number,
  names: Partial<RankedNominee> = {},
): RankedNominee {
  serial += 1;
  return {
    fiscalId,
    points,
    resellerName: `Reseller ${serial}`,
    razonSocial: `Razón ${serial}`,
    ...names,
  };
}

const idsOf = (groups: ReturnType<typeof findDuplicateNominees>) =>
  groups.map((group) => group.nominees.map((n) => n.fiscalId));

describe('fiscalIdDigits and resellerNameKey', () => {
  it('keeps the digits without leading zeros', () => {
    expect(fiscalIdDigits('00-2012345678-9')).toBe('20123456789');
    expect(fiscalIdDigits('000')).toBe('');
  });

  it.each([
    ['Distribuidora Peña S.R.L.', 'distribuidorapena'],
    ['DISTRIBUIDORA PENA SRL', 'distribuidorapena'],
    ['distribuidora  peña, s. r. l.', 'distribuidorapena'],
    ['Acme S.A.', 'acme'],
    ['ACME SA', 'acme'],
    ['Acme S.A.S.', 'acme'],
    ['Acme SAS', 'acme'],
    ['A.C.M.E.', 'acme'],
    ['Saúl Técnica', 'saultecnica'],
    ['S.A.', ''],
    ['Sistemas SRL SA', 'sistemas'],
    ['  ', ''],
  ])('"%s" → "%s"', (name, key) => {
    expect(resellerNameKey(name)).toBe(key);
  });
});

describe('findDuplicateNominees', () => {
  it('links ids equal once non-digits and leading zeros are gone', () => {
    const groups = findDuplicateNominees([
      nominee('20123456789', 30),
      nominee('020123456789', 12),
      nominee('0020123456789', 4),
      nominee('30999888777', 9),
    ]);
    expect(idsOf(groups)).toEqual([['20123456789', '020123456789', '0020123456789']]);
    expect(groups[0]?.reasons).toEqual(['sameDigits']);
    expect(groups[0]?.links).toEqual([
      { fiscalIds: ['20123456789', '020123456789'], reasons: ['sameDigits'] },
      { fiscalIds: ['20123456789', '0020123456789'], reasons: ['sameDigits'] },
    ]);
  });

  it('links ids that differ only in the last digit, changed or missing', () => {
    const groups = findDuplicateNominees([
      nominee('20123456789', 20),
      nominee('20123456781', 15),
      nominee('2012345678', 3),
    ]);
    expect(idsOf(groups)).toEqual([['20123456789', '20123456781', '2012345678']]);
    expect(groups[0]?.reasons).toEqual(['lastDigit']);
    expect(groups[0]?.links.every((link) => link.reasons.join() === 'lastDigit')).toBe(true);
    expect(groups[0]?.links).toHaveLength(3);
  });

  it('links ids one digit apart: a digit changed, added or dropped inside', () => {
    const groups = findDuplicateNominees([
      nominee('20123456789', 20),
      nominee('20193456789', 10), // a digit changed
      nominee('201234567899', 5), // a digit added at the end counts as the last digit
      nominee('2013456789', 2), // a digit dropped inside
    ]);
    expect(idsOf(groups)).toEqual([['20123456789', '20193456789', '201234567899', '2013456789']]);
    const reasonOf = (a: string, b: string) =>
      groups[0]?.links.find((l) => l.fiscalIds.includes(a) && l.fiscalIds.includes(b))?.reasons;
    expect(reasonOf('20123456789', '20193456789')).toEqual(['oneDigitApart']);
    expect(reasonOf('20123456789', '201234567899')).toEqual(['lastDigit']);
    expect(reasonOf('20123456789', '2013456789')).toEqual(['oneDigitApart']);
    expect(groups[0]?.reasons).toEqual(['lastDigit', 'oneDigitApart']);
  });

  it('links the same reseller name or razón social across both fields', () => {
    const groups = findDuplicateNominees([
      nominee('11111111111', 8, {
        resellerName: 'Peña Sistemas',
        razonSocial: 'Peña Sistemas S.R.L.',
      }),
      nominee('22222222222', 6, { resellerName: 'PENA SISTEMAS SRL', razonSocial: 'Otra' }),
      nominee('33333333333', 5, { resellerName: 'Distinto', razonSocial: 'peña-sistemas' }),
      nominee('44444444444', 9, { resellerName: 'Peña Sistemas Norte', razonSocial: 'Norte SA' }),
    ]);
    expect(idsOf(groups)).toEqual([['11111111111', '22222222222', '33333333333']]);
    expect(groups[0]?.reasons).toEqual(['sameName']);
  });

  it('joins chains into one group with every reason, most points first, groups by their best', () => {
    const groups = findDuplicateNominees([
      nominee('30700000001', 3),
      nominee('30700000002', 7, { resellerName: 'Gama SA' }),
      nominee('55555555555', 1, { resellerName: 'GAMA' }),
      nominee('055555555555', 2),
      nominee('20999999999', 40),
      nominee('20999999990', 1),
    ]);
    expect(idsOf(groups)).toEqual([
      ['20999999999', '20999999990'],
      ['30700000002', '30700000001', '055555555555', '55555555555'],
    ]);
    expect(groups[1]?.reasons).toEqual(['sameDigits', 'lastDigit', 'sameName']);
  });

  it('does not link ids two digits apart, swapped digits, short ids or empty names', () => {
    const groups = findDuplicateNominees([
      nominee('20123456789', 10, { resellerName: '', razonSocial: 'S.A.' }),
      nominee('20123456700', 10, { resellerName: '', razonSocial: 'S.A.' }), // two digits apart
      nominee('20123456798', 10), // two digits swapped
      nominee('12345', 10),
      nominee('12346', 10), // one digit apart but too short to mean anything
      nominee('1234', 10),
      nominee('0', 1),
      nominee('00', 1),
    ]);
    // A name that is only a legal form, and ids with no digits left ("0", "00"), link nothing.
    expect(groups).toEqual([]);
  });

  it('returns no groups when nothing is alike, and ignores a repeated row', () => {
    expect(findDuplicateNominees([nominee('20123456789', 5), nominee('27876543210', 4)])).toEqual(
      [],
    );
    expect(findDuplicateNominees([nominee('20123456789', 5), nominee('20123456789', 5)])).toEqual(
      [],
    );
  });

  // How fast it does so is a budget of `npm run bench` (the duplicates of the bench's ranking).
  it('finds the groups among 8,000 fiscal ids', () => {
    // A deterministic spread of 11-digit ids, a few hundred of them typed a second way.
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const ids = new Set<string>();
    while (ids.size < 7700) ids.add(String(20_000_000_000 + Math.floor(random() * 9_999_999_999)));
    const rows = [...ids].map((id, i) => nominee(id, (i % 50) + 1));
    const split = [...ids]
      .slice(0, 300)
      .map((id, i) => nominee(i % 2 ? `0${id}` : id.slice(0, -1), 1));
    const groups = findDuplicateNominees([...rows, ...split]);
    expect(groups.length).toBeGreaterThanOrEqual(300);
    for (const { fiscalId } of split) {
      expect(groups.some((g) => g.nominees.some((n) => n.fiscalId === fiscalId))).toBe(true);
    }
    // The dialog's groups, found without recording each pair, are the same groups.
    expect(duplicateNomineeGroups([...rows, ...split])).toEqual(
      groups.map(({ nominees, reasons }) => ({ nominees, reasons })),
    );
  });

  it('finds the same groups and reasons without recording the pairs', () => {
    const nominees = [
      nominee('30700000001', 3),
      nominee('30700000002', 7, { resellerName: 'Gama SA' }),
      nominee('55555555555', 1, { resellerName: 'GAMA' }),
      nominee('055555555555', 2),
      nominee('20999999999', 40),
      nominee('20999999990', 1),
      nominee('20123456789', 20),
      nominee('20193456789', 10),
      nominee('201234567899', 5),
      nominee('2013456789', 2),
      nominee('27876543210', 4),
    ];
    const groups = findDuplicateNominees(nominees);
    expect(groups).toHaveLength(3);
    expect(duplicateNomineeGroups(nominees)).toEqual(
      groups.map(({ nominees: members, reasons }) => ({ nominees: members, reasons })),
    );
  });

  it('groups 7,930 near-consecutive ids (134,145 linked pairs) into one', () => {
    const rows = Array.from({ length: 7930 }, (_, r) => nominee(String(30_000_000_000 + r), r));
    const [group, ...others] = duplicateNomineeGroups(rows);
    expect(others).toEqual([]);
    expect(group?.nominees).toHaveLength(7930);
    expect(group?.reasons).toEqual(['lastDigit', 'oneDigitApart']);
    expect(findDuplicateNominees(rows)[0]?.links).toHaveLength(134_145);
  });
});
