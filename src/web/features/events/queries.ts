import { useQuery } from '@tanstack/react-query';
import {
  anonymiseEvent,
  archiveEvent,
  closeVoting,
  createEvent,
  deleteEvent,
  duplicateEvent,
  getEvent,
  listEvents,
  unarchiveEvent,
  updateEvent,
  viewResultsEarly,
} from '../../../shared/api/events.ts';
import type { EventCategoryView } from '../../../shared/schemas/categories.ts';
import { endpointKey, endpointQuery, useEndpointMutation } from '../../lib/api.ts';

/** What any write to events makes stale: the lists and every single event. */
export const eventWritesInvalidate = () => [endpointKey(listEvents), endpointKey(getEvent)];

export const eventQuery = (eventId: string) => endpointQuery(getEvent, { params: { eventId } });

/** The open events, or with `archived` the archived ones ("Archivados"). */
export function useEventList(q: string, archived = false) {
  return useQuery(
    endpointQuery(listEvents, {
      query: { ...(q ? { q } : {}), ...(archived ? { archived: 'true' } : {}) },
    }),
  );
}

export function useEvent(eventId: string) {
  return useQuery(eventQuery(eventId));
}

/**
 * One category of an event by its address (docs/decisions/0034): `category` is undefined while
 * the event loads (`pending`) and when the event has no such category (a page not found).
 */
export function useEventCategory(
  eventId: string,
  address: string | undefined,
): { pending: boolean; category: EventCategoryView | undefined; categories: EventCategoryView[] } {
  const query = useEvent(eventId);
  const categories = query.data?.categories ?? [];
  return {
    pending: query.isPending,
    category: categories.find((each) => each.address === address),
    categories,
  };
}

/**
 * Whether an event's screens may offer changes: not until the event is known, and never once it
 * is archived (read-only; the server refuses every change to it as well).
 */
export function useEventWritable(eventId: string): boolean {
  return useEvent(eventId).data?.archived === false;
}

export const useCreateEvent = () =>
  useEndpointMutation(createEvent, { invalidates: eventWritesInvalidate });
export const useUpdateEvent = () =>
  useEndpointMutation(updateEvent, { invalidates: eventWritesInvalidate });
export const useDuplicateEvent = () =>
  useEndpointMutation(duplicateEvent, { invalidates: eventWritesInvalidate });
export const useArchiveEvent = () =>
  useEndpointMutation(archiveEvent, { invalidates: eventWritesInvalidate });
export const useUnarchiveEvent = () =>
  useEndpointMutation(unarchiveEvent, { invalidates: eventWritesInvalidate });
/** Closing voting changes the event, its history and its participation: all of it is stale. */
export const useCloseVoting = () => useEndpointMutation(closeVoting, { invalidates: () => [[]] });
/** Anonymising changes every screen of the event (names, contacts, history): all of it is stale. */
export const useAnonymiseEvent = () =>
  useEndpointMutation(anonymiseEvent, { invalidates: () => [[]] });
/**
 * Deleting leaves the event's screen before anything is refreshed (it would refetch the event it
 * just deleted): the caller drops the event and refreshes the lists with `eventWritesInvalidate`.
 */
export const useDeleteEvent = () => useEndpointMutation(deleteEvent);
/**
 * "Ver resultados ahora": opens the event's sealed results for every administrator; the event,
 * its results and its history are all stale.
 */
export const useViewResultsEarly = () =>
  useEndpointMutation(viewResultsEarly, { invalidates: () => [[]] });
