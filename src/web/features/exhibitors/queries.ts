import { useQuery } from '@tanstack/react-query';
import {
  addExhibitor,
  editExhibitor,
  importRoster,
  listEventExhibitors,
  pendingInvitations,
  previewRoster,
  removalImpact,
  removeExhibitor,
  resendInvitation,
  sendPendingInvitations,
} from '../../../shared/api/exhibitors.ts';
import { participation, reminderPlan } from '../../../shared/api/participation.ts';
import { endpointKey, endpointQuery, useEndpointMutation } from '../../lib/api.ts';

/** While an invitation is on its way, look again every few seconds to show how it went. */
const PENDING_POLL_MS = 3000;

export const exhibitorsQuery = (eventId: string) =>
  endpointQuery(listEventExhibitors, { params: { eventId } });

/**
 * What any write to an event's exhibitors makes stale: that event's list, and its participation
 * table and reminder count (both are computed from the same exhibitors).
 */
const exhibitorWritesInvalidate = (input: { params: { eventId: string } }) => {
  const ofEvent = { params: { eventId: input.params.eventId } };
  return [
    endpointKey(listEventExhibitors, ofEvent),
    endpointKey(participation, ofEvent),
    endpointKey(reminderPlan, ofEvent),
    endpointKey(pendingInvitations, ofEvent),
  ];
};

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
export const useEditExhibitor = () =>
  useEndpointMutation(editExhibitor, { invalidates: exhibitorWritesInvalidate });
/** A preview stores nothing, so it makes nothing stale. */
export const usePreviewRoster = () => useEndpointMutation(previewRoster);
export const useImportRoster = () =>
  useEndpointMutation(importRoster, { invalidates: exhibitorWritesInvalidate });

/** How many exhibitors were added without an invitation ("Enviar invitaciones pendientes"). */
export const usePendingInvitations = (eventId: string) =>
  useQuery(endpointQuery(pendingInvitations, { params: { eventId } }));
export const useSendPendingInvitations = () =>
  useEndpointMutation(sendPendingInvitations, { invalidates: exhibitorWritesInvalidate });
