import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { CATEGORIES, type Category } from '../../../shared/constants.ts';
import type { Nominee, NomineeView } from '../../../shared/schemas/nominee.ts';
import type {
  ExhibitorVotesResponse,
  NomineeVotesResponse,
  RankingResponse,
  VoteEditResponse,
} from '../../../shared/schemas/results.ts';
import { MSG } from '../../../shared/messages.ts';
import { api, ApiError } from '../../lib/api.ts';

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

/** The file name the server gave in Content-Disposition (RFC 5987 `filename*` first). */
export function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(header)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended);
    } catch {
      // fall through to the plain name
    }
  }
  return /filename="([^"]+)"/i.exec(header)?.[1] ?? null;
}

/**
 * Downloads a server-built file and saves it under the server's name. Fetched first (rather than
 * a bare link) so that a slow answer cannot leave the browser naming the file "download", and a
 * failure becomes an ApiError the screen can show instead of a saved error page.
 */
export async function downloadFile(url: string): Promise<void> {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) {
    const body = (await response.json().catch(() => undefined)) as
      { error?: { code?: string; message?: string } } | undefined;
    throw new ApiError(
      response.status,
      body?.error?.code ?? 'http_error',
      body?.error?.message ?? MSG.genericError,
    );
  }
  const name = fileNameFromDisposition(response.headers.get('content-disposition')) ?? 'descarga';
  const href = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser time to start saving before the blob is released.
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}
