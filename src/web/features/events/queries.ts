import { useQuery } from '@tanstack/react-query';
import {
  createEvent,
  deleteEvent,
  getEvent,
  listEvents,
  updateEvent,
} from '../../../shared/api/events.ts';
import {
  endpointKey,
  endpointQuery,
  retryServerErrors,
  useEndpointMutation,
} from '../../lib/api.ts';

/** What any write to events makes stale: the lists and every single event. */
export const eventWritesInvalidate = () => [endpointKey(listEvents), endpointKey(getEvent)];

export const eventQuery = (eventId: string) => endpointQuery(getEvent, { params: { eventId } });

export function useEventList(q: string) {
  return useQuery(endpointQuery(listEvents, { query: q ? { q } : {} }));
}

export function useEvent(eventId: string) {
  return useQuery({ ...eventQuery(eventId), retry: retryServerErrors });
}

export const useCreateEvent = () =>
  useEndpointMutation(createEvent, { invalidates: eventWritesInvalidate });
export const useUpdateEvent = () =>
  useEndpointMutation(updateEvent, { invalidates: eventWritesInvalidate });
/**
 * Deleting leaves the event's screen before anything is refreshed (it would refetch the event it
 * just deleted): the caller drops the event and refreshes the lists with `eventWritesInvalidate`.
 */
export const useDeleteEvent = () => useEndpointMutation(deleteEvent);
