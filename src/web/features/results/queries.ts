import {
  keepPreviousData,
  useInfiniteQuery,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { Endpoint, InputOf } from '../../../shared/api/define.ts';
import { integrityAlerts } from '../../../shared/api/integrity.ts';
import {
  categoryRanking,
  duplicates,
  editVote,
  exhibitorVotes,
  history,
  merge,
  mergePreview,
  nomineeVotes,
  undoMerge,
} from '../../../shared/api/results.ts';
import type { CategoryAddress } from '../../../shared/constants.ts';
import type { CorrectionReason } from '../../../shared/correction-reasons.ts';
import type { Nominee, NomineeView } from '../../../shared/schemas/nominee.ts';
import type { VoteEdit } from '../../../shared/schemas/results.ts';
import {
  ApiError,
  apiErrorFrom,
  call,
  endpointKey,
  endpointQuery,
  urlOf,
  useEndpointMutation,
} from '../../lib/api.ts';

const path = (...parts: string[]) => parts.map(encodeURIComponent).join('/');

export const nomineePagePath = (eventId: string, category: CategoryAddress, fiscalId: string) =>
  `/admin/event/${path(eventId)}/nominee?${new URLSearchParams({ category, fiscalId })}`;

/** One page (1-based) of a ranking; the previous page stays on screen while the next one loads. */
export function useRanking(eventId: string, category: CategoryAddress, page: number) {
  return useQuery({
    ...endpointQuery(categoryRanking, {
      params: { eventId, category },
      query: { page: String(page) },
    }),
    placeholderData: keepPreviousData,
  });
}

export function useNomineeVotes(eventId: string, category: CategoryAddress, fiscalId: string) {
  return useQuery(endpointQuery(nomineeVotes, { params: { eventId, category, fiscalId } }));
}

/** "Integridad": the event's alerts, read afresh each time the tab opens. */
export function useIntegrityAlerts(eventId: string) {
  return useQuery(endpointQuery(integrityAlerts, { params: { eventId } }));
}

export function useExhibitorVotes(eventId: string, exhibitorId: string) {
  return useQuery(endpointQuery(exhibitorVotes, { params: { eventId, exhibitorId } }));
}

/** A corrected vote changes every ranking and list of its event (an annulment too). */
export const voteEditInvalidates = (input: { params: { eventId: string } }) => {
  const ofEvent = { params: { eventId: input.params.eventId } };
  return [
    endpointKey(categoryRanking, ofEvent),
    endpointKey(nomineeVotes, ofEvent),
    endpointKey(exhibitorVotes, ofEvent),
    endpointKey(duplicates, ofEvent),
    endpointKey(history, ofEvent),
    endpointKey(integrityAlerts, ofEvent),
  ];
};

export interface VoteRef {
  exhibitorId: string;
  category: CategoryAddress;
  order: number;
  /** The version of the exhibitor's list the corrected entry was shown from. */
  listVersion: number;
}

/** The list changed since the administrator read it: the correction was refused, nothing saved. */
export const isStaleList = (error: unknown) =>
  error instanceof ApiError && error.code === 'stale_list';

/**
 * Saves an administrator's correction, then refreshes every ranking and list of the event. The
 * correction carries the version of the list it was shown from; when the server refuses it
 * because the list changed meanwhile, the event's lists are refreshed too before it rejects.
 */
export function useVoteEdit(eventId: string) {
  const client = useQueryClient();
  const { mutateAsync } = useEndpointMutation(editVote, { invalidates: voteEditInvalidates });
  // The correction dialog validates with the form's own schema, so the reason is there.
  return async (
    { listVersion, ...ref }: VoteRef,
    values: Nominee & { reason?: CorrectionReason; detail?: string },
  ) => {
    const input = { params: { eventId, ...ref }, body: { ...values, version: listVersion } };
    try {
      return await mutateAsync(input as { params: typeof input.params; body: VoteEdit });
    } catch (error) {
      if (isStaleList(error)) {
        await Promise.all(
          voteEditInvalidates(input).map((queryKey) => client.invalidateQueries({ queryKey })),
        );
      }
      throw error;
    }
  };
}

/** The groups of fiscal ids of a category that are probably one reseller. */
export function useDuplicates(eventId: string, category: CategoryAddress) {
  return useQuery(endpointQuery(duplicates, { params: { eventId, category } }));
}

/**
 * How the ranking would change if `from` became `into`. A POST that stores nothing, read like a
 * query so that each choice of the id that stays is fetched once.
 */
export function useMergePreview(
  eventId: string,
  category: CategoryAddress,
  into: string,
  from: string[],
) {
  const input = { params: { eventId, category }, body: { into, from } };
  return useQuery({
    queryKey: [...endpointKey(mergePreview, input), { into, from }],
    queryFn: () => call(mergePreview, input),
    enabled: into !== '' && from.length > 0,
  });
}

/** A merge or its undoing changes every ranking, list, group and the history of its event. */
export function useMerge() {
  return useEndpointMutation(merge, { invalidates: voteEditInvalidates });
}

export function useUndoMerge() {
  return useEndpointMutation(undoMerge, { invalidates: voteEditInvalidates });
}

export interface HistoryFilter {
  action: string;
  q: string;
}

/** The event's history, newest first, a page at a time ("Cargar más" asks for the next one). */
export function useHistory(eventId: string, filter: HistoryFilter) {
  const query = {
    ...(filter.action ? { action: filter.action } : {}),
    ...(filter.q ? { q: filter.q } : {}),
  };
  return useInfiniteQuery({
    queryKey: endpointKey(history, { params: { eventId }, query }),
    queryFn: ({ pageParam }) =>
      call(history, {
        params: { eventId },
        query: pageParam === null ? query : { ...query, before: String(pageParam) },
      }),
    initialPageParam: null as number | null,
    getNextPageParam: (page) => page.nextBefore,
  });
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
export async function downloadFile<E extends Endpoint>(
  endpoint: E,
  input: InputOf<E>,
): Promise<void> {
  const response = await fetch(urlOf(endpoint, input), { credentials: 'same-origin' });
  if (!response.ok) {
    throw apiErrorFrom(response.status, await response.json().catch(() => undefined));
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
