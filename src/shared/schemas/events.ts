import { z } from 'zod';
import { MSG } from '../messages.ts';
import { nomineeFieldSettings } from '../nominee-fields.ts';
import { NOMINABLE_RESELLERS } from '../registry.ts';
import { isValidIsoDate } from '../dates.ts';
import { hasOnlyTextCharacters, isoDateField, requiredText, whenMissing } from './common.ts';
import { eventCategoryView } from './categories.ts';

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

/** True for an IANA zone the platform knows ("America/Argentina/Buenos_Aires", "UTC"). */
export function isTimeZone(zone: string): boolean {
  if (!/^[A-Za-z]+(\/[A-Za-z0-9_+-]+)*$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** "Hora de cierre": `HH:MM`, 00:00 to 23:59. */
export const CLOSE_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/** "Apertura de la votación": a wall-clock date and hour of the event's zone, `YYYY-MM-DDTHH:MM`. */
const LOCAL_DATE_TIME = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d$/;

/**
 * "Nuevo evento" / "Editar evento": calendar dates `YYYY-MM-DD`, which no time zone can shift, and
 * the reminders chosen (left out: a new event gets the deadline-day one, an edit keeps its own);
 * the event's calendar (left out: a new event closes at 23:59 in APP_TIMEZONE and opens at once,
 * an edit keeps its own; `votingOpensAt` null removes the opening).
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
  closeTime: z.string().regex(CLOSE_TIME, MSG.invalidCloseTime).optional(),
  timeZone: z
    .string()
    .max(100, MSG.invalidTimeZone)
    .refine(isTimeZone, MSG.invalidTimeZone)
    .optional(),
  votingOpensAt: z
    .string()
    .regex(LOCAL_DATE_TIME, MSG.invalidOpening)
    .refine((value) => isValidIsoDate(value.slice(0, 10)), MSG.invalidOpening)
    .nullable()
    .optional(),
  /**
   * "Resellers nominables" and "Validar CUIT" (left out: a new event takes anyone without the
   * check, an edit keeps its own, a duplicate copies its source's).
   */
  nominableResellers: z.enum(NOMINABLE_RESELLERS).optional(),
  validateCuit: z.boolean().optional(),
  /**
   * "Ocultar resultados hasta el cierre" (left out: a new event shows its results, an edit keeps
   * its own, a duplicate copies its source's).
   */
  sealResults: z.boolean().optional(),
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
export const EVENT_STATUSES = ['draft', 'open', 'closed', 'archived'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];
export const EVENT_STATUS_LABELS: Record<EventStatus, string> = {
  draft: 'Borrador',
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
  /** "Hora de cierre", `HH:MM` of the deadline day in `timeZone`. */
  closeTime: z.string(),
  /** "Zona horaria": every date and hour of the event is read in it. */
  timeZone: z.string(),
  /** "Apertura de la votación", `YYYY-MM-DDTHH:MM` in `timeZone`; null: open since created. */
  votingOpensAt: z.string().nullable(),
  /**
   * A draft (before its opening), voting open, closed (deadline passed or "Cerrar votación
   * ahora"), or the event archived.
   */
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
  /** "Resellers nominables": anyone, or only fiscal ids of the registry. */
  nominableResellers: z.enum(NOMINABLE_RESELLERS),
  /** "Validar CUIT": an 11-digit fiscal id must carry a valid check digit. */
  validateCuit: z.boolean(),
  /** "Ocultar resultados hasta el cierre": the setting. */
  sealResults: z.boolean(),
  /**
   * Its results are sealed now: the setting is on, voting has not ended and nobody opened them
   * early. Every results route refuses them with 409 meanwhile.
   */
  resultsSealed: z.boolean(),
  /** "Ver resultados ahora": who opened the sealed results before the close, when and why. */
  resultsViewedEarly: z
    .object({ by: z.string(), at: z.string(), reason: z.string().nullable() })
    .nullable(),
  /** Its categories in their order (docs/decisions/0034). */
  categories: z.array(eventCategoryView),
});
export type EventView = z.output<typeof eventView>;

export const eventListResponse = z.object({
  events: z.array(eventView),
  /** APP_TIMEZONE: the "Zona horaria" a new event starts from. */
  timeZone: z.string(),
});
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

/** "¿Ver resultados antes del cierre?": the required "Motivo". */
export const viewResultsEarlyInput = z.object({
  reason: z
    .string({ error: whenMissing(MSG.viewReasonRequired) })
    .trim()
    .min(1, MSG.viewReasonRequired)
    .max(500, MSG.invalidInput),
});
export type ViewResultsEarlyInput = z.input<typeof viewResultsEarlyInput>;
