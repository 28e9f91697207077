import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  addExhibitor,
  bulkRemovalImpact,
  removeExhibitors,
  resendInvitations,
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
import type { RosterInvitationFilter } from '../../../shared/schemas/exhibitors.ts';
import { endpointKey, endpointQuery, useEndpointMutation } from '../../lib/api.ts';

/** While an invitation is on its way, look again every few seconds to show how it went. */
const PENDING_POLL_MS = 3000;

/** What the exhibitors tab asks for: a page, the search and the "Invitación" filter. */
export interface RosterView {
  page: number;
  q: string;
  invitation: RosterInvitationFilter;
}

export const exhibitorsQuery = (eventId: string, view: RosterView) =>
  endpointQuery(listEventExhibitors, {
    params: { eventId },
    query: { page: String(view.page), q: view.q, invitation: view.invitation },
  });

/**
 * What any write to an event's exhibitors makes stale: that event's list, and its participation
 * table and reminder count (both are computed from the same exhibitors).
 */
const exhibitorWritesInvalidate = (input: { params: { eventId: string } }) => {
  const ofEvent = { params: { eventId: input.params.eventId } };
  return [
    // Every page and search of the event's list (a key's empty query matches any query).
    endpointKey(listEventExhibitors, ofEvent),
    endpointKey(participation, ofEvent),
    endpointKey(reminderPlan, ofEvent),
    endpointKey(pendingInvitations, ofEvent),
  ];
};

export function useEventExhibitors(eventId: string, view: RosterView) {
  return useQuery({
    ...exhibitorsQuery(eventId, view),
    // The page on screen stays while the next one loads: paging never blanks the table.
    placeholderData: keepPreviousData,
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

export const useResendInvitations = () =>
  useEndpointMutation(resendInvitations, { invalidates: exhibitorWritesInvalidate });
export const useBulkRemovalImpact = () => useEndpointMutation(bulkRemovalImpact);
export const useRemoveExhibitors = () =>
  useEndpointMutation(removeExhibitors, { invalidates: exhibitorWritesInvalidate });

/** How many exhibitors were added without an invitation ("Enviar invitaciones pendientes"). */
export const usePendingInvitations = (eventId: string) =>
  useQuery(endpointQuery(pendingInvitations, { params: { eventId } }));
export const useSendPendingInvitations = () =>
  useEndpointMutation(sendPendingInvitations, { invalidates: exhibitorWritesInvalidate });
