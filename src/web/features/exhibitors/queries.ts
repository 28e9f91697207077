import { useQuery } from '@tanstack/react-query';
import type { EventExhibitorListResponse } from '../../../shared/schemas/exhibitors.ts';
import { api } from '../../lib/api.ts';

export const exhibitorsKey = (eventId: string) => ['admin', 'events', eventId, 'exhibitors'];

export const exhibitorsUrl = (eventId: string) =>
  `/api/events/${encodeURIComponent(eventId)}/exhibitors`;
export const exhibitorUrl = (eventId: string, exhibitorId: string) =>
  `${exhibitorsUrl(eventId)}/${encodeURIComponent(exhibitorId)}`;

/** While an invitation is on its way, look again every few seconds to show how it went. */
const PENDING_POLL_MS = 3000;

export function useEventExhibitors(eventId: string) {
  return useQuery({
    queryKey: exhibitorsKey(eventId),
    queryFn: () => api.get<EventExhibitorListResponse>(exhibitorsUrl(eventId)),
    refetchInterval: (query) =>
      query.state.data?.exhibitors.some((e) => e.invitation.status === 'pending')
        ? PENDING_POLL_MS
        : false,
  });
}
