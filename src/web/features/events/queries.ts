import { useQuery } from '@tanstack/react-query';
import type { EventListResponse, EventView } from '../../../shared/schemas/events.ts';
import { api, ApiError } from '../../lib/api.ts';

export const eventsKey = ['admin', 'events'] as const;
export const eventListKey = (q: string) => [...eventsKey, 'list', q] as const;
export const eventKey = (eventId: string) => [...eventsKey, 'one', eventId] as const;

export const eventUrl = (eventId: string) => `/api/events/${encodeURIComponent(eventId)}`;

/** A 4xx (a missing event) is an answer, not a hiccup worth retrying. */
export const retryServerErrors = (failures: number, error: unknown) =>
  failures < 1 && !(error instanceof ApiError && error.status >= 400 && error.status < 500);

export function useEventList(q: string) {
  return useQuery({
    queryKey: eventListKey(q),
    queryFn: () =>
      api.get<EventListResponse>(q ? `/api/events?q=${encodeURIComponent(q)}` : '/api/events'),
  });
}

export function useEvent(eventId: string) {
  return useQuery({
    queryKey: eventKey(eventId),
    queryFn: () => api.get<EventView>(eventUrl(eventId)),
    retry: retryServerErrors,
  });
}
