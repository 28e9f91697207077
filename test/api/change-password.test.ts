import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/server/lib/passwords.ts';
import { createTestApp, type Session, type TestApp } from '../helpers/app.ts';
import { seedAdmin } from '../helpers/seed.ts';

describe('"Cambiar contraseña" on /admin/security', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const change = (as: Session, payload: Record<string, unknown>) =>
    t.request({ method: 'POST', url: '/api/security/password', as, payload });
  const storedHash = async (adminId: string) =>
    (
      await t.deps.db
        .selectFrom('admins')
        .select('password_hash')
        .where('id', '=', adminId)
        .executeTakeFirstOrThrow()
    ).password_hash ?? '';
  const sessionsOf = async (adminId: string) =>
    (await t.deps.db.selectFrom('sessions').select('id').where('admin_id', '=', adminId).execute())
      .length;

  it('changes it with the current one, ends the other sessions and keeps this one', async () => {
    const admin = await seedAdmin(t.deps.db, { password: 'Clave-vieja-2026' });
    const here = await t.signIn({ role: 'admin', adminId: admin.id });
    await t.signIn({ role: 'admin', adminId: admin.id });
    expect(await sessionsOf(admin.id)).toBe(2);

    const done = await change(here, {
      currentPassword: 'Clave-vieja-2026',
      password: 'Clave-nueva-2027',
      confirmPassword: 'Clave-nueva-2027',
    });
    expect(done.statusCode).toBe(200);
    expect(await verifyPassword(await storedHash(admin.id), 'Clave-nueva-2027')).toBe(true);
    expect(await sessionsOf(admin.id)).toBe(1);
    // This session still works; the new password signs in, the old one does not.
    expect((await t.request({ method: 'GET', url: '/api/security', as: here })).statusCode).toBe(
      200,
    );
    const signIn = (password: string) =>
      t.request({
        method: 'POST',
        url: '/api/auth/password',
        payload: { email: admin.email, password },
      });
    expect((await signIn('Clave-nueva-2027')).statusCode).toBe(200);
    expect((await signIn('Clave-vieja-2026')).statusCode).toBe(400);
    const audit = await t.deps.db
      .selectFrom('audit_log')
      .select(['actor_id', 'entity_id'])
      .where('action', '=', 'admin.password_changed')
      .execute();
    expect(audit).toEqual([{ actor_id: admin.id, entity_id: admin.id }]);
  });

  it('refuses a wrong current password, a mismatch, a short or common one, and changes nothing', async () => {
    const admin = await seedAdmin(t.deps.db, { password: 'Clave-vieja-2026' });
    const as = await t.signIn({ role: 'admin', adminId: admin.id });
    const before = await storedHash(admin.id);

    const wrong = await change(as, {
      currentPassword: 'no-es-esta',
      password: 'Clave-nueva-2027',
      confirmPassword: 'Clave-nueva-2027',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields).toEqual({ currentPassword: 'La contraseña es incorrecta.' });

    const mismatch = await change(as, {
      currentPassword: 'Clave-vieja-2026',
      password: 'Clave-nueva-2027',
      confirmPassword: 'Clave-nueva-2028',
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().error.fields).toEqual({
      confirmPassword: 'Las contraseñas son diferentes.',
    });

    const short = await change(as, {
      currentPassword: 'Clave-vieja-2026',
      password: 'corta',
      confirmPassword: 'corta',
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().error.fields).toEqual({
      password: 'La contraseña debe tener al menos 8 caracteres',
    });

    const common = await change(as, {
      currentPassword: 'Clave-vieja-2026',
      password: 'password123',
      confirmPassword: 'password123',
    });
    expect(common.statusCode).toBe(400);
    expect(common.json().error.fields).toEqual({
      password: 'La contraseña debe tener al menos 8 caracteres',
    });

    const missing = await change(as, { password: 'Clave-nueva-2027' });
    expect(missing.statusCode).toBe(400);
    expect(await storedHash(admin.id)).toBe(before);
  });

  it('is only for a signed-in administrator', async () => {
    const anonymous = await t.request({
      method: 'POST',
      url: '/api/security/password',
      payload: {
        currentPassword: 'x',
        password: 'Clave-nueva-2027',
        confirmPassword: 'Clave-nueva-2027',
      },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('counts wrong current passwords as sign-in tries: guessing is slowed down', async () => {
    const admin = await seedAdmin(t.deps.db, { password: 'Clave-vieja-2026' });
    const as = await t.signIn({ role: 'admin', adminId: admin.id });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push(
        (
          await change(as, {
            currentPassword: `intento-${i}`,
            password: 'Clave-nueva-2027',
            confirmPassword: 'Clave-nueva-2027',
          })
        ).statusCode,
      );
    }
    expect(statuses).toContain(429);
    expect(statuses.indexOf(429)).toBeGreaterThan(0);
  });
});
