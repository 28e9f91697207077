import { describe, expect, it } from 'vitest';
import { hashToken } from '../../src/server/lib/crypto.ts';
import { verifyPassword } from '../../src/server/lib/passwords.ts';
import { SESSION_COOKIE } from '../../src/shared/constants.ts';
import { MSG } from '../../src/shared/messages.ts';
import { TEST_NOW, type Session } from '../helpers/app.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { seedAdmin, seedExhibitor } from '../helpers/seed.ts';

const DAY = 86_400_000;

describe('registering a new administrator', () => {
  // Ana's one session serves the whole file, as an administrator's tab would.
  const app = useTestApp({
    admin: { email: 'ana@premios.test', fullName: 'Ana Pérez' },
    freshEachTest: false,
  });

  const register = (email: string, as: Session = app.as) =>
    app.t.request({ method: 'POST', url: '/api/admins', payload: { email }, as });
  const accept = (payload: Record<string, string>) =>
    app.t.request({ method: 'POST', url: '/api/admins/invitation', payload });

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
    const response = await register(' Bruno@Premios.test ');
    expect(response.statusCode).toBe(201);
    expect(Object.keys(response.json())).toEqual(['adminId']);
    const { adminId } = response.json() as { adminId: string };

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
      const response = await register(email);
      expect(response.statusCode).toBe(409);
      expect(response.json().error.message).toBe(MSG.adminEmailInUse);
    }
    const admins = await app.db
      .selectFrom('admins')
      .select('id')
      .where('email', '=', exhibitor.email)
      .execute();
    expect(admins).toHaveLength(0);
  });

  it('refuses an invalid address with the field message', async () => {
    const response = await register('sin-arroba');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual({ email: MSG.invalidEmail });
  });

  it('completes registration only through the link: name and password, then signed in', async () => {
    app.t.clock.set(TEST_NOW);
    await register('carla@premios.test');
    const token = await invitationToken('carla@premios.test');

    const shown = await app.t.request({
      method: 'GET',
      url: `/api/admins/invitation?token=${token}`,
    });
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toEqual({ email: 'carla@premios.test' });

    const mismatch = await accept({
      token,
      fullName: 'Carla Gómez',
      password: 'Clave-larga-2026',
      confirmPassword: 'Clave-larga-2027',
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().error).toMatchObject({
      message: MSG.adminPasswordMismatch,
      fields: { confirmPassword: MSG.adminPasswordMismatch },
    });
    for (const weak of ['corta', 'password123', 'Administrador']) {
      const response = await accept({
        token,
        fullName: 'Carla Gómez',
        password: weak,
        confirmPassword: weak,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toBe(MSG.weakPassword);
    }
    const noName = await accept({
      token,
      fullName: '  ',
      password: 'Clave-larga-2026',
      confirmPassword: 'Clave-larga-2026',
    });
    expect(noName.json().error.fields).toEqual({ fullName: MSG.requiredField });

    const done = await accept({
      token,
      fullName: ' Carla Gómez ',
      password: 'Clave-larga-2026',
      confirmPassword: 'Clave-larga-2026',
    });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({
      user: { role: 'admin', email: 'carla@premios.test', fullName: 'Carla Gómez' },
    });
    const cookie = done.cookies.find((c) => c.name === SESSION_COOKIE)!;
    const session = await app.t.request({
      method: 'GET',
      url: '/api/session',
      as: { token: cookie.value, cookie: `${SESSION_COOKIE}=${cookie.value}` },
    });
    expect(session.json().user).toMatchObject({ role: 'admin', fullName: 'Carla Gómez' });

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

    const reused = await accept({
      token,
      fullName: 'Intruso',
      password: 'Otra-clave-2026',
      confirmPassword: 'Otra-clave-2026',
    });
    expect(reused.statusCode).toBe(404);
    expect(reused.json().error.message).toBe(MSG.invalidToken);
    const stillCarla = await app.t.request({
      method: 'POST',
      url: '/api/auth/password',
      payload: { email: 'carla@premios.test', password: 'Clave-larga-2026' },
    });
    expect(stillCarla.statusCode).toBe(200);
  });

  it('refuses a link after 7 days, and a made-up one', async () => {
    app.t.clock.set(TEST_NOW);
    await register('diego@premios.test');
    const token = await invitationToken('diego@premios.test');
    app.t.clock.advance(7 * DAY);
    const expired = await app.t.request({
      method: 'GET',
      url: `/api/admins/invitation?token=${token}`,
    });
    expect(expired.statusCode).toBe(404);
    expect(expired.json().error.message).toBe(MSG.invalidToken);
    const late = await accept({
      token,
      fullName: 'Diego',
      password: 'Clave-larga-2026',
      confirmPassword: 'Clave-larga-2026',
    });
    expect(late.statusCode).toBe(404);
    const madeUp = await app.t.request({ method: 'GET', url: '/api/admins/invitation?token=abc' });
    expect(madeUp.json().error.message).toBe(MSG.invalidToken);
    const missing = await app.t.request({ method: 'GET', url: '/api/admins/invitation' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toBe(MSG.invalidToken);
  });
});
