import { z } from 'zod';
import { MSG } from '../messages.ts';
import { hasOnlyTextCharacters, isoDateField, requiredText } from './common.ts';

/** "Nuevo evento" / "Editar evento": calendar dates `YYYY-MM-DD`, which no time zone can shift. */
export const eventInput = z.object({
  name: requiredText(200),
  eventDate: isoDateField,
  voteDeadline: isoDateField,
});
export type EventInput = z.input<typeof eventInput>;
export type EventFields = z.output<typeof eventInput>;

export const eventView = z.object({
  id: z.string(),
  name: z.string(),
  eventDate: z.string(),
  voteDeadline: z.string(),
});
export type EventView = z.output<typeof eventView>;

export const eventListResponse = z.object({ events: z.array(eventView) });
export type EventListResponse = z.output<typeof eventListResponse>;

export const eventSearchQuery = z.object({
  q: z
    .string()
    .max(200, MSG.invalidInput)
    .refine(hasOnlyTextCharacters, MSG.invalidCharacters)
    .optional(),
});

/**
 * The date rules of a new or edited event, shared by the dialog and the server: both dates today
 * or later, the deadline strictly before the event. `unchanged` lists dates an edit keeps as they
 * were, which may already be in the past (renaming a past event stays possible).
 */
export function eventDatesError(
  dates: { eventDate: string; voteDeadline: string },
  today: string,
  unchanged: { eventDate?: boolean; voteDeadline?: boolean } = {},
): string | null {
  const past = (value: string, kept: boolean | undefined) => !kept && value < today;
  if (
    past(dates.eventDate, unchanged.eventDate) ||
    past(dates.voteDeadline, unchanged.voteDeadline)
  ) {
    return MSG.invalidDates;
  }
  if (dates.voteDeadline >= dates.eventDate) return MSG.deadlineAfterEvent;
  return null;
}
