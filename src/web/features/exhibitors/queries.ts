import { useQuery } from '@tanstack/react-query';
import {
  addExhibitor,
  listEventExhibitors,
  removalImpact,
  removeExhibitor,
  resendInvitation,
} from '../../../shared/api/exhibitors.ts';
import { endpointKey, endpointQuery, useEndpointMutation } from '../../lib/api.ts';

/** While an invitation is on its way, look again every few seconds to show how it went. */
const PENDING_POLL_MS = 3000;

export const exhibitorsQuery = (eventId: string) =>
  endpointQuery(listEventExhibitors, { params: { eventId } });

/** What any write to an event's exhibitors makes stale: that event's list. */
const exhibitorWritesInvalidate = (input: { params: { eventId: string } }) => [
  endpointKey(listEventExhibitors, { params: { eventId: input.params.eventId } }),
];

export function useEventExhibitors(eventId: string) {
  return useQuery({
    ...exhibitorsQuery(eventId),
    refetchInterval: (query) =>
      query.state.data?.exhibitors.some((e) => e.invitation.status === 'pending')
        ? PENDING_POLL_MS
        : false,
  });
}

/** How many nominations removing the exhibitor would discard (asked when the dialog opens). */
export function useRemovalImpact(eventId: string, exhibitorId: string | undefined) {
  return useQuery({
    ...endpointQuery(removalImpact, { params: { eventId, exhibitorId: exhibitorId ?? '' } }),
    enabled: Boolean(exhibitorId),
    gcTime: 0,
  });
}

export const useAddExhibitor = () =>
  useEndpointMutation(addExhibitor, { invalidates: exhibitorWritesInvalidate });
export const useRemoveExhibitor = () =>
  useEndpointMutation(removeExhibitor, { invalidates: exhibitorWritesInvalidate });
export const useResendInvitation = () =>
  useEndpointMutation(resendInvitation, { invalidates: exhibitorWritesInvalidate });
