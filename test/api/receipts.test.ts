import { beforeEach, describe, expect, it } from 'vitest';
import type { Category } from '../../src/shared/constants.ts';
import type { NomineeInput } from '../../src/shared/schemas/nominee.ts';
import { buildApp, CSRF_HEADER, CSRF_VALUE } from '../../src/server/app.ts';
import { openDatabase } from '../../src/server/db/connection.ts';
import { claimDueMail } from '../../src/server/mail/outbox.ts';
import { removeExhibitor } from '../../src/shared/api/exhibitors.ts';
import {
  addNominee,
  moveNominee,
  myEvent,
  removeNominee,
} from '../../src/shared/api/nominations.ts';
import { urlOf } from '../../src/web/lib/http.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { TEST_NOW, type Session } from '../helpers/app.ts';
import type { TestClient } from '../helpers/client.ts';
import { seedEvent, seedExhibitor, seedMembership } from '../helpers/seed.ts';
import { nomineeInput } from '../helpers/nominee.ts';

const nominee = (fiscalId: string, name = `Reseller ${fiscalId}`): NomineeInput =>
  nomineeInput(fiscalId, { name, registeredName: `${name} S.A.` });

const MINUTE = 60_000;
/** Every test starts at the fixture's instant. */
const START = TEST_NOW;

/** The receipt an exhibitor gets once their lists have rested for ten minutes after a change. */
describe('nomination receipts', () => {
  const app = useTestApp();
  /** The exhibitor's session (for the second instance, which the typed client does not reach). */
  let exhSession: Session;
  let exh: TestClient;
  let exhibitor: Awaited<ReturnType<typeof seedExhibitor>>;
  let eventId: string;
  let n = 0;

  const version = async (category: Category): Promise<number> =>
    (await exh.call(myEvent, { params: { eventId } })).lists[category].version;
  /** Each save below must be answered 200 (`call` throws on any other answer). */
  async function add(category: Category, input: NomineeInput) {
    return exh.call(addNominee, {
      params: { eventId, category },
      body: { ...input, version: await version(category) },
    });
  }
  async function move(category: Category, fiscalId: string, direction: 'up' | 'down') {
    await exh.call(moveNominee, {
      params: { eventId, category, fiscalId },
      body: { direction, version: await version(category) },
    });
  }
  async function remove(category: Category, fiscalId: string) {
    await exh.call(removeNominee, {
      params: { eventId, category, fiscalId },
      query: { version: String(await version(category)) },
    });
  }
  const removeFromEvent = () =>
    app.api.send(removeExhibitor, { params: { eventId, exhibitorId: exhibitor.id } });
  const receipts = async () =>
    app.db
      .selectFrom('mail_outbox')
      .select(['status', 'next_attempt_at', 'to_address', 'params', 'subject'])
      .where('template', '=', 'nomination-receipt')
      .where('event_id', '=', eventId)
      .orderBy('created_at')
      .orderBy('next_attempt_at')
      .execute();
  const mails = () => app.t.smtp.allTo(exhibitor.email);

  beforeEach(async () => {
    exhibitor = await seedExhibitor(app.db, { email: `recibo${++n}@empresa.test` });
    exhSession = await app.t.signIn({ role: 'exh', exhibitorId: exhibitor.id });
    exh = app.client(exhSession);
    eventId = (await seedEvent(app.db, { name: `Premios Recibo ${n}` })).id;
    await seedMembership(app.db, eventId, exhibitor.id);
  });

  it('sends one receipt after a burst of edits, ten minutes after the last, with the final lists', async () => {
    const { t } = app;
    const first = await add('consumption', nominee('20111111112', 'Alfa Redes'));
    expect(first.savedAt).toBe(START);
    t.clock.advance(2 * MINUTE);
    await add('consumption', nominee('20222222223', 'Beta Sistemas'));
    t.clock.advance(3 * MINUTE);
    await add('value', nominee('20333333334', 'Gamma Servicios'));
    await add('consumption', nominee('20444444445', 'Delta Datos'));
    t.clock.advance(4 * MINUTE);
    await move('consumption', '20444444445', 'up');
    await remove('consumption', '20111111112');
    const lastSave = new Date(Date.parse(START) + 9 * MINUTE);

    // One message waits, due ten minutes after the last save.
    expect(await receipts()).toEqual([
      {
        status: 'pending',
        next_attempt_at: new Date(lastSave.getTime() + 10 * MINUTE).toISOString(),
        to_address: exhibitor.email,
        params: JSON.stringify({ eventId, exhibitorId: exhibitor.id }),
        subject: null,
      },
    ]);
    // Ten minutes after the first save, but not after the last: nothing yet.
    t.clock.set(new Date(lastSave.getTime() + 10 * MINUTE - 1_000));
    expect(await t.deliverMail()).toBe(0);
    expect(mails()).toHaveLength(0);

    t.clock.set(new Date(lastSave.getTime() + 10 * MINUTE));
    expect(await t.deliverMail()).toBe(1);
    const mail = await t.smtp.waitFor(exhibitor.email);
    expect(mail.subject).toBe(`Tus nominaciones en Premios Recibo ${n}`);
    expect(mail.text.trimEnd()).toBe(
      [
        `Estas son tus nominaciones en Premios Recibo ${n}, tal como quedaron guardadas:`,
        'CONSUMO:',
        '1. Delta Datos (ID fiscal 20444444445)',
        '2. Beta Sistemas (ID fiscal 20222222223)',
        'VALOR AGREGADO:',
        '1. Gamma Servicios (ID fiscal 20333333334)',
        'La votación cierra el 1/7/2026 a las 23:59 (hora de Buenos Aires). Hasta entonces puedes cambiarlas; si lo haces, te enviaremos un nuevo comprobante.',
        `Revisar mis nominaciones: http://premios.test/exh/event/${eventId}`,
      ].join('\n\n'),
    );
    expect((await receipts()).map((r) => [r.status, r.subject])).toEqual([
      ['sent', `Tus nominaciones en Premios Recibo ${n}`],
    ]);
    // Nothing more, however long the lists then rest.
    t.clock.advance(24 * 60 * MINUTE);
    expect(await t.deliverMail()).toBe(0);
    expect(mails()).toHaveLength(1);
  });

  it('sends a new receipt, later, for an edit made after the receipt went out', async () => {
    const { t } = app;
    await add('consumption', nominee('20111111112', 'Alfa Redes'));
    t.clock.advance(10 * MINUTE);
    await t.deliverMail();
    expect(mails()).toHaveLength(1);

    t.clock.advance(30 * MINUTE);
    await add('value', nominee('20333333334', 'Gamma Servicios'));
    t.clock.advance(10 * MINUTE - 1_000);
    expect(await t.deliverMail()).toBe(0);
    t.clock.advance(1_000);
    expect(await t.deliverMail()).toBe(1);
    const all = mails();
    expect(all).toHaveLength(2);
    expect(all[0]?.text).toContain('VALOR AGREGADO:\n\nSin nominaciones.');
    expect(all[1]?.text).toContain('VALOR AGREGADO:\n\n1. Gamma Servicios (ID fiscal 20333333334)');
    expect((await receipts()).map((r) => r.status)).toEqual(['sent', 'sent']);
  });

  it('queues a new receipt for a save that lands while the receipt is being built', async () => {
    const { t } = app;
    await add('consumption', nominee('20111111112', 'Alfa Redes'));
    t.clock.advance(10 * MINUTE);
    // A worker has claimed the due receipt (it may have read the lists already) when a save lands.
    const claimed = await claimDueMail(app.db, t.deps.engine, t.clock.now(), {
      limit: 10,
      claimMs: MINUTE,
    });
    expect(claimed.map((m) => m.template)).toEqual(['nomination-receipt']);
    await add('consumption', nominee('20222222223', 'Beta Sistemas'));
    const saveAt = t.clock.now().getTime();

    // The claimed message is left to its worker; the save has its own receipt, ten minutes on.
    const rows = await receipts();
    expect(rows.map((r) => [r.status, r.next_attempt_at])).toEqual([
      ['pending', new Date(saveAt).toISOString()],
      ['pending', new Date(saveAt + 10 * MINUTE).toISOString()],
    ]);
    t.clock.advance(10 * MINUTE);
    // The first claim has lapsed by now, so both go out: the second lists the later save.
    expect(await t.deliverMail()).toBe(2);
    const texts = mails().map((m) => m.text);
    expect(texts).toHaveLength(2);
    expect(texts.every((text) => text.includes('2. Beta Sistemas (ID fiscal 20222222223)'))).toBe(
      true,
    );
  });

  it('queues one receipt per exhibitor when both lists are first saved at the same time', async () => {
    const { t } = app;
    // Many exhibitors at once, so that the two saves of one exhibitor do overlap.
    const crowd = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const member = await seedExhibitor(app.db, { email: `a-la-vez${n}-${i}@empresa.test` });
        await seedMembership(app.db, eventId, member.id);
        return { ...member, client: await app.exhibitor(member.id) };
      }),
    );
    const first = (category: Category, fiscalId: string, client: TestClient) =>
      client.send(addNominee, {
        params: { eventId, category },
        body: { ...nominee(fiscalId), version: 0 },
      });
    const responses = await Promise.all(
      crowd.flatMap((member) => [
        first('consumption', '20111111112', member.client),
        first('value', '20333333334', member.client),
      ]),
    );
    expect(responses.map((r) => r.status)).toEqual(responses.map(() => 200));
    const pending = await app.db
      .selectFrom('mail_outbox')
      .select(['exhibitor_id', 'status'])
      .where('template', '=', 'nomination-receipt')
      .where('event_id', '=', eventId)
      .execute();
    expect(pending.map((r) => r.status)).toEqual(crowd.map(() => 'pending'));
    expect(new Set(pending.map((r) => r.exhibitor_id)).size).toBe(crowd.length);
    t.clock.advance(10 * MINUTE);
    expect(await t.deliverMail()).toBe(crowd.length);
    for (const member of crowd) expect(t.smtp.allTo(member.email)).toHaveLength(1);
  });

  it('withdraws the receipt of an exhibitor removed from the event before it is due', async () => {
    const { t } = app;
    await add('consumption', nominee('20111111112'));
    const removed = await removeFromEvent();
    expect(removed.status).toBe(200);
    expect((await receipts()).map((r) => r.status)).toEqual(['cancelled']);
    t.clock.advance(10 * MINUTE);
    expect(await t.deliverMail()).toBe(0);
    expect(mails()).toHaveLength(0);
  });

  it("a save and the exhibitor's removal at once: each answers, no receipt is left for a non-member", async () => {
    const { t } = app;
    await add('consumption', nominee('20111111112'));
    const [saved, removed] = await Promise.all([
      exh.send(addNominee, {
        params: { eventId, category: 'value' },
        body: { ...nominee('20333333334'), version: 0 },
      }),
      removeFromEvent(),
    ]);
    expect(removed.status).toBe(200);
    expect([200, 404], saved.response.body).toContain(saved.status);
    expect((await receipts()).filter((r) => r.status === 'pending')).toEqual([]);
    t.clock.advance(10 * MINUTE);
    expect(await t.deliverMail()).toBe(0);
    expect(mails()).toHaveLength(0);
  });

  it('queues one receipt and sends it once with two instances on one database', async () => {
    const { t } = app;
    // A second instance: its own pool and mail worker, the same database, mail server and clock.
    const database = openDatabase(t.config.databaseUrl);
    const other = await buildApp({ config: t.config, database, clock: t.clock, logger: false });
    await other.app.ready();
    try {
      // Sent to each instance as it is: the typed client calls the test app only.
      const save = (instance: typeof other.app, category: Category, fiscalId: string) =>
        instance.inject({
          method: 'POST',
          url: urlOf(addNominee, {
            params: { eventId, category },
            body: { ...nominee(fiscalId), version: 0 },
          }),
          payload: { ...nominee(fiscalId), version: 0 },
          headers: { [CSRF_HEADER]: CSRF_VALUE, cookie: exhSession.cookie },
        });
      const responses = await Promise.all([
        save(t.app, 'consumption', '20111111112'),
        save(other.app, 'value', '20333333334'),
      ]);
      expect(responses.map((r) => r.statusCode)).toEqual([200, 200]);
      expect((await receipts()).map((r) => r.status)).toEqual(['pending']);
      t.clock.advance(10 * MINUTE);
      const sent = await Promise.all([t.deliverMail(), other.mailWorker.runOnce()]);
      expect(sent[0] + sent[1]).toBe(1);
      await t.smtp.waitFor(exhibitor.email);
      expect(mails()).toHaveLength(1);
      expect(mails()[0]?.text).toContain('1. Reseller 20333333334 (ID fiscal 20333333334)');
    } finally {
      await other.app.close();
      await database.close();
    }
  });
});
