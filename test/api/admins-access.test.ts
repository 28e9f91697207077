import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acceptInvitation,
  getInvitation,
  inviteAdmin,
  listAdmins,
  resendAdminInvitation,
  revokeAdmin,
} from '../../src/shared/api/admins.ts';
import { signInWithPassword, startSignIn } from '../../src/shared/api/auth.ts';
import { MSG } from '../../src/shared/messages.ts';
import { createTestApp, TEST_NOW, type Session, type TestApp } from '../helpers/app.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { answered, refused, testClient } from '../helpers/client.ts';
import { seedAdmin } from '../helpers/seed.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

describe('administrators page: list, re-send, revoke', () => {
  // Ana's one session serves the whole file, as an administrator's tab would.
  const app = useTestApp({
    admin: { email: 'ana@premios.test', fullName: 'Ana Pérez' },
    freshEachTest: false,
  });

  const list = (as: Session = app.as) => app.api.send(listAdmins, {}, { as });
  const revoke = (adminId: string, as: Session = app.as) =>
    app.api.send(revokeAdmin, { params: { adminId } }, { as });
  const resend = (adminId: string, as: Session = app.as) =>
    app.api.send(resendAdminInvitation, { params: { adminId } }, { as });
  const invite = (email: string) => app.api.send(inviteAdmin, { body: { email } });
  const invitation = (token: string) => app.signedOut.send(getInvitation, { query: { token } });
  const accept = (token: string, fullName: string) =>
    app.signedOut.send(acceptInvitation, {
      body: { token, fullName, password: 'Clave-larga-2026', confirmPassword: 'Clave-larga-2026' },
    });
  const adminRow = (id: string) =>
    app.db.selectFrom('admins').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  async function invitationToken(email: string): Promise<string> {
    await app.t.deliverMail();
    const mail = app.t.smtp.latestTo(email);
    const match = /signin\/newadmin\?token=([\w-]+)/.exec(mail!.text);
    expect(match).not.toBeNull();
    return match![1]!;
  }

  it('lists every administrator with status, last sign-in, second factor and who asks', async () => {
    app.t.clock.set(TEST_NOW);
    const pending = await invite('pendiente@premios.test');
    expect(pending.status).toBe(201);
    const bruno = await seedAdmin(app.db, { email: 'bruno@premios.test', fullName: 'Bruno' });
    await app.t.signIn({ role: 'admin', adminId: bruno.id });
    await app.db
      .updateTable('admins')
      .set({ mfa_enabled_at: TEST_NOW })
      .where('id', '=', bruno.id)
      .execute();

    const response = answered(await list());
    expect(response.status).toBe(200);
    const rows = response.data.admins;
    expect(rows.find((row) => row.email === 'bruno@premios.test')).toEqual({
      id: bruno.id,
      fullName: 'Bruno',
      email: 'bruno@premios.test',
      status: 'active',
      lastSignedInAt: TEST_NOW,
      mfaEnabled: true,
      self: false,
    });
    expect(rows.find((row) => row.email === 'pendiente@premios.test')).toMatchObject({
      fullName: null,
      status: 'pending',
      lastSignedInAt: null,
      mfaEnabled: false,
      self: false,
    });
    expect(rows.find((row) => row.email === 'ana@premios.test')).toMatchObject({
      status: 'active',
      self: true,
    });
  });

  it('revoking ends the sessions at once, audits, and refuses the sign-in afterwards', async () => {
    app.t.clock.set(TEST_NOW);
    const carla = await seedAdmin(app.db, { email: 'carla@premios.test', fullName: 'Carla' });
    const asCarla = await app.t.signIn({ role: 'admin', adminId: carla.id });
    expect((await list(asCarla)).status).toBe(200);

    const response = answered(await revoke(carla.id));
    expect(response.status).toBe(200);
    expect(response.data).toEqual({ ok: true });

    const next = refused(await list(asCarla));
    expect(next.status).toBe(401);
    expect(next.message).toBe(MSG.notSignedIn);
    expect((await adminRow(carla.id)).revoked_at).toBe(TEST_NOW);
    const sessions = await app.db
      .selectFrom('sessions')
      .select('id')
      .where('admin_id', '=', carla.id)
      .execute();
    expect(sessions).toEqual([]);
    const audit = await app.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'admin.revoked')
      .where('entity_id', '=', carla.id)
      .executeTakeFirstOrThrow();
    expect(audit.actor_id).toBe(app.admin.id);

    const start = await app.signedOut.fail(startSignIn, { body: { email: 'carla@premios.test' } });
    expect(start.status).toBe(404);
    expect(start.message).toBe(MSG.accountNotFound);
    const password = await app.signedOut.fail(signInWithPassword, {
      body: { email: 'carla@premios.test', password: carla.password },
    });
    expect(password.status).toBe(400);
    expect(password.message).toBe(MSG.signInFailed);

    const rows = await app.api.call(listAdmins, {});
    expect(rows.admins.find((row) => row.id === carla.id)?.status).toBe('revoked');

    const again = refused(await revoke(carla.id));
    expect(again.status).toBe(409);
    expect(again.message).toBe(MSG.adminAlreadyRevoked);
  });

  it("voids a pending invitation's link", async () => {
    app.t.clock.set(TEST_NOW);
    const { adminId } = answered(await invite('daniel@premios.test')).data;
    const token = await invitationToken('daniel@premios.test');
    expect((await invitation(token)).status).toBe(200);

    expect((await revoke(adminId)).status).toBe(200);

    const shown = refused(await invitation(token));
    expect(shown.status).toBe(404);
    expect(shown.message).toBe(MSG.invalidToken);
    const accepted = refused(await accept(token, 'Daniel'));
    expect(accepted.status).toBe(404);
    expect(accepted.message).toBe(MSG.invalidToken);
    const row = await adminRow(adminId);
    expect(row.full_name).toBeNull();
    expect(row.revoked_at).toBe(TEST_NOW);
    const live = await app.db
      .selectFrom('admin_invitations')
      .select('id')
      .where('admin_id', '=', adminId)
      .where('used_at', 'is', null)
      .execute();
    expect(live).toEqual([]);
  });

  it('a revoked address can be invited again and registers as before', async () => {
    app.t.clock.set(TEST_NOW);
    const eva = await seedAdmin(app.db, { email: 'eva@premios.test', fullName: 'Eva' });
    expect((await revoke(eva.id)).status).toBe(200);

    const invited = answered(await invite('eva@premios.test'));
    expect(invited.status).toBe(201);
    expect(invited.data).toEqual({ adminId: eva.id });
    const row = await adminRow(eva.id);
    expect(row).toMatchObject({ full_name: null, password_hash: null, revoked_at: null });
    const token = await invitationToken('eva@premios.test');
    const accepted = await accept(token, 'Eva Nueva');
    expect(accepted.status).toBe(200);
    expect((await adminRow(eva.id)).full_name).toBe('Eva Nueva');
  });

  it('nobody revokes themselves', async () => {
    const response = refused(await revoke(app.admin.id));
    expect(response.status).toBe(409);
    expect(response.message).toBe(MSG.adminSelfRevoke);
    expect((await adminRow(app.admin.id)).revoked_at).toBeNull();
  });

  it('refuses an unknown administrator with 404', async () => {
    const response = refused(await revoke('00000000-0000-0000-0000-000000000000'));
    expect(response.status).toBe(404);
    expect(response.message).toBe(MSG.apiNotFound);
  });

  it('re-sends a pending invitation, spaced and capped like the one asked at /signin', async () => {
    app.t.clock.set(TEST_NOW);
    const { adminId } = answered(await invite('fede@premios.test')).data;
    const first = await invitationToken('fede@premios.test');

    app.t.clock.advance(31_000);
    const response = answered(await resend(adminId));
    expect(response.status).toBe(200);
    expect(response.data).toEqual({ ok: true });
    const second = await invitationToken('fede@premios.test');
    expect(second).not.toBe(first);
    // The earlier link is void; the new one works.
    expect((await invitation(first)).status).toBe(404);
    expect((await invitation(second)).status).toBe(200);

    // Within 30 s nothing new is issued; ten links an hour at most.
    const before = await app.db
      .selectFrom('admin_invitations')
      .select('id')
      .where('admin_id', '=', adminId)
      .execute();
    expect((await resend(adminId)).status).toBe(200);
    const after = await app.db
      .selectFrom('admin_invitations')
      .select('id')
      .where('admin_id', '=', adminId)
      .execute();
    expect(after).toHaveLength(before.length);
    for (let i = 0; i < 8; i++) {
      app.t.clock.advance(31_000);
      expect((await resend(adminId)).status).toBe(200);
    }
    app.t.clock.advance(31_000);
    const limited = refused(await resend(adminId));
    expect(limited.status).toBe(429);
    expect(limited.message).toBe(MSG.tooManyRequests);

    const active = refused(await resend(app.admin.id));
    expect(active.status).toBe(409);
    expect(active.message).toBe(MSG.adminNotPending);
  });
});

describe('the last active administrator', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('two parallel revocations that would leave nobody: exactly one passes', async () => {
    const [a, b] = [
      await seedAdmin(t.deps.db, { email: 'a@premios.test', fullName: 'A' }),
      await seedAdmin(t.deps.db, { email: 'b@premios.test', fullName: 'B' }),
    ];
    // A pending invitation is not an active administrator.
    await seedAdmin(t.deps.db, { email: 'p@premios.test', fullName: null });
    const asA = await t.signIn({ role: 'admin', adminId: a.id });
    const asB = await t.signIn({ role: 'admin', adminId: b.id });
    const [byA, byB] = await Promise.all([
      testClient(t, asA).send(revokeAdmin, { params: { adminId: b.id } }),
      testClient(t, asB).send(revokeAdmin, { params: { adminId: a.id } }),
    ]);
    const [passed, lost] = byA.status === 200 ? [byA, byB] : [byB, byA];
    expect(passed.status).toBe(200);
    // The loser either finds nobody else active (409), or its own session has already ended by
    // the time its request is read (401): which one depends on when its request arrived.
    const loser = refused(lost);
    expect(
      loser.status === 409 ? loser.message === MSG.adminLastActive : loser.status === 401,
    ).toBe(true);
    const active = await t.deps.db
      .selectFrom('admins')
      .select('email')
      .where('revoked_at', 'is', null)
      .where('full_name', 'is not', null)
      .execute();
    expect(active).toHaveLength(1);
  });

  it('the CLI lists administrators and revokes by email, but never the last active one', async () => {
    const cli = (...args: string[]) =>
      run(process.execPath, ['src/server/cli.ts', ...args], {
        cwd: root,
        env: {
          ...process.env,
          DATABASE_URL: t.config.databaseUrl,
          DATA_DIR: t.config.dataDir,
          LOG_LEVEL: 'silent',
        },
      });
    const listed = await cli('list-admins');
    const lines = listed.stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines.find((line) => line.startsWith('p@premios.test'))).toBe(
      'p@premios.test\t-\tInvitación pendiente\túltimo ingreso: nunca\tverificación en dos pasos: no',
    );
    expect(lines.filter((line) => line.includes('\tRevocado\t'))).toHaveLength(1);
    const survivor = await t.deps.db
      .selectFrom('admins')
      .select(['id', 'email'])
      .where('revoked_at', 'is', null)
      .where('full_name', 'is not', null)
      .executeTakeFirstOrThrow();

    await expect(cli('revoke-admin', survivor.email)).rejects.toMatchObject({
      code: 1,
      // First which database the CLI acts on, then why it refused.
      stderr: t.config.databaseUrl.startsWith('sqlite:')
        ? `Base de datos: SQLite ${path.resolve(t.config.databaseUrl.slice('sqlite:'.length))}\n${MSG.adminLastActive}\n`
        : expect.stringMatching(
            new RegExp(
              `^Base de datos: PostgreSQL 127\\.0\\.0\\.1:5432/\\S+ \\(usuario postgres\\)\n${MSG.adminLastActive}\n$`,
            ),
          ),
    });
    await expect(cli('revoke-admin', 'nadie@premios.test')).rejects.toMatchObject({ code: 1 });

    const revoked = await cli('revoke-admin', 'p@premios.test');
    expect(revoked.stdout).toBe('Acceso revocado: p@premios.test. Sus sesiones terminaron.\n');
    const row = await t.deps.db
      .selectFrom('admins')
      .select('revoked_at')
      .where('email', '=', 'p@premios.test')
      .executeTakeFirstOrThrow();
    expect(row.revoked_at).not.toBeNull();
  });
});
