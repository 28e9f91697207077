/**
 * "Logo del evento" (issue 26, item 4): an event's own logo, with the same PNG rules as the
 * programme's; its exhibitor's screens, its emails and its presentation show it, everything else
 * the programme's; "Quitar" goes back to the programme's. Both engines.
 */
import PostalMime from 'postal-mime';
import { answered, failureOf, refused } from '../helpers/client.ts';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { enqueueMails } from '../../src/server/mail/outbox.ts';
import { loadLogo } from '../../src/server/modules/branding/logo.ts';
import { LOGO_MAX_BYTES } from '../../src/shared/constants.ts';
import {
  getEventLogo,
  getLogo,
  myEventLogo,
  removeEventLogo,
  replaceEventLogo,
} from '../../src/shared/api/branding.ts';
import { deleteEvent, duplicateEvent, getEvent } from '../../src/shared/api/events.ts';
import { history } from '../../src/shared/api/results.ts';
import { MSG } from '../../src/shared/messages.ts';
import { urlOf } from '../../src/web/lib/http.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import type { TestClient } from '../helpers/client.ts';
import { seedEvent, seedExhibitor, seedMembership } from '../helpers/seed.ts';

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
  const app = useTestApp();
  let exh: TestClient;
  let stranger: TestClient;
  let exhibitor: Awaited<ReturnType<typeof seedExhibitor>>;
  let eventLogo: Buffer;

  beforeAll(async () => {
    exhibitor = await seedExhibitor(app.db, { email: 'lucia@norte.test' });
    exh = await app.exhibitor(exhibitor.id);
    const other = await seedExhibitor(app.db);
    stranger = await app.exhibitor(other.id);
    eventLogo = await solidPng(90, 30, 200);
  });

  async function newEvent(name = 'Premios con Logo') {
    const event = await seedEvent(app.db, { name });
    await seedMembership(app.db, event.id, exhibitor.id);
    return event.id;
  }

  const upload = (eventId: string, data: Buffer, filename = 'evento.png', as = app.api) =>
    as.send(
      replaceEventLogo,
      { params: { eventId } },
      { file: { filename, type: 'image/png', data } },
    );
  /** The event's logo as its exhibitor's screens load it. */
  const mineOf = (eventId: string) => exh.send(myEventLogo, { params: { eventId } });
  const programmeLogo = async () => look((await loadLogo(app.db)).png);

  const stored = async (eventId: string) => ({
    etag: (
      await app.db
        .selectFrom('events')
        .select('logo_etag')
        .where('id', '=', eventId)
        .executeTakeFirstOrThrow()
    ).logo_etag,
    rows: (
      await app.db
        .selectFrom('event_logos')
        .select('event_id')
        .where('event_id', '=', eventId)
        .execute()
    ).length,
  });

  async function historyOf(eventId: string) {
    const { entries } = await app.api.call(history, { params: { eventId }, query: {} });
    return entries.map((e) => e.actionLabel);
  }

  it("is shown to the event's exhibitor and in its presentation; the rest keeps the programme's", async () => {
    const eventId = await newEvent();
    const plainEvent = await newEvent('Premios sin Logo');
    const programme = await programmeLogo();

    // Before any upload the event shows the programme's logo.
    const before = await mineOf(eventId);
    expect(before.status).toBe(200);
    expect(await look(answered(before).data)).toEqual(programme);

    const saved = await upload(eventId, eventLogo);
    expect(saved.status).toBe(200);
    const { etag } = answered(saved).data;
    expect(etag).toMatch(/^"event-[0-9a-f]{32}"$/);
    expect(await stored(eventId)).toEqual({ etag, rows: 1 });
    const view = await app.api.call(getEvent, { params: { eventId } });
    expect(view.hasOwnLogo).toBe(true);

    const mine = await mineOf(eventId);
    expect(mine.status).toBe(200);
    expect(mine.response.headers['content-type']).toBe('image/png');
    expect(mine.response.headers['cache-control']).toBe('private, no-cache');
    expect(mine.response.headers.etag).toBe(etag);
    expect(await look(answered(mine).data)).toEqual({
      width: 90,
      height: 30,
      firstPixel: [200, 40, 40, 255],
    });
    // Revalidation: unchanged, 304, which carries no body for the typed client to read.
    const again = await app.t.request({
      method: 'GET',
      url: urlOf(myEventLogo, { params: { eventId } }),
      as: await app.t.signIn({ role: 'exh', exhibitorId: exhibitor.id }),
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    // The presentation (administrator) shows it too.
    const presented = await app.api.call(getEventLogo, { params: { eventId } });
    expect(await look(presented)).toEqual(await look(answered(mine).data));
    // Another event, and the programme's own address, keep the programme's.
    const other = await exh.call(myEventLogo, { params: { eventId: plainEvent } });
    expect(await look(other)).toEqual(programme);
    const global = await app.signedOut.call(getLogo, {});
    expect(await look(global)).toEqual(programme);

    expect(await historyOf(eventId)).toEqual(['Logo del evento reemplazado']);
  });

  it('answers an exhibitor of another event, and a missing event, with the same 404', async () => {
    const eventId = await newEvent();
    expect((await upload(eventId, eventLogo)).status).toBe(200);
    const missing = { params: { eventId: '00000000-0000-4000-8000-000000000000' } };
    for (const response of [
      await stranger.fail(myEventLogo, { params: { eventId } }),
      await exh.fail(myEventLogo, missing),
      await app.api.fail(getEventLogo, missing),
    ]) {
      expect(response.status).toBe(404);
      expect(response.message).toBe(MSG.eventNotFound);
    }
    // Exhibitors cannot change it.
    const byExhibitor = await upload(eventId, await solidPng(10, 10, 10), 'x.png', exh);
    expect(byExhibitor.status).toBe(403);
  });

  it("has the programme logo's rules: a PNG by its content, at most 2000 px and 2 MB, each refusal in Spanish, storing nothing", async () => {
    const eventId = await newEvent();
    // A JSON body where the contract asks for a file, sent as is.
    const noFile = await app.t.request({
      method: 'POST',
      url: `/api/events/${eventId}/logo`,
      as: app.as,
      payload: {},
    });
    expect(noFile.statusCode).toBe(400);
    expect(failureOf(noFile).message).toBe(MSG.noLogoFile);
    const jpeg = refused(await upload(eventId, jpegBytes));
    expect(jpeg.status).toBe(400);
    expect(jpeg).toMatchObject({
      code: 'invalid_input',
      message: MSG.logoNotPng,
      fields: { logo: MSG.logoNotPng },
    });
    const wide = Buffer.from(await solidPng(4, 4, 1));
    wide.writeUInt32BE(2001, 16);
    const tooWide = refused(await upload(eventId, wide));
    expect(tooWide.status).toBe(400);
    expect(tooWide.message).toBe(MSG.logoTooWide);
    const huge = Buffer.concat([await solidPng(4, 4, 1), Buffer.alloc(LOGO_MAX_BYTES + 10)]);
    const tooLarge = refused(await upload(eventId, huge));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.message).toBe(MSG.fileTooLarge);
    expect(await stored(eventId)).toEqual({ etag: null, rows: 0 });
    expect(await historyOf(eventId)).toEqual([]);
  });

  it('"Quitar" goes back to the programme\'s logo and says so in "Historial"; again, it changes nothing', async () => {
    const eventId = await newEvent();
    expect((await upload(eventId, eventLogo)).status).toBe(200);
    const remove = () => app.api.call(removeEventLogo, { params: { eventId } });
    expect(await remove()).toEqual({ ok: true });
    expect(await stored(eventId)).toEqual({ etag: null, rows: 0 });
    const view = await app.api.call(getEvent, { params: { eventId } });
    expect(view.hasOwnLogo).toBe(false);
    expect(await look(answered(await mineOf(eventId)).data)).toEqual(await programmeLogo());
    expect(await remove()).toEqual({ ok: true });
    expect(await historyOf(eventId)).toEqual([
      'Logo del evento quitado',
      'Logo del evento reemplazado',
    ]);
  });

  it('cannot change on an archived event, is copied by "Duplicar evento" and goes with a deleted event', async () => {
    const eventId = await newEvent();
    expect((await upload(eventId, eventLogo)).status).toBe(200);
    const copy = await app.api.call(duplicateEvent, {
      params: { eventId },
      body: {
        name: 'Premios con Logo 2027',
        eventDate: '2026-09-10',
        voteDeadline: '2026-09-01',
        copyExhibitors: false,
        sendInvitations: false,
      },
    });
    expect(copy.hasOwnLogo).toBe(true);
    const copied = await app.api.call(getEventLogo, { params: { eventId: copy.id } });
    expect(await look(copied)).toEqual({
      width: 90,
      height: 30,
      firstPixel: [200, 40, 40, 255],
    });

    await app.db
      .updateTable('events')
      .set({ archived_at: '2026-05-01T00:00:00.000Z' })
      .where('id', '=', eventId)
      .execute();
    const archived = refused(await upload(eventId, await solidPng(10, 10, 10)));
    expect(archived.status).toBe(409);
    expect(archived.message).toBe(MSG.eventArchived);
    const notRemoved = await app.api.fail(removeEventLogo, { params: { eventId } });
    expect(notRemoved.status).toBe(409);
    expect((await stored(eventId)).rows).toBe(1);

    await app.db
      .updateTable('events')
      .set({ archived_at: null })
      .where('id', '=', eventId)
      .execute();
    await app.api.call(deleteEvent, { params: { eventId } });
    expect(
      await app.db
        .selectFrom('event_logos')
        .select('event_id')
        .where('event_id', '=', eventId)
        .execute(),
    ).toEqual([]);
  });

  it("puts the event's logo in the event's emails and the programme's in the others", async () => {
    const eventId = await newEvent();
    const { t } = app;
    expect((await upload(eventId, eventLogo)).status).toBe(200);
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
    expect(await logoIn('sin-evento@norte.test')).toEqual(await programmeLogo());
  });
});
