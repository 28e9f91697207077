import { sql } from 'kysely';
import { MSG } from '../../../shared/messages.ts';
import { searchKey } from '../../../shared/search.ts';
import {
  ROSTER_PAGE_SIZE,
  type EventExhibitorListResponse,
  type EventExhibitorView,
  type ExhibitorFields,
  type ExhibitorSaveResponse,
  type InvitationStatus,
  type RosterInvitationFilter,
} from '../../../shared/schemas/exhibitors.ts';
import type { SignedInAdmin as Admin } from '../../../shared/signed-in.ts';
import type { Db } from '../../db/connection.ts';
import type { EventRow } from '../../db/schema.ts';
import type { Tx } from '../../db/transact.ts';
import { memberField, toMemberView } from '../../lib/member-rows.ts';
import type { AppDeps } from '../../deps.ts';
import { recordAudit } from '../../lib/audit.ts';
import { chunks } from '../../lib/chunks.ts';
import { newId } from '../../lib/crypto.ts';
import { AppError, tooManyRequests } from '../../lib/errors.ts';
import { getEventOr404, inEventTransaction, getMemberOr404 } from '../../lib/guards.ts';
import { hitThrottle, type ThrottleRule } from '../../lib/throttle.ts';
import { iso } from '../../lib/time.ts';
import {
  cancelPendingMail,
  cancelPendingMailOfExhibitor,
  cancelPendingMessage,
  forgetSentSecrets,
  redirectPendingMail,
} from '../../mail/outbox.ts';
import { queueInvitations } from '../../mail/invitation-queue.ts';
import { scheduleReminders } from '../../mail/reminders.ts';

export function exhibitorRows(db: Db, eventId: string) {
  return db
    .selectFrom('event_exhibitors as m')
    .innerJoin('exhibitors as x', 'x.id', 'm.exhibitor_id')
    .leftJoin('mail_outbox as o', 'o.id', 'm.invitation_message_id')
    .select([
      'x.id',
      memberField('full_name').as('full_name'),
      memberField('email').as('email'),
      memberField('company').as('company'),
      'o.status as invitation_status',
      'o.sent_at as invitation_sent_at',
    ])
    .where('m.event_id', '=', eventId);
}

/** An event, as the input of a service that reads one. */
export interface EventRef {
  eventId: string;
}

/** One exhibitor of an event. */
export interface MemberRef extends EventRef {
  exhibitorId: string;
}

/** An administrator's change to an event's exhibitors. */
export interface RosterChange extends EventRef {
  admin: Admin;
}

/** Names as Spanish sorts them: accents and case aside ("Álvarez" among the A's, "Ñ" after "N"). */
const byName = new Intl.Collator('es', { sensitivity: 'base' });

/**
 * One page of an event's exhibitors with the delivery state of their invitation, by name as Spanish
 * sorts it (then by email), searched by name, email or company ignoring case and accents, and
 * filtered by "Invitación" ("Pendiente": on its way or never sent). The event's members are read
 * whole and paged here: no SQL collation sorts Spanish alike on both engines, and an event has a
 * few thousand exhibitors at most (decision 0023; a bench line keeps it under its budget).
 */
export async function listEventExhibitors(
  deps: AppDeps,
  { eventId, ...query }: EventRef & RosterListFilter,
): Promise<EventExhibitorListResponse> {
  await getEventOr404(deps.db, eventId);
  const rows = (await exhibitorRows(deps.db, eventId).execute()).map(toMemberView);
  const term = searchKey(query.q);
  const matching = rows
    .filter(
      (row) =>
        (term === '' ||
          [row.fullName, row.email, row.company].some((text) => searchKey(text).includes(term))) &&
        invitationMatches(row.invitation.status, query.invitation),
    )
    .sort((a, b) => byName.compare(a.fullName, b.fullName) || (a.email < b.email ? -1 : 1));
  const start = (query.page - 1) * ROSTER_PAGE_SIZE;
  return {
    exhibitors: matching.slice(start, start + ROSTER_PAGE_SIZE),
    total: matching.length,
    all: rows.length,
    page: query.page,
    pageSize: ROSTER_PAGE_SIZE,
  };
}

export interface RosterListFilter {
  page: number;
  q: string;
  invitation: RosterInvitationFilter;
}

function invitationMatches(status: InvitationStatus, filter: RosterInvitationFilter): boolean {
  if (filter === 'all') return true;
  if (filter === 'pending') return status === 'pending' || status === 'none';
  return status === filter;
}

/**
 * Queues the event's invitation to one exhibitor, if their address has room this hour
 * (`queueInvitations`, the one rule every invitation counts against), and links it to their
 * membership; null (linked as "no enviada") when not.
 */
export async function queueInvitation(
  tx: Tx,
  now: Date,
  admin: Admin,
  event: EventRow,
  exhibitor: { id: string; email: string },
): Promise<string | null> {
  const [messageId = null] = await queueInvitations(tx, now, admin, event, [exhibitor]);
  await linkInvitation(tx, now, event.id, exhibitor.id, messageId);
  return messageId;
}

/**
 * Links a membership to its newest invitation (null: none was queued, "no enviada"). A membership
 * counts as invited from the first invitation really queued on (the exhibitor sees the event and
 * gets its reminders); one whose invitation was withheld stays waiting for "Enviar invitaciones
 * pendientes".
 */
export async function linkInvitation(
  tx: Tx,
  now: Date,
  eventId: string,
  exhibitorId: string,
  messageId: string | null,
): Promise<void> {
  await tx
    .updateTable('event_exhibitors')
    .set((eb) => ({
      invitation_message_id: messageId,
      ...(messageId === null ? {} : { invited_at: eb.fn.coalesce('invited_at', eb.val(iso(now))) }),
    }))
    .where('event_id', '=', eventId)
    .where('exhibitor_id', '=', exhibitorId)
    .execute();
}

/**
 * Adds an exhibitor to an event (two backend calls of the original, invite and contact): creates
 * the exhibitor unless the address already is one, adds the membership, queues the invitation and
 * the deadline-day reminder, all in one transaction. When the address has had its invitations for
 * the hour, the exhibitor is still added and the answer says the invitation was not sent.
 */
export async function addExhibitor(
  deps: AppDeps,
  { admin, eventId, fields }: RosterChange & { fields: ExhibitorFields },
): Promise<ExhibitorSaveResponse> {
  return inEventTransaction(deps, eventId, async (tx, event, now) => {
    const isAdmin = await tx
      .selectFrom('admins')
      .select('id')
      .where('email', '=', fields.email)
      .executeTakeFirst();
    if (isAdmin) {
      throw new AppError('email_is_admin', { fields: { email: MSG.exhibitorEmailIsAdmin } });
    }
    let exhibitor = await tx
      .selectFrom('exhibitors')
      .select(['id', 'email'])
      .where('email', '=', fields.email)
      .executeTakeFirst();
    const created = !exhibitor;
    if (exhibitor) {
      const member = await tx
        .selectFrom('event_exhibitors')
        .select('exhibitor_id')
        .where('event_id', '=', eventId)
        .where('exhibitor_id', '=', exhibitor.id)
        .executeTakeFirst();
      if (member) {
        throw new AppError('already_in_event', {
          fields: { email: MSG.exhibitorAlreadyInEvent },
        });
      }
    } else {
      exhibitor = { id: newId(), email: fields.email };
      await tx
        .insertInto('exhibitors')
        .values({
          id: exhibitor.id,
          email: fields.email,
          full_name: fields.fullName,
          company: fields.company,
          created_at: iso(now),
          updated_at: iso(now),
        })
        .execute();
    }
    await tx
      .insertInto('event_exhibitors')
      .values({
        event_id: eventId,
        exhibitor_id: exhibitor.id,
        invited_by: admin.adminId,
        invitation_message_id: null,
        created_at: iso(now),
      })
      .execute();
    const invitationId = await queueInvitation(tx, now, admin, event, exhibitor);
    // Withheld: not invited yet, so no reminder until "Enviar invitaciones pendientes".
    if (invitationId !== null) {
      await scheduleReminders(tx, deps.config.timeZone, now, event, [exhibitor]);
    }
    await recordAudit(tx, admin, now, {
      action: 'exhibitor.added',
      entityType: 'exhibitor',
      entityId: exhibitor.id,
      eventId,
      details: { email: fields.email, createdExhibitor: created, invitationId },
    });
    return {
      ...toMemberView(
        await exhibitorRows(tx, eventId)
          .where('m.exhibitor_id', '=', exhibitor.id)
          .executeTakeFirstOrThrow(),
      ),
      ...(invitationId === null ? { invitationWithheld: true as const } : {}),
    };
  });
}

/** How many nominations removing this exhibitor from the event would discard. */
export async function countNominations(
  deps: AppDeps,
  { eventId, exhibitorId }: MemberRef,
): Promise<number> {
  await getMemberOr404(deps.db, eventId, exhibitorId);
  return nominationCount(deps.db, eventId, exhibitorId);
}

async function nominationCount(db: Db, eventId: string, exhibitorId: string): Promise<number> {
  const row = await db
    .selectFrom('nominations')
    .select(sql<number>`cast(count(*) as integer)`.as('n'))
    .where('event_id', '=', eventId)
    .where('exhibitor_id', '=', exhibitorId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Removes an exhibitor from an event: the membership and its nominations (cascade) go in one
 * transaction, and the unsent invitation and reminder are withdrawn. The exhibitor record stays
 * for their other events.
 */
export async function removeExhibitor(
  deps: AppDeps,
  { admin, eventId, exhibitorId }: RosterChange & MemberRef,
): Promise<void> {
  const now = deps.clock.now();
  await deps.transact(async (tx) => {
    const { member } = await getMemberOr404(tx, eventId, exhibitorId);
    const discarded = await nominationCount(tx, eventId, exhibitorId);
    await cancelPendingMail(tx, { template: 'voting-reminder', eventId, exhibitorId });
    await cancelPendingMail(tx, { template: 'exhibitor-invitation', eventId, exhibitorId });
    await tx
      .deleteFrom('event_exhibitors')
      .where('event_id', '=', eventId)
      .where('exhibitor_id', '=', exhibitorId)
      .execute();
    // After the membership, in the order a save takes them (membership, list, receipt): a save
    // running meanwhile is waited for, and the receipt it queued is withdrawn, never a deadlock.
    await cancelPendingMail(tx, { template: 'nomination-receipt', eventId, exhibitorId });
    await recordAudit(tx, admin, now, {
      action: 'exhibitor.removed',
      entityType: 'exhibitor',
      entityId: exhibitorId,
      eventId,
      details: { email: member.email, discardedNominations: discarded },
    });
  });
}

/**
 * Re-sends are limited so that our server cannot be used to flood a mailbox: per address by the
 * rule every invitation counts against (`queueInvitations`), and per administrator an hourly
 * figure well above re-sending a whole list.
 */
export const invitationResendPerAdmin: ThrottleRule = {
  scope: 'invitation-resend-admin',
  windowMs: 60 * 60 * 1000,
  max: 300,
};

/**
 * Queues the invitation again (withdrawing an unsent earlier one) and returns the row; 429 when the
 * address has had its invitations for the hour, and then nothing changes.
 */
export async function resendInvitation(
  deps: AppDeps,
  { admin, eventId, exhibitorId }: RosterChange & MemberRef,
): Promise<EventExhibitorView> {
  const now = deps.clock.now();
  await getMemberOr404(deps.db, eventId, exhibitorId);
  if (!(await hitThrottle(deps.db, invitationResendPerAdmin, admin.adminId, now)).allowed) {
    throw tooManyRequests();
  }
  return deps.transact(async (tx) => {
    const { event, member } = await getMemberOr404(tx, eventId, exhibitorId);
    // The earlier invitation is read and withdrawn after the count: on PostgreSQL a parallel
    // re-send to the address held its counter until it committed, and the invitation to withdraw
    // is the one it linked. Withdrawn before the new one is queued, so the outbox keeps their order.
    let current = member;
    const [invitationId] = await queueInvitations(
      tx,
      now,
      admin,
      event,
      [member],
      async ([allowed]) => {
        if (!allowed) return;
        ({ member: current } = await getMemberOr404(tx, eventId, exhibitorId));
        if (current.invitation_message_id) {
          await cancelPendingMessage(tx, current.invitation_message_id);
        }
      },
    );
    if (!invitationId) throw new AppError('rate_limited', { message: MSG.invitationResendLimit });
    await linkInvitation(tx, now, eventId, exhibitorId, invitationId);
    // An exhibitor added without an invitation is invited now: their reminders start.
    if (current.invited_at === null) {
      await scheduleReminders(tx, deps.config.timeZone, now, event, [member]);
    }
    await recordAudit(tx, admin, now, {
      action: 'exhibitor.invitation_resent',
      entityType: 'exhibitor',
      entityId: exhibitorId,
      eventId,
      details: { email: member.email, invitationId, previous: current.invitation_message_id },
    });
    return toMemberView(
      await exhibitorRows(tx, eventId)
        .where('m.exhibitor_id', '=', exhibitorId)
        .executeTakeFirstOrThrow(),
    );
  });
}

/** How many exhibitors of the event were added without an invitation and are still waiting. */
export async function countPendingInvitations(
  deps: AppDeps,
  { eventId }: EventRef,
): Promise<number> {
  await getEventOr404(deps.db, eventId);
  const row = await deps.db
    .selectFrom('event_exhibitors')
    .select(sql<number>`cast(count(*) as integer)`.as('n'))
    .where('event_id', '=', eventId)
    .where('invited_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * "Enviar invitaciones pendientes": invites every exhibitor of the event added without an invitation
 * (unchecked at import or when duplicating, or withheld by the limit), each through the one
 * per-address rule (`queueInvitations`), and starts their reminders. Each membership is claimed by
 * one conditional update (invited_at still null), so two calls at once invite each exhibitor once;
 * one whose address has had its invitations for the hour is given back (invited_at null again) and
 * counted as `limited`, to be sent later.
 */
export async function sendPendingInvitations(
  deps: AppDeps,
  { admin, eventId }: RosterChange,
): Promise<{ sent: number; limited: number }> {
  return inEventTransaction(deps, eventId, async (tx, event, now) => {
    const pending = await tx
      .selectFrom('event_exhibitors')
      .select('exhibitor_id')
      .where('event_id', '=', eventId)
      .where('invited_at', 'is', null)
      .orderBy('exhibitor_id')
      .execute();
    const claimed: { id: string; email: string }[] = [];
    for (const part of chunks(pending.map((row) => row.exhibitor_id))) {
      const rows = await tx
        .updateTable('event_exhibitors')
        .set({ invited_at: iso(now) })
        .where('event_id', '=', eventId)
        .where('invited_at', 'is', null)
        .where('exhibitor_id', 'in', part)
        .returning('exhibitor_id')
        .execute();
      if (rows.length === 0) continue;
      claimed.push(
        ...(await tx
          .selectFrom('exhibitors')
          .select(['id', 'email'])
          .where(
            'id',
            'in',
            rows.map((row) => row.exhibitor_id),
          )
          .orderBy('id')
          .execute()),
      );
    }
    const invitationIds = await queueInvitations(tx, now, admin, event, claimed);
    const invited: { id: string; email: string }[] = [];
    const withheld: string[] = [];
    for (const [i, exhibitor] of claimed.entries()) {
      const messageId = invitationIds[i] ?? null;
      if (messageId === null) {
        withheld.push(exhibitor.id);
        continue;
      }
      invited.push(exhibitor);
      await linkInvitation(tx, now, eventId, exhibitor.id, messageId);
    }
    for (const part of chunks(withheld)) {
      await tx
        .updateTable('event_exhibitors')
        .set({ invited_at: null })
        .where('event_id', '=', eventId)
        .where('exhibitor_id', 'in', part)
        .execute();
    }
    await scheduleReminders(tx, deps.config.timeZone, now, event, invited);
    if (invited.length > 0) {
      await recordAudit(tx, admin, now, {
        action: 'exhibitors.invited',
        entityType: 'event',
        entityId: eventId,
        eventId,
        details: { invited: invited.length, limited: withheld.length },
      });
    }
    return { sent: invited.length, limited: withheld.length };
  });
}

/**
 * "Editar expositor": name, company and address of an exhibitor (one record across their events).
 * A new address keeps every vote; it ends the exhibitor's sessions and unspent codes (they belong to
 * whoever reads the old mailbox), sends the event's invitation to the new address, and moves their
 * unsent reminders there. An address of another exhibitor or of an administrator is refused. When
 * the new address has had its invitations for the hour, the change is kept and the answer says the
 * invitation was not sent.
 */
export async function editExhibitor(
  deps: AppDeps,
  { admin, eventId, exhibitorId, fields }: RosterChange & MemberRef & { fields: ExhibitorFields },
): Promise<ExhibitorSaveResponse> {
  const now = deps.clock.now();
  return deps.transact(async (tx) => {
    const { event, member } = await getMemberOr404(tx, eventId, exhibitorId);
    const before = await tx
      .selectFrom('exhibitors')
      .select(['full_name', 'email', 'company'])
      .where('id', '=', exhibitorId)
      .executeTakeFirstOrThrow();
    const emailChanged = fields.email !== before.email;
    if (emailChanged) await refuseTakenAddress(tx, eventId, fields.email);
    await tx
      .updateTable('exhibitors')
      .set({
        full_name: fields.fullName,
        email: fields.email,
        company: fields.company,
        updated_at: iso(now),
      })
      .where('id', '=', exhibitorId)
      .execute();
    let invitationId: string | null = null;
    let invitationWithheld = false;
    if (emailChanged) {
      await tx.deleteFrom('sessions').where('exhibitor_id', '=', exhibitorId).execute();
      await tx
        .updateTable('sign_in_codes')
        .set({ voided_at: iso(now) })
        .where('exhibitor_id', '=', exhibitorId)
        .where('used_at', 'is', null)
        .where('voided_at', 'is', null)
        .execute();
      await cancelPendingMailOfExhibitor(tx, { exhibitorId, templates: ['sign-in-code'] });
      await forgetSentSecrets(tx, 'sign-in-code', before.email);
      await cancelPendingMail(tx, { template: 'exhibitor-invitation', eventId, exhibitorId });
      await redirectPendingMail(
        tx,
        {
          exhibitorId,
          templates: ['voting-reminder', 'nonvoter-reminder', 'nomination-receipt', 'list-change'],
        },
        fields.email,
      );
      // An exhibitor added without an invitation stays uninvited: editing them invites nobody.
      if (member.invited_at !== null) {
        invitationId = await queueInvitation(tx, now, admin, event, {
          id: exhibitorId,
          email: fields.email,
        });
        invitationWithheld = invitationId === null;
      }
    }
    await recordAudit(tx, admin, now, {
      action: 'exhibitor.edited',
      entityType: 'exhibitor',
      entityId: exhibitorId,
      eventId,
      details: {
        before: { fullName: before.full_name, email: before.email, company: before.company },
        after: fields,
        invitationId,
      },
    });
    return {
      ...toMemberView(
        await exhibitorRows(tx, eventId)
          .where('m.exhibitor_id', '=', exhibitorId)
          .executeTakeFirstOrThrow(),
      ),
      ...(invitationWithheld ? { invitationWithheld: true as const } : {}),
    };
  });
}

/** An address already used by an administrator or by another exhibitor cannot be taken. */
async function refuseTakenAddress(tx: Tx, eventId: string, email: string): Promise<void> {
  const admin = await tx
    .selectFrom('admins')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirst();
  if (admin) {
    throw new AppError('email_is_admin', { fields: { email: MSG.exhibitorEmailIsAdmin } });
  }
  const other = await tx
    .selectFrom('exhibitors as x')
    .leftJoin('event_exhibitors as m', (join) =>
      join.onRef('m.exhibitor_id', '=', 'x.id').on('m.event_id', '=', eventId),
    )
    .select(['x.id', 'm.event_id'])
    .where('x.email', '=', email)
    .executeTakeFirst();
  if (other) {
    throw other.event_id
      ? new AppError('already_in_event', { fields: { email: MSG.exhibitorAlreadyInEvent } })
      : new AppError('email_in_other_event', { fields: { email: MSG.exhibitorInOtherEvent } });
  }
}
