import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { newId } from '../lib/crypto.ts';
import { iso } from '../lib/time.ts';
import type { MailParams, MailTemplateName } from './templates/index.ts';

export interface QueuedMail<Name extends MailTemplateName> {
  template: Name;
  params: MailParams<Name>;
  to: string;
  /** Not before this instant (reminders); now when omitted. */
  sendAt?: Date;
  eventId?: string | null;
  exhibitorId?: string | null;
}

/**
 * Queues a message in the caller's transaction, so it exists exactly when the change that causes
 * it commits. The worker sends it afterwards; call deps.notifyMailQueued() after the commit.
 */
export async function enqueueMail<Name extends MailTemplateName>(
  trx: Kysely<Database>,
  now: Date,
  mail: QueuedMail<Name>,
): Promise<string> {
  const id = newId();
  await trx
    .insertInto('mail_outbox')
    .values({
      id,
      template: mail.template,
      params: JSON.stringify(mail.params),
      to_address: mail.to,
      status: 'pending',
      attempts: 0,
      next_attempt_at: iso(mail.sendAt ?? now),
      locked_until: null,
      last_error: null,
      subject: null,
      sent_at: null,
      event_id: mail.eventId ?? null,
      exhibitor_id: mail.exhibitorId ?? null,
      created_at: iso(now),
    })
    .execute();
  return id;
}

/** Cancels pending messages of a template for an event (and optionally one exhibitor). */
export async function cancelPendingMail(
  trx: Kysely<Database>,
  filter: { template: MailTemplateName; eventId: string; exhibitorId?: string },
): Promise<number> {
  let query = trx
    .updateTable('mail_outbox')
    .set({ status: 'cancelled' })
    .where('status', '=', 'pending')
    .where('template', '=', filter.template)
    .where('event_id', '=', filter.eventId);
  if (filter.exhibitorId) query = query.where('exhibitor_id', '=', filter.exhibitorId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}
