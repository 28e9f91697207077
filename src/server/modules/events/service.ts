import { sql } from 'kysely';
import { calendarDateIn } from '../../../shared/dates.ts';
import {
  calendarOf,
  closingInstant,
  DEFAULT_CLOSE_TIME,
  eventToday,
  hasVotingEnded,
  isDraft,
  zonedInstant,
  zonedLocalDateTime,
} from '../../lib/event-calendar.ts';
import type { NominableResellers } from '../../../shared/registry.ts';
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
import { resultsSealedAt } from '../../lib/sealed-results.ts';
import { iso } from '../../lib/time.ts';
import { cancelPendingMail, enqueueMails } from '../../mail/outbox.ts';
import { eventReminders, remindersColumn, rescheduleReminders } from '../../mail/reminders.ts';
import {
  defaultCategoryRows,
  categoriesOfEvents,
  readEventCategories,
  toCategoryView,
} from '../../lib/event-categories.ts';
import type { EventCategory } from '../../db/schema.ts';

/** An event, as the input of a service that reads one. */
export interface EventRef {
  eventId: string;
}

/** An administrator's change to an event. */
export interface EventChange extends EventRef {
  admin: Admin;
}

/** Today in the app's zone, by the injected clock. */
export const todayOf = (deps: AppDeps): string =>
  calendarDateIn(deps.clock.now(), deps.config.timeZone);

/** The instant of a request and the app's zone, which an event without a zone of its own follows. */
export interface EventClock {
  now: Date;
  appTimeZone: string;
}

export const clockOf = (deps: AppDeps): EventClock => ({
  now: deps.clock.now(),
  appTimeZone: deps.config.timeZone,
});

/**
 * Where an event stands now: archived, a draft before its opening, voting open through the closing
 * hour of its deadline day in its zone, or closed (that hour passed or "Cerrar votación ahora").
 */
export function eventStatus(row: EventRow, clock: EventClock): EventStatus {
  if (row.archived_at !== null) return 'archived';
  const calendar = calendarOf(row, clock.appTimeZone);
  if (isDraft(calendar, clock.now)) return 'draft';
  return hasVotingEnded(calendar, clock.now) ? 'closed' : 'open';
}

/**
 * The event as the screens see it; the clock decides whether it may be archived yet (its date has
 * passed in its zone) and where its voting stands; `turnout` (the event list) gives an open event's
 * "{k} % votó".
 */
export function toEventView(
  row: EventRow,
  clock: EventClock,
  categories: readonly EventCategory[],
  turnout?: { exhibitors: number; voters: number },
): EventView {
  const status = eventStatus(row, clock);
  const calendar = calendarOf(row, clock.appTimeZone);
  return {
    id: row.id,
    name: row.name,
    eventDate: row.event_date,
    voteDeadline: row.vote_deadline,
    reminders: eventReminders(row),
    archived: row.archived_at !== null,
    archivable: row.event_date < eventToday(calendar, clock.now),
    anonymised: row.anonymised_at !== null,
    closeTime: calendar.closeTime,
    timeZone: calendar.timeZone,
    votingOpensAt: calendar.opensAt && zonedLocalDateTime(calendar.opensAt, calendar.timeZone),
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
    nominableResellers: row.nominable_resellers,
    validateCuit: row.validate_cuit === 1,
    sealResults: row.seal_results === 1,
    resultsSealed: status !== 'archived' && resultsSealedAt(row, clock.appTimeZone, clock.now),
    resultsViewedEarly:
      row.results_viewed_at === null
        ? null
        : {
            by: row.results_viewed_by_name ?? '',
            at: row.results_viewed_at,
            reason: row.results_viewed_reason,
          },
    categories: categories.map(toCategoryView),
  };
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** One event as the event page shows it, or 404 "No se econtró el evento". */
export async function getEvent(deps: AppDeps, { eventId }: EventRef): Promise<EventView> {
  return toEventView(
    await getEventOr404(deps.db, eventId),
    clockOf(deps),
    await readEventCategories(deps.db, eventId),
  );
}

/**
 * Events ordered by event date, the open ones or (`archived`) the archived ones; `q` matches part
 * of the name, ignoring case and accents.
 */
export async function listEvents(
  deps: AppDeps,
  { q, archived }: { q?: string | undefined; archived: boolean },
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
  const clock = clockOf(deps);
  const categories = await categoriesOfEvents(
    deps.db,
    rows.map((row) => row.id),
  );
  return rows.map(({ exhibitor_count, voter_count, ...row }) =>
    toEventView(row, clock, categories.get(row.id) ?? [], {
      exhibitors: Number(exhibitor_count ?? 0),
      voters: Number(voter_count ?? 0),
    }),
  );
}

/** The calendar columns of an event, as stored. */
export type CalendarColumns = Pick<EventRow, 'close_time' | 'time_zone' | 'voting_opens_at'>;

/**
 * The dates and calendar of a new or edited event, checked: both dates today or later in the
 * event's zone (`unchanged` dates may have passed), the deadline before the event, and the opening,
 * when there is one, before the close. Answers the calendar columns to store: what the fields say,
 * or for each one left out what `before` had (a new event: 23:59 in APP_TIMEZONE, open at once).
 */
export function checkDates(
  deps: AppDeps,
  fields: EventFields,
  unchanged?: { eventDate: boolean; voteDeadline: boolean },
  before?: CalendarColumns,
): CalendarColumns {
  const timeZone = fields.timeZone ?? before?.time_zone ?? deps.config.timeZone;
  const closeTime = fields.closeTime ?? before?.close_time ?? DEFAULT_CLOSE_TIME;
  const today = calendarDateIn(deps.clock.now(), timeZone);
  const message = eventDatesError(fields, today, unchanged);
  if (message) {
    const field = message === MSG.deadlineAfterEvent ? 'voteDeadline' : 'eventDate';
    throw badRequest(message, field);
  }
  const opensAt =
    fields.votingOpensAt === undefined
      ? (before?.voting_opens_at ?? null)
      : fields.votingOpensAt === null
        ? null
        : iso(zonedInstant(...splitLocal(fields.votingOpensAt), timeZone));
  if (
    opensAt !== null &&
    Date.parse(opensAt) >=
      closingInstant({ voteDeadline: fields.voteDeadline, closeTime, timeZone })
  ) {
    throw badRequest(MSG.openingAfterClose, 'votingOpensAt');
  }
  return { close_time: closeTime, time_zone: timeZone, voting_opens_at: opensAt };
}

/** `2026-12-01T09:00` → [`2026-12-01`, `09:00`]. */
const splitLocal = (local: string): [string, string] => [local.slice(0, 10), local.slice(11, 16)];

/**
 * A new event's row: open, not archived, created by `admin` now, with its calendar, asking for the
 * nominee fields `nomineeFields` (all of them by default), with the logo whose ETag is `logoEtag`
 * (none: the programme's).
 */
export function newEventRow(
  admin: Admin,
  fields: Pick<EventFields, 'name' | 'eventDate' | 'voteDeadline'>,
  reminders: readonly ReminderKind[],
  now: Date,
  calendar: CalendarColumns,
  shape: {
    nomineeFields?: NomineeFieldSettings;
    logoEtag?: string | null;
    nominableResellers?: NominableResellers;
    validateCuit?: boolean;
    sealResults?: boolean;
  } = {},
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
    nominable_resellers: shape.nominableResellers ?? 'any',
    validate_cuit: shape.validateCuit ? 1 : 0,
    // A new event shows its results unless asked; an early viewing is never copied.
    seal_results: shape.sealResults ? 1 : 0,
    results_viewed_at: null,
    results_viewed_by: null,
    results_viewed_by_name: null,
    results_viewed_reason: null,
    ...calendar,
  };
}

/** What the history records of an event's registry rules ("Resellers nominables", "Validar CUIT"). */
export const registryRuleFacts = (
  row: Pick<EventRow, 'nominable_resellers' | 'validate_cuit'>,
) => ({
  nominableResellers: row.nominable_resellers,
  validateCuit: row.validate_cuit === 1,
});

/** What the history records of "Ocultar resultados hasta el cierre". */
export const sealFacts = (row: Pick<EventRow, 'seal_results'>) => ({
  sealResults: row.seal_results === 1,
});

/** What the history records of an event's calendar (its opening as the zone's wall clock). */
export const calendarDetails = (row: EventRow) => ({
  closeTime: row.close_time,
  ...(row.time_zone === null ? {} : { timeZone: row.time_zone }),
  ...(row.voting_opens_at === null ? {} : { votingOpensAt: row.voting_opens_at }),
});

export async function createEvent(
  deps: AppDeps,
  { admin, fields }: { admin: Admin; fields: EventFields },
) {
  const calendar = checkDates(deps, fields);
  const now = deps.clock.now();
  const row = newEventRow(admin, fields, fields.reminders ?? DEFAULT_REMINDERS, now, calendar, {
    nomineeFields: fields.nomineeFields,
    nominableResellers: fields.nominableResellers,
    validateCuit: fields.validateCuit,
    sealResults: fields.sealResults,
  });
  await deps.transact(async (tx) => {
    await tx.insertInto('events').values(row).execute();
    await tx
      .insertInto('event_categories')
      .values(defaultCategoryRows(row.id, row.created_at))
      .execute();
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
        ...calendarDetails(row),
        ...registryRuleFacts(row),
        ...sealFacts(row),
      },
    });
  });
  return toEventView(row, clockOf(deps), defaultCategoryRows(row.id, row.created_at));
}

/**
 * Edits an event. A moved deadline moves the pending reminders of its exhibitors; exhibitors whose
 * reminder already went out (an earlier deadline) get a new one for the new deadline day.
 */
export async function updateEvent(
  deps: AppDeps,
  { admin, eventId, fields }: EventChange & { fields: EventUpdateFields },
): Promise<EventView> {
  const updated = await inEventTransaction(deps, eventId, async (tx, before, now) => {
    const calendar = checkDates(
      deps,
      fields,
      {
        eventDate: fields.eventDate === before.event_date,
        voteDeadline: fields.voteDeadline === before.vote_deadline,
      },
      before,
    );
    const closingMoved =
      fields.voteDeadline !== before.vote_deadline ||
      calendar.close_time !== before.close_time ||
      (calendar.time_zone ?? deps.config.timeZone) !== (before.time_zone ?? deps.config.timeZone);
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
      nominable_resellers: fields.nominableResellers ?? before.nominable_resellers,
      validate_cuit:
        fields.validateCuit === undefined ? before.validate_cuit : fields.validateCuit ? 1 : 0,
      seal_results:
        fields.sealResults === undefined ? before.seal_results : fields.sealResults ? 1 : 0,
      ...calendar,
      // A new closing replaces an early close: voting runs through the new closing hour.
      voting_closed_at: closingMoved ? null : before.voting_closed_at,
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
        nominable_resellers: after.nominable_resellers,
        validate_cuit: after.validate_cuit,
        seal_results: after.seal_results,
        close_time: after.close_time,
        time_zone: after.time_zone,
        voting_opens_at: after.voting_opens_at,
        voting_closed_at: after.voting_closed_at,
        updated_at: after.updated_at,
      })
      .where('id', '=', eventId)
      .execute();
    const openingMoved = after.voting_opens_at !== before.voting_opens_at;
    if (openingMoved) await moveWaitingInvitations(tx, now, after);
    // Reminders follow the closing hour and the opening too: queued ones move, dropped ones return.
    const deadlineMoved = closingMoved || openingMoved;
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
      ...calendarDetails(before),
      ...registryRuleFacts(before),
      ...sealFacts(before),
    };
    const factsAfter = {
      name: after.name,
      eventDate: after.event_date,
      voteDeadline: after.vote_deadline,
      reminders: eventReminders(after),
      ...calendarDetails(after),
      ...registryRuleFacts(after),
      ...sealFacts(after),
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
  return toEventView(updated, clockOf(deps), await readEventCategories(deps.db, eventId));
}

/**
 * The opening moved: the invitations still waiting for it (queued for a later instant, not yet
 * claimed by a worker) go out at the new opening, or at once when there is none or it has passed.
 */
async function moveWaitingInvitations(tx: Tx, now: Date, event: EventRow): Promise<void> {
  const opening = event.voting_opens_at === null ? now : new Date(event.voting_opens_at);
  const sendAt = opening.getTime() > now.getTime() ? opening : now;
  await tx
    .updateTable('mail_outbox')
    .set({ next_attempt_at: iso(sendAt) })
    .where('template', '=', 'exhibitor-invitation')
    .where('event_id', '=', event.id)
    .where('status', '=', 'pending')
    .where('attempts', '=', 0)
    .where('next_attempt_at', '>', iso(now))
    .execute();
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
  { admin, eventId }: EventChange,
): Promise<EventView> {
  const clock = clockOf(deps);
  const closed = await inEventTransaction(deps, eventId, async (tx, before, now) => {
    const status = eventStatus(before, { now, appTimeZone: clock.appTimeZone });
    if (status === 'draft') throw new AppError('voting_closed', { message: MSG.votingNotOpenYet });
    if (status !== 'open') throw new AppError('voting_closed');
    const after: EventRow = {
      ...before,
      // Today in the event's zone, so that the deadline shown is the day voting ended.
      vote_deadline: eventToday(calendarOf(before, clock.appTimeZone), now),
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
  return toEventView(closed, clock, await readEventCategories(deps.db, closed.id));
}

/**
 * "Ver resultados ahora" (docs/decisions/0036): opens a sealed event's results before the close,
 * for every administrator, recording who, when and why on the event (the header names them) and
 * in the history. Only while they are sealed: 409 "Los resultados ya están a la vista." otherwise,
 * also for the second of two administrators who ask at once (the update is conditional).
 */
export async function viewResultsEarly(
  deps: AppDeps,
  { admin, eventId, reason }: EventChange & { reason: string },
): Promise<EventView> {
  const clock = clockOf(deps);
  const viewed = await inEventTransaction(deps, eventId, async (tx, before, now) => {
    if (!resultsSealedAt(before, clock.appTimeZone, now)) {
      throw new AppError('results_not_sealed');
    }
    const after: EventRow = {
      ...before,
      results_viewed_at: iso(now),
      results_viewed_by: admin.adminId,
      results_viewed_by_name: admin.fullName,
      results_viewed_reason: reason,
    };
    const result = await tx
      .updateTable('events')
      .set({
        results_viewed_at: after.results_viewed_at,
        results_viewed_by: after.results_viewed_by,
        results_viewed_by_name: after.results_viewed_by_name,
        results_viewed_reason: after.results_viewed_reason,
      })
      .where('id', '=', eventId)
      .where('results_viewed_at', 'is', null)
      .executeTakeFirst();
    if (result.numUpdatedRows !== 1n) throw new AppError('results_not_sealed');
    await recordAudit(tx, admin, now, {
      action: 'event.results_viewed_early',
      entityType: 'event',
      entityId: eventId,
      eventId,
      details: { viewReason: reason },
    });
    return after;
  });
  return toEventView(viewed, clock, await readEventCategories(deps.db, eventId));
}

/**
 * Deletes an event with its memberships and nominations (foreign-key cascades) in one
 * transaction, withdraws its unsent invitations and reminders, and deletes its mail and its
 * history but for the entry of the deletion itself (decision 0014).
 */
export async function deleteEvent(deps: AppDeps, { admin, eventId }: EventChange): Promise<void> {
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
