import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { CATEGORIES, type Category } from '../../../shared/constants.ts';
import type { Nominee, NomineeView } from '../../../shared/schemas/nominee.ts';
import type {
  ExhibitorVotesResponse,
  NomineeVotesResponse,
  RankingResponse,
  VoteEditResponse,
} from '../../../shared/schemas/results.ts';
import { api } from '../../lib/api.ts';

export const isCategory = (value: string | null | undefined): value is Category =>
  CATEGORIES.includes(value as Category);

const path = (...parts: string[]) => parts.map(encodeURIComponent).join('/');

/** Every results query of an event starts with this key, so one invalidation refreshes them all. */
export const resultsKey = (eventId: string) => ['results', eventId] as const;

export const rankingUrl = (eventId: string, category: Category) =>
  `/api/events/${path(eventId)}/ranking/${category}`;
export const nomineeVotesUrl = (eventId: string, category: Category, fiscalId: string) =>
  `/api/events/${path(eventId)}/nominees/${category}/${path(fiscalId)}`;

export const nomineePagePath = (eventId: string, category: Category, fiscalId: string) =>
  `/admin/event/${path(eventId)}/nominee?${new URLSearchParams({ category, fiscalId })}`;

/** One page (1-based) of a ranking; the previous page stays on screen while the next one loads. */
export function useRanking(eventId: string, category: Category, page: number) {
  return useQuery({
    queryKey: [...resultsKey(eventId), 'ranking', category, page],
    queryFn: () => api.get<RankingResponse>(`${rankingUrl(eventId, category)}?page=${page}`),
    placeholderData: keepPreviousData,
  });
}

export function useNomineeVotes(eventId: string, category: Category, fiscalId: string) {
  return useQuery({
    queryKey: [...resultsKey(eventId), 'nominee', category, fiscalId],
    queryFn: () => api.get<NomineeVotesResponse>(nomineeVotesUrl(eventId, category, fiscalId)),
  });
}

export function useExhibitorVotes(eventId: string, exhibitorId: string) {
  return useQuery({
    queryKey: [...resultsKey(eventId), 'exhibitor', exhibitorId],
    queryFn: () =>
      api.get<ExhibitorVotesResponse>(
        `/api/events/${path(eventId)}/exhibitors/${path(exhibitorId)}/votes`,
      ),
  });
}

export interface VoteRef {
  exhibitorId: string;
  category: Category;
  order: number;
}

/** Saves an administrator's correction, then refreshes every ranking and list of the event. */
export function useVoteEdit(eventId: string) {
  const client = useQueryClient();
  return async (ref: VoteRef, values: Nominee) => {
    const saved = await api.put<VoteEditResponse>(
      `/api/events/${path(eventId)}/exhibitors/${path(ref.exhibitorId)}/votes/${ref.category}/${ref.order}`,
      values,
    );
    await client.invalidateQueries({ queryKey: resultsKey(eventId) });
    return saved;
  };
}

/** The nine form fields of a listed nominee (drops its order and any extra fields). */
export function formValues(nominee: NomineeView): Nominee {
  return {
    name: nominee.name,
    registeredName: nominee.registeredName,
    fiscalId: nominee.fiscalId,
    contactName: nominee.contactName,
    contactPosition: nominee.contactPosition,
    phone: nominee.phone,
    email: nominee.email,
    location: nominee.location,
    city: nominee.city,
  };
}

/**
 * Downloads a server-built file through an ordinary link: a GET with the session cookie, named by
 * the server's Content-Disposition, without holding the file in page memory.
 */
export function downloadFile(url: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = '';
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
}
