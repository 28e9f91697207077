import type { Db } from '../../db/connection.ts';
import type { MailTemplateName } from '../../mail/templates/index.ts';

/**
 * Sent messages keep their parameters in the outbox; once the secret they carried (a code or
 * link) is spent or replaced, it is blanked there too, so a copy of the database holds none.
 */
export async function forgetSentSecrets(
  trx: Db,
  template: MailTemplateName,
  to: string,
): Promise<void> {
  await trx
    .updateTable('mail_outbox')
    .set({ params: '{}' })
    .where('template', '=', template)
    .where('to_address', '=', to)
    .where('status', '!=', 'pending')
    .execute();
}
