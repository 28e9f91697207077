import { sql } from 'kysely';
import { readNomineeFieldSettings } from '../../../shared/nominee-fields.ts';
import type { DuplicateEventFields, EventView } from '../../../shared/schemas/events.ts';
import type { SignedInAdmin as Admin } from '../../../shared/signed-in.ts';
import type { Tx } from '../../db/transact.ts';
import type { AppDeps } from '../../deps.ts';
import { lockEventForArchive } from '../../lib/archived.ts';
import { recordAudit } from '../../lib/audit.ts';
import { chunks } from '../../lib/chunks.ts';
import { AppError } from '../../lib/errors.ts';
import { getEventOr404 } from '../../lib/guards.ts';
import { iso } from '../../lib/time.ts';
import { queueInvitations } from '../../mail/invitation-queue.ts';
import { cancelPendingMail } from '../../mail/outbox.ts';
import { eventReminders, scheduleReminders } from '../../mail/reminders.ts';
import {
  calendarDetails,
  checkDates,
  clockOf,
  newEventRow,
  registryRuleFacts,
  sealFacts,
  toEventView,
  type EventChange,
} from './service.ts';
import { calendarOf, eventToday } from '../../lib/event-calendar.ts';
import { copyEventCategories, readEventCategories } from '../../lib/event-categories.ts';

/**
 * "Duplicar evento": a new event with the dialog's name, dates and reminders (the rules of a new
 * event), and, when asked, the source's exhibitors (their memberships, never their votes), each
 * with the new event's reminders and, when asked, its invitation through the outbox. One
 * transaction, a multi-row statement per 500 members. The source may be archived: next year's
 * edition is made from last year's. The exhibitors of an anonymised event are placeholders, so
 * none of them is copied.
 */
export async function duplicateEvent(
  deps: AppDeps,
  { admin, eventId: sourceId, fields }: EventChange & { fields: DuplicateEventFields },
): Promise<EventView> {
  const calendar = checkDates(deps, fields);
  const now = deps.clock.now();
  const created = await deps.transact(async (tx) => {
    const source = await getEventOr404(tx, sourceId);
    // The copy asks for the same nominee fields (unless the dialog chose others) and shows the
    // same logo: next year's edition looks like this one.
    const row = newEventRow(
      admin,
      fields,
      fields.reminders ?? eventReminders(source),
      now,
      calendar,
      {
        nomineeFields: fields.nomineeFields ?? readNomineeFieldSettings(source.nominee_fields),
        logoEtag: source.logo_etag,
        nominableResellers: fields.nominableResellers ?? source.nominable_resellers,
        validateCuit: fields.validateCuit ?? source.validate_cuit === 1,
        // The setting carries over to the next edition; an early viewing of this one does not.
        sealResults: fields.sealResults ?? source.seal_results === 1,
      },
    );
    await tx.insertInto('events').values(row).execute();
    // Next year's edition asks for the same categories, with their settings and order.
    await copyEventCategories(tx, sourceId, row.id, row.created_at);
    if (source.logo_etag !== null) await copyEventLogo(tx, sourceId, row.id, admin, now);
    const members =
      fields.copyExhibitors && source.anonymised_at === null
        ? await tx
            .selectFrom('event_exhibitors as m')
            .innerJoin('exhibitors as x', 'x.id', 'm.exhibitor_id')
            .select(['x.id', 'x.email'])
            .where('m.event_id', '=', sourceId)
            .orderBy('x.id')
            .execute()
        : [];
    // An address that had its invitations for the hour is copied without one ("no enviada").
    const invitationIds = fields.sendInvitations
      ? await queueInvitations(tx, now, admin, row, members)
      : [];
    const memberships = members.map((member, i) => ({
      event_id: row.id,
      exhibitor_id: member.id,
      invited_by: admin.adminId,
      invitation_message_id: invitationIds[i] ?? null,
      created_at: iso(now),
      invited_at: invitationIds[i] ? iso(now) : null,
    }));
    for (const part of chunks(memberships)) {
      await tx.insertInto('event_exhibitors').values(part).execute();
    }
    // Exhibitors copied without an invitation (unchecked, or withheld by the limit) get no reminder
    // until "Enviar invitaciones pendientes".
    const invited = members.filter((_, i) => invitationIds[i]);
    await scheduleReminders(tx, deps.config.timeZone, now, row, invited);
    await recordAudit(tx, admin, now, {
      action: 'event.duplicated',
      entityType: 'event',
      entityId: row.id,
      eventId: row.id,
      details: {
        from: sourceId,
        name: row.name,
        eventDate: row.event_date,
        voteDeadline: row.vote_deadline,
        reminders: eventReminders(row),
        ...calendarDetails(row),
        ...registryRuleFacts(row),
        ...sealFacts(row),
        exhibitors: members.length,
        invitationsSent: fields.sendInvitations && members.length > 0,
        invitationsWithheld: invitationIds.filter((id) => id === null).length,
      },
    });
    return row;
  });
  return toEventView(created, clockOf(deps), await readEventCategories(deps.db, created.id));
}

/** The source's own logo, as the duplicate's. */
async function copyEventLogo(tx: Tx, sourceId: string, copyId: string, admin: Admin, now: Date) {
  await tx
    .insertInto('event_logos')
    .columns(['event_id', 'logo_png', 'updated_by', 'updated_at'])
    .expression((eb) =>
      eb
        .selectFrom('event_logos')
        .select([
          sql<string>`cast(${copyId} as text)`.as('event_id'),
          'logo_png',
          sql<string>`cast(${admin.adminId} as text)`.as('updated_by'),
          sql<string>`cast(${iso(now)} as text)`.as('updated_at'),
        ])
        .where('event_id', '=', sourceId),
    )
    .execute();
}

/**
 * "Archivar evento", only after its event date: from then on every write to it is refused (the
 * guard in `implement`), exhibitors no longer see it, and its unsent reminders are withdrawn. The
 * exclusive archive lock waits for writes already running on the event. Each member's name, email
 * and company are copied into the membership (`keepMembersAsTheyAre`), so that an edit made later
 * through an open event the exhibitor is also in does not change what this one shows.
 */
export async function archiveEvent(
  deps: AppDeps,
  { admin, eventId }: EventChange,
): Promise<EventView> {
  const clock = clockOf(deps);
  const now = clock.now;
  const archived = await deps.transact(async (tx) => {
    await lockEventForArchive(tx, deps.engine, eventId);
    const event = await getEventOr404(tx, eventId);
    if (event.archived_at !== null) throw new AppError('event_archived');
    // Over once its date has passed in its own zone, as the screens' "archivable" says.
    const today = eventToday(calendarOf(event, clock.appTimeZone), now);
    if (!(event.event_date < today)) throw new AppError('event_not_over');
    await tx
      .updateTable('events')
      .set({ archived_at: iso(now), updated_at: iso(now) })
      .where('id', '=', eventId)
      .execute();
    await keepMembersAsTheyAre(tx, eventId);
    await cancelPendingMail(tx, { template: 'voting-reminder', eventId }, 'archived');
    await cancelPendingMail(tx, { template: 'nonvoter-reminder', eventId }, 'archived');
    await recordAudit(tx, admin, now, {
      action: 'event.archived',
      entityType: 'event',
      entityId: eventId,
      eventId,
    });
    return { ...event, archived_at: iso(now), updated_at: iso(now) };
  });
  return toEventView(archived, clock, await readEventCategories(deps.db, archived.id));
}

/**
 * "Desarchivar": the event is open again (its data as it was, anonymised or not); its members show
 * their exhibitor records again, as in any open event, where an edit is one for all their events.
 */
export async function unarchiveEvent(
  deps: AppDeps,
  { admin, eventId }: EventChange,
): Promise<EventView> {
  const now = deps.clock.now();
  const open = await deps.transact(async (tx) => {
    await lockEventForArchive(tx, deps.engine, eventId);
    const event = await getEventOr404(tx, eventId);
    if (event.archived_at === null) throw new AppError('event_not_archived');
    await tx
      .updateTable('events')
      .set({ archived_at: null, updated_at: iso(now) })
      .where('id', '=', eventId)
      .execute();
    await tx
      .updateTable('event_exhibitors')
      .set({ archived_full_name: null, archived_email: null, archived_company: null })
      .where('event_id', '=', eventId)
      .execute();
    await recordAudit(tx, admin, now, {
      action: 'event.unarchived',
      entityType: 'event',
      entityId: eventId,
      eventId,
    });
    return { ...event, archived_at: null, updated_at: iso(now) };
  });
  return toEventView(open, clockOf(deps), await readEventCategories(deps.db, open.id));
}

/**
 * Copies every member's name, email and company into their membership of the archived event, in
 * one statement: what the event shows from now on (`memberField`), whatever later edits through
 * other events do to the exhibitor's record.
 */
async function keepMembersAsTheyAre(tx: Tx, eventId: string): Promise<void> {
  await tx
    .updateTable('event_exhibitors')
    .set((eb) => {
      const current = (field: 'full_name' | 'email' | 'company') =>
        eb
          .selectFrom('exhibitors as x')
          .select(`x.${field}`)
          .whereRef('x.id', '=', 'event_exhibitors.exhibitor_id');
      return {
        archived_full_name: current('full_name'),
        archived_email: current('email'),
        archived_company: current('company'),
      };
    })
    .where('event_id', '=', eventId)
    .execute();
}
