import { sql } from 'kysely';
import type {
  BulkRemovalImpactResponse,
  BulkRemoveResponse,
  BulkResendResponse,
} from '../../../shared/schemas/exhibitors.ts';
import type { Db } from '../../db/connection.ts';
import type { Tx } from '../../db/transact.ts';
import type { AppDeps } from '../../deps.ts';
import { recordAudit } from '../../lib/audit.ts';
import { chunks } from '../../lib/chunks.ts';
import { getEventOr404, inEventTransaction } from '../../lib/guards.ts';
import { memberField } from '../../lib/member-rows.ts';
import { hitThrottle } from '../../lib/throttle.ts';
import { queueInvitations } from '../../mail/invitation-queue.ts';
import type { MailTemplateName } from '../../mail/templates/index.ts';
import { scheduleReminders } from '../../mail/reminders.ts';
import {
  invitationResendPerAdmin,
  linkInvitation,
  type EventRef,
  type RosterChange,
} from './service.ts';

/** The exhibitors an action on several of them names ("Seleccionar"). */
interface Selection {
  exhibitorIds: readonly string[];
}

/*
 * The exhibitors tab's bulk actions on the ticked rows: "Reenviar invitaciones" and "Eliminar
 * expositores". Each does, for every exhibitor still in the event, what the row's own button does,
 * in one transaction; rows removed meanwhile by someone else are left out of the counts.
 */

interface Member {
  id: string;
  email: string;
  invitation_message_id: string | null;
  invited_at: string | null;
}

/** The selected exhibitors that are (still) in the event, in id order: the order locks are taken. */
async function membersOf(db: Db, eventId: string, exhibitorIds: readonly string[]) {
  const members: Member[] = [];
  for (const part of chunks([...new Set(exhibitorIds)])) {
    members.push(
      ...(await db
        .selectFrom('event_exhibitors as m')
        .innerJoin('exhibitors as x', 'x.id', 'm.exhibitor_id')
        .select([
          'x.id',
          memberField('email').as('email'),
          'm.invitation_message_id',
          'm.invited_at',
        ])
        .where('m.event_id', '=', eventId)
        .where('m.exhibitor_id', 'in', part)
        .execute()),
    );
  }
  return members.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * "Reenviar invitaciones": queues the event's invitation again to every selected exhibitor, each
 * through the one per-address rule (`queueInvitations`, 6 an hour) and within the administrator's
 * hourly re-sends (`invitationResendPerAdmin`), exactly as "Reenviar invitación" does for one: the
 * earlier unsent invitation is withdrawn once the address's count is held, the membership links
 * the new one, and an exhibitor added without an invitation is invited now and gets reminders.
 * Exhibitors without room are left as they were and counted as `limited`.
 */
export async function resendInvitations(
  deps: AppDeps,
  { admin, eventId, exhibitorIds }: RosterChange & Selection,
): Promise<BulkResendResponse> {
  const now = deps.clock.now();
  await getEventOr404(deps.db, eventId);
  const selected = await membersOf(deps.db, eventId, exhibitorIds);
  // Counted before the transaction, as a single re-send counts: the administrator's allowance
  // bounds how much mail one account can send, whatever the transaction then finds.
  let allowance = 0;
  for (let i = 0; i < selected.length; i += 1) {
    if (!(await hitThrottle(deps.db, invitationResendPerAdmin, admin.adminId, now)).allowed) break;
    allowance += 1;
  }
  return inEventTransaction(deps, eventId, async (tx, event) => {
    // Read again inside: an exhibitor removed since the selection is not invited.
    const members = (await membersOf(tx, eventId, exhibitorIds)).slice(0, allowance);
    let current = new Map<string, Member>();
    const invitationIds = await queueInvitations(
      tx,
      now,
      admin,
      event,
      members,
      async (allowed) => {
        // The earlier invitations, read once this request holds the addresses' counters (a
        // parallel re-send has committed its own by then), withdrawn before the new ones queue.
        const room = members.filter((_, i) => allowed[i]);
        current = new Map(
          (
            await membersOf(
              tx,
              eventId,
              room.map((m) => m.id),
            )
          ).map((m) => [m.id, m]),
        );
        const previous = [...current.values()]
          .map((m) => m.invitation_message_id)
          .filter((id): id is string => id !== null);
        for (const part of chunks(previous)) {
          await tx
            .updateTable('mail_outbox')
            .set({ status: 'cancelled' })
            .where('id', 'in', part)
            .where('status', '=', 'pending')
            .execute();
        }
      },
    );
    const resent: Member[] = [];
    const firstInvited: Member[] = [];
    for (const [i, member] of members.entries()) {
      const invitationId = invitationIds[i];
      if (!invitationId) continue;
      await linkInvitation(tx, now, eventId, member.id, invitationId);
      resent.push(member);
      if (current.get(member.id)?.invited_at === null) firstInvited.push(member);
    }
    await scheduleReminders(tx, deps.config.timeZone, now, event, firstInvited);
    const limited = selected.length - resent.length;
    if (resent.length > 0) {
      await recordAudit(tx, admin, now, {
        action: 'exhibitors.invitations_resent',
        entityType: 'event',
        entityId: eventId,
        eventId,
        details: { resent: resent.map((m) => m.email), limited },
      });
    }
    return { resent: resent.length, limited };
  });
}

/** Nominations of the given exhibitors in the event, by exhibitor. */
async function nominationCounts(
  db: Db,
  eventId: string,
  exhibitorIds: readonly string[],
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const part of chunks(exhibitorIds)) {
    const rows = await db
      .selectFrom('nominations')
      .select(['exhibitor_id', sql<number>`cast(count(*) as integer)`.as('n')])
      .where('event_id', '=', eventId)
      .where('exhibitor_id', 'in', part)
      .groupBy('exhibitor_id')
      .execute();
    for (const row of rows) counts.set(row.exhibitor_id, Number(row.n));
  }
  return counts;
}

const sum = (values: Iterable<number>) => [...values].reduce((a, b) => a + b, 0);

/** What "Eliminar expositores" would remove: asked when its confirmation opens. */
export async function bulkRemovalImpact(
  deps: AppDeps,
  { eventId, exhibitorIds }: EventRef & Selection,
): Promise<BulkRemovalImpactResponse> {
  await getEventOr404(deps.db, eventId);
  const members = await membersOf(deps.db, eventId, exhibitorIds);
  const counts = await nominationCounts(
    deps.db,
    eventId,
    members.map((m) => m.id),
  );
  return { exhibitors: members.length, nominations: sum(counts.values()) };
}

/** Withdraws the unsent messages of a template to the given exhibitors in the event. */
async function cancelPendingOf(
  tx: Tx,
  eventId: string,
  template: MailTemplateName,
  exhibitorIds: readonly string[],
): Promise<void> {
  for (const part of chunks(exhibitorIds)) {
    await tx
      .updateTable('mail_outbox')
      .set({ status: 'cancelled', cancel_reason: null })
      .where('status', '=', 'pending')
      .where('template', '=', template)
      .where('event_id', '=', eventId)
      .where('exhibitor_id', 'in', part)
      .execute();
  }
}

/**
 * "Eliminar expositores": removes every selected exhibitor from the event with their nominations
 * (cascade) in one transaction, withdrawing their unsent invitation, reminders and receipt, as
 * "Eliminar expositor" does for one; audited as one entry naming them. The memberships this
 * transaction really deleted are the ones counted: of two removals at once, each exhibitor is
 * removed, counted and audited once.
 */
export async function removeExhibitors(
  deps: AppDeps,
  { admin, eventId, exhibitorIds }: RosterChange & Selection,
): Promise<BulkRemoveResponse> {
  return inEventTransaction(deps, eventId, async (tx, _event, now) => {
    const members = await membersOf(tx, eventId, exhibitorIds);
    const ids = members.map((m) => m.id);
    await cancelPendingOf(tx, eventId, 'voting-reminder', ids);
    await cancelPendingOf(tx, eventId, 'exhibitor-invitation', ids);
    const counts = await nominationCounts(tx, eventId, ids);
    const removed = new Set<string>();
    for (const part of chunks(ids)) {
      const rows = await tx
        .deleteFrom('event_exhibitors')
        .where('event_id', '=', eventId)
        .where('exhibitor_id', 'in', part)
        .returning('exhibitor_id')
        .execute();
      for (const row of rows) removed.add(row.exhibitor_id);
    }
    // After the memberships, in the order a save takes them (see removeExhibitor).
    await cancelPendingOf(tx, eventId, 'nomination-receipt', [...removed]);
    const gone = members.filter((m) => removed.has(m.id));
    const discardedNominations = sum(gone.map((m) => counts.get(m.id) ?? 0));
    if (gone.length > 0) {
      await recordAudit(tx, admin, now, {
        action: 'exhibitors.removed',
        entityType: 'event',
        entityId: eventId,
        eventId,
        details: { removed: gone.map((m) => m.email), discardedNominations },
      });
    }
    return { removed: gone.length, discardedNominations };
  });
}
