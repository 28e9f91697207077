import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/api-fixture.ts';

/*
 * A queued message's parameters are read back through its template's schema, never cast: a row
 * this version cannot read (hand-edited, or queued by another version) fails for good at once,
 * with the reason kept, and is not sent; the rest of the batch goes out.
 */
describe('mail parameters read through their template schema', () => {
  const app = useTestApp();

  const queueRaw = (id: string, template: string, params: string, to: string) =>
    app.db
      .insertInto('mail_outbox')
      .values({
        id,
        template,
        params,
        to_address: to,
        status: 'pending',
        attempts: 0,
        next_attempt_at: app.t.clock.now().toISOString(),
        locked_until: null,
        last_error: null,
        subject: null,
        sent_at: null,
        event_id: null,
        exhibitor_id: null,
        created_at: app.t.clock.now().toISOString(),
      })
      .execute();

  it('fails an unreadable message for good and still sends the readable ones', async () => {
    const { t } = app;
    await queueRaw(
      '00000000-0000-4000-8000-00000000a001',
      'sign-in-code',
      '{"code":5}',
      'mal@x.test',
    );
    await queueRaw(
      '00000000-0000-4000-8000-00000000a002',
      'sign-in-code',
      'no es json',
      'peor@x.test',
    );
    await queueRaw('00000000-0000-4000-8000-00000000a003', 'plantilla-futura', '{}', 'otra@x.test');
    await queueRaw(
      '00000000-0000-4000-8000-00000000a004',
      'sign-in-code',
      '{"code":"012345"}',
      'bien@x.test',
    );
    expect(await t.deliverMail()).toBe(4);
    const rows = await t.deps.db
      .selectFrom('mail_outbox')
      .select(['to_address', 'status', 'attempts', 'last_error'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      {
        to_address: 'mal@x.test',
        status: 'failed',
        attempts: 1,
        last_error: 'the stored parameters do not fit',
      },
      {
        to_address: 'peor@x.test',
        status: 'failed',
        attempts: 1,
        last_error: 'the stored parameters do not fit',
      },
      {
        to_address: 'otra@x.test',
        status: 'failed',
        attempts: 1,
        last_error: 'unknown mail template plantilla-futura',
      },
      { to_address: 'bien@x.test', status: 'sent', attempts: 1, last_error: null },
    ]);
    expect(t.smtp.allTo('mal@x.test')).toHaveLength(0);
    expect(t.smtp.latestTo('bien@x.test')?.subject).toBe('Su código de acceso: 012345');
    // Failed for good: nothing is tried again later.
    t.clock.advance(24 * 60 * 60_000);
    expect(await t.deliverMail()).toBe(0);
  });
});
