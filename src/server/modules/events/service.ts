import { sql } from 'kysely';
import { calendarDateIn } from '../../../shared/dates.ts';
import { searchKey } from '../../../shared/search.ts';
import { DEFAULT_REMINDERS, type ReminderKind } from '../../../shared/schemas/events.ts';
import { MSG } from '../../../shared/messages.ts';
import {
  eventDatesError,
  type EventFields,
  type EventStatus,
  type EventUpdateFields,
  type EventView,
} from '../../../shared/schemas/events.ts';
import {
  DEFAULT_NOMINEE_FIELDS,
  nomineeFieldSettingsColumn,
  readNomineeFieldSettings,
  type NomineeFieldSettings,
} from '../../../shared/nominee-fields.ts';
import type { SignedInAdmin as Admin } from '../../../shared/signed-in.ts';
import type { EventRow } from '../../db/schema.ts';
import type { AppDeps } from '../../deps.ts';
import { recordAudit } from '../../lib/audit.ts';
import { newId } from '../../lib/crypto.ts';
import type { Tx } from '../../db/transact.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import { getEventOr404, inEventTransaction } from '../../lib/guards.ts';
import { iso } from '../../lib/time.ts';
import { cancelPendingMail, enqueueMails } from '../../mail/outbox.ts';
import { eventReminders, remindersColumn, rescheduleReminders } from '../../mail/reminders.ts';

// The event routes read one event through this module.
export { getEventOr404 };

/** Today in the app's zone, by the injected clock. */
export const todayOf = (deps: AppDeps): string =>
  calendarDateIn(deps.clock.now(), deps.config.timeZone);

/**
 * Where an event stands on `today`: archived, or voting open through its deadline day unless an
 * administrator closed it (a stored close instant is always in the past once read).
 */
export function eventStatus(row: EventRow, today: string): EventStatus {
  if (row.archived_at !== null) return 'archived';
  return row.voting_closed_at === null && today <= row.vote_deadline ? 'open' : 'closed';
}

/**
 * The event as the screens see it; `today` decides whether it may be archived yet and whether its
 * voting is open; `turnout` (the event list) gives an open event's "{k} % votó".
 */
export function toEventView(
  row: EventRow,
  today: string,
  turnout?: { exhibitors: number; voters: number },
): EventView {
  const status = eventStatus(row, today);
  return {
    id: row.id,
    name: row.name,
    eventDate: row.event_date,
    voteDeadline: row.vote_deadline,
    reminders: eventReminders(row),
    archived: row.archived_at !== null,
    archivable: row.event_date < today,
    anonymised: row.anonymised_at !== null,
    status,
    votingClosedAt: row.voting_closed_at,
    votedPercent:
      status === 'open' && turnout
        ? turnout.exhibitors === 0
          ? 0
          : Math.round((100 * turnout.voters) / turnout.exhibitors)
        : null,
    nomineeFields: readNomineeFieldSettings(row.nominee_fields),
    hasOwnLogo: row.logo_etag !== null,
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
    .selectAll('events')
    .select((eb) => [
      eb
        .selectFrom('event_exhibitors as m')
        .select(sql<number>`cast(count(*) as integer)`.as('n'))
        .whereRef('m.event_id', '=', 'events.id')
        .as('exhibitor_count'),
      eb
        .selectFrom('nominations as v')
        .select(sql<number>`cast(count(distinct v.exhibitor_id) as integer)`.as('n'))
        .whereRef('v.event_id', '=', 'events.id')
        .as('voter_count'),
    ])
    .where('archived_at', archived ? 'is not' : 'is', null);
  const term = searchKey(q?.trim() ?? '');
  if (term) {
    query = query.where(sql<boolean>`name_search like ${`%${escapeLike(term)}%`} escape '\\'`);
  }
  const rows = await query.orderBy('event_date').orderBy('name_search').orderBy('id').execute();
  const today = todayOf(deps);
  return rows.map(({ exhibitor_count, voter_count, ...row }) =>
    toEventView(row, today, {
      exhibitors: Number(exhibitor_count ?? 0),
      voters: Number(voter_count ?? 0),
    }),
  );
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

/**
 * A new event's row: open, not archived, created by `admin` now, asking for the nominee fields
 * `nomineeFields` (all of them by default), with the logo whose ETag is `logoEtag` (none: the
 * programme's).
 */
export function newEventRow(
  admin: Admin,
  fields: Pick<EventFields, 'name' | 'eventDate' | 'voteDeadline'>,
  reminders: readonly ReminderKind[],
  now: Date,
  shape: { nomineeFields?: NomineeFieldSettings; logoEtag?: string | null } = {},
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
    voting_closed_at: null,
    nominee_fields: nomineeFieldSettingsColumn(shape.nomineeFields ?? DEFAULT_NOMINEE_FIELDS),
    logo_etag: shape.logoEtag ?? null,
  };
}

export async function createEvent(deps: AppDeps, admin: Admin, fields: EventFields) {
  checkDates(deps, fields);
  const now = deps.clock.now();
  const row = newEventRow(admin, fields, fields.reminders ?? DEFAULT_REMINDERS, now, {
    nomineeFields: fields.nomineeFields,
  });
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
  fields: EventUpdateFields,
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
      nominee_fields: fields.nomineeFields
        ? nomineeFieldSettingsColumn(fields.nomineeFields)
        : before.nominee_fields,
      // A new deadline replaces an early close: voting runs through the new deadline day.
      voting_closed_at:
        fields.voteDeadline === before.vote_deadline ? before.voting_closed_at : null,
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
        nominee_fields: after.nominee_fields,
        voting_closed_at: after.voting_closed_at,
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
    const extended = after.vote_deadline > before.vote_deadline;
    const notified = extended && fields.notifyExhibitors === true;
    if (notified) await queueExtensionNotices(tx, now, after);
    const factsBefore = {
      name: before.name,
      eventDate: before.event_date,
      voteDeadline: before.vote_deadline,
      reminders: chosenBefore,
    };
    const factsAfter = {
      name: after.name,
      eventDate: after.event_date,
      voteDeadline: after.vote_deadline,
      reminders: eventReminders(after),
    };
    const fieldsBefore = readNomineeFieldSettings(before.nominee_fields);
    const fieldsAfter = readNomineeFieldSettings(after.nominee_fields);
    const fieldsChanged = JSON.stringify(fieldsBefore) !== JSON.stringify(fieldsAfter);
    // An edit that only changed "Datos del nominado" says so in its own entry, not also as an
    // "Evento modificado: sin cambios".
    if (!fieldsChanged || notified || JSON.stringify(factsBefore) !== JSON.stringify(factsAfter)) {
      await recordAudit(tx, admin, now, {
        action: 'event.updated',
        entityType: 'event',
        entityId: eventId,
        eventId,
        details: {
          before: factsBefore,
          after: factsAfter,
          ...(notified ? { exhibitorsNotified: true } : {}),
        },
      });
    }
    if (fieldsChanged) {
      await recordAudit(tx, admin, now, {
        action: 'event.nominee_fields_changed',
        entityType: 'event',
        entityId: eventId,
        eventId,
        details: { before: fieldsBefore, after: fieldsAfter },
      });
    }
    return after;
  });
  return toEventView(updated, todayOf(deps));
}

/** "Avisar a los expositores": one message to each invited exhibitor of the event. */
async function queueExtensionNotices(tx: Tx, now: Date, event: EventRow): Promise<void> {
  const invited = await tx
    .selectFrom('event_exhibitors as m')
    .innerJoin('exhibitors as x', 'x.id', 'm.exhibitor_id')
    .select(['x.id', 'x.email'])
    .where('m.event_id', '=', event.id)
    .where('m.invited_at', 'is not', null)
    .orderBy('x.id')
    .execute();
  await enqueueMails(
    tx,
    now,
    invited.map((exhibitor) => ({
      template: 'voting-extended' as const,
      to: exhibitor.email,
      params: { eventId: event.id },
      eventId: event.id,
      exhibitorId: exhibitor.id,
    })),
  );
}

/**
 * "Cerrar votación ahora": the deadline becomes today and voting ends at this very instant (stored,
 * since the deadline day alone would leave it open until 23:59); every save after it is refused,
 * the unsent reminders are withdrawn, and the history records it. Only while voting is open.
 */
export async function closeVotingNow(
  deps: AppDeps,
  admin: Admin,
  eventId: string,
): Promise<EventView> {
  const today = todayOf(deps);
  const closed = await inEventTransaction(deps, eventId, async (tx, before, now) => {
    if (eventStatus(before, today) !== 'open') throw new AppError('voting_closed');
    const after: EventRow = {
      ...before,
      vote_deadline: today,
      voting_closed_at: iso(now),
      updated_at: iso(now),
    };
    // Conditional, so that of two closes at once the second finds it closed and is refused.
    const result = await tx
      .updateTable('events')
      .set({
        vote_deadline: after.vote_deadline,
        voting_closed_at: after.voting_closed_at,
        updated_at: after.updated_at,
      })
      .where('id', '=', eventId)
      .where('voting_closed_at', 'is', null)
      .executeTakeFirst();
    if (result.numUpdatedRows !== 1n) throw new AppError('voting_closed');
    const withdrawn =
      (await cancelPendingMail(tx, { template: 'voting-reminder', eventId }, 'closed_early')) +
      (await cancelPendingMail(tx, { template: 'nonvoter-reminder', eventId }, 'closed_early'));
    await recordAudit(tx, admin, now, {
      action: 'event.voting_closed',
      entityType: 'event',
      entityId: eventId,
      eventId,
      details: {
        voteDeadlineBefore: before.vote_deadline,
        voteDeadline: after.vote_deadline,
        closedAt: after.voting_closed_at,
        remindersWithdrawn: withdrawn,
      },
    });
    return after;
  });
  return toEventView(closed, today);
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
