import { sql } from 'kysely';
import type { EventView } from '../../../shared/schemas/events.ts';
import type { Tx } from '../../db/transact.ts';
import type { AppDeps } from '../../deps.ts';
import type { SessionUser } from '../../http/session.ts';
import { lockEventForArchive } from '../../lib/archived.ts';
import { recordAudit } from '../../lib/audit.ts';
import { chunks } from '../../lib/chunks.ts';
import { newId } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import { getEventOr404 } from '../../lib/guards.ts';
import { iso } from '../../lib/time.ts';
import { todayOf, toEventView } from './service.ts';

type Admin = Extract<SessionUser, { role: 'admin' }>;

/** The neutral values that replace personal data (the email's domain can never receive mail). */
export const PLACEHOLDER = {
  exhibitorName: 'Expositor anonimizado',
  exhibitorEmail: (exhibitorId: string) => `anonimo-${exhibitorId}@anonimizado.invalid`,
  contactName: 'Contacto anonimizado',
  phone: '0000000000',
  contactEmail: 'contacto@anonimizado.invalid',
  text: '[anonimizado]',
} as const;

/** Personal values shorter than this are not searched for inside longer texts (a "1" is no one). */
const MIN_SCRUBBED_LENGTH = 3;

/** `value` with every string inside it that holds one of `secrets` replaced by the placeholder. */
function scrub(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') {
    const lower = value.toLowerCase();
    return secrets.some((secret) => lower.includes(secret)) ? PLACEHOLDER.text : value;
  }
  if (Array.isArray(value)) return value.map((item) => scrub(item, secrets));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, scrub(item, secrets)]),
    );
  }
  return value;
}

/** Replaces in the history entries the personal values found in their details or actor address. */
async function scrubHistory(
  tx: Tx,
  entries: readonly { id: number; details: string; actor_email: string | null }[],
  secrets: readonly string[],
): Promise<void> {
  for (const entry of entries) {
    const details = JSON.stringify(scrub(JSON.parse(entry.details), secrets));
    const actorEmail =
      entry.actor_email !== null && secrets.includes(entry.actor_email.toLowerCase())
        ? PLACEHOLDER.text
        : entry.actor_email;
    if (details === entry.details && actorEmail === entry.actor_email) continue;
    await tx
      .updateTable('audit_log')
      .set({ details, actor_email: actorEmail })
      .where('id', '=', entry.id)
      .execute();
  }
}

/**
 * "Anonimizar datos personales" of an archived event, in one transaction and never undone:
 * - an exhibitor who is in no other event has their account's name and email replaced, their
 *   sessions and sign-in codes removed;
 * - an exhibitor who is also in another event keeps their account there: this event's membership
 *   and votes move to a new placeholder account, so nothing here leads back to them;
 * - nominees' contact name, phone and email become placeholders; fiscal ids, reseller names, razón
 *   social, orders and places stay, so the ranking and the exports' points are unchanged;
 * - the event's mail (pending and sent) is deleted, and the personal values are scrubbed from the
 *   event's history and from the history of the accounts anonymised;
 * - the history records who anonymised and when, not what was removed.
 */
export async function anonymiseEvent(
  deps: AppDeps,
  admin: Admin,
  eventId: string,
): Promise<EventView> {
  const now = deps.clock.now();
  const at = iso(now);
  const done = await deps.transact(async (tx) => {
    await lockEventForArchive(tx, deps.engine, eventId);
    const event = await getEventOr404(tx, eventId);
    if (event.archived_at === null) throw new AppError('event_not_archived');
    if (event.anonymised_at !== null) throw new AppError('already_anonymised');

    const members = await tx
      .selectFrom('event_exhibitors as m')
      .innerJoin('exhibitors as x', 'x.id', 'm.exhibitor_id')
      .select((eb) => [
        'x.id',
        'x.email',
        'x.full_name',
        'x.company',
        'm.archived_email',
        'm.archived_full_name',
        eb
          .exists(
            eb
              .selectFrom('event_exhibitors as other')
              .select('other.event_id')
              .whereRef('other.exhibitor_id', '=', 'x.id')
              .where('other.event_id', '!=', eventId),
          )
          .as('elsewhere'),
      ])
      .where('m.event_id', '=', eventId)
      .execute();
    const contacts = await tx
      .selectFrom('nominations')
      .select(['contact_name', 'phone', 'email'])
      .where('event_id', '=', eventId)
      .execute();
    const secrets = [
      ...new Set(
        [
          ...members.flatMap((member) => [
            member.email,
            member.full_name,
            // As the event showed them since it was archived (an edit through another event may
            // have changed the record since).
            member.archived_email ?? '',
            member.archived_full_name ?? '',
          ]),
          ...contacts.flatMap((contact) => [contact.contact_name, contact.phone, contact.email]),
        ]
          .map((value) => value.trim().toLowerCase())
          .filter((value) => value.length >= MIN_SCRUBBED_LENGTH),
      ),
    ];

    // The event's mail: invitations, reminders, whatever was sent or is waiting. The members' copy
    // taken at archive time goes too: the event shows the placeholders from now on.
    await tx
      .updateTable('event_exhibitors')
      .set({
        invitation_message_id: null,
        archived_full_name: null,
        archived_email: null,
        archived_company: null,
      })
      .where('event_id', '=', eventId)
      .execute();
    await tx.deleteFrom('mail_outbox').where('event_id', '=', eventId).execute();

    await tx
      .updateTable('nominations')
      .set({
        contact_name: PLACEHOLDER.contactName,
        phone: PLACEHOLDER.phone,
        email: PLACEHOLDER.contactEmail,
      })
      .where('event_id', '=', eventId)
      .execute();

    const own = members.filter((member) => !member.elsewhere).map((member) => member.id);
    const shared = members.filter((member) => member.elsewhere);
    for (const ids of chunks(own)) {
      for (const id of ids) {
        await tx
          .updateTable('exhibitors')
          .set({
            email: PLACEHOLDER.exhibitorEmail(id),
            full_name: PLACEHOLDER.exhibitorName,
            last_signed_in_at: null,
            updated_at: at,
          })
          .where('id', '=', id)
          .execute();
      }
      await tx.deleteFrom('sessions').where('exhibitor_id', 'in', ids).execute();
      await tx.deleteFrom('sign_in_codes').where('exhibitor_id', 'in', ids).execute();
      // Their sign-in codes and anything else addressed to them outside the event.
      await tx.deleteFrom('mail_outbox').where('exhibitor_id', 'in', ids).execute();
    }
    const ownEmails = members.filter((member) => !member.elsewhere).map((member) => member.email);
    for (const emails of chunks(ownEmails)) {
      await tx.deleteFrom('mail_outbox').where('to_address', 'in', emails).execute();
    }
    for (const member of shared) {
      await moveMembership(tx, eventId, member, at);
    }

    const ownHistory =
      own.length === 0
        ? []
        : await tx
            .selectFrom('audit_log')
            .select(['id', 'details', 'actor_email'])
            .where((eb) => eb.or([eb('actor_id', 'in', own), eb('entity_id', 'in', own)]))
            .execute();
    const eventHistory = await tx
      .selectFrom('audit_log')
      .select(['id', 'details', 'actor_email'])
      .where('event_id', '=', eventId)
      .execute();
    await scrubHistory(tx, [...eventHistory, ...ownHistory], secrets);

    await tx
      .updateTable('events')
      .set({ anonymised_at: at, updated_at: at })
      .where('id', '=', eventId)
      .execute();
    await recordAudit(tx, admin, now, {
      action: 'event.anonymised',
      entityType: 'event',
      entityId: eventId,
      eventId,
    });
    return { ...event, anonymised_at: at, updated_at: at };
  });
  return toEventView(done, todayOf(deps));
}

/**
 * A free id that differs from `id` only in its last hex digit. The ranking's tie-break compares
 * nomination instants with the exhibitor id appended, so an id that sorts exactly where the old
 * one did against every other (random) id keeps the ranking as it was, ties to the millisecond
 * included.
 */
async function siblingId(tx: Tx, id: string): Promise<string> {
  const candidates = [...'0123456789abcdef']
    .filter((digit) => digit !== id.slice(-1))
    .map((digit) => id.slice(0, -1) + digit);
  const taken = new Set(
    (await tx.selectFrom('exhibitors').select('id').where('id', 'in', candidates).execute()).map(
      (row) => row.id,
    ),
  );
  return candidates.find((candidate) => !taken.has(candidate)) ?? newId();
}

/**
 * Moves one exhibitor's membership of the event, with its lists and nominations (places and
 * nomination instants kept), to a new placeholder account; the person keeps their account for
 * their other events.
 */
async function moveMembership(
  tx: Tx,
  eventId: string,
  member: { id: string; company: string },
  at: string,
): Promise<void> {
  const placeholderId = await siblingId(tx, member.id);
  await tx
    .insertInto('exhibitors')
    .values({
      id: placeholderId,
      email: PLACEHOLDER.exhibitorEmail(placeholderId),
      full_name: PLACEHOLDER.exhibitorName,
      company: member.company,
      created_at: at,
      updated_at: at,
    })
    .execute();
  const membership = await tx
    .selectFrom('event_exhibitors')
    .selectAll()
    .where('event_id', '=', eventId)
    .where('exhibitor_id', '=', member.id)
    .executeTakeFirstOrThrow();
  await tx
    .insertInto('event_exhibitors')
    .values({ ...membership, exhibitor_id: placeholderId, invitation_message_id: null })
    .execute();
  const lists = await tx
    .selectFrom('nomination_lists')
    .selectAll()
    .where('event_id', '=', eventId)
    .where('exhibitor_id', '=', member.id)
    .execute();
  if (lists.length > 0) {
    await tx
      .insertInto('nomination_lists')
      .values(lists.map((list) => ({ ...list, exhibitor_id: placeholderId })))
      .execute();
  }
  const nominations = await tx
    .selectFrom('nominations')
    .selectAll()
    .where('event_id', '=', eventId)
    .where('exhibitor_id', '=', member.id)
    .execute();
  if (nominations.length > 0) {
    await tx
      .insertInto('nominations')
      .values(nominations.map((row) => ({ ...row, exhibitor_id: placeholderId })))
      .execute();
  }
  // The old membership's lists and nominations go with it (foreign-key cascades).
  await tx
    .deleteFrom('event_exhibitors')
    .where('event_id', '=', eventId)
    .where('exhibitor_id', '=', member.id)
    .execute();
  // The event's history names the placeholder instead (an id is never part of a longer word, so
  // it is replaced as text: in details and in entity ids such as "{exhibitorId}/{category}").
  await tx
    .updateTable('audit_log')
    .set({
      details: sql<string>`replace(details, ${member.id}, ${placeholderId})`,
      entity_id: sql<string>`replace(entity_id, ${member.id}, ${placeholderId})`,
      actor_id: sql<string>`replace(actor_id, ${member.id}, ${placeholderId})`,
    })
    .where('event_id', '=', eventId)
    .execute();
}
