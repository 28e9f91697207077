import { describe, expect, it } from 'vitest';
import { annulList } from '../../src/shared/api/annulment.ts';
import { signInWithCode, signInWithLink, startSignIn } from '../../src/shared/api/auth.ts';
import { integrityAlerts } from '../../src/shared/api/integrity.ts';
import { myEvent } from '../../src/shared/api/nominations.ts';
import { DEVICE_COOKIE, type Category } from '../../src/shared/constants.ts';
import { MSG } from '../../src/shared/messages.ts';
import type { IntegrityResponse } from '../../src/shared/schemas/integrity.ts';
import type { Session } from '../helpers/app.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { answered, errorOf } from '../helpers/client.ts';
import {
  seedEvent,
  seedExhibitor,
  seedMembership,
  seedNominations,
  type NomineeSeed,
} from '../helpers/seed.ts';

/*
 * "Integridad" (issue 28 item 3, docs/decisions/0035): each rule with the lists, addresses and
 * browsers that must be flagged and those that must not, annulled lists left out, and who may read
 * it. Each test seeds an event of its own.
 */

const HOUR = 3_600_000;
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const OFFICE = '203.0.113.10';
/** Device ids as the server writes them: 22 base64url characters. */
const DEVICE_A = 'AAAAAAAAAAAAAAAAAAAAAA';
const DEVICE_B = 'BBBBBBBBBBBBBBBBBBBBBB';

describe('the "Integridad" tab', () => {
  const app = useTestApp();

  async function newEvent() {
    return seedEvent(app.db);
  }

  /** An exhibitor of `eventId`, with their lists (fiscal ids or full seeds) per category. */
  async function member(
    eventId: string,
    values: { fullName: string; email?: string },
    lists: Partial<Record<Category, (string | NomineeSeed)[]>> = {},
  ) {
    const exhibitor = await seedExhibitor(app.db, {
      fullName: values.fullName,
      company: `Empresa de ${values.fullName}`,
      ...(values.email ? { email: values.email } : {}),
    });
    await seedMembership(app.db, eventId, exhibitor.id);
    for (const [category, ids] of Object.entries(lists) as [Category, (string | NomineeSeed)[]][]) {
      await seedNominations(app.db, {
        eventId,
        exhibitorId: exhibitor.id,
        category,
        nominees: ids.map((id) => (typeof id === 'string' ? { fiscalId: id } : id)),
      });
    }
    return exhibitor;
  }

  const alerts = (eventId: string): Promise<IntegrityResponse> =>
    app.api.call(integrityAlerts, { params: { eventId } });
  const ofCategory = (answer: IntegrityResponse, category: Category) => {
    const found = answer.categories.find((alertsOf) => alertsOf.category === category);
    if (!found) throw new Error(`no alerts of ${category}`);
    return found;
  };
  const names = (group: { exhibitors: { fullName: string }[] }) =>
    group.exhibitors.map((exhibitor) => exhibitor.fullName);

  /**
   * The exhibitor signs in at the clock's instant (a new session) and opens the event from a
   * browser: its device cookie (or none), its address and its user agent.
   */
  async function opens(
    eventId: string,
    exhibitorId: string,
    browser: { device?: string; ip: string; userAgent?: string },
  ) {
    const session = await app.t.signIn({ role: 'exh', exhibitorId });
    const withDevice: Session = browser.device
      ? { ...session, cookie: `${session.cookie}; ${DEVICE_COOKIE}=${browser.device}` }
      : session;
    await app.client(withDevice).call(
      myEvent,
      { params: { eventId } },
      // No user agent: an empty header (light-my-request would otherwise send its own).
      { remoteAddress: browser.ip, headers: { 'user-agent': browser.userAgent ?? '' } },
    );
    return withDevice;
  }

  describe('"Listas idénticas"', () => {
    it('groups the exhibitors whose lists hold the same fiscal ids in the same order', async () => {
      const event = await newEvent();
      const list = ['20111111112', '20222222223', '20333333334', '20444444445', '20555555556'];
      await member(event.id, { fullName: 'Bruno Beta' }, { consumption: list });
      await member(event.id, { fullName: 'Ana Alfa' }, { consumption: list });
      // The same ids in the other category, and a list with one id fewer: neither joins.
      await member(event.id, { fullName: 'Carla Gamma' }, { value: list });
      await member(event.id, { fullName: 'Dario Delta' }, { consumption: list.slice(0, 4) });

      const answer = await alerts(event.id);
      const consumption = ofCategory(answer, 'consumption');
      expect(consumption.identicalLists).toHaveLength(1);
      expect(names(consumption.identicalLists[0]!)).toEqual(['Ana Alfa', 'Bruno Beta']);
      expect(consumption.identicalLists[0]!.entries).toEqual(
        list.map((fiscalId) => ({ fiscalId, name: `Reseller ${fiscalId}` })),
      );
      // Same order is not "another order".
      expect(consumption.reorderedLists).toEqual([]);
      expect(ofCategory(answer, 'value').identicalLists).toEqual([]);
    });

    it('flags the same set of four or more ids in another order separately', async () => {
      const event = await newEvent();
      await member(event.id, { fullName: 'Ana Alfa' }, { value: ['201', '202', '203', '204'] });
      await member(event.id, { fullName: 'Bruno Beta' }, { value: ['204', '203', '202', '201'] });
      await member(event.id, { fullName: 'Carla Gamma' }, { value: ['201', '202', '203', '205'] });

      const value = ofCategory(await alerts(event.id), 'value');
      expect(value.identicalLists).toEqual([]);
      expect(value.reorderedLists).toHaveLength(1);
      expect(names(value.reorderedLists[0]!)).toEqual(['Ana Alfa', 'Bruno Beta']);
      expect(value.reorderedLists[0]!.entries.map((entry) => entry.fiscalId)).toEqual([
        '201',
        '202',
        '203',
        '204',
      ]);
    });

    it('does not flag three ids in another order', async () => {
      const event = await newEvent();
      await member(event.id, { fullName: 'Ana Alfa' }, { consumption: ['301', '302', '303'] });
      await member(event.id, { fullName: 'Bruno Beta' }, { consumption: ['303', '301', '302'] });

      const consumption = ofCategory(await alerts(event.id), 'consumption');
      expect(consumption.identicalLists).toEqual([]);
      expect(consumption.reorderedLists).toEqual([]);
    });

    it('leaves annulled lists out: an annulled list counts for nothing', async () => {
      const event = await newEvent();
      const list = ['401', '402', '403', '404', '405'];
      await member(event.id, { fullName: 'Ana Alfa' }, { consumption: list });
      const bruno = await member(event.id, { fullName: 'Bruno Beta' }, { consumption: list });
      const carla = await member(
        event.id,
        { fullName: 'Carla Gamma' },
        { consumption: [...list].reverse() },
      );
      expect(ofCategory(await alerts(event.id), 'consumption').identicalLists).toHaveLength(1);

      for (const exhibitorId of [bruno.id, carla.id]) {
        await app.api.call(annulList, {
          params: { eventId: event.id, exhibitorId, category: 'consumption' },
          body: { reason: 'Listas coordinadas' },
        });
      }
      const consumption = ofCategory(await alerts(event.id), 'consumption');
      expect(consumption.identicalLists).toEqual([]);
      expect(consumption.reorderedLists).toEqual([]);
    });
  });

  describe('"Nominaciones a la propia empresa"', () => {
    it("flags a nominee whose contact address has the exhibitor's own domain", async () => {
      const event = await newEvent();
      const ana = await member(
        event.id,
        { fullName: 'Ana Alfa', email: 'ana@acme-sistemas.com.ar' },
        {
          value: [
            { fiscalId: '501', name: 'Acme Sistemas', email: 'ventas@ACME-Sistemas.com.ar' },
            { fiscalId: '502', name: 'Otro Reseller', email: 'info@otro.com.ar' },
            // Another company under a longer name is another domain.
            { fiscalId: '503', name: 'Sub', email: 'x@ventas.acme-sistemas.com.ar' },
          ],
        },
      );

      const value = ofCategory(await alerts(event.id), 'value');
      expect(value.selfNominations).toEqual([
        {
          exhibitor: {
            id: ana.id,
            fullName: 'Ana Alfa',
            company: 'Empresa de Ana Alfa',
            email: 'ana@acme-sistemas.com.ar',
          },
          nominee: {
            fiscalId: '501',
            name: 'Acme Sistemas',
            email: 'ventas@ACME-Sistemas.com.ar',
          },
          domain: 'acme-sistemas.com.ar',
        },
      ]);
      expect(ofCategory(await alerts(event.id), 'consumption').selfNominations).toEqual([]);
    });

    it('never flags public mail domains, their country variants included', async () => {
      const event = await newEvent();
      const domains = ['gmail.com', 'hotmail.com', 'hotmail.com.ar', 'outlook.es', 'yahoo.com.ar'];
      for (const [n, domain] of domains.entries()) {
        await member(
          event.id,
          { fullName: `Persona ${n}`, email: `persona${n}@${domain}` },
          { consumption: [{ fiscalId: `60${n}`, email: `contacto${n}@${domain}` }] },
        );
      }
      await member(
        event.id,
        { fullName: 'Live', email: 'uno@live.com' },
        { consumption: [{ fiscalId: '610', email: 'dos@live.com' }] },
      );
      await member(
        event.id,
        { fullName: 'iCloud', email: 'uno@icloud.com' },
        { consumption: [{ fiscalId: '611', email: 'dos@icloud.com' }] },
      );
      expect(ofCategory(await alerts(event.id), 'consumption').selfNominations).toEqual([]);
    });

    it('leaves annulled lists out', async () => {
      const event = await newEvent();
      const ana = await member(
        event.id,
        { fullName: 'Ana Alfa', email: 'ana@propia.com' },
        { consumption: [{ fiscalId: '701', email: 'yo@propia.com' }] },
      );
      expect(ofCategory(await alerts(event.id), 'consumption').selfNominations).toHaveLength(1);
      await app.api.call(annulList, {
        params: { eventId: event.id, exhibitorId: ana.id, category: 'consumption' },
        body: { reason: 'Se nominó a sí misma' },
      });
      expect(ofCategory(await alerts(event.id), 'consumption').selfNominations).toEqual([]);
    });
  });

  describe('"Mismo dispositivo"', () => {
    it('groups exhibitors who signed in from one browser (its device cookie) within 24 hours', async () => {
      const event = await newEvent();
      const ana = await member(event.id, { fullName: 'Ana Alfa' });
      const bruno = await member(event.id, { fullName: 'Bruno Beta' });
      const carla = await member(event.id, { fullName: 'Carla Gamma' });
      // Ana's and Bruno's sign-ins come from one browser, even through two addresses.
      await opens(event.id, ana.id, { device: DEVICE_A, ip: OFFICE, userAgent: CHROME });
      app.t.clock.set(new Date(Date.parse(app.now) + 23 * HOUR).toISOString());
      await opens(event.id, bruno.id, { device: DEVICE_A, ip: '198.51.100.7', userAgent: CHROME });
      // Carla: the same address and browser version, but another browser (its own cookie).
      await opens(event.id, carla.id, { device: DEVICE_B, ip: OFFICE, userAgent: CHROME });
      await app.at(app.t.clock.now().toISOString());

      const { sameDevice } = await alerts(event.id);
      expect(sameDevice).toEqual([
        {
          matchedBy: 'deviceCookie',
          exhibitors: [
            { id: ana.id, fullName: 'Ana Alfa', company: 'Empresa de Ana Alfa' },
            { id: bruno.id, fullName: 'Bruno Beta', company: 'Empresa de Bruno Beta' },
          ],
          from: app.now,
          to: new Date(Date.parse(app.now) + 23 * HOUR).toISOString(),
        },
      ]);
    });

    it('does not group sign-ins from one browser more than 24 hours apart', async () => {
      const event = await newEvent();
      const ana = await member(event.id, { fullName: 'Ana Alfa' });
      const bruno = await member(event.id, { fullName: 'Bruno Beta' });
      await opens(event.id, ana.id, { device: DEVICE_A, ip: OFFICE, userAgent: CHROME });
      app.t.clock.set(new Date(Date.parse(app.now) + 25 * HOUR).toISOString());
      await opens(event.id, bruno.id, { device: DEVICE_A, ip: OFFICE, userAgent: CHROME });
      await app.at(app.t.clock.now().toISOString());

      expect((await alerts(event.id)).sameDevice).toEqual([]);
    });

    it('without the cookie, recognises a browser by the same address and user agent together', async () => {
      const event = await newEvent();
      const ana = await member(event.id, { fullName: 'Ana Alfa' });
      const bruno = await member(event.id, { fullName: 'Bruno Beta' });
      await opens(event.id, ana.id, { ip: OFFICE, userAgent: CHROME });
      await opens(event.id, bruno.id, { device: DEVICE_B, ip: OFFICE, userAgent: CHROME });

      const { sameDevice } = await alerts(event.id);
      expect(sameDevice.map((group) => [group.matchedBy, names(group)])).toEqual([
        ['addressAndBrowser', ['Ana Alfa', 'Bruno Beta']],
      ]);
    });

    it('does not group the same address with different user agents', async () => {
      const event = await newEvent();
      const ana = await member(event.id, { fullName: 'Ana Alfa' });
      const bruno = await member(event.id, { fullName: 'Bruno Beta' });
      await opens(event.id, ana.id, { ip: OFFICE, userAgent: CHROME });
      await opens(event.id, bruno.id, { ip: OFFICE, userAgent: FIREFOX });

      expect((await alerts(event.id)).sameDevice).toEqual([]);
    });

    it('never groups by the address alone (no user agent, or different cookies)', async () => {
      const event = await newEvent();
      const ana = await member(event.id, { fullName: 'Ana Alfa' });
      const bruno = await member(event.id, { fullName: 'Bruno Beta' });
      const carla = await member(event.id, { fullName: 'Carla Gamma' });
      const dario = await member(event.id, { fullName: 'Dario Delta' });
      // No user agent and no cookie: only the address is known.
      await opens(event.id, ana.id, { ip: OFFICE });
      await opens(event.id, bruno.id, { ip: OFFICE });
      // One office, one browser version, two browsers.
      await opens(event.id, carla.id, { device: DEVICE_A, ip: OFFICE, userAgent: FIREFOX });
      await opens(event.id, dario.id, { device: DEVICE_B, ip: OFFICE, userAgent: FIREFOX });

      expect((await alerts(event.id)).sameDevice).toEqual([]);
    });

    it("records a session's first opening of the event once, with its browser", async () => {
      const event = await newEvent();
      const ana = await member(event.id, { fullName: 'Ana Alfa' });
      const session = await opens(event.id, ana.id, {
        device: DEVICE_A,
        ip: OFFICE,
        userAgent: CHROME,
      });
      app.t.clock.set(new Date(Date.parse(app.now) + HOUR).toISOString());
      await app.client(session).call(myEvent, { params: { eventId: event.id } });
      const rows = await app.db
        .selectFrom('device_sign_ins')
        .select(['exhibitor_id', 'device_id', 'ip', 'user_agent', 'signed_in_at'])
        .where('event_id', '=', event.id)
        .execute();
      expect(rows).toEqual([
        {
          exhibitor_id: ana.id,
          device_id: DEVICE_A,
          ip: OFFICE,
          user_agent: CHROME,
          signed_in_at: app.now,
        },
      ]);
      // A cookie the server could not have written is no device id.
      await opens(event.id, ana.id, { device: 'inventado;', ip: OFFICE, userAgent: CHROME });
      const ids = await app.db
        .selectFrom('device_sign_ins')
        .select('device_id')
        .where('event_id', '=', event.id)
        .orderBy('signed_in_at')
        .execute();
      expect(ids.map((row) => row.device_id)).toEqual([DEVICE_A, null]);
    });

    it('is forgotten 90 days after the event date by the background worker', async () => {
      const old = await seedEvent(app.db, { eventDate: '2026-03-01', voteDeadline: '2026-02-20' });
      const recent = await newEvent();
      for (const event of [old, recent]) {
        const exhibitor = await member(event.id, { fullName: 'Ana Alfa' });
        await app.db
          .insertInto('device_sign_ins')
          .values({
            event_id: event.id,
            session_id: `sesion-${event.id}`,
            exhibitor_id: exhibitor.id,
            device_id: DEVICE_A,
            ip: OFFICE,
            user_agent: CHROME,
            signed_in_at: '2026-02-15T12:00:00.000Z',
          })
          .execute();
      }
      // 2026-06-01 is 92 days after 2026-03-01.
      await app.t.deliverMail();
      const left = await app.db.selectFrom('device_sign_ins').select('event_id').execute();
      expect(left.some((row) => row.event_id === old.id)).toBe(false);
      expect(left.some((row) => row.event_id === recent.id)).toBe(true);
    });
  });

  describe('the device cookie', () => {
    async function mailedSecrets(email: string) {
      await app.t.deliverMail();
      const mail = app.t.smtp.allTo(email).at(-1);
      const code = mail && /\b(\d{6})\b/.exec(mail.subject)?.[1];
      const token = mail && /\/signin\/link\?token=([\w-]+)/.exec(mail.text)?.[1];
      if (!code || !token) throw new Error(`no code or link mailed to ${email}`);
      return { code, token };
    }

    it('is set, httpOnly and long-lived, by the code and the link sign-ins, and kept when valid', async () => {
      const exhibitor = await seedExhibitor(app.db, { email: 'cookie@empresa.test' });
      await app.signedOut.call(startSignIn, { body: { email: exhibitor.email } });
      const { code } = await mailedSecrets(exhibitor.email);
      const byCode = answered(
        await app.signedOut.send(signInWithCode, { body: { email: exhibitor.email, code } }),
      );
      const cookie = byCode.response.cookies.find((c) => c.name === DEVICE_COOKIE);
      expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(cookie?.httpOnly).toBe(true);
      expect(cookie?.maxAge).toBe(400 * 86_400);

      // Someone else signs in by the link in the same browser: it keeps its id.
      const other = await seedExhibitor(app.db, { email: 'enlace@empresa.test' });
      await app.signedOut.call(startSignIn, { body: { email: other.email } });
      const { token } = await mailedSecrets(other.email);
      const byLink = answered(
        await app.signedOut.send(
          signInWithLink,
          { body: { token } },
          { headers: { cookie: `${DEVICE_COOKIE}=${cookie?.value}` } },
        ),
      );
      expect(byLink.response.cookies.find((c) => c.name === DEVICE_COOKIE)?.value).toBe(
        cookie?.value,
      );
    });
  });

  describe('who may read it', () => {
    it('is refused to exhibitors (403), to nobody signed in (401), and 404 for an unknown event', async () => {
      const event = await newEvent();
      const ana = await member(event.id, { fullName: 'Ana Alfa' });
      const exhibitor = await app.exhibitor(ana.id);
      const asExhibitor = await exhibitor.fail(integrityAlerts, { params: { eventId: event.id } });
      expect(asExhibitor.status).toBe(403);
      const signedOut = await app.signedOut.fail(integrityAlerts, {
        params: { eventId: event.id },
      });
      expect(signedOut.status).toBe(401);
      const missing = await app.api.fail(integrityAlerts, {
        params: { eventId: '00000000-0000-0000-0000-000000000000' },
      });
      expect([missing.status, errorOf(missing)]).toEqual([
        404,
        { code: 'not_found', message: MSG.eventNotFound },
      ]);
    });

    it('answers a clean event with no alerts', async () => {
      const event = await newEvent();
      await member(event.id, { fullName: 'Ana Alfa' }, { consumption: ['801', '802'] });
      await member(event.id, { fullName: 'Bruno Beta' }, { consumption: ['802', '801'] });
      expect(await alerts(event.id)).toEqual({
        categories: [
          {
            category: 'consumption',
            name: 'CONSUMO',
            identicalLists: [],
            reorderedLists: [],
            selfNominations: [],
          },
          {
            category: 'value',
            name: 'VALOR AGREGADO',
            identicalLists: [],
            reorderedLists: [],
            selfNominations: [],
          },
        ],
        sameDevice: [],
      });
    });
  });
});
