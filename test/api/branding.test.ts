import { deflateSync, crc32 } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { loadLogo } from '../../src/server/modules/branding/logo.ts';
import { getLogo, replaceLogo } from '../../src/shared/api/branding.ts';
import { LOGO_MAX_BYTES } from '../../src/shared/constants.ts';
import { MSG } from '../../src/shared/messages.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { answered, errorOf, failureOf, refused } from '../helpers/client.ts';
import { seedExhibitor } from '../helpers/seed.ts';
import { multipart } from '../helpers/multipart.ts';

/** A real 2×2 RGBA PNG, built by hand (signature, IHDR, IDAT, IEND with their CRCs). */
function tinyPng(rgba: [number, number, number, number] = [200, 30, 30, 255]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(2, 0);
  header.writeUInt32BE(2, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const row = Buffer.from([0, ...rgba, ...rgba]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat([row, row]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Decoded RGBA pixels and size, to compare images whatever their encoding. */
async function pixels(png: Buffer) {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: [...data] };
}

/** The first bytes of a JPEG (what a JPEG renamed to .png really holds). */
const jpegBytes = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]),
  Buffer.alloc(200, 7),
]);

describe('logo', () => {
  const app = useTestApp();

  const upload = (data: Buffer, filename = 'logo.png', type = 'image/png') =>
    app.api.send(replaceLogo, {}, { file: { filename, type, data } });
  const brandingRows = () => app.db.selectFrom('branding').selectAll().execute();

  it('lets only administrators replace it', async () => {
    const file = { filename: 'logo.png', data: tinyPng() };
    expect((await app.signedOut.fail(replaceLogo, {}, { file })).status).toBe(401);
    const exhibitor = await seedExhibitor(app.db);
    const exh = await app.exhibitor(exhibitor.id);
    expect((await exh.fail(replaceLogo, {}, { file })).status).toBe(403);
    expect(await brandingRows()).toEqual([]);
  });

  // Without a file the upload breaks the contract: those requests are sent as they are.
  it('says "No se seleccionó ningún archivo" without a file', async () => {
    const { t, as } = app;
    const json = await t.request({ method: 'POST', url: '/api/logo', as, payload: {} });
    expect(json.statusCode).toBe(400);
    expect(failureOf(json).message).toBe(MSG.noLogoFile);
    const fieldOnly = await t.request({
      method: 'POST',
      url: '/api/logo',
      as,
      ...multipart([{ name: 'note', data: Buffer.from('hola') }]),
    });
    expect(fieldOnly.statusCode).toBe(400);
    expect(failureOf(fieldOnly).message).toBe(MSG.noLogoFile);
    const empty = refused(await upload(Buffer.alloc(0)));
    expect(empty.status).toBe(400);
    expect(empty.message).toBe(MSG.noLogoFile);
    expect(await brandingRows()).toEqual([]);
  });

  it('refuses anything that is not a PNG by its content, whatever its name and type say', async () => {
    const renamed = refused(await upload(jpegBytes, 'foto.png', 'image/png'));
    expect(renamed.status).toBe(400);
    expect(errorOf(renamed)).toEqual({
      code: 'invalid_input',
      message: MSG.logoNotPng,
      fields: { logo: MSG.logoNotPng },
    });
    const text = refused(await upload(Buffer.from('no soy una imagen, aunque diga png'), 'x.png'));
    expect(text.message).toBe(MSG.logoNotPng);
    // Only the signature, without the IHDR chunk that must follow it.
    const truncated = refused(await upload(tinyPng().subarray(0, 12)));
    expect(truncated.message).toBe(MSG.logoNotPng);
    expect(await brandingRows()).toEqual([]);
  });

  it('refuses a file over 2 MB with 413', async () => {
    const big = Buffer.concat([tinyPng(), Buffer.alloc(LOGO_MAX_BYTES, 1)]);
    const response = refused(await upload(big));
    expect(response.status).toBe(413);
    expect(response.message).toBe(MSG.fileTooLarge);
    expect(await brandingRows()).toEqual([]);
  });

  it('stores a real PNG as the one logo, serves it with a new validator, and audits it', async () => {
    const { t, admin } = app;
    const before = answered(await app.signedOut.send(getLogo, {}));
    const png = tinyPng();
    // The name and declared type do not matter; the content does.
    const response = answered(await upload(png, 'logo.bin', 'application/octet-stream'));
    expect(response.status).toBe(200);
    const { etag } = response.data;
    expect(etag).not.toBe(before.response.headers.etag);

    const served = answered(await app.signedOut.send(getLogo, {}));
    expect(served.response.headers['content-type']).toBe('image/png');
    expect(served.response.headers.etag).toBe(etag);
    // Re-encoded on the way in: other bytes, the same pixels.
    expect(await pixels(served.data)).toEqual(await pixels(png));
    // A 304 has no body to parse: the cache validator is read from the raw response.
    const cached = await t.request({
      method: 'GET',
      url: '/api/logo',
      headers: { 'if-none-match': etag },
    });
    expect(cached.statusCode).toBe(304);
    // The mail worker embeds the same bytes.
    expect(Buffer.compare(Buffer.from((await loadLogo(t.deps.db)).png), served.data)).toBe(0);

    const second = tinyPng([10, 120, 200, 0]);
    expect((await upload(second)).status).toBe(200);
    const rows = await brandingRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: 1, updated_by: admin.id });
    const stored = Buffer.from(rows[0]?.logo_png ?? []);
    expect(await pixels(stored)).toEqual(await pixels(second));
    const audit = await app.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'logo.replaced')
      .execute();
    expect(audit).toHaveLength(2);
    expect(audit[1]).toMatchObject({ actor_id: admin.id, entity_type: 'branding' });
    expect(JSON.parse(audit[1]?.details ?? '{}')).toMatchObject({ bytes: stored.length });
  });

  it('refuses a logo wider or taller than 2,000 px by its header, before decoding it', async () => {
    const wide = tinyPng();
    // Declared 20000×20000 (a few KB that would decode to gigabytes); only the header is read.
    for (const [width, height] of [
      [20000, 20000],
      [2001, 10],
      [10, 2001],
    ] as const) {
      const forged = Buffer.from(wide);
      forged.writeUInt32BE(width, 16);
      forged.writeUInt32BE(height, 20);
      const response = refused(await upload(forged));
      expect(response.status).toBe(400);
      expect(errorOf(response)).toMatchObject({
        message: MSG.logoTooWide,
        fields: { logo: MSG.logoTooWide },
      });
    }
  });

  it('accepts 2,000 px, and stores a noisy logo re-encoded under 200 KB', async () => {
    const noise = Buffer.alloc(2000 * 2000 * 4);
    for (let i = 0; i < noise.length; i += 1) noise[i] = (i * 2654435761) >>> 24;
    const big = await sharp(noise, { raw: { width: 2000, height: 2000, channels: 4 } })
      .png({ compressionLevel: 1 })
      .toBuffer();
    expect(big.length).toBeLessThan(LOGO_MAX_BYTES);
    const response = await upload(big);
    expect(response.status).toBe(200);
    const stored = Buffer.from((await loadLogo(app.db)).png);
    expect(stored.length).toBeLessThanOrEqual(200 * 1024);
    const info = await sharp(stored).metadata();
    expect(Math.max(info.width, info.height)).toBeLessThanOrEqual(600);
  });

  it('refuses a PNG whose body is corrupt with the format message, storing nothing new', async () => {
    const before = await brandingRows();
    const broken = Buffer.concat([tinyPng().subarray(0, 40), Buffer.alloc(30, 1)]);
    const response = refused(await upload(broken));
    expect(response.status).toBe(400);
    expect(response.message).toBe(MSG.logoNotPng);
    expect(await brandingRows()).toEqual(before);
  });

  it.each([
    ['cut short', (body: Buffer) => body.subarray(0, body.length - 40)],
    ['without its closing boundary', (body: Buffer) => body.subarray(0, body.length - 30)],
  ])('answers a malformed multipart body (%s) with 400 in Spanish', async (_what, mangle) => {
    const before = await brandingRows();
    const body = multipart([
      { name: 'logo', filename: 'logo.png', type: 'image/png', data: tinyPng() },
    ]);
    // A mangled multipart body, which the typed client never sends: sent as is.
    const response = await app.t.request({
      method: 'POST',
      url: '/api/logo',
      as: app.as,
      headers: body.headers,
      payload: mangle(body.payload),
    });
    expect(response.statusCode).toBe(400);
    expect(failureOf(response)).toMatchObject({
      code: 'invalid_input',
      message: MSG.invalidUpload,
    });
    expect(await brandingRows()).toEqual(before);
  });
});
