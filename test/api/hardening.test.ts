import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { getLogo } from '../../src/shared/api/branding.ts';
import { signInWithCode, startSignIn } from '../../src/shared/api/auth.ts';
import { createEvent, listEvents } from '../../src/shared/api/events.ts';
import { exportRanking } from '../../src/shared/api/results.ts';
import { getSession, signOut } from '../../src/shared/api/session.ts';
import { MSG } from '../../src/shared/messages.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { answered, errorOf, failureOf } from '../helpers/client.ts';
import { openWorkbook } from '../helpers/workbook.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../helpers/seed.ts';

/*
 * Findings of an outside security review, one test each: characters that break exports, the CSRF
 * check on an encoded path, caching of personal data, slow clients.
 */

describe('hardening', () => {
  const app = useTestApp();

  it.each([
    ['U+FFFE', 'Premios \uFFFE'],
    ['U+FFFF', 'Premios \uFFFF'],
    ['a control code', 'Premios \u0001'],
    ['an unpaired surrogate', 'Premios \uD800'],
  ])('refuses a text field holding %s in Spanish, storing nothing', async (_what, name) => {
    const before = await app.db.selectFrom('events').select('id').execute();
    const response = await app.api.fail(createEvent, {
      body: { name, eventDate: '2026-08-10', voteDeadline: '2026-08-01' },
    });
    expect(response.status).toBe(400);
    expect(response.message).toBe(MSG.invalidCharacters);
    expect(response.fields).toEqual({ name: MSG.invalidCharacters });
    expect(await app.db.selectFrom('events').select('id').execute()).toHaveLength(before.length);
  });

  it('still accepts accents, emoji (paired surrogates) and ñ', async () => {
    const response = answered(
      await app.api.send(createEvent, {
        body: { name: 'Premios Ñandú 🎉', eventDate: '2026-08-10', voteDeadline: '2026-08-01' },
      }),
    );
    expect(response.status).toBe(201);
    expect(response.data.name).toBe('Premios Ñandú 🎉');
  });

  it('strips XML-invalid characters already stored from the xlsx export, which Excel can open', async () => {
    const { t } = app;
    const event = await seedEvent(t.deps.db);
    const exhibitor = await seedExhibitor(t.deps.db);
    await seedMembership(t.deps.db, event.id, exhibitor.id);
    await seedNominations(t.deps.db, {
      eventId: event.id,
      exhibitorId: exhibitor.id,
      category: 'consumption',
      nominees: [{ fiscalId: '20111111112', name: 'Reseller\uFFFF Norte\uFFFE\u0001' }],
    });
    const file = await app.api.call(exportRanking, {
      params: { eventId: event.id, category: 'consumption' },
    });
    const workbook = await openWorkbook(file);
    const sheet = workbook.getWorksheet('data')!;
    expect(sheet.getRow(2).getCell(1).value).toBe('Reseller Norte');
  });

  it('applies the CSRF check to an encoded path that the router decodes to /api', async () => {
    const { t } = app;
    const exhibitor = await seedExhibitor(t.deps.db);
    const session = await t.signIn({ role: 'exh', exhibitorId: exhibitor.id });
    // An encoded path is no endpoint of the contract: these requests are sent as they are.
    const forged = await t.app.inject({
      method: 'DELETE',
      url: '/%61pi/session',
      headers: { cookie: session.cookie },
    });
    expect(forged.statusCode).toBe(403);
    expect(errorOf(failureOf(forged))).toEqual({
      code: 'csrf_rejected',
      message: MSG.csrfRejected,
    });
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
    const session = answered(await app.api.send(getSession, {}));
    expect(session.status).toBe(200);
    expect(session.response.headers['cache-control']).toBe('no-store');
    const events = answered(await app.api.send(listEvents, {}));
    expect(events.response.headers['cache-control']).toBe('no-store');
    const failed = await app.signedOut.fail(signInWithCode, {
      body: { email: 'nadie@expo.test', code: '123456' },
    });
    expect(failed.status).toBe(400);
    expect(failed.response.headers['cache-control']).toBe('no-store');
    const logo = answered(await app.signedOut.send(getLogo, {}));
    expect(logo.response.headers['cache-control']).toBe('no-cache');
  });
});

describe('slow clients (request, body and keep-alive timeouts)', () => {
  // Socket timeouts run on the real clock: 1 s figures keep the test short. The requests are
  // written on raw sockets, below any client.
  const app = useTestApp({
    config: { requestTimeoutSeconds: 1, connectionTimeoutSeconds: 1, keepAliveTimeoutSeconds: 1 },
  });
  let port: number;
  beforeAll(async () => {
    const { t } = app;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });

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
  const app = useTestApp({ config: { appUrl: 'https://premios.test' } });

  it('is __Host-premios_session: Secure, path /, no Domain; the unprefixed name is ignored', async () => {
    const { t } = app;
    const exhibitor = await seedExhibitor(t.deps.db);
    await app.signedOut.call(startSignIn, { body: { email: exhibitor.email } });
    await t.deliverMail();
    const code = /\b(\d{6})\b/.exec(t.smtp.latestTo(exhibitor.email)!.subject)![1]!;
    const answer = answered(
      await app.signedOut.send(signInWithCode, { body: { email: exhibitor.email, code } }),
    );
    expect(answer.status).toBe(200);
    // The cookies themselves are what this test is about: read and sent as raw headers.
    const signedIn = answer.response;
    const cookie = signedIn.cookies.find((c) => c.name === '__Host-premios_session');
    expect(cookie).toMatchObject({ secure: true, path: '/', httpOnly: true, sameSite: 'Lax' });
    expect(cookie?.domain).toBeUndefined();
    expect(signedIn.cookies.find((c) => c.name === 'premios_session')).toBeUndefined();

    const withPrefix = await app.signedOut.call(
      getSession,
      {},
      { headers: { cookie: `__Host-premios_session=${cookie!.value}` } },
    );
    expect(withPrefix.user).toMatchObject({ role: 'exh', email: exhibitor.email });
    const planted = await app.signedOut.call(
      getSession,
      {},
      { headers: { cookie: `premios_session=${cookie!.value}` } },
    );
    expect(planted).toEqual({ user: null });

    const out = answered(
      await app.signedOut.send(
        signOut,
        {},
        { headers: { cookie: `__Host-premios_session=${cookie!.value}` } },
      ),
    );
    const cleared = out.response.cookies.find((c) => c.name === '__Host-premios_session');
    expect(cleared).toMatchObject({ value: '', secure: true, path: '/' });
  });
});
