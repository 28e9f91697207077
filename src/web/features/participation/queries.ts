import { useQuery } from '@tanstack/react-query';
import { participation, reminderPlan, sendReminder } from '../../../shared/api/participation.ts';
import { endpointKey, endpointQuery, useEndpointMutation } from '../../lib/api.ts';

export function useParticipation(eventId: string) {
  return useQuery(endpointQuery(participation, { params: { eventId } }));
}

/** Asked each time the dialog opens: the 12-hour window moves on its own. */
export function useReminderPlan(eventId: string, enabled: boolean) {
  return useQuery({
    ...endpointQuery(reminderPlan, { params: { eventId } }),
    enabled,
    gcTime: 0,
  });
}

/** A reminder changes who is skipped next time. */
const reminderInvalidates = (input: { params: { eventId: string } }) => [
  endpointKey(reminderPlan, { params: { eventId: input.params.eventId } }),
];

export const useSendReminder = () =>
  useEndpointMutation(sendReminder, { invalidates: reminderInvalidates });
