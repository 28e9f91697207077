import { describe, expect, it } from 'vitest';
import { signInWithCode, startSignIn } from '../../src/shared/api/auth.ts';
import { editExhibitor } from '../../src/shared/api/exhibitors.ts';
import { getSession } from '../../src/shared/api/session.ts';
import { MSG } from '../../src/shared/messages.ts';
import type { ExhibitorInput } from '../../src/shared/schemas/exhibitors.ts';
import { TEST_NOW } from '../helpers/app.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import {
  seedAdmin,
  seedEvent,
  seedExhibitor,
  seedMembership,
  seedNominations,
} from '../helpers/seed.ts';

describe('editing an exhibitor', () => {
  const app = useTestApp();

  const edit = (eventId: string, exhibitorId: string, body: ExhibitorInput) =>
    app.api.call(editExhibitor, { params: { eventId, exhibitorId }, body });
  const refuseEdit = (eventId: string, exhibitorId: string, body: ExhibitorInput) =>
    app.api.fail(editExhibitor, { params: { eventId, exhibitorId }, body });

  async function memberWithVotes(email: string) {
    const event = await seedEvent(app.db, { name: 'Premios Edición' });
    const exhibitor = await seedExhibitor(app.db, {
      email,
      fullName: 'Pablo Viejo',
      company: 'Vieja SA',
    });
    await seedMembership(app.db, event.id, exhibitor.id);
    await seedNominations(app.db, {
      eventId: event.id,
      exhibitorId: exhibitor.id,
      category: 'consumption',
      nominees: [{ fiscalId: '30111' }, { fiscalId: '30222' }],
    });
    return { event, exhibitor };
  }

  it('changes name and company without touching sessions or sending mail', async () => {
    const { event, exhibitor } = await memberWithVotes('pablo.nombre@empresa.test');
    const voter = await app.exhibitor(exhibitor.id);
    const response = await edit(event.id, exhibitor.id, {
      fullName: 'Pablo Nuevo',
      email: 'pablo.nombre@empresa.test',
      company: 'Nueva SA',
    });
    expect(response).toMatchObject({
      id: exhibitor.id,
      fullName: 'Pablo Nuevo',
      email: 'pablo.nombre@empresa.test',
      company: 'Nueva SA',
    });
    const me = await voter.call(getSession, {});
    expect(me.user?.role).toBe('exh');
    const mail = await app.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('exhibitor_id', '=', exhibitor.id)
      .execute();
    expect(mail).toEqual([]);
  });

  it('moves to a new address: votes kept, sessions ended, codes voided, invitation and reminders to the new address, audited', async () => {
    const { event, exhibitor } = await memberWithVotes('pablo.viejo@empresa.test');
    const voter = await app.exhibitor(exhibitor.id);
    // A code and the deadline-day reminder, both for the old address.
    await app.signedOut.call(startSignIn, { body: { email: 'pablo.viejo@empresa.test' } });
    await app.db
      .insertInto('mail_outbox')
      .values({
        id: '00000000-0000-4000-8000-00000000e001',
        template: 'voting-reminder',
        params: JSON.stringify({ eventId: event.id, exhibitorId: exhibitor.id }),
        to_address: 'pablo.viejo@empresa.test',
        status: 'pending',
        attempts: 0,
        next_attempt_at: '2026-07-01T03:00:00.000Z',
        locked_until: null,
        last_error: null,
        subject: null,
        sent_at: null,
        event_id: event.id,
        exhibitor_id: exhibitor.id,
        created_at: TEST_NOW,
      })
      .execute();

    const response = await edit(event.id, exhibitor.id, {
      fullName: 'Pablo Viejo',
      email: '  Pablo.Nuevo@Empresa.test ',
      company: 'Vieja SA',
    });
    expect(response.email).toBe('pablo.nuevo@empresa.test');
    expect(response.invitation.status).toBe('pending');

    const votes = await app.db
      .selectFrom('nominations')
      .select('fiscal_id')
      .where('exhibitor_id', '=', exhibitor.id)
      .orderBy('list_order')
      .execute();
    expect(votes.map((v) => v.fiscal_id)).toEqual(['30111', '30222']);
    const me = await voter.call(getSession, {});
    expect(me.user).toBeNull();
    const codes = await app.db
      .selectFrom('sign_in_codes')
      .select(['voided_at', 'used_at'])
      .where('exhibitor_id', '=', exhibitor.id)
      .execute();
    expect(codes).toEqual([{ voided_at: TEST_NOW, used_at: null }]);
    const oldCodeMail = await app.db
      .selectFrom('mail_outbox')
      .select(['status', 'params'])
      .where('template', '=', 'sign-in-code')
      .where('to_address', '=', 'pablo.viejo@empresa.test')
      .execute();
    expect(oldCodeMail).toEqual([{ status: 'cancelled', params: '{}' }]);
    const pending = await app.db
      .selectFrom('mail_outbox')
      .select(['template', 'to_address'])
      .where('exhibitor_id', '=', exhibitor.id)
      .where('status', '=', 'pending')
      .orderBy('template')
      .execute();
    expect(pending).toEqual([
      { template: 'exhibitor-invitation', to_address: 'pablo.nuevo@empresa.test' },
      { template: 'voting-reminder', to_address: 'pablo.nuevo@empresa.test' },
    ]);
    await app.t.deliverMail();
    const invitation = await app.t.smtp.waitFor('pablo.nuevo@empresa.test');
    expect(invitation.text).toContain('Premios Edición');

    const audit = await app.db
      .selectFrom('audit_log')
      .select(['actor_id', 'details'])
      .where('action', '=', 'exhibitor.edited')
      .where('entity_id', '=', exhibitor.id)
      .executeTakeFirstOrThrow();
    expect(audit.actor_id).toBe(app.admin.id);
    expect(JSON.parse(audit.details)).toMatchObject({
      before: { fullName: 'Pablo Viejo', email: 'pablo.viejo@empresa.test', company: 'Vieja SA' },
      after: { fullName: 'Pablo Viejo', email: 'pablo.nuevo@empresa.test', company: 'Vieja SA' },
    });

    // The exhibitor signs in at the new address with the code that arrives there (a minute later:
    // codes are at most one a minute per exhibitor).
    app.t.clock.advance(60_000);
    await app.signedOut.call(startSignIn, { body: { email: 'pablo.nuevo@empresa.test' } });
    await app.t.deliverMail();
    const codeMail = await app.t.smtp.waitFor('pablo.nuevo@empresa.test', { count: 2 });
    const code = /(\d{6})/.exec(codeMail.subject)?.[1];
    if (!code) throw new Error(`no code in: ${codeMail.subject}`);
    await app.signedOut.call(signInWithCode, { body: { email: 'pablo.nuevo@empresa.test', code } });
  });

  it.each([
    ['an administrator', 'admin', MSG.exhibitorEmailIsAdmin],
    ['another exhibitor of the event', 'member', MSG.exhibitorAlreadyInEvent],
    ['an exhibitor of another event', 'elsewhere', MSG.exhibitorInOtherEvent],
  ] as const)(
    'refuses the address of %s with 409 and changes nothing',
    async (_, owner, message) => {
      const { event, exhibitor } = await memberWithVotes(`pablo.${owner}@empresa.test`);
      const taken = `ocupado.${owner}@empresa.test`;
      if (owner === 'admin') await seedAdmin(app.db, { email: taken });
      else {
        const other = await seedExhibitor(app.db, { email: taken });
        if (owner === 'member') await seedMembership(app.db, event.id, other.id);
      }
      const response = await refuseEdit(event.id, exhibitor.id, {
        fullName: 'Otro Nombre',
        email: taken,
        company: 'Otra',
      });
      expect(response.status).toBe(409);
      expect(response).toMatchObject({ message, fields: { email: message } });
      const row = await app.db
        .selectFrom('exhibitors')
        .select(['full_name', 'email'])
        .where('id', '=', exhibitor.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ full_name: 'Pablo Viejo', email: `pablo.${owner}@empresa.test` });
    },
  );

  it('answers 400 for a bad address and 404 for someone not in the event, changing nothing', async () => {
    const { event, exhibitor } = await memberWithVotes('pablo.malo@empresa.test');
    const bad = await refuseEdit(event.id, exhibitor.id, {
      fullName: 'X',
      email: 'no-es-un-email',
      company: 'Y',
    });
    expect(bad.status).toBe(400);
    const stranger = await seedExhibitor(app.db);
    const missing = await refuseEdit(event.id, stranger.id, {
      fullName: 'X',
      email: 'x@empresa.test',
      company: 'Y',
    });
    expect(missing.status).toBe(404);
    expect(missing.message).toBe(MSG.exhibitorNotFound);
    const row = await app.db
      .selectFrom('exhibitors')
      .select('full_name')
      .where('id', '=', exhibitor.id)
      .executeTakeFirstOrThrow();
    expect(row.full_name).toBe('Pablo Viejo');
  });
});
