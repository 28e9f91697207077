import type {
  ExhibitorVotesList,
  ExhibitorVotesResponse,
} from '../../src/shared/schemas/results.ts';

/** The exhibitor-votes page's list of one category; a missing category fails the test. */
export function listIn(response: ExhibitorVotesResponse, category: string): ExhibitorVotesList {
  const list = response.lists[category];
  if (!list) throw new Error(`The exhibitor-votes response has no list "${category}"`);
  return list;
}

/** Each category's list version, keyed by address, as the page reads them. */
export const versionsIn = (response: ExhibitorVotesResponse): Record<string, number> =>
  Object.fromEntries(Object.entries(response.lists).map(([address, l]) => [address, l.version]));

/** Each category's annulment (null while the list counts), keyed by address. */
export const annulmentsIn = (response: ExhibitorVotesResponse) =>
  Object.fromEntries(Object.entries(response.lists).map(([address, l]) => [address, l.annulment]));
