import { describe, expect, it } from 'vitest';
import { enqueueMail } from '../../src/server/mail/outbox.ts';
import { MAIL_MAX_ATTEMPTS, retryDelayMs } from '../../src/server/mail/worker.ts';
import { addExhibitor } from '../../src/shared/api/exhibitors.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { seedEvent } from '../helpers/seed.ts';

describe('mail outbox', () => {
  // Each test reads the whole outbox, and one starts the worker: an app of its own for each.
  const app = useTestApp({ appPerTest: true });

  async function queue(to: string) {
    const { t } = app;
    await t.deps.transact((tx) =>
      enqueueMail(tx, t.clock.now(), {
        template: 'sign-in-code',
        to,
        params: { code: '012345' },
      }),
    );
  }

  it('sends a queued message through SMTP with subject, html, text and the inline logo', async () => {
    const { t } = app;
    await queue('uno@empresa.test');
    expect(await t.deliverMail()).toBe(1);
    const mail = t.smtp.latestTo('uno@empresa.test');
    expect(mail?.subject).toBe('Su código de acceso: 012345');
    expect(mail?.text).toContain('012345');
    expect(mail?.html).toContain('cid:logo');
    expect(mail?.attachments.some((a) => a.mimeType === 'image/png')).toBe(true);
    const row = await t.deps.db.selectFrom('mail_outbox').selectAll().executeTakeFirstOrThrow();
    expect(row.status).toBe('sent');
    expect(row.attempts).toBe(1);
    // Nothing is sent twice.
    expect(await t.deliverMail()).toBe(0);
    expect(t.smtp.allTo('uno@empresa.test')).toHaveLength(1);
  });

  it('retries with backoff while the SMTP server refuses, then delivers exactly once', async () => {
    const { t } = app;
    t.smtp.refuse();
    await queue('dos@empresa.test');
    expect(await t.deliverMail()).toBe(1);
    let row = await t.deps.db.selectFrom('mail_outbox').selectAll().executeTakeFirstOrThrow();
    expect(row.status).toBe('pending');
    expect(row.last_error).toBeTruthy();
    // Not due again before its backoff has passed.
    expect(await t.deliverMail()).toBe(0);
    t.clock.advance(retryDelayMs(1));
    expect(await t.deliverMail()).toBe(1);
    t.smtp.accept();
    t.clock.advance(retryDelayMs(2));
    expect(await t.deliverMail()).toBe(1);
    row = await t.deps.db.selectFrom('mail_outbox').selectAll().executeTakeFirstOrThrow();
    expect(row.status).toBe('sent');
    expect(row.attempts).toBe(3);
    expect(t.smtp.allTo('dos@empresa.test')).toHaveLength(1);
  });

  it('marks a message failed after the last attempt', async () => {
    const { t } = app;
    t.smtp.refuse();
    await queue('tres@empresa.test');
    for (let attempt = 1; attempt <= MAIL_MAX_ATTEMPTS; attempt++) {
      expect(await t.deliverMail()).toBe(1);
      t.clock.advance(retryDelayMs(attempt));
    }
    const row = await t.deps.db.selectFrom('mail_outbox').selectAll().executeTakeFirstOrThrow();
    expect(row.status).toBe('failed');
    expect(await t.deliverMail()).toBe(0);
  });

  it('is woken by the commit that queued mail, without waiting for its next poll', async () => {
    const { t } = app;
    const event = await seedEvent(t.deps.db);
    // Started with a poll far away: only the wake-up after the commit can deliver in time.
    t.mailWorker.start(3_600_000);
    const response = await app.api.send(addExhibitor, {
      params: { eventId: event.id },
      body: { fullName: 'Eva Expositora', email: 'eva@empresa.test', company: 'Empresa' },
    });
    expect(response.status).toBe(201);
    const invitation = await t.smtp.waitFor('eva@empresa.test', { timeoutMs: 5_000 });
    expect(invitation.subject).toBe(`Invitación a votar en ${event.name}`);
  });

  it('sends a reminder no earlier than its scheduled instant', async () => {
    const { t } = app;
    await t.deps.transact((tx) =>
      enqueueMail(tx, t.clock.now(), {
        template: 'sign-in-code',
        to: 'cuatro@empresa.test',
        params: { code: '111111' },
        sendAt: new Date(t.clock.now().getTime() + 3_600_000),
      }),
    );
    expect(await t.deliverMail()).toBe(0);
    t.clock.advance(3_600_000);
    expect(await t.deliverMail()).toBe(1);
  });
});
