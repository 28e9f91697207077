import { z } from 'zod';
import { MSG } from '../messages.ts';
import { nomineeFieldSettings } from '../nominee-fields.ts';
import { hasOnlyTextCharacters, isoDateField, requiredText } from './common.ts';

/** The reminders an event can send to its exhibitors, earliest first. */
export const REMINDER_KINDS = [
  'sevenDaysBefore',
  'threeDaysBefore',
  'oneDayBefore',
  'deadlineDay',
] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];

/** The checkboxes of the event dialogs. */
export const REMINDER_KIND_LABELS: Record<ReminderKind, string> = {
  sevenDaysBefore: 'Recordar 7 días antes',
  threeDaysBefore: 'Recordar 3 días antes',
  oneDayBefore: 'Recordar 1 día antes',
  deadlineDay: 'Recordar el día del cierre',
};

/** What a new event sends unless the administrator chooses otherwise: the deadline-day reminder. */
export const DEFAULT_REMINDERS: readonly ReminderKind[] = ['deadlineDay'];

const reminderChoice = z
  .array(z.enum(REMINDER_KINDS))
  .max(REMINDER_KINDS.length)
  .transform((kinds) => REMINDER_KINDS.filter((kind) => kinds.includes(kind)));

/**
 * "Nuevo evento" / "Editar evento": calendar dates `YYYY-MM-DD`, which no time zone can shift, and
 * the reminders chosen (left out: a new event gets the deadline-day one, an edit keeps its own).
 */
export const eventInput = z.object({
  name: requiredText(200),
  eventDate: isoDateField,
  voteDeadline: isoDateField,
  reminders: reminderChoice.optional(),
  /**
   * "Datos del nominado": which of the nominee form's fields the event asks for (left out: a new
   * event asks for all of them, an edit keeps its own, a duplicate copies its source's).
   */
  nomineeFields: nomineeFieldSettings.optional(),
});
export type EventInput = z.input<typeof eventInput>;
export type EventFields = z.output<typeof eventInput>;

/**
 * "Editar evento": the same fields, and whether to tell the invited exhibitors when the deadline
 * moves later ("Avisar a los expositores").
 */
export const eventUpdateInput = eventInput.extend({ notifyExhibitors: z.boolean().optional() });
export type EventUpdateInput = z.input<typeof eventUpdateInput>;
export type EventUpdateFields = z.output<typeof eventUpdateInput>;

/** Where an event stands (the "Estado" column of the event list). */
export const EVENT_STATUSES = ['open', 'closed', 'archived'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];
export const EVENT_STATUS_LABELS: Record<EventStatus, string> = {
  open: 'Abierta',
  closed: 'Cerrada',
  archived: 'Archivada',
};

export const eventView = z.object({
  id: z.string(),
  name: z.string(),
  eventDate: z.string(),
  voteDeadline: z.string(),
  reminders: z.array(z.enum(REMINDER_KINDS)),
  /** Archived: read-only for everyone, hidden from exhibitors. */
  archived: z.boolean(),
  /** Its event date has passed, so it may be archived. */
  archivable: z.boolean(),
  /** Its personal data has been replaced by placeholders. */
  anonymised: z.boolean(),
  /** Voting open, closed (deadline passed or "Cerrar votación ahora"), or the event archived. */
  status: z.enum(EVENT_STATUSES),
  /** When an administrator closed voting before its deadline ended, if one did. */
  votingClosedAt: z.string().nullable(),
  /**
   * In the event list, for an open event: the share of its exhibitors with at least one
   * nomination, in whole percent ("{k} % votó"); null otherwise.
   */
  votedPercent: z.number().int().nullable(),
  /** "Datos del nominado": which of the nominee form's fields its exhibitors are asked for. */
  nomineeFields: nomineeFieldSettings,
  /** It has a logo of its own ("Logo del evento"), shown instead of the programme's to its exhibitors. */
  hasOwnLogo: z.boolean(),
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
  /** "Archivados": `true` lists the archived events instead of the open ones. */
  archived: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true'),
});

/**
 * "Duplicar evento": the new event's fields (the same rules as a new event) and whether the
 * exhibitors come along and are invited at once.
 */
export const duplicateEventInput = eventInput.extend({
  copyExhibitors: z.boolean(),
  sendInvitations: z.boolean(),
});
export type DuplicateEventInput = z.input<typeof duplicateEventInput>;
export type DuplicateEventFields = z.output<typeof duplicateEventInput>;

/**
 * The date rules of a new or edited event, shared by the dialog and the server: both dates today
 * or later, the deadline strictly before the event. `unchanged` lists dates an edit keeps as they
 * were, which may already be in the past (renaming a past event stays possible).
 */
export function eventDatesError(
  dates: { eventDate: string; voteDeadline: string },
  today: string,
  unchanged: { eventDate?: boolean; voteDeadline?: boolean } = {},
): typeof MSG.invalidDates | typeof MSG.deadlineAfterEvent | null {
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
