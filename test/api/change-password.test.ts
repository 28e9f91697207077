import { describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/server/lib/passwords.ts';
import { changePassword, mfaStatus, signInWithPassword } from '../../src/shared/api/auth.ts';
import type { Session } from '../helpers/app.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { seedAdmin } from '../helpers/seed.ts';

describe('"Cambiar contraseña" on /admin/security', () => {
  const app = useTestApp();

  const change = (
    as: Session,
    body: { currentPassword: string; password: string; confirmPassword: string },
  ) => app.client(as).send(changePassword, { body });
  const storedHash = async (adminId: string) =>
    (
      await app.db
        .selectFrom('admins')
        .select('password_hash')
        .where('id', '=', adminId)
        .executeTakeFirstOrThrow()
    ).password_hash ?? '';
  const sessionsOf = async (adminId: string) =>
    (await app.db.selectFrom('sessions').select('id').where('admin_id', '=', adminId).execute())
      .length;
  /** An administrator of their own (each test changes or guesses the password), signed in. */
  async function ownAdmin() {
    const admin = await seedAdmin(app.db, { password: 'Clave-vieja-2026' });
    return { admin, as: await app.t.signIn({ role: 'admin', adminId: admin.id }) };
  }

  it('changes it with the current one, ends the other sessions and keeps this one', async () => {
    const { admin, as: here } = await ownAdmin();
    await app.t.signIn({ role: 'admin', adminId: admin.id });
    expect(await sessionsOf(admin.id)).toBe(2);

    const done = await change(here, {
      currentPassword: 'Clave-vieja-2026',
      password: 'Clave-nueva-2027',
      confirmPassword: 'Clave-nueva-2027',
    });
    expect(done.status).toBe(200);
    expect(await verifyPassword(await storedHash(admin.id), 'Clave-nueva-2027')).toBe(true);
    expect(await sessionsOf(admin.id)).toBe(1);
    // This session still works; the new password signs in, the old one does not.
    expect((await app.client(here).send(mfaStatus, {})).status).toBe(200);
    const signIn = (password: string) =>
      app.signedOut.send(signInWithPassword, { body: { email: admin.email, password } });
    expect((await signIn('Clave-nueva-2027')).status).toBe(200);
    expect((await signIn('Clave-vieja-2026')).status).toBe(400);
    const audit = await app.db
      .selectFrom('audit_log')
      .select(['actor_id', 'entity_id'])
      .where('action', '=', 'admin.password_changed')
      .execute();
    expect(audit).toEqual([{ actor_id: admin.id, entity_id: admin.id }]);
  });

  it('refuses a wrong current password, a mismatch, a short or common one, and changes nothing', async () => {
    const { admin, as } = await ownAdmin();
    const before = await storedHash(admin.id);
    const refusal = async (body: Parameters<typeof change>[1]) =>
      app.client(as).fail(changePassword, { body });

    const wrong = await refusal({
      currentPassword: 'no-es-esta',
      password: 'Clave-nueva-2027',
      confirmPassword: 'Clave-nueva-2027',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.fields).toEqual({ currentPassword: 'La contraseña es incorrecta.' });

    const mismatch = await refusal({
      currentPassword: 'Clave-vieja-2026',
      password: 'Clave-nueva-2027',
      confirmPassword: 'Clave-nueva-2028',
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.fields).toEqual({
      confirmPassword: 'Las contraseñas son diferentes.',
    });

    const short = await refusal({
      currentPassword: 'Clave-vieja-2026',
      password: 'corta',
      confirmPassword: 'corta',
    });
    expect(short.status).toBe(400);
    expect(short.fields).toEqual({
      password: 'La contraseña debe tener al menos 8 caracteres',
    });

    const common = await refusal({
      currentPassword: 'Clave-vieja-2026',
      password: 'password123',
      confirmPassword: 'password123',
    });
    expect(common.status).toBe(400);
    expect(common.fields).toEqual({
      password: 'La contraseña debe tener al menos 8 caracteres',
    });

    // Fields missing: what the contract forbids, sent as is.
    const missing = await app.t.request({
      method: 'POST',
      url: '/api/security/password',
      as,
      payload: { password: 'Clave-nueva-2027' },
    });
    expect(missing.statusCode).toBe(400);
    expect(await storedHash(admin.id)).toBe(before);
  });

  it('is only for a signed-in administrator', async () => {
    const anonymous = await app.signedOut.fail(changePassword, {
      body: {
        currentPassword: 'x',
        password: 'Clave-nueva-2027',
        confirmPassword: 'Clave-nueva-2027',
      },
    });
    expect(anonymous.status).toBe(401);
  });

  it('counts wrong current passwords as sign-in tries: guessing is slowed down', async () => {
    const { as } = await ownAdmin();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push(
        (
          await change(as, {
            currentPassword: `intento-${i}`,
            password: 'Clave-nueva-2027',
            confirmPassword: 'Clave-nueva-2027',
          })
        ).status,
      );
    }
    expect(statuses).toContain(429);
    expect(statuses.indexOf(429)).toBeGreaterThan(0);
  });
});
