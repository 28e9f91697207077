import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import {
  addNominee,
  editNominee,
  moveNominee,
  myEvent,
  previewEvent,
  myEvents,
  removeNominee,
} from '../../../shared/api/nominations.ts';
import type { CategoryAddress } from '../../../shared/constants.ts';
import { MSG } from '../../../shared/messages.ts';
import type { Nominee } from '../../../shared/schemas/nominee.ts';
import type {
  ExhEventResponse,
  ExhEventsResponse,
  MoveDirection,
  NominationList,
} from '../../../shared/schemas/nominations.ts';
import { ApiError, call, shouldRetry } from '../../lib/http.ts';
import type { Prefetched } from '../../lib/prefetch.ts';

/*
 * The exhibitor's data without TanStack Query: the two screens read one answer each, and every
 * write answers with the stored list, which replaces the one on screen.
 */

/** An answer being loaded: `data` once it came, `error` if it failed (after one retry). */
export interface Loaded<Data> {
  data: Data | undefined;
  error: unknown;
  isPending: boolean;
}

/** `load(first)`: `first` is true for the first try only; the retry asks the server again. */
async function withOneRetry<Data>(load: (first: boolean) => Promise<Data>): Promise<Data> {
  try {
    return await load(true);
  } catch (error) {
    if (!shouldRetry(0, error)) throw error;
    return load(false);
  }
}

/**
 * `load(prefetched)` reads the answer; `prefetched`, the request the route's loader started
 * (routes/exh/loaders.ts), is handed to the first load only: every later one asks again.
 */
function useLoaded<Data>(
  load: (prefetched: Prefetched | undefined) => Promise<Data>,
  key: string,
  prefetched: Prefetched | undefined,
) {
  const [state, setState] = useState<Loaded<Data> & { key: string }>({
    data: undefined,
    error: null,
    isPending: true,
    key,
  });
  const latest = useRef(0);
  const loader = useRef(load);
  loader.current = load;
  const unread = useRef(prefetched);
  // The request is the same as long as `key` is.
  const reload = useCallback(async () => {
    const request = ++latest.current;
    const started = unread.current;
    unread.current = undefined;
    let next: Loaded<Data>;
    try {
      next = {
        data: await withOneRetry((first) => loader.current(first ? started : undefined)),
        error: null,
        isPending: false,
      };
    } catch (error) {
      next = { data: undefined, error, isPending: false };
    }
    // Drawn as a transition: React renders the screen in slices and a phone's main thread stays
    // free for input (the budget's total blocking time).
    if (request === latest.current) startTransition(() => setState({ ...next, key }));
  }, [key]);
  useEffect(() => {
    void reload();
  }, [reload]);
  // Another event's answer is not this one's: pending until this one's comes.
  const current: Loaded<Data> =
    state.key === key ? state : { data: undefined, error: null, isPending: true };
  return { ...current, reload, setState };
}

export function useExhEvents(prefetched?: Prefetched): Loaded<ExhEventsResponse> {
  const { data, error, isPending } = useLoaded(
    (started) => call(myEvents, {}, started),
    'events',
    prefetched,
  );
  return { data, error, isPending };
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
