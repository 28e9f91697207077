import { describe, expect, it } from 'vitest';
import { hashToken } from '../../src/server/lib/crypto.ts';
import { verifyPassword } from '../../src/server/lib/passwords.ts';
import { acceptInvitation, getInvitation, inviteAdmin } from '../../src/shared/api/admins.ts';
import { signInWithPassword } from '../../src/shared/api/auth.ts';
import { getSession } from '../../src/shared/api/session.ts';
import type { AcceptInvitationInput } from '../../src/shared/schemas/auth.ts';
import { MSG } from '../../src/shared/messages.ts';
import { TEST_NOW, type Session } from '../helpers/app.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { answered, failureOf, refused, sessionSetBy } from '../helpers/client.ts';
import { seedAdmin, seedExhibitor } from '../helpers/seed.ts';

const DAY = 86_400_000;

describe('registering a new administrator', () => {
  // Ana's one session serves the whole file, as an administrator's tab would.
  const app = useTestApp({
    admin: { email: 'ana@premios.test', fullName: 'Ana Pérez' },
    freshEachTest: false,
  });

  const register = (email: string, as: Session = app.as) =>
    app.api.send(inviteAdmin, { body: { email } }, { as });
  const accept = (body: AcceptInvitationInput) => app.signedOut.send(acceptInvitation, { body });
  const invitation = (token: string) => app.signedOut.send(getInvitation, { query: { token } });

  async function invitationToken(email: string): Promise<string> {
    await app.t.deliverMail();
    const mail = app.t.smtp.latestTo(email);
    expect(mail?.subject).toBe('Invitación para administrar Premios');
    const match = /http:\/\/premios\.test\/signin\/newadmin\?token=([\w-]+)/.exec(mail!.text);
    expect(match).not.toBeNull();
    return match![1]!;
  }

  it('emails the invitation (and only emails it) for an address nobody uses', async () => {
    app.t.clock.set(TEST_NOW);
    const response = answered(await register(' Bruno@Premios.test '));
    expect(response.status).toBe(201);
    // The answer as it travelled, not as parsed: nothing but the new id.
    expect(Object.keys(response.response.json())).toEqual(['adminId']);
    const { adminId } = response.data;

    const admin = await app.db
      .selectFrom('admins')
      .selectAll()
      .where('id', '=', adminId)
      .executeTakeFirstOrThrow();
    expect(admin).toMatchObject({
      email: 'bruno@premios.test',
      full_name: null,
      password_hash: null,
    });
    const token = await invitationToken('bruno@premios.test');
    const mail = app.t.smtp.latestTo('bruno@premios.test')!;
    expect(mail.text).toContain('Ana Pérez le envió una invitación');
    expect(mail.html).toContain('cid:logo');
    const invitation = await app.db
      .selectFrom('admin_invitations')
      .selectAll()
      .where('admin_id', '=', adminId)
      .executeTakeFirstOrThrow();
    expect(invitation.token_hash).toBe(hashToken(token));
    expect(invitation.invited_by).toBe(app.admin.id);
    expect(invitation.expires_at).toBe(new Date(Date.parse(TEST_NOW) + 7 * DAY).toISOString());
    const audit = await app.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'admin.invited')
      .where('entity_id', '=', adminId)
      .executeTakeFirstOrThrow();
    expect(audit.actor_id).toBe(app.admin.id);
  });

  it('refuses an address of an administrator (pending or not) or an exhibitor', async () => {
    const exhibitor = await seedExhibitor(app.db, { email: 'expo@empresa.test' });
    const pending = await seedAdmin(app.db, { fullName: null });
    for (const email of [app.admin.email, 'ANA@premios.test', pending.email, exhibitor.email]) {
      const failure = refused(await register(email));
      expect(failure.status).toBe(409);
      expect(failure.message).toBe(MSG.adminEmailInUse);
    }
    const admins = await app.db
      .selectFrom('admins')
      .select('id')
      .where('email', '=', exhibitor.email)
      .execute();
    expect(admins).toHaveLength(0);
  });

  it('refuses an invalid address with the field message', async () => {
    const failure = refused(await register('sin-arroba'));
    expect(failure.status).toBe(400);
    expect(failure.fields).toEqual({ email: MSG.invalidEmail });
  });

  it('completes registration only through the link: name and password, then signed in', async () => {
    app.t.clock.set(TEST_NOW);
    await register('carla@premios.test');
    const token = await invitationToken('carla@premios.test');

    const shown = answered(await invitation(token));
    expect(shown.status).toBe(200);
    expect(shown.data).toEqual({ email: 'carla@premios.test' });

    const mismatch = refused(
      await accept({
        token,
        fullName: 'Carla Gómez',
        password: 'Clave-larga-2026',
        confirmPassword: 'Clave-larga-2027',
      }),
    );
    expect(mismatch.status).toBe(400);
    expect(mismatch).toMatchObject({
      message: MSG.adminPasswordMismatch,
      fields: { confirmPassword: MSG.adminPasswordMismatch },
    });
    for (const weak of ['corta', 'password123', 'Administrador']) {
      const failure = refused(
        await accept({ token, fullName: 'Carla Gómez', password: weak, confirmPassword: weak }),
      );
      expect(failure.status).toBe(400);
      expect(failure.message).toBe(MSG.weakPassword);
    }
    const noName = refused(
      await accept({
        token,
        fullName: '  ',
        password: 'Clave-larga-2026',
        confirmPassword: 'Clave-larga-2026',
      }),
    );
    expect(noName.fields).toEqual({ fullName: MSG.requiredField });

    const done = answered(
      await accept({
        token,
        fullName: ' Carla Gómez ',
        password: 'Clave-larga-2026',
        confirmPassword: 'Clave-larga-2026',
      }),
    );
    expect(done.status).toBe(200);
    expect(done.data).toEqual({
      user: { role: 'admin', email: 'carla@premios.test', fullName: 'Carla Gómez' },
    });
    const session = await app.api.call(getSession, {}, { as: sessionSetBy(done.response)! });
    expect(session.user).toMatchObject({ role: 'admin', fullName: 'Carla Gómez' });

    const row = await app.db
      .selectFrom('admins')
      .selectAll()
      .where('email', '=', 'carla@premios.test')
      .executeTakeFirstOrThrow();
    expect(row.full_name).toBe('Carla Gómez');
    expect(await verifyPassword(row.password_hash!, 'Clave-larga-2026')).toBe(true);
    const invitations = await app.db
      .selectFrom('admin_invitations')
      .select('used_at')
      .where('admin_id', '=', row.id)
      .execute();
    expect(invitations.every((i) => i.used_at !== null)).toBe(true);
    const sent = await app.db
      .selectFrom('mail_outbox')
      .select('params')
      .where('to_address', '=', 'carla@premios.test')
      .execute();
    expect(sent.map((m) => m.params)).toEqual(['{}']);

    const reused = refused(
      await accept({
        token,
        fullName: 'Intruso',
        password: 'Otra-clave-2026',
        confirmPassword: 'Otra-clave-2026',
      }),
    );
    expect(reused.status).toBe(404);
    expect(reused.message).toBe(MSG.invalidToken);
    const stillCarla = await app.signedOut.send(signInWithPassword, {
      body: { email: 'carla@premios.test', password: 'Clave-larga-2026' },
    });
    expect(stillCarla.status).toBe(200);
  });

  it('refuses a link after 7 days, and a made-up one', async () => {
    app.t.clock.set(TEST_NOW);
    await register('diego@premios.test');
    const token = await invitationToken('diego@premios.test');
    app.t.clock.advance(7 * DAY);
    const expired = refused(await invitation(token));
    expect(expired.status).toBe(404);
    expect(expired.message).toBe(MSG.invalidToken);
    const late = await accept({
      token,
      fullName: 'Diego',
      password: 'Clave-larga-2026',
      confirmPassword: 'Clave-larga-2026',
    });
    expect(late.status).toBe(404);
    expect(refused(await invitation('abc')).message).toBe(MSG.invalidToken);
    // A link without its token, which the contract requires, sent as is.
    const missing = await app.t.request({ method: 'GET', url: '/api/admins/invitation' });
    expect(missing.statusCode).toBe(400);
    expect(failureOf(missing).message).toBe(MSG.invalidToken);
  });
});
