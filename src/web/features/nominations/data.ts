import { useCallback, useRef } from 'react';
import {
  addNominee,
  editNominee,
  moveNominee,
  myEvent,
  previewEvent,
  removeNominee,
} from '../../../shared/api/nominations.ts';
import type { CategoryAddress } from '../../../shared/constants.ts';
import { MSG } from '../../../shared/messages.ts';
import type { Nominee } from '../../../shared/schemas/nominee.ts';
import type {
  ExhEventResponse,
  MoveDirection,
  NominationList,
} from '../../../shared/schemas/nominations.ts';
import { ApiError, call } from '../../lib/http.ts';
import type { Prefetched } from '../../lib/prefetch.ts';
import { useLoaded } from './loaded.ts';

/*
 * The exhibitor's data without TanStack Query: the two screens read one answer each, and every
 * write answers with the stored list, which replaces the one on screen.
 */

export type ListChange =
  | { kind: 'add'; values: Nominee }
  | { kind: 'edit'; fiscalId: string; values: Nominee }
  | { kind: 'remove'; fiscalId: string }
  | { kind: 'move'; fiscalId: string; direction: MoveDirection };

/** Refusals after which the list on screen is no longer the stored one (or voting has closed). */
export const isStaleOrClosed = (error: unknown) =>
  error instanceof ApiError && (error.code === 'stale_list' || error.code === 'voting_closed');

/**
 * One event of the exhibitor and `write`, which saves one change to one list based on the
 * version of the list on screen at the moment of the call. The stored list the server answers
 * replaces the one on screen (no reload: the answer is the list); when the server refuses because
 * the list changed elsewhere or voting closed, the event is loaded again before `write` rejects.
 */
export function useExhEvent(eventId: string, prefetched?: Prefetched) {
  const { data, error, isPending, reload, setState } = useLoaded(
    (started) => call(myEvent, { params: { eventId } }, started),
    eventId,
    prefetched,
  );
  const shown = useRef<ExhEventResponse | undefined>(data);
  shown.current = data;

  const write = useCallback(
    async (category: CategoryAddress, change: ListChange): Promise<NominationList> => {
      const version = shown.current?.lists[category]?.version ?? 0;
      const list = { eventId, category };
      try {
        const saved = await (change.kind === 'add'
          ? call(addNominee, { params: list, body: { ...change.values, version } })
          : change.kind === 'edit'
            ? call(editNominee, {
                params: { ...list, fiscalId: change.fiscalId },
                body: { ...change.values, version },
              })
            : change.kind === 'remove'
              ? call(removeNominee, {
                  params: { ...list, fiscalId: change.fiscalId },
                  query: { version: String(version) },
                })
              : call(moveNominee, {
                  params: { ...list, fiscalId: change.fiscalId },
                  body: { direction: change.direction, version },
                }));
        setState((state) =>
          state.key === eventId && state.data
            ? {
                ...state,
                data: { ...state.data, lists: { ...state.data.lists, [category]: saved } },
              }
            : state,
        );
        return saved;
      } catch (error) {
        if (isStaleOrClosed(error)) await reload();
        throw error;
      }
    },
    [eventId, reload, setState],
  );
  return { data, error, isPending, write };
}

/**
 * "Vista previa" for an administrator: the exhibitor's screen of the event with empty lists, and a
 * `write` that saves nothing and says so.
 */
export function useEventPreview(eventId: string) {
  const { data, error, isPending } = useLoaded(
    (started) => call(previewEvent, { params: { eventId } }, started),
    `preview:${eventId}`,
    undefined,
  );
  const write = useCallback(async (): Promise<NominationList> => {
    throw new ApiError(409, 'conflict', MSG.previewNothingSaved);
  }, []);
  return { data, error, isPending, write };
}
