import type { AddressInfo } from 'node:net';
import net from 'node:net';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../src/shared/messages.ts';
import { createTestApp, type Session, type TestApp } from '../helpers/app.ts';
import {
  seedAdmin,
  seedEvent,
  seedExhibitor,
  seedMembership,
  seedNominations,
} from '../helpers/seed.ts';

/*
 * Findings of an outside security review, one test each: characters that break exports, the CSRF
 * check on an encoded path, caching of personal data, slow clients.
 */

describe('hardening', () => {
  let t: TestApp;
  let admin: Session;
  beforeAll(async () => {
    t = await createTestApp();
    const seeded = await seedAdmin(t.deps.db);
    admin = await t.signIn({ role: 'admin', adminId: seeded.id });
  });
  afterAll(() => t.close());

  it.each([
    ['U+FFFE', 'Premios \uFFFE'],
    ['U+FFFF', 'Premios \uFFFF'],
    ['a control code', 'Premios \u0001'],
    ['an unpaired surrogate', 'Premios \uD800'],
  ])('refuses a text field holding %s in Spanish, storing nothing', async (_what, name) => {
    const before = await t.deps.db.selectFrom('events').select('id').execute();
    const response = await t.request({
      method: 'POST',
      url: '/api/events',
      as: admin,
      payload: { name, eventDate: '2026-08-10', voteDeadline: '2026-08-01' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe(MSG.invalidCharacters);
    expect(response.json().error.fields).toEqual({ name: MSG.invalidCharacters });
    expect(await t.deps.db.selectFrom('events').select('id').execute()).toHaveLength(before.length);
  });

  it('still accepts accents, emoji (paired surrogates) and ñ', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/events',
      as: admin,
      payload: { name: 'Premios Ñandú 🎉', eventDate: '2026-08-10', voteDeadline: '2026-08-01' },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().name).toBe('Premios Ñandú 🎉');
  });

  it('strips XML-invalid characters already stored from the xlsx export, which Excel can open', async () => {
    const event = await seedEvent(t.deps.db);
    const exhibitor = await seedExhibitor(t.deps.db);
    await seedMembership(t.deps.db, event.id, exhibitor.id);
    await seedNominations(t.deps.db, {
      eventId: event.id,
      exhibitorId: exhibitor.id,
      category: 'consumption',
      nominees: [{ fiscalId: '20111111112', name: 'Reseller\uFFFF Norte\uFFFE\u0001' }],
    });
    const response = await t.request({
      method: 'GET',
      url: `/api/events/${event.id}/ranking/consumption/export`,
      as: admin,
    });
    expect(response.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('data')!;
    expect(sheet.getRow(2).getCell(1).value).toBe('Reseller Norte');
  });

  it('applies the CSRF check to an encoded path that the router decodes to /api', async () => {
    const exhibitor = await seedExhibitor(t.deps.db);
    const session = await t.signIn({ role: 'exh', exhibitorId: exhibitor.id });
    const forged = await t.app.inject({
      method: 'DELETE',
      url: '/%61pi/session',
      headers: { cookie: session.cookie },
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.json().error).toEqual({ code: 'csrf_rejected', message: MSG.csrfRejected });
    expect(
      await t.deps.db
        .selectFrom('sessions')
        .select('id')
        .where('exhibitor_id', '=', exhibitor.id)
        .execute(),
    ).toHaveLength(1);
    // With the header, the decoded path is the API: the session is found and ended.
    const own = await t.request({ method: 'DELETE', url: '/%61pi/session', as: session });
    expect(own.statusCode).toBe(200);
    expect(
      await t.deps.db
        .selectFrom('sessions')
        .select('id')
        .where('exhibitor_id', '=', exhibitor.id)
        .execute(),
    ).toHaveLength(0);
  });

  it('marks every API answer no-store (personal data), errors too; the public logo keeps its own', async () => {
    const session = await t.request({ method: 'GET', url: '/api/session', as: admin });
    expect(session.statusCode).toBe(200);
    expect(session.headers['cache-control']).toBe('no-store');
    const events = await t.request({ method: 'GET', url: '/api/events', as: admin });
    expect(events.headers['cache-control']).toBe('no-store');
    const failed = await t.request({
      method: 'POST',
      url: '/api/auth/code',
      payload: { email: 'nadie@expo.test', code: '123456' },
    });
    expect(failed.statusCode).toBe(400);
    expect(failed.headers['cache-control']).toBe('no-store');
    const logo = await t.request({ method: 'GET', url: '/api/logo' });
    expect(logo.headers['cache-control']).toBe('no-cache');
  });
});

describe('slow clients (request, body and keep-alive timeouts)', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    // Socket timeouts run on the real clock: 1 s figures keep the test short.
    t = await createTestApp({
      config: { requestTimeoutSeconds: 1, connectionTimeoutSeconds: 1, keepAliveTimeoutSeconds: 1 },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  /** Opens a connection, sends `head`, then `drip` one body byte every 200 ms; resolves on close. */
  function slowClient(drip: boolean): Promise<{ answer: string; ms: number }> {
    return new Promise((resolve) => {
      const started = Date.now();
      let answer = '';
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write(
          'POST /api/auth/start HTTP/1.1\r\nHost: premios.test\r\nContent-Type: application/json\r\n' +
            'X-Requested-With: premios\r\nContent-Length: 1000\r\n\r\n{',
        );
      });
      const timer = drip ? setInterval(() => socket.write(' '), 200) : undefined;
      socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearInterval(timer);
        resolve({ answer, ms: Date.now() - started });
      });
    });
  }

  it('closes a connection whose body trickles in, with 408, once the request time is over', async () => {
    const { answer, ms } = await slowClient(true);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(5000);
  });

  it('closes a connection whose body stalls', async () => {
    const { ms } = await slowClient(false);
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(5000);
  });

  it('closes an idle kept-alive connection', async () => {
    const closed = await new Promise<number>((resolve) => {
      const started = Date.now();
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write('GET /healthz HTTP/1.1\r\nHost: premios.test\r\n\r\n');
      });
      socket.on('data', () => undefined);
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(Date.now() - started));
    });
    expect(closed).toBeLessThan(5000);
  });
});

describe('the session cookie under https', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { appUrl: 'https://premios.test' } });
  });
  afterAll(() => t.close());

  it('is __Host-premios_session: Secure, path /, no Domain; the unprefixed name is ignored', async () => {
    const exhibitor = await seedExhibitor(t.deps.db);
    await t.request({
      method: 'POST',
      url: '/api/auth/start',
      payload: { email: exhibitor.email },
    });
    await t.deliverMail();
    const code = /\b(\d{6})\b/.exec(t.smtp.latestTo(exhibitor.email)!.subject)![1]!;
    const signedIn = await t.request({
      method: 'POST',
      url: '/api/auth/code',
      payload: { email: exhibitor.email, code },
    });
    expect(signedIn.statusCode).toBe(200);
    const cookie = signedIn.cookies.find((c) => c.name === '__Host-premios_session');
    expect(cookie).toMatchObject({ secure: true, path: '/', httpOnly: true, sameSite: 'Lax' });
    expect(cookie?.domain).toBeUndefined();
    expect(signedIn.cookies.find((c) => c.name === 'premios_session')).toBeUndefined();

    const withPrefix = await t.request({
      method: 'GET',
      url: '/api/session',
      headers: { cookie: `__Host-premios_session=${cookie!.value}` },
    });
    expect(withPrefix.json().user).toMatchObject({ role: 'exh', email: exhibitor.email });
    const planted = await t.request({
      method: 'GET',
      url: '/api/session',
      headers: { cookie: `premios_session=${cookie!.value}` },
    });
    expect(planted.json()).toEqual({ user: null });

    const out = await t.request({
      method: 'DELETE',
      url: '/api/session',
      headers: { cookie: `__Host-premios_session=${cookie!.value}` },
    });
    const cleared = out.cookies.find((c) => c.name === '__Host-premios_session');
    expect(cleared).toMatchObject({ value: '', secure: true, path: '/' });
  });
});
