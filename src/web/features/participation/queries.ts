import { useQuery } from '@tanstack/react-query';
import { participation, reminderPlan, sendReminder } from '../../../shared/api/participation.ts';
import type { ReminderAudience } from '../../../shared/schemas/participation.ts';
import { endpointKey, endpointQuery, useEndpointMutation } from '../../lib/api.ts';

export function useParticipation(eventId: string) {
  return useQuery(endpointQuery(participation, { params: { eventId } }));
}

/** Asked each time the dialog opens: the 12-hour window moves on its own. */
export function useReminderPlan(eventId: string, to: ReminderAudience, enabled: boolean) {
  return useQuery({
    ...endpointQuery(reminderPlan, { params: { eventId }, query: { to } }),
    enabled,
    gcTime: 0,
  });
}

/** A reminder changes who is skipped next time, by either button. */
const reminderInvalidates = (input: { params: { eventId: string } }) =>
  (['noVotes', 'incomplete'] as const).map((to) =>
    endpointKey(reminderPlan, { params: { eventId: input.params.eventId }, query: { to } }),
  );

export const useSendReminder = () =>
  useEndpointMutation(sendReminder, { invalidates: reminderInvalidates });
