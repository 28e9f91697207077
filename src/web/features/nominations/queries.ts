import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { Category } from '../../../shared/constants.ts';
import type { Nominee } from '../../../shared/schemas/nominee.ts';
import type {
  ExhEventResponse,
  ExhEventsResponse,
  MoveDirection,
  NominationList,
} from '../../../shared/schemas/nominations.ts';
import { api, ApiError } from '../../lib/api.ts';

export const exhEventsKey = ['exh', 'events'] as const;
export const exhEventKey = (eventId: string) => ['exh', 'event', eventId] as const;

/** Client errors (404 for someone else's event) are answers, not hiccups worth retrying. */
const retryServerErrors = (failures: number, error: unknown) =>
  failures < 1 && !(error instanceof ApiError && error.status >= 400 && error.status < 500);

export function useExhEvents() {
  return useQuery({
    queryKey: exhEventsKey,
    queryFn: () => api.get<ExhEventsResponse>('/api/exh/events'),
    retry: retryServerErrors,
  });
}

export function useExhEvent(eventId: string) {
  return useQuery({
    queryKey: exhEventKey(eventId),
    queryFn: () => api.get<ExhEventResponse>(`/api/exh/events/${encodeURIComponent(eventId)}`),
    retry: retryServerErrors,
  });
}

export type ListChange =
  | { kind: 'add'; values: Nominee }
  | { kind: 'edit'; fiscalId: string; values: Nominee }
  | { kind: 'remove'; fiscalId: string }
  | { kind: 'move'; fiscalId: string; direction: MoveDirection };

/** Refusals after which the list on screen is no longer the stored one (or voting has closed). */
export const isStaleOrClosed = (error: unknown) =>
  error instanceof ApiError && (error.code === 'stale_list' || error.code === 'voting_closed');

/**
 * Saves one change to one list, based on the version of the list on screen at the moment of the
 * call. The stored list the server answers replaces the one on screen; when the server refuses
 * because the list changed elsewhere or voting closed, the screen reloads the event.
 */
export function useListWriter(eventId: string) {
  const client = useQueryClient();
  return useCallback(
    async (category: Category, change: ListChange): Promise<NominationList> => {
      const key = exhEventKey(eventId);
      const version = client.getQueryData<ExhEventResponse>(key)?.lists[category].version ?? 0;
      const base = `/api/exh/events/${encodeURIComponent(eventId)}/${category}/nominees`;
      const nomineeUrl = (fiscalId: string) => `${base}/${encodeURIComponent(fiscalId)}`;
      try {
        const list = await (change.kind === 'add'
          ? api.post<NominationList>(base, { ...change.values, version })
          : change.kind === 'edit'
            ? api.put<NominationList>(nomineeUrl(change.fiscalId), { ...change.values, version })
            : change.kind === 'remove'
              ? api.delete<NominationList>(`${nomineeUrl(change.fiscalId)}?version=${version}`)
              : api.post<NominationList>(`${nomineeUrl(change.fiscalId)}/move`, {
                  direction: change.direction,
                  version,
                }));
        client.setQueryData<ExhEventResponse>(key, (event) =>
          event ? { ...event, lists: { ...event.lists, [category]: list } } : event,
        );
        return list;
      } catch (error) {
        if (isStaleOrClosed(error)) await client.invalidateQueries({ queryKey: key });
        throw error;
      }
    },
    [client, eventId],
  );
}
