import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import {
  addNominee,
  editNominee,
  moveNominee,
  myEvent,
  myEvents,
  removeNominee,
} from '../../../shared/api/nominations.ts';
import type { Category } from '../../../shared/constants.ts';
import type { Nominee } from '../../../shared/schemas/nominee.ts';
import type { MoveDirection, NominationList } from '../../../shared/schemas/nominations.ts';
import { ApiError, endpointQuery, retryServerErrors, useEndpointMutation } from '../../lib/api.ts';

export const exhEventQuery = (eventId: string) => endpointQuery(myEvent, { params: { eventId } });

export function useExhEvents() {
  return useQuery({ ...endpointQuery(myEvents, {}), retry: retryServerErrors });
}

export function useExhEvent(eventId: string) {
  return useQuery({ ...exhEventQuery(eventId), retry: retryServerErrors });
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
 * call. The stored list the server answers replaces the one on screen (no refetch: the answer is
 * the list); when the server refuses because the list changed elsewhere or voting closed, the
 * screen reloads the event.
 */
export function useListWriter(eventId: string) {
  const client = useQueryClient();
  const { mutateAsync: add } = useEndpointMutation(addNominee);
  const { mutateAsync: edit } = useEndpointMutation(editNominee);
  const { mutateAsync: remove } = useEndpointMutation(removeNominee);
  const { mutateAsync: move } = useEndpointMutation(moveNominee);
  return useCallback(
    async (category: Category, change: ListChange): Promise<NominationList> => {
      const key = exhEventQuery(eventId).queryKey;
      const version = client.getQueryData(key)?.lists[category].version ?? 0;
      const list = { eventId, category };
      try {
        const saved = await (change.kind === 'add'
          ? add({ params: list, body: { ...change.values, version } })
          : change.kind === 'edit'
            ? edit({
                params: { ...list, fiscalId: change.fiscalId },
                body: { ...change.values, version },
              })
            : change.kind === 'remove'
              ? remove({
                  params: { ...list, fiscalId: change.fiscalId },
                  query: { version: String(version) },
                })
              : move({
                  params: { ...list, fiscalId: change.fiscalId },
                  body: { direction: change.direction, version },
                }));
        client.setQueryData(key, (event) =>
          event ? { ...event, lists: { ...event.lists, [category]: saved } } : event,
        );
        return saved;
      } catch (error) {
        if (isStaleOrClosed(error)) await client.invalidateQueries({ queryKey: key });
        throw error;
      }
    },
    [client, eventId, add, edit, remove, move],
  );
}
