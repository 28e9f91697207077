import type { Db, Engine } from '../db/connection.ts';
import type { MailMessage } from '../db/schema.ts';
import { requestAfterCommit, type Tx } from '../db/transact.ts';
import { prepared } from '../db/prepared.ts';
import { newId } from '../lib/crypto.ts';
import { iso } from '../lib/time.ts';
import type { MailCancelReason, MailParams, MailTemplateName } from './templates/index.ts';

/*
 * The only module that writes mail_outbox. Services queue, withdraw and move messages inside their
 * own transaction (a `Tx`), so a message exists exactly when the change that causes it commits;
 * the worker claims and settles them with single statements of its own.
 */

export interface QueuedMail<Name extends MailTemplateName> {
  template: Name;
  params: MailParams<Name>;
  to: string;
  /** Not before this instant (reminders); now when omitted. */
  sendAt?: Date;
  eventId?: string | null;
  exhibitorId?: string | null;
}

/** Rows per multi-row insert: far under both engines' limit of bound parameters. */
const INSERT_CHUNK = 500;

/**
 * Queues messages (one statement per 500, for imports of thousands); the mail worker is woken once
 * the caller's transaction commits. Returns their ids, in order.
 */
export async function enqueueMails<Name extends MailTemplateName>(
  tx: Tx,
  now: Date,
  mails: readonly QueuedMail<Name>[],
): Promise<string[]> {
  const rows = mails.map((mail) => ({
    id: newId(),
    template: mail.template,
    params: JSON.stringify(mail.params),
    to_address: mail.to,
    status: 'pending' as const,
    attempts: 0,
    next_attempt_at: iso(mail.sendAt ?? now),
    locked_until: null,
    last_error: null,
    subject: null,
    sent_at: null,
    event_id: mail.eventId ?? null,
    exhibitor_id: mail.exhibitorId ?? null,
    created_at: iso(now),
  }));
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await tx
      .insertInto('mail_outbox')
      .values(rows.slice(i, i + INSERT_CHUNK))
      .execute();
  }
  if (rows.length > 0) requestAfterCommit(tx, 'mail-queued');
  return rows.map((row) => row.id);
}

/** Queues one message: see enqueueMails. */
export async function enqueueMail<Name extends MailTemplateName>(
  tx: Tx,
  now: Date,
  mail: QueuedMail<Name>,
): Promise<string> {
  const [id] = await enqueueMails(tx, now, [mail]);
  if (id === undefined) throw new Error('a queued message has no id');
  return id;
}

/** A debounced message's postponement: every exhibitor save runs it (the receipt). */
const postponePending = prepared<{
  sendAt: string;
  to: string;
  template: string;
  eventId: string;
  exhibitorId: string;
}>((db, arg) =>
  db
    .updateTable('mail_outbox')
    .set({ next_attempt_at: arg('sendAt'), to_address: arg('to') })
    .where('status', '=', 'pending')
    .where('template', '=', arg('template'))
    .where('event_id', '=', arg('eventId'))
    .where('exhibitor_id', '=', arg('exhibitorId'))
    .where('locked_until', 'is', null),
);

/**
 * Debounced mail (a receipt after a burst of saves): the one unsent message of this template to this
 * exhibitor of this event moves to `sendAt`, so only the last of many changes is followed by a
 * message; when there is none, one is queued. A message the worker has claimed (it may be reading
 * the data it reports right now) is left alone and a new one queued, so a change that lands while a
 * message is being built is always followed by one that includes it. The caller serialises the
 * changes of one exhibitor (two first changes must not queue two messages).
 */
export async function debounceMail<Name extends MailTemplateName>(
  tx: Tx,
  now: Date,
  mail: QueuedMail<Name> & { sendAt: Date; eventId: string; exhibitorId: string },
): Promise<void> {
  const moved = await postponePending(tx, {
    sendAt: iso(mail.sendAt),
    to: mail.to,
    template: mail.template,
    eventId: mail.eventId,
    exhibitorId: mail.exhibitorId,
  });
  if (Number(moved.numAffectedRows ?? 0) === 0) await enqueueMail(tx, now, mail);
}

/** Unsent messages of one template for an event, or for one exhibitor of it. */
export interface PendingMailOfEvent {
  template: MailTemplateName;
  eventId: string;
  exhibitorId?: string;
}

function pendingOfEvent(tx: Tx, filter: PendingMailOfEvent) {
  let query = tx
    .updateTable('mail_outbox')
    .where('status', '=', 'pending')
    .where('template', '=', filter.template)
    .where('event_id', '=', filter.eventId);
  if (filter.exhibitorId) query = query.where('exhibitor_id', '=', filter.exhibitorId);
  return query;
}

/** Withdraws unsent messages (a removed exhibitor's reminder, a deleted event's invitations). */
export async function cancelPendingMail(
  tx: Tx,
  filter: PendingMailOfEvent,
  reason: MailCancelReason | null = null,
): Promise<number> {
  const result = await pendingOfEvent(tx, filter)
    .set({ status: 'cancelled', cancel_reason: reason })
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Withdraws one message if it has not gone out yet. */
export async function cancelPendingMessage(tx: Tx, messageId: string): Promise<void> {
  await tx
    .updateTable('mail_outbox')
    .set({ status: 'cancelled' })
    .where('id', '=', messageId)
    .where('status', '=', 'pending')
    .execute();
}

/** The unsent messages of a template in an event (reminders to move or withdraw). */
export function pendingMailOfEvent(
  tx: Tx,
  filter: PendingMailOfEvent,
): Promise<{ id: string; exhibitor_id: string | null; params: string }[]> {
  let query = tx
    .selectFrom('mail_outbox')
    .select(['id', 'exhibitor_id', 'params'])
    .where('status', '=', 'pending')
    .where('template', '=', filter.template)
    .where('event_id', '=', filter.eventId);
  if (filter.exhibitorId) query = query.where('exhibitor_id', '=', filter.exhibitorId);
  return query.execute();
}

/** Moves one unsent message to a new send instant (a reminder of a moved deadline). */
export async function rescheduleMessage(tx: Tx, messageId: string, sendAt: Date): Promise<void> {
  await tx
    .updateTable('mail_outbox')
    .set({ next_attempt_at: iso(sendAt) })
    .where('id', '=', messageId)
    .where('status', '=', 'pending')
    .execute();
}

/** Unsent messages of these templates to one exhibitor, in any event. */
export interface PendingMailOfExhibitor {
  exhibitorId: string;
  templates: MailTemplateName[];
}

function pendingOfExhibitor(tx: Tx, filter: PendingMailOfExhibitor) {
  return tx
    .updateTable('mail_outbox')
    .where('exhibitor_id', '=', filter.exhibitorId)
    .where('template', 'in', filter.templates)
    .where('status', '=', 'pending');
}

/** An exhibitor's address changed: their unsent messages go to the new one instead. */
export async function redirectPendingMail(
  tx: Tx,
  filter: PendingMailOfExhibitor,
  to: string,
): Promise<void> {
  await pendingOfExhibitor(tx, filter).set({ to_address: to }).execute();
}

/** Withdraws an exhibitor's unsent messages (sign-in codes voided with their address). */
export async function cancelPendingMailOfExhibitor(
  tx: Tx,
  filter: PendingMailOfExhibitor,
): Promise<void> {
  await pendingOfExhibitor(tx, filter).set({ status: 'cancelled' }).execute();
}

/**
 * A claimed message its template says no longer needs sending: withdrawn with its reason, never
 * retried.
 */
export async function markMailSkipped(
  db: Db,
  messageId: string,
  reason: MailCancelReason,
): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({ status: 'cancelled', locked_until: null, cancel_reason: reason })
    .where('id', '=', messageId)
    .execute();
}

/**
 * Sent messages keep their parameters; once the secret they carried (a code or a link) is spent or
 * replaced, it is blanked here too, so that a copy of the database holds none.
 */
export async function forgetSentSecrets(
  tx: Tx,
  template: MailTemplateName,
  to: string,
): Promise<void> {
  await tx
    .updateTable('mail_outbox')
    .set({ params: '{}' })
    .where('template', '=', template)
    .where('to_address', '=', to)
    .where('status', '!=', 'pending')
    .execute();
}

/**
 * Claims up to `limit` due messages for `claimMs`: they are hidden from other workers meanwhile,
 * and a crashed worker's claim lapses. Counts the attempt.
 */
export async function claimDueMail(
  db: Db,
  engine: Engine,
  now: Date,
  { limit, claimMs }: { limit: number; claimMs: number },
): Promise<MailMessage[]> {
  const nowIso = iso(now);
  return db
    .updateTable('mail_outbox')
    .set((eb) => ({
      locked_until: iso(new Date(now.getTime() + claimMs)),
      attempts: eb('attempts', '+', 1),
    }))
    .where('id', 'in', (eb) => {
      const due = eb
        .selectFrom('mail_outbox')
        .select('id')
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', nowIso)
        .where((w) => w.or([w('locked_until', 'is', null), w('locked_until', '<=', nowIso)]))
        .orderBy('next_attempt_at')
        .limit(limit);
      // Several instances on PostgreSQL each take different rows; SQLite has one writer anyway.
      return engine === 'postgres' ? due.forUpdate().skipLocked() : due;
    })
    .returningAll()
    .execute();
}

export async function markMailSent(
  db: Db,
  messageId: string,
  sentAt: Date,
  subject: string,
): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({
      status: 'sent',
      sent_at: iso(sentAt),
      subject,
      locked_until: null,
      last_error: null,
    })
    .where('id', '=', messageId)
    .execute();
}

/** A failed attempt: tried again at `retryAt`, or failed for good after the last attempt. */
export async function markMailAttemptFailed(
  db: Db,
  messageId: string,
  outcome: { final: boolean; reason: string; retryAt: Date },
): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({
      status: outcome.final ? 'failed' : 'pending',
      last_error: outcome.reason.slice(0, 1000),
      locked_until: null,
      next_attempt_at: iso(outcome.retryAt),
    })
    .where('id', '=', messageId)
    // A message cancelled while it was being tried stays cancelled.
    .where('status', '=', 'pending')
    .execute();
}

/** The newest message to an address (the CLI reports whether its invitation went out). */
export function latestMailTo(
  db: Db,
  to: string,
): Promise<Pick<MailMessage, 'status' | 'last_error'> | undefined> {
  return db
    .selectFrom('mail_outbox')
    .select(['status', 'last_error'])
    .where('to_address', '=', to)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}
