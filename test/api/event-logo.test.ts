/**
 * "Logo del evento" (issue 26, item 4): an event's own logo, with the same PNG rules as the
 * programme's; its exhibitor's screens, its emails and its presentation show it, everything else
 * the programme's; "Quitar" goes back to the programme's. Both engines.
 */
import PostalMime from 'postal-mime';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueMails } from '../../src/server/mail/outbox.ts';
import { loadLogo } from '../../src/server/modules/branding/logo.ts';
import { LOGO_MAX_BYTES } from '../../src/shared/constants.ts';
import { MSG } from '../../src/shared/messages.ts';
import { createTestApp, type Session, type TestApp } from '../helpers/app.ts';
import { multipart } from '../helpers/multipart.ts';
import { seedAdmin, seedEvent, seedExhibitor, seedMembership } from '../helpers/seed.ts';

/** A PNG of one colour, `width` × `height`. */
const solidPng = (width: number, height: number, r: number) =>
  sharp({ create: { width, height, channels: 4, background: { r, g: 40, b: 40, alpha: 1 } } })
    .png()
    .toBuffer();

/** Size and first pixel of an image, whatever its encoding. */
async function look(png: Buffer | Uint8Array) {
  const { data, info } = await sharp(Buffer.from(png))
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, firstPixel: [...data.subarray(0, 4)] };
}

const jpegBytes = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]),
  Buffer.alloc(200, 7),
]);

describe('an event logo', () => {
  let t: TestApp;
  let admin: Session;
  let exh: Session;
  let stranger: Session;
  let exhibitor: Awaited<ReturnType<typeof seedExhibitor>>;
  let eventLogo: Buffer;

  beforeAll(async () => {
    t = await createTestApp();
    t.clock.set('2026-06-01T12:00:00.000Z');
    const adminRow = await seedAdmin(t.deps.db);
    admin = await t.signIn({ role: 'admin', adminId: adminRow.id });
    exhibitor = await seedExhibitor(t.deps.db, { email: 'lucia@norte.test' });
    exh = await t.signIn({ role: 'exh', exhibitorId: exhibitor.id });
    const other = await seedExhibitor(t.deps.db);
    stranger = await t.signIn({ role: 'exh', exhibitorId: other.id });
    eventLogo = await solidPng(90, 30, 200);
  });
  afterAll(() => t.close());

  async function newEvent(name = 'Premios con Logo') {
    const event = await seedEvent(t.deps.db, { name });
    await seedMembership(t.deps.db, event.id, exhibitor.id);
    return event.id;
  }

  const upload = (eventId: string, data: Buffer, filename = 'evento.png', as = admin) =>
    t.request({
      method: 'POST',
      url: `/api/events/${eventId}/logo`,
      as,
      ...multipart([{ name: 'logo', filename, type: 'image/png', data }]),
    });

  const stored = async (eventId: string) => ({
    etag: (
      await t.deps.db
        .selectFrom('events')
        .select('logo_etag')
        .where('id', '=', eventId)
        .executeTakeFirstOrThrow()
    ).logo_etag,
    rows: (
      await t.deps.db
        .selectFrom('event_logos')
        .select('event_id')
        .where('event_id', '=', eventId)
        .execute()
    ).length,
  });

  const served = async (url: string, as: Session) => {
    const response = await t.request({ method: 'GET', url, as });
    return { status: response.statusCode, response };
  };

  async function historyOf(eventId: string) {
    const response = await t.request({
      method: 'GET',
      url: `/api/events/${eventId}/history`,
      as: admin,
    });
    return (response.json().entries as { actionLabel: string; detail: string }[]).map(
      (e) => e.actionLabel,
    );
  }

  it("is shown to the event's exhibitor and in its presentation; the rest keeps the programme's", async () => {
    const eventId = await newEvent();
    const plainEvent = await newEvent('Premios sin Logo');
    const programme = await look((await loadLogo(t.deps.db)).png);

    // Before any upload the event shows the programme's logo.
    const before = await served(`/api/exh/events/${eventId}/logo`, exh);
    expect(before.status).toBe(200);
    expect(await look(before.response.rawPayload)).toEqual(programme);

    const saved = await upload(eventId, eventLogo);
    expect(saved.statusCode).toBe(200);
    expect(saved.json().etag).toMatch(/^"event-[0-9a-f]{32}"$/);
    expect(await stored(eventId)).toEqual({ etag: saved.json().etag, rows: 1 });
    const view = await t.request({ method: 'GET', url: `/api/events/${eventId}`, as: admin });
    expect(view.json().hasOwnLogo).toBe(true);

    const mine = await served(`/api/exh/events/${eventId}/logo`, exh);
    expect(mine.status).toBe(200);
    expect(mine.response.headers['content-type']).toBe('image/png');
    expect(mine.response.headers['cache-control']).toBe('private, no-cache');
    expect(mine.response.headers.etag).toBe(saved.json().etag);
    expect(await look(mine.response.rawPayload)).toEqual({
      width: 90,
      height: 30,
      firstPixel: [200, 40, 40, 255],
    });
    // Revalidation: unchanged, 304.
    const again = await t.request({
      method: 'GET',
      url: `/api/exh/events/${eventId}/logo`,
      as: exh,
      headers: { 'if-none-match': saved.json().etag },
    });
    expect(again.statusCode).toBe(304);
    // The presentation (administrator) shows it too.
    const presented = await served(`/api/events/${eventId}/logo`, admin);
    expect(await look(presented.response.rawPayload)).toEqual(await look(mine.response.rawPayload));
    // Another event, and the programme's own address, keep the programme's.
    const other = await served(`/api/exh/events/${plainEvent}/logo`, exh);
    expect(await look(other.response.rawPayload)).toEqual(programme);
    const global = await t.request({ method: 'GET', url: '/api/logo' });
    expect(await look(global.rawPayload)).toEqual(programme);

    expect(await historyOf(eventId)).toEqual(['Logo del evento reemplazado']);
  });

  it('answers an exhibitor of another event, and a missing event, with the same 404', async () => {
    const eventId = await newEvent();
    expect((await upload(eventId, eventLogo)).statusCode).toBe(200);
    for (const [url, as] of [
      [`/api/exh/events/${eventId}/logo`, stranger],
      ['/api/exh/events/00000000-0000-4000-8000-000000000000/logo', exh],
      ['/api/events/00000000-0000-4000-8000-000000000000/logo', admin],
    ] as const) {
      const response = await t.request({ method: 'GET', url, as });
      expect(response.statusCode).toBe(404);
      expect(response.json().error.message).toBe(MSG.eventNotFound);
    }
    // Exhibitors cannot change it.
    const refused = await upload(eventId, await solidPng(10, 10, 10), 'x.png', exh);
    expect(refused.statusCode).toBe(403);
  });

  it("has the programme logo's rules: a PNG by its content, at most 2000 px and 2 MB, each refusal in Spanish, storing nothing", async () => {
    const eventId = await newEvent();
    const noFile = await t.request({
      method: 'POST',
      url: `/api/events/${eventId}/logo`,
      as: admin,
      payload: {},
    });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().error.message).toBe(MSG.noLogoFile);
    const jpeg = await upload(eventId, jpegBytes);
    expect(jpeg.statusCode).toBe(400);
    expect(jpeg.json().error).toMatchObject({
      code: 'invalid_input',
      message: MSG.logoNotPng,
      fields: { logo: MSG.logoNotPng },
    });
    const wide = Buffer.from(await solidPng(4, 4, 1));
    wide.writeUInt32BE(2001, 16);
    const tooWide = await upload(eventId, wide);
    expect(tooWide.statusCode).toBe(400);
    expect(tooWide.json().error.message).toBe(MSG.logoTooWide);
    const huge = Buffer.concat([await solidPng(4, 4, 1), Buffer.alloc(LOGO_MAX_BYTES + 10)]);
    const tooLarge = await upload(eventId, huge);
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().error.message).toBe(MSG.fileTooLarge);
    expect(await stored(eventId)).toEqual({ etag: null, rows: 0 });
    expect(await historyOf(eventId)).toEqual([]);
  });

  it('"Quitar" goes back to the programme\'s logo and says so in "Historial"; again, it changes nothing', async () => {
    const eventId = await newEvent();
    expect((await upload(eventId, eventLogo)).statusCode).toBe(200);
    const remove = () =>
      t.request({ method: 'DELETE', url: `/api/events/${eventId}/logo`, as: admin });
    const removed = await remove();
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ ok: true });
    expect(await stored(eventId)).toEqual({ etag: null, rows: 0 });
    const view = await t.request({ method: 'GET', url: `/api/events/${eventId}`, as: admin });
    expect(view.json().hasOwnLogo).toBe(false);
    const mine = await served(`/api/exh/events/${eventId}/logo`, exh);
    expect(await look(mine.response.rawPayload)).toEqual(
      await look((await loadLogo(t.deps.db)).png),
    );
    expect((await remove()).statusCode).toBe(200);
    expect(await historyOf(eventId)).toEqual([
      'Logo del evento quitado',
      'Logo del evento reemplazado',
    ]);
  });

  it('cannot change on an archived event, is copied by "Duplicar evento" and goes with a deleted event', async () => {
    const eventId = await newEvent();
    expect((await upload(eventId, eventLogo)).statusCode).toBe(200);
    const copy = await t.request({
      method: 'POST',
      url: `/api/events/${eventId}/duplicate`,
      payload: {
        name: 'Premios con Logo 2027',
        eventDate: '2026-09-10',
        voteDeadline: '2026-09-01',
        copyExhibitors: false,
        sendInvitations: false,
      },
      as: admin,
    });
    expect(copy.statusCode).toBe(201);
    expect(copy.json().hasOwnLogo).toBe(true);
    const copied = await served(`/api/events/${copy.json().id}/logo`, admin);
    expect(await look(copied.response.rawPayload)).toEqual({
      width: 90,
      height: 30,
      firstPixel: [200, 40, 40, 255],
    });

    await t.deps.db
      .updateTable('events')
      .set({ archived_at: '2026-05-01T00:00:00.000Z' })
      .where('id', '=', eventId)
      .execute();
    const refused = await upload(eventId, await solidPng(10, 10, 10));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(MSG.eventArchived);
    const notRemoved = await t.request({
      method: 'DELETE',
      url: `/api/events/${eventId}/logo`,
      as: admin,
    });
    expect(notRemoved.statusCode).toBe(409);
    expect((await stored(eventId)).rows).toBe(1);

    await t.deps.db
      .updateTable('events')
      .set({ archived_at: null })
      .where('id', '=', eventId)
      .execute();
    expect(
      (await t.request({ method: 'DELETE', url: `/api/events/${eventId}`, as: admin })).statusCode,
    ).toBe(200);
    expect(
      await t.deps.db
        .selectFrom('event_logos')
        .select('event_id')
        .where('event_id', '=', eventId)
        .execute(),
    ).toEqual([]);
  });

  it("puts the event's logo in the event's emails and the programme's in the others", async () => {
    const eventId = await newEvent();
    expect((await upload(eventId, eventLogo)).statusCode).toBe(200);
    await t.deps.transact(async (tx) => {
      await enqueueMails(tx, t.clock.now(), [
        {
          template: 'voting-extended',
          to: 'del-evento@norte.test',
          params: { eventId },
          eventId,
          exhibitorId: exhibitor.id,
        },
        // Not tied to the event in the outbox: the programme's logo.
        { template: 'voting-extended', to: 'sin-evento@norte.test', params: { eventId } },
      ]);
    });
    await t.deliverMail();
    const logoIn = async (address: string) => {
      const mail = await t.smtp.waitFor(address);
      const parsed = await PostalMime.parse(mail.raw);
      const logo = parsed.attachments.find((a) => a.filename === 'logo.png');
      if (!logo) throw new Error(`no logo in the mail to ${address}`);
      return look(Buffer.from(logo.content as ArrayBuffer));
    };
    expect(await logoIn('del-evento@norte.test')).toEqual({
      width: 90,
      height: 30,
      firstPixel: [200, 40, 40, 255],
    });
    expect(await logoIn('sin-evento@norte.test')).toEqual(
      await look((await loadLogo(t.deps.db)).png),
    );
  });
});
