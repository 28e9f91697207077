import { sql } from 'kysely';
import { calendarDateIn } from '../../../shared/dates.ts';
import { searchKey } from '../../../shared/search.ts';
import { DEFAULT_REMINDERS, type ReminderKind } from '../../../shared/schemas/events.ts';
import { MSG } from '../../../shared/messages.ts';
import {
  eventDatesError,
  type EventFields,
  type EventView,
} from '../../../shared/schemas/events.ts';
import type { SignedInAdmin as Admin } from '../../../shared/signed-in.ts';
import type { EventRow } from '../../db/schema.ts';
import type { AppDeps } from '../../deps.ts';
import { recordAudit } from '../../lib/audit.ts';
import { newId } from '../../lib/crypto.ts';
import { badRequest } from '../../lib/errors.ts';
import { getEventOr404, inEventTransaction } from '../../lib/guards.ts';
import { iso } from '../../lib/time.ts';
import { cancelPendingMail } from '../../mail/outbox.ts';
import { eventReminders, remindersColumn, rescheduleReminders } from '../../mail/reminders.ts';

// The event routes read one event through this module.
export { getEventOr404 };

/** Today in the app's zone, by the injected clock. */
export const todayOf = (deps: AppDeps): string =>
  calendarDateIn(deps.clock.now(), deps.config.timeZone);

/** The event as the screens see it; `today` decides whether it may be archived yet. */
export function toEventView(row: EventRow, today: string): EventView {
  return {
    id: row.id,
    name: row.name,
    eventDate: row.event_date,
    voteDeadline: row.vote_deadline,
    reminders: eventReminders(row),
    archived: row.archived_at !== null,
    archivable: row.event_date < today,
    anonymised: row.anonymised_at !== null,
  };
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Events ordered by event date, the open ones or (`archived`) the archived ones; `q` matches part
 * of the name, ignoring case and accents.
 */
export async function listEvents(
  deps: AppDeps,
  q: string | undefined,
  archived: boolean,
): Promise<EventView[]> {
  let query = deps.db
    .selectFrom('events')
    .selectAll()
    .where('archived_at', archived ? 'is not' : 'is', null);
  const term = searchKey(q?.trim() ?? '');
  if (term) {
    query = query.where(sql<boolean>`name_search like ${`%${escapeLike(term)}%`} escape '\\'`);
  }
  const rows = await query.orderBy('event_date').orderBy('name_search').orderBy('id').execute();
  const today = todayOf(deps);
  return rows.map((row) => toEventView(row, today));
}

export function checkDates(
  deps: AppDeps,
  fields: EventFields,
  unchanged?: { eventDate: boolean; voteDeadline: boolean },
): void {
  const today = calendarDateIn(deps.clock.now(), deps.config.timeZone);
  const message = eventDatesError(fields, today, unchanged);
  if (message) {
    const field = message === MSG.deadlineAfterEvent ? 'voteDeadline' : 'eventDate';
    throw badRequest(message, field);
  }
}

/** A new event's row: open, not archived, created by `admin` now. */
export function newEventRow(
  admin: Admin,
  fields: Pick<EventFields, 'name' | 'eventDate' | 'voteDeadline'>,
  reminders: readonly ReminderKind[],
  now: Date,
): EventRow {
  return {
    id: newId(),
    name: fields.name,
    name_search: searchKey(fields.name),
    event_date: fields.eventDate,
    vote_deadline: fields.voteDeadline,
    reminders: remindersColumn(reminders),
    created_by: admin.adminId,
    created_at: iso(now),
    updated_at: iso(now),
    archived_at: null,
    anonymised_at: null,
  };
}

export async function createEvent(deps: AppDeps, admin: Admin, fields: EventFields) {
  checkDates(deps, fields);
  const now = deps.clock.now();
  const row = newEventRow(admin, fields, fields.reminders ?? DEFAULT_REMINDERS, now);
  await deps.transact(async (tx) => {
    await tx.insertInto('events').values(row).execute();
    await recordAudit(tx, admin, now, {
      action: 'event.created',
      entityType: 'event',
      entityId: row.id,
      eventId: row.id,
      details: {
        name: row.name,
        eventDate: row.event_date,
        voteDeadline: row.vote_deadline,
        reminders: eventReminders(row),
      },
    });
  });
  return toEventView(row, todayOf(deps));
}

/**
 * Edits an event. A moved deadline moves the pending reminders of its exhibitors; exhibitors whose
 * reminder already went out (an earlier deadline) get a new one for the new deadline day.
 */
export async function updateEvent(
  deps: AppDeps,
  admin: Admin,
  eventId: string,
  fields: EventFields,
): Promise<EventView> {
  const updated = await inEventTransaction(deps, eventId, async (tx, before, now) => {
    checkDates(deps, fields, {
      eventDate: fields.eventDate === before.event_date,
      voteDeadline: fields.voteDeadline === before.vote_deadline,
    });
    const after: EventRow = {
      ...before,
      name: fields.name,
      name_search: searchKey(fields.name),
      event_date: fields.eventDate,
      vote_deadline: fields.voteDeadline,
      reminders: fields.reminders ? remindersColumn(fields.reminders) : before.reminders,
      updated_at: iso(now),
    };
    await tx
      .updateTable('events')
      .set({
        name: after.name,
        name_search: after.name_search,
        event_date: after.event_date,
        vote_deadline: after.vote_deadline,
        reminders: after.reminders,
        updated_at: after.updated_at,
      })
      .where('id', '=', eventId)
      .execute();
    const deadlineMoved = after.vote_deadline !== before.vote_deadline;
    const chosenBefore = eventReminders(before);
    const addedKinds = eventReminders(after).filter((kind) => !chosenBefore.includes(kind));
    if (deadlineMoved || after.reminders !== before.reminders) {
      await rescheduleReminders(tx, deps.config.timeZone, now, after, {
        deadlineMoved,
        addedKinds,
      });
    }
    await recordAudit(tx, admin, now, {
      action: 'event.updated',
      entityType: 'event',
      entityId: eventId,
      eventId,
      details: {
        before: {
          name: before.name,
          eventDate: before.event_date,
          voteDeadline: before.vote_deadline,
          reminders: chosenBefore,
        },
        after: {
          name: after.name,
          eventDate: after.event_date,
          voteDeadline: after.vote_deadline,
          reminders: eventReminders(after),
        },
      },
    });
    return after;
  });
  return toEventView(updated, todayOf(deps));
}

/**
 * Deletes an event with its memberships and nominations (foreign-key cascades) in one
 * transaction, withdraws its unsent invitations and reminders, and deletes its mail and its
 * history but for the entry of the deletion itself (decision 0014).
 */
export async function deleteEvent(deps: AppDeps, admin: Admin, eventId: string): Promise<void> {
  await inEventTransaction(deps, eventId, async (tx, event, now) => {
    const counts = await tx
      .selectFrom('events')
      .select((eb) => [
        eb
          .selectFrom('event_exhibitors')
          .select(sql<number>`cast(count(*) as integer)`.as('n'))
          .where('event_id', '=', eventId)
          .as('exhibitors'),
        eb
          .selectFrom('nominations')
          .select(sql<number>`cast(count(*) as integer)`.as('n'))
          .where('event_id', '=', eventId)
          .as('nominations'),
      ])
      .where('id', '=', eventId)
      .executeTakeFirstOrThrow();
    await cancelPendingMail(tx, { template: 'voting-reminder', eventId });
    await cancelPendingMail(tx, { template: 'exhibitor-invitation', eventId });
    await tx.deleteFrom('events').where('id', '=', eventId).execute();
    // After the memberships go (cascade), in the order a save takes them: see removeExhibitor.
    await cancelPendingMail(tx, { template: 'nomination-receipt', eventId });
    // Nothing can read them once the event is gone, and they name people (decision 0014): the
    // event's mail, sent or not, and its history go too; one entry says who deleted what, when.
    await tx.deleteFrom('mail_outbox').where('event_id', '=', eventId).execute();
    await tx.deleteFrom('audit_log').where('event_id', '=', eventId).execute();
    await recordAudit(tx, admin, now, {
      action: 'event.deleted',
      entityType: 'event',
      entityId: eventId,
      eventId,
      details: {
        name: event.name,
        eventDate: event.event_date,
        voteDeadline: event.vote_deadline,
        exhibitors: Number(counts.exhibitors ?? 0),
        nominations: Number(counts.nominations ?? 0),
      },
    });
  });
}
